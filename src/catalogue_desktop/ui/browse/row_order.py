"""Which rows of a row set a table shows, in which order (no Qt): ``RowOrder`` and ``view_rows``.

The table model keeps ``visible``, the row-set indices it shows in view order: the rows matching the
filter, in the sort order. ``RowOrder`` is one sort order with, noted in idle time, each row's
position in it: a filter with few matches then puts them in order without a pass over every row.
"""

from __future__ import annotations

from contextlib import suppress
from itertools import compress
from operator import itemgetter
from typing import Any

from catalogue_desktop.core.query.matches import Matches

FEW = 8  # fewer matches than 1/FEW of the rows are put in sort order by their positions


class RowOrder:
    """Row-set indices in sort order (``rows``), and their positions in it once noted."""

    __slots__ = ("_pick", "_rank", "_ranked", "rows")

    def __init__(self, rows: list[int]) -> None:
        self.rows = rows
        self._rank: list[int] = []  # row-set index -> position in ``rows`` (idle time)
        self._ranked = 0  # positions of ``rows[:_ranked]`` are in ``_rank``
        self._pick: itemgetter[Any] | None = None  # itemgetter(*rows) (lazy)

    def note_positions(self, count: int) -> bool:
        """Note the positions of up to ``count`` more rows in the order; True when done."""
        order = self.rows
        rank, start = self._rank, self._ranked
        if not rank:
            rank.extend([0] * len(order))
        stop = min(len(order), start + count)
        for position in range(start, stop):
            rank[order[position]] = position
        self._ranked = stop
        return stop >= len(order)

    def matching(self, matched: Matches) -> list[int]:
        """The matched rows in this order (a new list: the result is never changed in place)."""
        order = self.rows
        if matched.count * FEW < len(order) and self._ranked >= len(order):
            # Few matches: order them by their position in the sort order (no pass over every row).
            return sorted(matched.rows, key=self._rank.__getitem__)
        if len(order) < 2:  # itemgetter() of one index returns no tuple
            return [i for i in order if matched.mask[i]]
        # The matches' mask bytes in sort order, picked in C (itemgetter(*order)), keep their rows (a Python
        # loop here: several times slower, docs/decisions.md, "Sorting and the tables").
        if self._pick is None:
            self._pick = itemgetter(*order)
        return list(compress(order, self._pick(matched.mask)))


def view_rows(visible: list[int] | None, sources: set[int], count: int) -> dict[int, int]:
    """View rows of these row-set indices (those shown; ``visible`` None: every one of the
    ``count`` rows, in row-set order): a few (the header's row, a selected row) by a scan in C
    each, more by one pass over the shown rows."""
    if visible is None:
        return {s: s for s in sources if s < count}
    if len(sources) > 4:
        return {s: v for v, s in enumerate(visible) if s in sources}
    found = {}
    for s in sources:
        with suppress(ValueError):  # filtered out
            found[s] = visible.index(s)
    return found
