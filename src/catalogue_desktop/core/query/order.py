"""The order a query asks for (``sort:fee``, ``sort:-starts``): a table's matching rows sorted by
a field, rows without a value last, ties in the table's order.

A field of a course's locations (a series' sessions) sorts a course by its matching locations:
the lowest fee (``sort:fee``), the highest (``sort:-fee``), the soonest start ... of the locations
that satisfied the query (``Outcome.child_bits``), else of all its locations.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from catalogue_desktop.core.query import bits
from catalogue_desktop.core.query.fields import SCHEMA, FieldType
from catalogue_desktop.core.query.folding import fold
from catalogue_desktop.core.query.table import Table, money, parse_date


def ordered(table: Table, rows_bits: int, sort: str | None, child_bits: int = 0) -> list[int]:
    """The rows of ``rows_bits`` in the order ``sort`` asks (``fee`` or ``-fee``); in the table's
    order when there is none or the table lacks the field."""
    rows = bits.to_rows(rows_bits, table.n)
    if not sort:
        return rows
    descending = sort.startswith("-")
    f = SCHEMA.field(table.name, sort.lstrip("-"))
    if f is None or f.type is FieldType.PRESENCE:
        return rows
    as_key = _key_of(f.type)
    if f.scope != "record" and table.child is not None:
        child = table.child
        values = child.column(f.key)
        chosen = child_bits or child.all
        by_row: dict[int, list[Any]] = {}
        for kid in bits.to_rows(chosen, child.n):
            parent = child.parent_of[kid] if child.parent_of is not None else kid
            key = as_key(values[kid])
            if key is not None:
                by_row.setdefault(parent, []).append(key)
        pick = max if descending else min
        keys = {row: pick(found) for row, found in by_row.items()}
    else:
        values = table.column(f.key)
        keys = {row: k for row in rows if (k := as_key(values[row])) is not None}
    present = [r for r in rows if r in keys]
    present.sort(key=keys.__getitem__, reverse=descending)  # (stable: ties keep the table's order)
    return present + [r for r in rows if r not in keys]


def _key_of(kind: FieldType) -> Callable[[Any], Any]:
    if kind is FieldType.DATE:
        return lambda v: parsed[1] if (parsed := parse_date(v)) else None
    if kind in (FieldType.MONEY, FieldType.NUMBER, FieldType.ID):
        return money
    if kind is FieldType.BOOL:
        return lambda v: v if isinstance(v, bool) else None
    return lambda v: fold(str(v)) if v not in (None, "") and not isinstance(v, list) else None
