"""A series' first and last sessions as the user counts them: never a session of an on-demand type,
whose start is when it was recorded (a past date that looks like a missed first session).

Which type codes mean on demand is the user's choice (Preferences), so a stored row keeps its
sessions' starts, offsets and types (``rows.SESSIONS_AT``) and ``settle`` sets the row's First and
Last session cells from those that are not on demand, in place (as ``counts.fill_steps`` fills its
counts): what the table shows, sorts by and greys as past is then the same value. A series whose
dated sessions are all on demand has blank cells there (``only_on_demand``: shown "On demand").
A row listed before sessions were kept (an older cache, until it is listed again) keeps its cells.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from catalogue_desktop.core.listing.rows import COLUMNS, SESSIONS_AT, column_index
from catalogue_desktop.core.listing.rowset import RowSet
from catalogue_desktop.core.records.kinds import Kind

OnDemand = Callable[[object], bool]  # whether a webinar type code means on demand

FIRST, LAST = column_index(Kind.SERIES, "first"), column_index(Kind.SERIES, "last")
_ZONES = len(COLUMNS[Kind.SERIES])
_NONE = (None, None)


def _sessions(row: Sequence[Any]) -> tuple[list[Any], list[Any], list[Any]] | None:
    """The row's sessions' starts, offsets and types, or None (a row without them)."""
    found = row[SESSIONS_AT] if len(row) > SESSIONS_AT else None
    if not (isinstance(found, list) and len(found) == 3 and all(type(f) is list for f in found)):
        return None
    starts, offsets, types = found
    return (starts, offsets, types) if len(starts) == len(offsets) == len(types) else None


class _Verdicts(dict[Any, bool]):
    """``on_demand`` asked once per code, looked up in C (a catalogue has a handful of codes:
    asking per session took 100-200 ms for the 45,000 sessions of 10,000 series)."""

    def __init__(self, on_demand: OnDemand) -> None:
        super().__init__()
        self.on_demand = on_demand

    def marks(self, types: list[Any]) -> list[bool]:
        try:
            return list(map(self.__getitem__, types))
        except KeyError:
            for code in set(types):
                if code not in self:
                    self[code] = self.on_demand(code)
            return list(map(self.__getitem__, types))
        except TypeError:  # (hostile data: a list where a code belongs)
            return list(map(self.on_demand, types))


def _first_and_last(
    starts: list[Any], offsets: list[Any], marks: list[bool]
) -> tuple[tuple[Any, Any], tuple[Any, Any]]:
    """(start, offset) of the first and last dated sessions not on demand (``_NONE``: none)."""
    dated = len(starts) - starts.count(None)  # (undated sessions come last)
    marked = marks[:dated]
    if False not in marked:
        return _NONE, _NONE
    first = marked.index(False)
    last = dated - 1 - marked[::-1].index(False)
    return (starts[first], offsets[first]), (starts[last], offsets[last])


def only_on_demand(row: Sequence[Any], on_demand: OnDemand) -> bool:
    """Whether the series has no dated session but on-demand ones, and some of those."""
    sessions = _sessions(row)
    if sessions is None:
        return False
    starts, offsets, types = sessions
    marks = _Verdicts(on_demand).marks(types)
    return True in marks and _first_and_last(starts, offsets, marks)[0] is _NONE


def settle_rest(rowset: RowSet, codes: frozenset[str], on_demand: OnDemand) -> bool:
    """``settle`` the rows of ``rowset`` not settled yet for ``codes`` (the codes on demand;
    ``on_demand`` says the same of a code), all of them when other codes were; noted on the row
    set (``RowSet.settled``), so that the loader settles each page of rows as it reads it and the
    table that shows them has none left to settle (all at once, 10,000 series took ~50-130 ms of a
    start-up once the window was on screen). True if a cell changed."""
    done = rowset.settled
    start = done[1] if done is not None and done[0] == codes else 0
    if rowset.kind is not Kind.SERIES or start >= len(rowset):
        return False
    rowset.settled = (codes, len(rowset))
    return settle(rowset, on_demand, start)


def settle(rowset: RowSet, on_demand: OnDemand, start: int = 0) -> bool:
    """Set the First and Last session cells (and their offsets) of ``rowset``'s series rows from
    ``start`` on from their sessions that are not on demand, in place; True if a cell changed (its
    sort orders and keys are then forgotten)."""
    if rowset.kind is not Kind.SERIES or rowset.source is not None:
        return False
    changed, verdicts = False, _Verdicts(on_demand)
    rows, marks = rowset.rows, verdicts.marks
    for index in range(start, len(rows)):
        row = rows[index]
        # (``_sessions`` inline: its call per row was a third of the instructions of this loop)
        found = row[SESSIONS_AT] if len(row) > SESSIONS_AT else None
        if not isinstance(found, list) or len(found) != 3:
            continue
        starts, offsets, types = found
        if not (type(starts) is list and type(offsets) is list and type(types) is list):
            continue
        if not len(starts) == len(offsets) == len(types):
            continue
        first, last = _first_and_last(starts, offsets, marks(types))
        zones = [first[1], last[1]]
        if row[FIRST] != first[0] or row[LAST] != last[0] or row[_ZONES] != zones:
            row[FIRST], row[LAST], row[_ZONES] = first[0], last[0], zones  # type: ignore[index]
            changed = True
    if changed:
        for key in [k for k in rowset.sort_cache if k[0] in (FIRST, LAST)]:
            del rowset.sort_cache[key]
        for column in (FIRST, LAST):
            rowset.sort_keys.pop(column, None)
            rowset.values.pop(column, None)
    return changed
