"""A workbook (.xlsx) written with XlsxWriter: typed cells that sort and sum as they should, for
every spreadsheet the app writes (``core.export.spreadsheet``: a collection's records;
``core.offers.workbook``: an offer). Qt-free.

* dates as spreadsheet dates (the wall-clock time given: a spreadsheet date has no zone, so the
  writer of the sheet puts the zone in a column of its own);
* fees as numbers in the currency's format (``"USD" #,##0``; decimals kept: ``#,##0.00``);
* web links as hyperlinks by the one link rule (``core.formats.links``: http and https only, no user
  part, no whitespace, control, bidi or invisible character, at most 2,079 characters); others as
  text. A sheet holds at most 65,530 links (Excel's limit; past it XlsxWriter leaves the cells
  empty with a warning): the rest are written as text, and the About sheet says how many
  (``Book.notes``, for the command's message too); no library warning reaches stderr;
* booleans as Yes / No; lists of names joined with "; "; nested records as JSON text;
* text always as text (``write_string``: never read as a formula, whatever it begins with);
* a bold, frozen header row with a filter, columns as wide as their content (measured on the
  first rows, capped), and the data's age on a second sheet, "About".
"""

from __future__ import annotations

import io
import json
import warnings
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any

import xlsxwriter  # type: ignore[import-untyped]
from xlsxwriter.worksheet import Worksheet  # type: ignore[import-untyped]

from catalogue_desktop.core.formats.links import web_link
from catalogue_desktop.core.formats.numbers import is_number, plain_number, within_reason

MAX_LINKS = 65_530  # Excel's most hyperlinks on one sheet (XlsxWriter leaves the cells empty past it)
MAX_TEXT = 32767  # Excel's longest cell text
MEASURED_ROWS = 200  # column widths from the header and this many rows
_BIGGEST = Decimal("1e15")  # past this a spreadsheet's number loses digits: written as text
_EXCEL_EPOCH, _EXCEL_END = datetime(1900, 3, 1), datetime(9999, 12, 31)


class Column:
    """One column: its header, what kind of cell it holds, and how a value becomes that cell."""

    def __init__(self, head: str, kind: str, get: Callable[[Any], Any]) -> None:
        self.head = head
        self.kind = kind  # text, number, money, date, zone, bool, url
        self.get = get


