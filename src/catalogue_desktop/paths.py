"""Where the bundled resources live: PyInstaller bundle, installed wheel or source checkout.

Stdlib only, so that any layer (core, demo, ui, CLI) can import it cheaply.
"""

from __future__ import annotations

import sys
from pathlib import Path

__all__ = ["resource_dir", "resource_path"]

_PACKAGE_DIR = Path(__file__).resolve().parent


def _candidates() -> list[Path]:
    found: list[Path] = []
    bundle = getattr(sys, "_MEIPASS", None)
    if bundle:  # PyInstaller: data files are unpacked below sys._MEIPASS
        found.append(Path(bundle) / "resources")
    # Installed wheel: pyproject force-includes resources/ as catalogue_desktop/resources.
    found.append(_PACKAGE_DIR / "resources")
    # Source checkout (editable install): <repo>/src/catalogue_desktop/paths.py -> <repo>/resources.
    found.append(_PACKAGE_DIR.parent.parent / "resources")
    return found


def resource_dir() -> Path:
    """The ``resources`` directory; raises ``FileNotFoundError`` if no layout provides one."""
    candidates = _candidates()
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    tried = ", ".join(str(c) for c in candidates)
    raise FileNotFoundError(f"resources directory not found (tried {tried})")


def resource_path(*parts: str) -> Path:
    """A path below the resources directory, e.g. ``resource_path("demo", "webinars.json")``."""
    return resource_dir().joinpath(*parts)
