"""Webinars of an on-demand type in a table: "On demand · recorded 3/9/26" where the start would
be and nothing where the end would be — never a past start that looks like a missed event. A
series whose sessions are all on demand: "On demand" where its first session would be (its First
and Last session cells skip on-demand sessions: ``core.listing.series_dates``).

Which codes mean on demand is the user's choice (Preferences), read from the formatter's
vocabulary on every call, so a change shows at the next repaint.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from catalogue_desktop.core.listing import series_dates
from catalogue_desktop.core.listing.rows import COLUMNS, column_index, zone
from catalogue_desktop.core.records.kinds import Kind, ListKind

if TYPE_CHECKING:
    from catalogue_desktop.ui.common.formatting import Formatter


class OnDemandCells:
    """The date cells of on-demand rows of one kind (webinars, and series of on-demand sessions)."""

    def __init__(self, kind: ListKind, formatter: Formatter) -> None:
        self.kind = kind
        self.formatter = formatter
        self.applies = kind in (Kind.WEBINARS, Kind.SERIES)
        self._series = kind is Kind.SERIES
        keys = {c.key for c in COLUMNS[kind]}
        wanted = ("type", "start", "end", "produced")
        index = {key: column_index(kind, key) for key in wanted if key in keys}
        self._type = index.get("type")
        self._start = index.get("start")
        self._end = index.get("end")
        self._production = index.get("produced")

    def text(self, row: Sequence[Any], column: int) -> str | None:
        """The text of date ``column`` of an on-demand ``row``; None for any other cell."""
        if self._series:
            if column not in (series_dates.FIRST, series_dates.LAST):
                return None
            if not series_dates.only_on_demand(row, self.formatter.on_demand):
                return None
            return self.formatter.on_demand_text() if column == series_dates.FIRST else ""
        if not self.applies or column not in (self._start, self._end) or self._type is None:
            return None
        if not self.formatter.on_demand(row[self._type]):
            return None
        if column == self._end:
            return ""
        recorded = self._production if self._production is not None and row[self._production] else column
        return self.formatter.on_demand_text(row[recorded], zone(self.kind, row, recorded))