class Book:
    """A workbook in memory with the formats its cells need."""

    def __init__(self, title: str, currency: str | None = None, max_links: int = MAX_LINKS) -> None:
        self.data = io.BytesIO()
        self.max_links = max_links  # hyperlinks per sheet (MAX_LINKS; fewer in a test, not more)
        self.book = xlsxwriter.Workbook(
            self.data, {"in_memory": True, "strings_to_formulas": False, "strings_to_urls": False}
        )
        self.book.set_properties({"title": title, "comments": "Written by Catalogue Desktop"})
        self.head = self.book.add_format({"bold": True, "bg_color": "#E8E8E8", "bottom": 1})
        self.date = self.book.add_format({"num_format": "yyyy-mm-dd hh:mm"})
        self.link = self.book.add_format({"font_color": "#0645AD", "underline": 1})
        self.wrap = self.book.add_format({"text_wrap": True, "valign": "top"})
        code = (currency or "").replace('"', "").replace("\\", "").strip()[:8]
        prefix = f'"{code}" ' if code.isalpha() else f'"{code}"' if code else ""
        self.money = self.book.add_format({"num_format": f"{prefix}#,##0"})
        self.money_cents = self.book.add_format({"num_format": f"{prefix}#,##0.00"})
        self.notes: list[str] = []  # what the reader is to know (links past the limit), also on About
        self._links = 0  # links on the sheet being written
        self._plain_links = 0  # web links past ``max_links`` there, written as text

    def sheet(self, name: str, columns: Sequence[Column], rows: Iterable[Any]) -> int:
        """A sheet of ``rows`` (each column's ``get`` reads one row); returns the rows written."""
        ws = self.book.add_worksheet(name[:31])
        self._links = self._plain_links = 0
        widths = [len(c.head) for c in columns]
        for col, c in enumerate(columns):
            ws.write_string(0, col, c.head, self.head)
        n = 0
        cells = [(col, c.kind, c.get) for col, c in enumerate(columns)]
        write = self._cell
        for n, row in enumerate(rows, start=1):
            if n <= MEASURED_ROWS:
                for col, kind, get in cells:
                    shown = write(ws, n, col, kind, get(row), True)
                    if shown > widths[col]:
                        widths[col] = shown
            else:
                for col, kind, get in cells:
                    write(ws, n, col, kind, get(row), False)
        for col, width in enumerate(widths):
            ws.set_column(col, col, min(max(width + 2, 8), 60))
        ws.freeze_panes(1, 0)
        if n:
            ws.autofilter(0, 0, n, len(columns) - 1)
        if self._plain_links:
            self.notes.append(
                f"{ws.name}: {self._plain_links:,} links past the {self.max_links:,} a sheet can hold "
                "are written as plain text."
            )
        return n

    def about(self, lines: Sequence[str]) -> None:
        ws = self.book.add_worksheet("About")
        ws.set_column(0, 0, 100)
        for i, line in enumerate([*lines, *self.notes]):
            ws.write_string(i, 0, line[:MAX_TEXT])

    def close(self) -> bytes:
        self.book.close()
        return self.data.getvalue()

    def _cell(self, ws: Worksheet, row: int, col: int, kind: str, value: object, measure: bool) -> int:
        """Write one cell; returns its width in characters (about) when ``measure``."""
        if value is None or value == "" or value == []:
            return 0
        if type(value) is str and kind in ("text", "url"):
            if kind != "url" or web_link(value) is None or not self._link(ws, row, col, value):
                ws.write_string(row, col, value[:MAX_TEXT])
            return _width(value) if measure else 0
        if kind == "date" and isinstance(value, datetime):
            wall = value.replace(tzinfo=None)
            if _EXCEL_EPOCH <= wall <= _EXCEL_END:
                ws.write_datetime(row, col, wall, self.date)
                return 16
            value = value.isoformat()
        elif kind == "bool" and isinstance(value, bool):
            ws.write_string(row, col, "Yes" if value else "No")
            return 3
        elif kind in ("money", "number") and is_number(value):
            number: int | Decimal = value if type(value) is int else Decimal(str(value))
            if within_reason(number) and abs(Decimal(number)) < _BIGGEST:
                cents = type(number) is Decimal and number != number.to_integral_value()
                style = (self.money_cents if cents else self.money) if kind == "money" else None
                ws.write_number(row, col, number if type(number) is int else float(number), style)
                return len(f"{number:,}") + (6 if kind == "money" else 0)
        text = _text(value)[:MAX_TEXT]
        ws.write_string(row, col, text)
        return _width(text) if measure else 0

    def _link(self, ws: Worksheet, row: int, col: int, url: str) -> bool:
        """Write a web link as a hyperlink; False when it is to be text: past the sheet's link
        limit, or refused by XlsxWriter (a warning, or ValueError, made a refusal: none is shown)."""
        if self._links >= self.max_links:
            self._plain_links += 1
            return False
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                written = bool(ws.write_url(row, col, url, self.link, string=url) == 0)
            except (Warning, ValueError):
                written = False
        self._links += written
        return written


def _width(text: str) -> int:
    return min(max((len(line) for line in text.splitlines()), default=0), 60)


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "Yes" if value else "No"
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        if all(isinstance(v, str) for v in value):
            return "; ".join(value)
        return json.dumps(value, ensure_ascii=False, default=str)
    if isinstance(value, dict):
        return json.dumps(value, ensure_ascii=False, default=str)
    return plain_number(value)
