"""What the window remembers that the command line uses too, read without Qt: the settings file
the window writes (``ui.common.settings``: QSettings, INI format, user scope), found where Qt puts
it — ``$XDG_CONFIG_HOME`` (else ``~/.config``) on Linux and macOS, ``%APPDATA%`` on Windows — as
``catalogue-desktop/catalogue-desktop.ini``. Read only; a missing or broken file reads as empty.
"""

from __future__ import annotations

import configparser
import os
import sys
from dataclasses import replace
from pathlib import Path

from catalogue_desktop.cli.output import say
from catalogue_desktop.core.offers.sheet import Letterhead

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
    return _unescaped(found) or None


_ESCAPES = {"\\\\": "\\", '\\"': '"', "\\n": "\n", "\\t": "\t", "\\r": "\r", "\\0": "\0"}


def _unescaped(text: str) -> str:
    """A value as QSettings wrote it, its escapes read: ``\\\\``, ``\\"``, ``\\n``, ``\\xHHHH``."""
    import re

    def one(match: re.Match[str]) -> str:
        found = match[0]
        if found.startswith("\\x"):
            return chr(int(found[2:], 16))
        return _ESCAPES.get(found, found[1:])

    return re.sub(r"\\x[0-9a-fA-F]{1,4}|\\.", one, text)


def currency() -> str | None:
    """The fees' currency the window remembers (Preferences, or asked at the first offer) as an
    ISO 4217 code (``core.formats.currencies``); a value that is none ("DOLLARS", control
    characters) is left out, with a note on stderr."""
    from catalogue_desktop.core.formats import currencies

    found = value("display", "currency")
    if found is None:
        return None
    reading = currencies.read(found if found.isprintable() else "?")
    if reading.code is not None:
        return reading.code
    say(
        f"catalogue-desktop: {settings_path()}: display/currency = {found[:60]!r} is not a currency "
        f"code; none is used (Preferences ▸ General sets one)",
        sys.stderr,
    )
    return None


def offers_value(key: str) -> str:
    """``offers/KEY`` as the window keeps it (``ui.offers.offer_settings``), or ""."""
    found = value("offers", key)
    return found if found is not None and found.isprintable() else ""


def letterhead() -> Letterhead:
    """The seller's letterhead from Preferences ▸ Offers; a logo that cannot be one
    (``core.offers.sheet.logo_problem``) is left out, with a note on stderr."""
    from catalogue_desktop.core.offers.sheet import LETTERHEAD_KEYS, logo_problem

    head = Letterhead(**{key: offers_value(f"seller_{key}") for key in LETTERHEAD_KEYS})
    problem = logo_problem(head.logo) if head.logo else None
    if problem is None:
        return head
    say(f"catalogue-desktop: {problem}", sys.stderr)
    return replace(head, logo="")


def offer_times() -> str | None:
    """How offers give a course time written in an offset not its venue's zone's, as the seller
    chose in the window (``core.offers.offer.TIMES``), or None if never chosen."""
    from catalogue_desktop.core.offers.offer import TIMES

    found = offers_value("times")
    return found if found in TIMES else None


def customer_zone() -> str | None:
    """The zone online times are given in for customers, as last picked in the window."""
    return offers_value("customer_zone") or None
