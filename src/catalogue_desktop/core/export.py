"""Export a stored collection, offline, as CSV (for spreadsheets) or JSON (records as stored).

CSV has a header row with the spec's field names; nested lists become readable ``; ``-joined
titles or names; dates are UTC ISO 8601 text and fees plain numbers, so columns sort as they should.
"""

from __future__ import annotations

import csv
from collections.abc import Collection, Iterable
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any, TextIO

from catalogue_desktop.core.decode import MODELS, decode_record
from catalogue_desktop.core.errors import CatalogueError
from catalogue_desktop.core.kinds import Kind
from catalogue_desktop.core.store import Entry, Store


class NothingToExport(CatalogueError):
    """The collection was never synced into this store."""


def export_collection(store: Store, kind: Kind, fmt: str, out: TextIO,
                      positions: Collection[int] | None = None) -> int:
    """Write ``kind``'s current snapshot to ``out`` (only the records at ``positions``, the
    store's array positions, when given: ``core.finding.select``); returns the number of records
    written."""
    if not store.state(kind).has_data:
        raise NothingToExport(
            f"{kind.value} were never synced into {store.path}; run 'catalogue-desktop sync' first"
        )
    entries = store.entries(kind)
    if positions is not None:
        chosen = set(positions)
        entries = (e for e in entries if e.pos in chosen)
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
    records = [decode_record(kind, entry.data) for entry in entries]
    extras = list(dict.fromkeys(k for r in records for k in (r.model_extra or {})))
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([alias for _, alias in fields] + extras)
    for record in records:
        extra = record.model_extra or {}
        writer.writerow(
            [cell(getattr(record, name)) for name, _ in fields] + [cell(extra.get(k)) for k in extras]
        )
    return len(records)


def cell(value: Any) -> str:
    """One CSV cell: plain, sortable text."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    if isinstance(value, (int, Decimal, str)):
        return str(value)
    if isinstance(value, list):
        return "; ".join(label(item) for item in value)
    return str(value)


def label(item: Any) -> str:
    """A nested record in words: its title or name, a location as venue/city and date."""
    if hasattr(item, "venue") or hasattr(item, "city"):
        place = ", ".join(p for p in (item.venue, item.city, item.state) if p)
        when = cell(item.start_date)[:10] if item.start_date else ""
        return " ".join(p for p in (place, when) if p) or f"location {item.location_id}"
    for attr in ("name", "title"):  # an expert's title is the job, the name is the person
        text = getattr(item, attr, None)
        if text:
            return str(text)
    if hasattr(item, "day"):  # a Schedule entry without a title
        return f"day {item.day} {item.start_time or ''}-{item.end_time or ''}".strip()
    return _ids(item)


def _ids(item: Any) -> str:
    for name, value in item.__dict__.items():
        if name.endswith("id") and isinstance(value, int):
            return f"#{value}"
    return str(item)


def formats() -> Iterable[str]:
    return ("csv", "json")
