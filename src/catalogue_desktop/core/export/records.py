"""Export a stored collection, offline, as CSV (for spreadsheets) or JSON (records as stored).

CSV has a header row with the spec's field names and carries everything the JSON export carries:
dates are UTC ISO 8601 text and fees plain numbers, so columns sort as they should; lists of
references to other collections (experts, topics, roles, situations) are readable ``; ``-joined
names or titles; nested records that live only inside their parent (a course's locations and
schedule, a certificate's levels, a series' sessions) and unknown extra fields that hold lists or
objects are JSON text - the same objects, field for field, as the JSON export, one item per line.
Cells are written by ``formats.csv_cells`` (inert to spreadsheets, quoted when they hold a line
break: one record, one row) and fees by ``formats.numbers`` (no exponent).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Iterator
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, TextIO

from pydantic import ValidationError

from catalogue_desktop.core.cache.location import never_synced
from catalogue_desktop.core.cache.store import Entry, Store
from catalogue_desktop.core.formats.csv_cells import CsvWriter
from catalogue_desktop.core.formats.numbers import plain_number
from catalogue_desktop.core.records.decode import MODELS, decode_record
from catalogue_desktop.core.records.errors import CatalogueError
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.records.models import Record

# Lists of records that stand for records of other collections: named, not copied, in CSV.
REFERENCE_FIELDS = frozenset({"experts", "topics", "roles", "situations"})


class NothingToExport(CatalogueError):
    """The collection was never synced into this store."""


def export_collection(
    store: Store,
    kind: Kind,
    fmt: str,
    out: TextIO,
    positions: Collection[int] | None = None,
    *,
    demo: bool = False,
) -> int:
    """Write ``kind``'s current snapshot to ``out`` (only the records at ``positions``, the
    store's array positions, when given: ``core.searches.stored.select``, in their order); returns
    the number of records written. ``demo``: ``store`` is the demo catalogue's (it only changes
    what a "never synced" says)."""
    if not store.state(kind).has_data:
        raise NothingToExport(never_synced(kind, store.path, demo=demo))
    entries = store.entries(kind)
    if positions is not None:
        chosen = set(positions)
        entries = (e for e in entries if e.pos in chosen)
        listed = list(positions)
        if listed != sorted(listed):  # the order a query asks (sort:fee), not the store's
            rank = {pos: i for i, pos in enumerate(listed)}
            entries = iter(sorted(entries, key=lambda e: rank[e.pos]))
    if fmt == "json":
        return _export_json(entries, out)
    return _export_csv(kind, entries, out)


def _export_json(entries: Iterable[Entry], out: TextIO) -> int:
    count = 0
    out.write("[")
    for entry in entries:
        out.write(",\n" if count else "\n")
        out.write(entry.data.decode())
        count += 1
    out.write("\n]\n")
    return count


def _export_csv(kind: Kind, entries: Iterable[Entry], out: TextIO) -> int:
    fields = [(name, info.alias or name) for name, info in MODELS[kind].model_fields.items()]
    records = list(_decodable(kind, entries))
    extras = list(dict.fromkeys(k for r in records for k in (r.model_extra or {})))
    writer = CsvWriter(out)
    writer.writerow([alias for _, alias in fields] + extras)
    for record in records:
        extra = record.model_extra or {}
        writer.writerow(
            [cell(getattr(record, name), names=name in REFERENCE_FIELDS) for name, _ in fields]
            + [cell(extra.get(k)) for k in extras]
        )
    return len(records)


def _decodable(kind: Kind, entries: Iterable[Entry]) -> Iterator[Record]:
    """The entries' records; one stored before a rule that now rejects it (a date outside
    years 1-9999) is left out of the CSV (the JSON export writes it as stored)."""
    for entry in entries:
        try:
            yield decode_record(kind, entry.data)
        except ValidationError:
            continue


def cell(value: object, *, names: bool = False) -> str:
    """One CSV cell: plain, sortable text; a list of records as ``; ``-joined ``names`` (their
    names or titles), else as JSON (see the module's docstring)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(value, (int, Decimal)):
        return plain_number(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        if names:
            return "; ".join(label(item) for item in value)
        return json_lines(value)
    if isinstance(value, (dict, Record)):
        return json_lines([value])[1:-1]
    return str(value)


def json_lines(items: list[Any]) -> str:
    """A JSON array with one item per line: nested records as the JSON export writes them."""
    parts = [json.dumps(_plain(item), ensure_ascii=False) for item in items]
    return "[" + ",\n ".join(parts) + "]"


def _plain(item: object) -> Any:
    if isinstance(item, Record):
        return item.model_dump(mode="json", by_alias=True)
    return item


def label(item: Record) -> str:
    """A referenced record in words: its name or title (an expert's title is the job), else its id."""
    for attr in ("name", "title"):
        text = getattr(item, attr, None)
        if text:
            return str(text)
    return _ids(item)


def _ids(item: Record) -> str:
    for name, value in item.__dict__.items():
        if name.endswith("id") and isinstance(value, int):
            return f"#{value}"
    return str(item)


def formats() -> Iterable[str]:
    return ("csv", "json")
