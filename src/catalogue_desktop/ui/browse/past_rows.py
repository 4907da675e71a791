"""Which rows are past: an occasion whose end (else start) is before now, unless it is on demand
(bookable at any time: a webinar whose type is marked so, an on-demand row of the Dates tab).
Past rows are greyed in a colour that stays readable (``common.colors.muted``), and say so in
words in their tooltips."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from catalogue_desktop.core.listing.rows import COLUMNS, PAST_COLUMN, column_index, zone
from catalogue_desktop.core.listing.rowset import Row, Rows
from catalogue_desktop.core.records.kinds import Kind

_START_COLUMN = {Kind.WEBINARS: "start", Kind.COURSES: "next", Kind.SERIES: "first"}
_SCALARS = frozenset({str, int, float, bool, type(None)})  # type codes asked once each (``_late``)
_NUMBERS = frozenset({int, float, bool})


class PastRows:
    """Past-ness of one kind's rows, remembered per row until ``forget``."""

    def __init__(self, kind: Any, formatter: Any, now_ms: int) -> None:
        self.kind = kind
        self.formatter = formatter
        self.now_ms = now_ms
        keys = {c.key for c in COLUMNS[kind]}
        self._end = column_index(kind, PAST_COLUMN[kind]) if kind in PAST_COLUMN else None
        start = _START_COLUMN.get(kind, "start" if "start" in keys else None)
        self._start = column_index(kind, start) if start else None
        self._on_demand = column_index(kind, "ondemand") if "ondemand" in keys else None
        self._type = column_index(kind, "type") if kind is Kind.WEBINARS else None
        self._known: dict[int, bool] = {}
        # Upcoming first's groups (``_late``) of the first rows of ``_noted_rows`` (``note``).
        self._noted_rows: Rows | None = None
        self._noted = bytearray()

    def forget(self, now_ms: int | None = None) -> None:
        """Work it out again (another time, or other codes marked on demand)."""
        if now_ms is not None:
            self.now_ms = now_ms
        self._known = {}
        self._noted_rows, self._noted = None, bytearray()

    def note(self, rows: Rows) -> bytearray:
        """The groups of ``rows`` for ``upcoming_first`` (0 upcoming, 1 on demand, 2 past), worked
        out for the rows not noted yet: a row set being read is noted as it grows, a chunk at a
        time, so that putting 100,000 rows in order once read is one sort, not a 150 ms stall."""
        start, end = self._start, self._end
        if self.kind not in _START_COLUMN or end is None or start is None:
            return bytearray(len(rows))
        if self._noted_rows is not rows or len(self._noted) > len(rows):
            self._noted_rows, self._noted = rows, bytearray()
        done = len(self._noted)
        if done < len(rows):
            more = rows[done:]
            try:
                self._noted += self._late(more, start, end)
            except TypeError:  # type codes of mixed kinds, lists (hostile data): asked row by row
                self._noted += self._late_by_row(more, start, end)
        return self._noted

    def is_past(self, rows: Rows, source: int) -> bool:
        if self._end is None:
            return False
        known = self._known.get(source)
        if known is None:
            known = self._known[source] = self._when(rows[source]) is not None
        return known

    def upcoming_first(self, rows: Rows, order: list[int], column: int) -> list[int]:
        """``order`` (by ``column``, ascending) as upcoming rows first, then on-demand ones
        (bookable whenever: their start is a recording's), then past ones, each in that order,
        when ``column`` is the kind's start (webinars, series, courses; the Dates tab hides past
        occasions and lists on-demand ones last); else ``order`` as it is."""
        start, end = self._start, self._end
        if self.kind not in _START_COLUMN or column != start or end is None or start is None:
            return order
        late = self.note(rows)
        if not any(late):
            return order
        return sorted(order, key=late.__getitem__)  # (stable: each group keeps ``order``'s order)

    def _late(self, rows: Sequence[Row], start: int, end: int) -> bytearray:
        """Per row: 0 upcoming, 1 on demand, 2 past. A column at a time, the type codes asked once
        each: row by row, with two calls per row, 100,000 rows took 60-160 ms (a start-up stall)."""
        late = bytearray(len(rows))
        now = self.now_ms
        for i in [  # past: the end (else the start) is before now
            i
            for i, row in enumerate(rows)
            if isinstance(ended := row[end] if row[end] is not None else row[start], int) and ended < now
        ]:
            late[i] = 2
        if self._type is not None:
            column, on_demand = self._type, self.formatter.on_demand
            codes = [row[column] for row in rows]
            types = set(map(type, codes))
            if not types <= _SCALARS or len(types & _NUMBERS) > 1:  # (1 == True == 1.0: one set member)
                raise TypeError("type codes of mixed kinds")
            marked = {code for code in set(codes) if on_demand(code)}
            if marked:
                for i in [i for i, code in enumerate(codes) if code in marked]:
                    late[i] = 1
        return late

    def _late_by_row(self, rows: Sequence[Row], start: int, end: int) -> bytearray:
        late = bytearray(len(rows))
        now, on_demand, kind_of = self.now_ms, self.formatter.on_demand, self._type
        for i, row in enumerate(rows):
            if kind_of is not None and on_demand(row[kind_of]):
                late[i] = 1
            elif isinstance(ended := row[end] if row[end] is not None else row[start], int) and ended < now:
                late[i] = 2
        return late

    def sentence(self, rows: Rows, source: int) -> str | None:
        """ "Past: ended 3/9/27 …" for a past row, else None."""
        if not self.is_past(rows, source):
            return None
        found = self._when(rows[source])
        assert found is not None
        column, when = found
        return f"Past: ended {self.formatter.date(when, zone(self.kind, rows[source], column))}"

    def _when(self, row: Row) -> tuple[int, int] | None:
        """(column, ms) of the end (else start) that has passed; None if not past."""
        if self._on_demand is not None and row[self._on_demand]:
            return None
        if self._type is not None and self.formatter.on_demand(row[self._type]):
            return None
        column = self._end
        when = row[column] if column is not None else None
        if when is None and self._start is not None:
            column, when = self._start, row[self._start]
        if isinstance(when, int) and not isinstance(when, bool) and when < self.now_ms:
            return column, when  # type: ignore[return-value]
        return None
