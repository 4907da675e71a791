"""Spreadsheets (.xlsx) of a collection or of the occasions, written with XlsxWriter: typed cells
that sort and sum as they should. Qt-free.

* dates as spreadsheet dates (the wall-clock time as the service wrote it), their zone in the
  next column ("CST (UTC−06:00)", "UTC−05:00"): a spreadsheet date has no zone;
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
from functools import lru_cache
from typing import TYPE_CHECKING, Any

import xlsxwriter  # type: ignore[import-untyped]
from xlsxwriter.worksheet import Worksheet  # type: ignore[import-untyped]

from catalogue_desktop.core.formats.links import web_link
from catalogue_desktop.core.formats.numbers import is_number, plain_number, within_reason
from catalogue_desktop.core.records.zones import check as zone_check
from catalogue_desktop.core.records.zones import offset_label

if TYPE_CHECKING:
    from catalogue_desktop.core.records.kinds import Kind
    from catalogue_desktop.core.records.models import Record

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

    def __init__(self, title: str, currency: str | None = None) -> None:
        self.data = io.BytesIO()
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
        self._plain_links = 0  # web links past MAX_LINKS there, written as text

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
                f"{ws.name}: {self._plain_links:,} links past the {MAX_LINKS:,} a sheet can hold "
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

    def _cell(self, ws: Worksheet, row: int, col: int, kind: str, value: Any, measure: bool) -> int:
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
        if self._links >= MAX_LINKS:
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


@lru_cache(maxsize=4096)
def zone_text(moment: Any, state: str | None = None) -> str | None:
    """A date's zone as its own column: the location's zone and offset when the written offset
    is that zone's ("CST (UTC−06:00)"), else the written offset ("UTC−08:00")."""
    if not isinstance(moment, datetime) or moment.utcoffset() is None:
        return None
    delta = moment.utcoffset()
    minutes = int(delta.total_seconds()) // 60 if delta is not None else 0
    found = zone_check(moment, state) if state else None
    if found is not None and found.ok:
        return f"{found.abbreviation} ({offset_label(minutes)})"
    return offset_label(minutes)


def _text(value: Any) -> str:
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


# -- what is written ---------------------------------------------------------------------------


def collection_xlsx(
    kind: Kind,
    records: Sequence[Record],
    about: Sequence[str],
    currency: str | None,
    notes: list[str] | None = None,
) -> bytes:
    """A collection's records (decoded models of ``kind``) as a workbook: one column per spec
    field (a date's zone in the column after it), then the unknown extra fields. ``notes`` gets
    what the About sheet tells beyond ``about`` (links written as text past the limit)."""
    from catalogue_desktop.core.export.records import REFERENCE_FIELDS, json_lines, label
    from catalogue_desktop.core.records.decode import MODELS

    def attr(name: str) -> Callable[[Any], Any]:
        return lambda r: getattr(r, name)

    def zone_of(name: str) -> Callable[[Any], Any]:
        return lambda r: zone_text(getattr(r, name))

    def names_of(name: str) -> Callable[[Any], Any]:
        return lambda r: [label(i) for i in getattr(r, name) or ()]

    def nested_of(name: str) -> Callable[[Any], Any]:
        return lambda r: _nested(getattr(r, name), json_lines)

    def extra(key: str) -> Callable[[Any], Any]:
        return lambda r: (r.model_extra or {}).get(key)

    columns: list[Column] = []
    for name, info in MODELS[kind].model_fields.items():
        head = info.alias or name
        sample = next((v for r in records if (v := getattr(r, name, None)) is not None), None)
        if isinstance(sample, datetime):
            columns += [Column(head, "date", attr(name)), Column(f"{head} zone", "text", zone_of(name))]
        elif isinstance(sample, list):
            columns.append(
                Column(head, "text", names_of(name) if name in REFERENCE_FIELDS else nested_of(name))
            )
        else:
            cell = (
                "bool" if isinstance(sample, bool)
                else "money" if "fee" in name
                else "number" if isinstance(sample, (int, Decimal))
                else "url" if name.endswith("url")
                else "text"
            )  # fmt: skip
            columns.append(Column(head, cell, attr(name)))
    keys = list(dict.fromkeys(k for r in records for k in (r.model_extra or {})))
    columns += [Column(k, "text", extra(k)) for k in keys]
    book = Book(f"Catalogue: {kind.value}", currency)
    book.sheet(kind.value.capitalize(), columns, records)
    book.about(about)
    if notes is not None:
        notes.extend(book.notes)
    return book.close()


def _nested(value: Any, json_lines: Callable[[list[Any]], str]) -> str | None:
    return json_lines(value) if value else None


def offerings_xlsx(
    items: Sequence[Any], about: Sequence[str], currency: str | None, notes: list[str] | None = None
) -> bytes:
    """The occasions (``core.offers.occasions.Occasion``: the export sits beside the offers and
    imports nothing of them) as a workbook, one row each; ``notes`` as ``collection_xlsx``'s."""
    moment = lru_cache(maxsize=8192)(_instant)  # occasions share their hours
    columns = [
        Column("Kind", "text", lambda o: o.kind.capitalize()),
        Column("Title", "text", lambda o: o.title),
        Column("Start", "date", lambda o: moment(o.start)),
        Column("End", "date", lambda o: moment(o.end)),
        Column("Zone", "text", lambda o: zone_text(moment(o.start), o.state if o.venue or o.city else None)),
        Column("Venue", "text", lambda o: o.venue),
        Column("Address", "text", lambda o: o.address),
        Column("City", "text", lambda o: o.city),
        Column("State", "text", lambda o: o.state),
        Column("Zip", "text", lambda o: o.zip),
        Column("Fee", "money", lambda o: o.fee),
        Column("CLE", "bool", lambda o: o.cle),
        Column("CPE", "bool", lambda o: o.cpe),
        Column("Experts", "text", lambda o: o.experts),
        Column("Topics", "text", lambda o: o.topics),
        Column("Series", "text", lambda o: o.series),
        Column("On demand", "bool", lambda o: o.on_demand),
        Column("Link", "url", lambda o: o.url),
    ]
    book = Book("Offer", currency)
    book.sheet("Occasions", columns, items)
    book.about(about)
    if notes is not None:
        notes.extend(book.notes)
    return book.close()


def _instant(text: Any) -> datetime | None:
    """ISO 8601 text as an aware datetime (as the service wrote it), None if it is not one."""
    if not isinstance(text, str) or not text:
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else None
