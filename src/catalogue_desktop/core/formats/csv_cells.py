"""Spreadsheet cells: CSV files, the window's copied rows (TSV) and the e-mail text.

OWASP's rule against formula injection: a text cell that begins with ``=``, ``+``, ``-``, ``@``,
a tab or a carriage return is prefixed with ``'`` (a spreadsheet then shows it as text, and the
quote is the sign that it was touched); a plain number ("-12", "-0.5") is left as it is, since a
spreadsheet reads it as a number, not a formula. A cell holding the separator, a double quote, CR
or LF is quoted (RFC 4180: quotes doubled): a bare CR never splits a record into two rows
(Python's ``csv.writer`` quotes only the characters of its own line terminator).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, TextIO

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
_PLAIN_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")


def inert(text: str) -> str:
    """``text`` as a cell no spreadsheet evaluates (OWASP: ``'`` before a formula's start)."""
    if text.startswith(FORMULA_STARTS) and _PLAIN_NUMBER.fullmatch(text) is None:
        return "'" + text
    return text


def quoted(text: str, separator: str = ",") -> str:
    """One cell as CSV writes it: quoted when it holds the separator, a quote, CR or LF."""
    if separator in text or '"' in text or "\n" in text or "\r" in text:
        return '"' + text.replace('"', '""') + '"'
    return text


def row_text(cells: Iterable[Any], separator: str = ",") -> str:
    """One record as a CSV line (no line end): every cell made ``inert``, then ``quoted``."""
    return separator.join(quoted(inert("" if c is None else str(c)), separator) for c in cells)


class CsvWriter:
    """``csv.writer``'s ``writerow`` with this module's rules; lines end with ``line_end``."""

    def __init__(self, out: TextIO, *, separator: str = ",", line_end: str = "\n") -> None:
        self.out = out
        self.separator = separator
        self.line_end = line_end

    def writerow(self, cells: Iterable[Any]) -> None:
        self.out.write(row_text(cells, self.separator) + self.line_end)
