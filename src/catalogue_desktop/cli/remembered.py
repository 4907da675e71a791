"""What the window remembers that the command line uses too, read without Qt: the settings file
the window writes (``ui.common.settings``: QSettings, INI format, user scope), found where Qt puts
it — ``$XDG_CONFIG_HOME`` (else ``~/.config``) on Linux and macOS, ``%APPDATA%`` on Windows — as
``catalogue-desktop/catalogue-desktop.ini``. Read only; a missing or broken file reads as empty.
"""

from __future__ import annotations

import configparser
import os
import sys
from pathlib import Path

from catalogue_desktop.cli.output import say

ORG = APP = "catalogue-desktop"


def settings_path() -> Path:
    if sys.platform == "win32":
        base = Path(os.environ.get("APPDATA") or Path.home() / "AppData" / "Roaming")
    else:
        base = Path(os.environ.get("XDG_CONFIG_HOME") or Path.home() / ".config")
    return base / ORG / f"{APP}.ini"


def value(section: str, key: str, path: Path | None = None) -> str | None:
    """The remembered ``section/key`` (as QSettings writes it), or None."""
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    try:
        parser.read(path or settings_path(), encoding="utf-8")
        found = parser.get(section, key, fallback=None)
    except (configparser.Error, OSError, UnicodeDecodeError):
        return None
    if found is None:
        return None
    found = found.strip()
    if len(found) >= 2 and found[0] == found[-1] == '"':
        found = found[1:-1]
    return found or None


def currency() -> str | None:
    """The fees' currency the window remembers (Preferences, or asked at the first offer); a
    value that cannot be one (longer than 8 characters, control characters) is left out, with
    a note on stderr."""
    found = value("display", "currency")
    if found is None or (len(found) <= 8 and found.isprintable()):
        return found
    say(
        f"catalogue-desktop: {settings_path()}: display/currency = {found[:60]!r} is not a currency; "
        "none is used",
        sys.stderr,
    )
    return None
