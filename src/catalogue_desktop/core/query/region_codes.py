"""US states (with DC and the territories) and Canadian provinces and territories: their names and
postal codes, so that ``state:illinois`` finds what ``state:IL`` finds (the service writes codes).
"""

from __future__ import annotations

from catalogue_desktop.core.query.folding import fold
from catalogue_desktop.core.records.regions import CODES, spellings

_BY_NAME = {" ".join(fold(name).split()): code for name, code in spellings().items()}


def code_of(text: str) -> str | None:
    """The postal code a state's or province's name stands for (any case, accents ignored);
    None if ``text`` names none (a code itself is no name: ``IL`` gives None)."""
    return _BY_NAME.get(" ".join(fold(text).split()))


def name_of(code: str) -> str | None:
    return CODES.get(code.strip().upper())


def region_code(text: str) -> str | None:
    """The postal code ``text`` names or is (``illinois``, ``IL``, ``il``: ``IL``), or None."""
    code = text.strip().upper()
    return code if code in CODES else code_of(text)
