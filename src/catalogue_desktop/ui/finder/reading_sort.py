"""The order a reading asked for ("cheapest first": ``sort:fee``) as a tab's column and direction.

``Reading.sort`` names a field, ``-`` before it (or ``-desc`` after it) for the other way round:
``fee`` cheapest first, ``-fee`` most expensive first, ``start`` soonest first, ``-start`` latest
first. A date field sorts a tab by the date column its default order is by (Courses: next date).
"""

from __future__ import annotations

from PySide6.QtCore import Qt

from catalogue_desktop.core.listing.rows import COLUMNS, START_COLUMN
from catalogue_desktop.core.records.kinds import OCCASIONS, ListKind

_DATES = frozenset({"start", "starts", "date", "dates", "when", "next", "first"})


def sort_column(kind: ListKind, sort: str) -> tuple[int, Qt.SortOrder] | None:
    """``kind``'s column and order for ``sort`` (None: its tab has no such column)."""
    field = sort.strip().lower()
    descending = field.startswith("-") or field.endswith(("-desc", ":desc", " desc"))
    field = field.lstrip("-+").removesuffix("-desc").removesuffix(":desc").removesuffix(" desc").strip()
    field = field.removesuffix("-asc").removesuffix(":asc").strip()
    if field in _DATES:
        field = "start" if kind is OCCASIONS else START_COLUMN.get(kind, field)
    keys = [c.key for c in COLUMNS.get(kind, ())]
    if field not in keys:
        return None
    order = Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder
    return keys.index(field), order
