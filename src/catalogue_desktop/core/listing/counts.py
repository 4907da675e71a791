"""How many webinars and courses name each expert, topic, role and situation: listing columns
made from the loaded rows' links, since the records themselves do not say (the webinars and
courses do).

A row of these kinds is stored with blank count cells (``rows.row``); ``fill_steps`` fills them
in place from the webinars' and courses' links, once those are read, a slice of rows per step.
The counts are those of the finder's ``webinars:`` and ``courses:`` fields
(``core.query.derived``): the rows naming a record, each once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Mapping
from itertools import chain
from typing import Any

from catalogue_desktop.core.listing.rows import COLUMNS, LINK_KINDS, column_index
from catalogue_desktop.core.listing.rowset import RowSet
from catalogue_desktop.core.records.kinds import Kind, ListKind

# The kinds whose rows count who names them, and the kinds counted (courses name no roles or
# situations: no course count there).
COUNTED: dict[Kind, tuple[Kind, ...]] = {
    Kind.EXPERTS: (Kind.WEBINARS, Kind.COURSES),
    Kind.TOPICS: (Kind.WEBINARS, Kind.COURSES),
    Kind.ROLES: (Kind.WEBINARS,),
    Kind.SITUATIONS: (Kind.WEBINARS,),
}
COUNT_KEY = {Kind.WEBINARS: "webinars", Kind.COURSES: "courses"}  # the count's column key
# link lists counted per step: ~2 ms of CPU alone (2048 took 12 in the window mid-refresh, 8192 28)
_SLICE = 1024


def count_columns(kind: ListKind) -> tuple[int, ...]:
    """The columns of ``kind`` holding counts (none for other kinds, nor for the occasions)."""
    counted = COUNTED.get(kind, ()) if isinstance(kind, Kind) else ()
    return tuple(column_index(kind, COUNT_KEY[source]) for source in counted)


def make_room(kind: ListKind, rows: list[list[Any]]) -> None:
    """Rows of a counted kind listed before the counts existed (no count cells: the columns'
    values, then the offsets) get blank count cells, in place."""
    columns = count_columns(kind)
    if not columns:
        return
    width = len(COLUMNS[kind]) + 1
    for row in rows:
        if len(row) != width:
            row[columns[0] :] = [None] * len(columns) + [row[-1] if len(row) > columns[0] else []]


def fill_steps(rowsets: Mapping[Kind, RowSet], changed: list[Kind]) -> Iterator[None]:
    """Fill the count cells of the counted kinds' rows in ``rowsets`` from the webinars' and
    courses' links, a slice per step; the kinds whose counts changed are appended to
    ``changed`` (their sort orders and keys of those columns forgotten)."""
    counters: dict[tuple[Kind, Kind], Counter[int]] = {}
    for source in (Kind.WEBINARS, Kind.COURSES):
        referring = rowsets.get(source)
        targets = [t for t in LINK_KINDS[source] if source in COUNTED.get(t, ())]
        slots = [(LINK_KINDS[source].index(t), counters.setdefault((source, t), Counter())) for t in targets]
        links = [] if referring is None else referring.links
        for start in range(0, len(links), _SLICE):
            piece = links[start : start + _SLICE]
            for slot, counter in slots:  # (one update a slice: each call checks for a Mapping)
                named = (set(lists[slot]) for lists in piece if len(lists) > slot and lists[slot])
                counter.update(chain.from_iterable(named))
            if start + _SLICE < len(links):
                yield
    for kind, sources in COUNTED.items():
        rowset = rowsets.get(kind)
        if rowset is None or rowset.source is not None:
            continue
        columns = count_columns(kind)
        pairs = [(column, counters[(source, kind)]) for column, source in zip(columns, sources, strict=True)]
        id_column, differs = rowset.id_column, False
        for row in rowset.rows:
            record_id = row[id_column]
            for column, counter in pairs:
                count = counter.get(record_id, 0)
                if row[column] != count:
                    row[column] = count  # type: ignore[index]
                    differs = True
        if differs:
            for key in [k for k in rowset.sort_cache if k[0] in columns]:
                del rowset.sort_cache[key]
            for column in columns:
                rowset.sort_keys.pop(column, None)
            changed.append(kind)
        if len(rowset) > _SLICE // 4:
            yield
