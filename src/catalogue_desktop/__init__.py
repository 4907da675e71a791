"""Catalogue Desktop: browse the seminar catalogue, online or from the local cache."""

from typing import Any


def __getattr__(name: str) -> Any:
    # ``__version__`` is read from the installed metadata on first use only: importlib.metadata costs a
    # start-up noticeably (docs/decisions.md, "Start-up and Qt"), and the window does not need the version to
    # show its rows.
    if name == "__version__":
        from importlib.metadata import PackageNotFoundError, version

        try:
            value = version("catalogue-desktop")
        except PackageNotFoundError:  # pragma: no cover - running from a bare source tree
            value = "0.0.0+unknown"
        globals()["__version__"] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
