"""Which rows of a row set a table shows, in which order: ``RowOrder`` and ``view_rows`` (no Qt),
and ``TabOrder``, which order a tab shows (the user's, or the one the query's words ask for).

The table model keeps ``visible``, the row-set indices it shows in view order: the rows matching the
filter, in the sort order. ``RowOrder`` is one sort order with, noted in idle time, each row's
position in it: a filter with few matches then puts them in order without a pass over every row.
"""

from __future__ import annotations

from contextlib import suppress
from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import Qt

from catalogue_desktop.core.query.matches import Matches

if TYPE_CHECKING:
    from PySide6.QtWidgets import QTableView

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


class SortedModel(Protocol):
    """A table model in an order (``RowSetTableModel``), as ``TabOrder`` uses it."""

    upcoming_first: bool  # by start, upcoming first (a dated tab's default order)

    @property
    def sort_column(self) -> int: ...
    @property
    def sort_order(self) -> Qt.SortOrder: ...
    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None: ...


class TabOrder:
    """The order a tab's rows are shown in: the tab's default until the user clicks a header,
    the user's from then on (and saved), and while the query's words ask for one ("cheapest
    first") that one, never saved, the one it replaced shown again when they no longer ask."""

    def __init__(self, view: QTableView, model: SortedModel) -> None:
        self._view = view
        self._model = model
        # the order before the query's words asked for another (column, order, upcoming first):
        # shown again when they no longer ask, and the one saved (``words_ask``)
        self._before_words: tuple[int, Qt.SortOrder, bool] | None = None
        self._words_sorting = False  # the words' order being applied, not a header click
        self._following = False  # header clicks are the user's order (``follow_header``)

    def follow_header(self) -> None:
        """A header click from now on is the user's order (once the saved order is restored; once:
        a unique connection needs a QObject's slot)."""
        if not self._following:
            self._following = True
            self._view.horizontalHeader().sortIndicatorChanged.connect(self._header_sorted)

    def _header_sorted(self, *_sort: object) -> None:
        """The user chose an order: plain from now on, and remembered (the default is not); it
        outlasts an order the query's words asked for."""
        if self._words_sorting:
            return
        self._before_words = None
        self._model.upcoming_first = False

    def words_ask(self, column: int, order: Qt.SortOrder) -> None:
        """The order the query's words ask for ("cheapest first"), shown while they ask for it
        (``before_words``) and never remembered: the order it replaces is."""
        model = self._model
        if self._before_words is None:
            if (column, order) == (model.sort_column, model.sort_order):
                return  # the tab's own order already
            self._before_words = (model.sort_column, model.sort_order, model.upcoming_first)
        self._sort_quietly(column, order, upcoming_first=False)

    def before_words(self) -> None:
        """The words no longer ask for an order: the tab's order before them again (the user's
        header click, or the tab's default)."""
        if self._before_words is None:
            return
        column, order, upcoming = self._before_words
        self._before_words = None
        self._sort_quietly(column, order, upcoming_first=upcoming)

    def _sort_quietly(self, column: int, order: Qt.SortOrder, *, upcoming_first: bool) -> None:
        """Sort by ``column`` (the header's indicator shows it), not as the user's choice."""
        model = self._model
        if upcoming_first != model.upcoming_first and (column, order) == (
            model.sort_column,
            model.sort_order,
        ):
            model.sort(-1, order)  # (the same column in the other grouping: sorted afresh)
        model.upcoming_first = upcoming_first
        self._words_sorting = True
        try:
            self._view.sortByColumn(column, order)
        finally:
            self._words_sorting = False

    def saved(self) -> tuple[int, int]:
        """The order to save, as ``Settings.save_tab`` takes it: (column, 1 descending or 0), the
        column -1 for the default; never the order the query's words asked for."""
        model = self._model
        column, qt_order, upcoming = self._before_words or (
            model.sort_column,
            model.sort_order,
            model.upcoming_first,
        )
        order = 1 if qt_order == Qt.SortOrder.DescendingOrder else 0
        return (-1 if upcoming else column), order
