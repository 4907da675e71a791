"""A series' first and last sessions as the user counts them: never a session of an on-demand type,
whose start is when it was recorded (a past date that looks like a missed first session).

Which type codes mean on demand is the user's choice (Preferences), so a stored row keeps every
session's start and type (``rows.SESSIONS_AT``) and ``settle`` sets the row's First and Last
session cells from those that are not on demand, in place (as ``counts.fill_steps`` fills its
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


def _sessions(row: Sequence[Any]) -> list[Any] | None:
    """The row's sessions (``[ms, offset, type]`` each), or None (a row without them)."""
    found = row[SESSIONS_AT] if len(row) > SESSIONS_AT else None
    return found if isinstance(found, list) else None


def _live(sessions: list[Any], on_demand: OnDemand) -> list[Any]:
    """The dated sessions that are not on demand, by start."""
    return [
        s
        for s in sessions
        if isinstance(s, list) and len(s) == 3 and isinstance(s[0], int) and not on_demand(s[2])
    ]


def only_on_demand(row: Sequence[Any], on_demand: OnDemand) -> bool:
    """Whether the series has no dated session but on-demand ones, and some of those."""
    sessions = _sessions(row)
    if not sessions or _live(sessions, on_demand):
        return False
    return any(isinstance(s, list) and len(s) == 3 and on_demand(s[2]) for s in sessions)


def settle(rowset: RowSet, on_demand: OnDemand) -> bool:
    """Set the First and Last session cells (and their offsets) of ``rowset``'s series rows from
    their sessions that are not on demand, in place; True if a cell changed (its sort orders and
    keys are then forgotten)."""
    if rowset.kind is not Kind.SERIES or rowset.source is not None:
        return False
    changed = False
    for row in rowset.rows:
        sessions = _sessions(row)
        if sessions is None:
            continue
        live = _live(sessions, on_demand)
        first, last = (live[0], live[-1]) if live else ([None, None], [None, None])
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
