"""What a course's (or series') row shows under a query on its locations (sessions): the matching
location's date, city and fee, not the course's earliest date elsewhere; a series' first and last
matching sessions. The columns say so in their headings ("Matching date", "First matching
session"): the same heading never means two things.

``ChildOverlay.values(row)`` gives, for a row whose locations matched, the values to show instead
of the row's own, by column: made for the rows the view paints, and remembered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeGuard

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.listing.rowset import Rows
from catalogue_desktop.core.query.table import Table, parse_date
from catalogue_desktop.core.records.field_registry import fact_keys
from catalogue_desktop.core.records.kinds import Kind, ListKind

# The child rows' keys by field name (the registry's: ``starts`` is ``startDate``).
_LOCATION, _SESSION = fact_keys("courses", "location"), fact_keys("series", "session")
# kind -> (column key, child column, what): what the row shows from the matched child row
_SHOWN = {
    Kind.COURSES: (
        ("next", _LOCATION["starts"], "date"),
        ("last", _LOCATION["ends"], "date"),
        ("cities", _LOCATION["city"], "text"),
        ("fee", _LOCATION["fee"], "range"),
    ),
    Kind.SERIES: (("first", _SESSION["starts"], "date"), ("last", _SESSION["starts"], "date")),
}
# kind -> the child rows' start column (the matching occasion is picked by it)
_STARTS = {Kind.COURSES: _LOCATION["starts"], Kind.SERIES: _SESSION["starts"]}
# kind -> column key -> its heading while the column shows the matched child rows' values
HEADINGS = {
    Kind.COURSES: {
        "next": "Matching date",
        "last": "Matching date ends",
        "cities": "Matching city",
        "fee": "Matching fee",
    },
    Kind.SERIES: {"first": "First matching session", "last": "Last matching session"},
}


class ChildOverlay:
    """The matched child rows of a result, shown in their parents' rows."""

    def __init__(
        self, kind: Kind, table: Table, child_bits: int, now_ms: int, on_demand: Callable[[object], bool]
    ) -> None:
        self._kind = kind
        self._on_demand = on_demand  # whether a session's type code is on demand (Preferences)
        self._table = table
        self._bits = child_bits
        self._now_ms = now_ms
        self._columns = [(column_index(kind, key), child, what) for key, child, what in _SHOWN[kind]]
        self._known: dict[int, dict[int, tuple[Any, int | None]] | None] = {}

    @staticmethod
    def applies(kind: ListKind) -> TypeGuard[Kind]:
        """Whether ``kind``'s rows show their matched child rows (a collection's, not the Dates')."""
        return kind in _SHOWN

    def heading(self, column: int) -> str | None:
        """``column``'s heading while it shows matched values (None: its own heading)."""
        headings = HEADINGS[self._kind]
        for index, (key, _child, _what) in zip(self._columns, _SHOWN[self._kind], strict=True):
            if index[0] == column:
                return headings.get(key)
        return None

    def ordered(self, rows: list[int], column: int, descending: bool, own: Rows) -> list[int]:
        """``rows`` (ordered by their records' own values of ``column``) ordered by the values the
        rows show there, when ``column`` shows matched ones (blanks last): a course sorted by date
        under ``city:dallas`` lists its Dallas dates in order, not its next dates'; ``own``: the
        rows' own values (the row set's rows)."""
        if all(index != column for index, _key, _what in self._columns):
            return rows

        def shown(row: int) -> Any:
            values = self.values(row)
            return values[column][0] if values and column in values else own[row][column]

        keys = {row: shown(row) for row in rows}
        present = [row for row in rows if keys[row] is not None]
        try:
            present.sort(key=keys.__getitem__, reverse=descending)
        except TypeError:  # (values of other types the spec did not foresee: as they were)
            return rows
        return present + [row for row in rows if keys[row] is None]

    def values(self, row: int) -> dict[int, tuple[Any, int | None]] | None:
        """Column -> (value, UTC offset of a date) for ``row``, or None (its own values)."""
        if row in self._known:
            return self._known[row]
        child = self._table.child
        found = None
        if child is not None and row < self._table.n:
            hits = [c for c in self._table.children_of(row) if (self._bits >> c) & 1]
            if hits and self._kind is Kind.SERIES:
                found = self._first_and_last(child, hits)
            elif hits:
                found = self._shown(child, self._pick(child, hits))
        self._known[row] = found
        return found

    def _pick(self, child: Table, hits: list[int]) -> int:
        """The next matching occasion from now, else the last one."""
        starts = child.column(_STARTS[self._kind])
        dated = sorted((m[1], c) for c in hits if (m := parse_date(starts[c])) is not None)
        upcoming = [c for ms, c in dated if ms >= self._now_ms]
        return upcoming[0] if upcoming else (dated[-1][1] if dated else hits[0])

    def _first_and_last(self, child: Table, hits: list[int]) -> dict[int, tuple[Any, int | None]]:
        """A series' first and last matching sessions' starts (its columns' meaning, among the
        sessions that match): never an on-demand session, whose start is when it was recorded
        (as the series' own First and Last session: ``core.listing.series_dates``); blank when
        only on-demand sessions match."""
        types = child.column(_SESSION["type"])
        kept = [c for c in hits if not self._on_demand(types[c])]
        starts = child.column(_STARTS[self._kind])
        dated = sorted((m[1], c) for c in kept if (m := parse_date(starts[c])) is not None)
        (first, _key, _what), (last, _key2, _what2) = self._columns
        if not dated:
            return {first: (None, None), last: (None, None)} if len(kept) < len(hits) else {}
        return {first: _moment(starts[dated[0][1]]), last: _moment(starts[dated[-1][1]])}

    def _shown(self, child: Table, c: int) -> dict[int, tuple[Any, int | None]]:
        out: dict[int, tuple[Any, int | None]] = {}
        for column, key, what in self._columns:
            value = child.column(key)[c]
            if what == "date":
                out[column] = _moment(value)
            elif what == "range":
                out[column] = (None if value is None else [value, value], None)
            else:
                out[column] = (value, None)
        return out


def _moment(text: object) -> tuple[int | None, int | None]:
    from datetime import UTC, datetime

    if not isinstance(text, str):
        return None, None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None, None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    delta = moment.utcoffset()
    return int(moment.timestamp() * 1000), None if delta is None else int(delta.total_seconds()) // 60
