"""A collection's records as a spreadsheet (.xlsx, ``core.formats.xlsx_book``: typed cells): one
column per spec field, a date's zone in the column after it (a spreadsheet date has no zone: the
location's zone on that date, "CST", where a record names its state and the written offset is
that zone's, else the offset, "UTC−05:00"), then the unknown extra fields; the data's age on the
"About" sheet. An offer's spreadsheet is ``core.offers.workbook``'s. Qt-free.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime
from decimal import Decimal
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from catalogue_desktop.core.formats.xlsx_book import MAX_LINKS as MAX_LINKS
from catalogue_desktop.core.formats.xlsx_book import Book as Book
from catalogue_desktop.core.formats.xlsx_book import Column as Column
from catalogue_desktop.core.records.zones import check as zone_check
from catalogue_desktop.core.records.zones import offset_label

if TYPE_CHECKING:
    from catalogue_desktop.core.records.kinds import Kind
    from catalogue_desktop.core.records.models import Record


@lru_cache(maxsize=4096)
def zone_text(moment: object, state: str | None = None) -> str | None:
    """A date's zone as its own column: the location's zone when the written offset is that
    zone's ("CST"), else the written offset ("UTC−08:00")."""
    if not isinstance(moment, datetime) or moment.utcoffset() is None:
        return None
    delta = moment.utcoffset()
    minutes = int(delta.total_seconds()) // 60 if delta is not None else 0
    found = zone_check(moment, state) if state else None
    if found is not None and found.ok:
        return found.abbreviation
    return offset_label(minutes)


# -- what is written ---------------------------------------------------------------------------


def collection_xlsx(
    kind: Kind,
    records: Sequence[Record],
    about: Sequence[str],
    currency: str | None,
    notes: list[str] | None = None,
    max_links: int = MAX_LINKS,
) -> bytes:
    """A collection's records (decoded models of ``kind``) as a workbook: one column per spec
    field (a date's zone in the column after it), then the unknown extra fields. ``notes`` gets
    what the About sheet tells beyond ``about`` (links written as text past ``max_links``, Excel's
    limit unless a test lowers it)."""
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
    book = Book(f"Catalogue: {kind.value}", currency, max_links)
    book.sheet(kind.value.capitalize(), columns, records)
    book.about(about)
    if notes is not None:
        notes.extend(book.notes)
    return book.close()


def _nested(value: Any, json_lines: Callable[[list[Any]], str]) -> str | None:
    return json_lines(value) if value else None
