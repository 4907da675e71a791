"""Catalogue Desktop: browse the seminar catalogue, online or from the local cache."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("catalogue-desktop")
except PackageNotFoundError:  # pragma: no cover - running from a bare source tree
    __version__ = "0.0.0+unknown"
