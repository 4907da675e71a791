"""The table model's idle work: what it builds between the user's actions, a slice at a time.

The sort keys of the date, fee and number columns shown by default (their first sort then only
sorts), then each row's position in the current sort order (a query with few matches then orders
them by it). ``IdleWork`` is a mixin of ``RowSetTableModel``: its passes run on the model's
``_prepare_timer`` over the model's row set, presorted columns and sort order.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from catalogue_desktop.core.listing.sorting import prepare_sort_keys

if TYPE_CHECKING:
    from PySide6.QtCore import QTimer

    from catalogue_desktop.core.listing.rowset import RowSet
    from catalogue_desktop.ui.browse.row_order import RowOrder

# Idle work (``prepare_keys``) starts ``_PREPARE_DELAY_MS`` after rows arrive (not while the
# window starts), then runs in slices for up to ``_PREPARE_PASS_S`` per event-loop pass: bounded
# by time, not rows, so a slower or busier CPU does smaller passes, not longer ones.
_PREPARE_DELAY_MS = 300
_PREPARE_PASS_S = 0.004
_PREPARE_SORT_ROWS = 4000  # a slice of one column's sort keys (~1 ms)
_PREPARE_RANK_ROWS = 4000  # a slice of positions in the sort order (~0.8 ms)


class IdleWork:
    """Idle-time building for ``RowSetTableModel`` (a mixin: the attributes below are the model's)."""

    _prepare_timer: QTimer  # runs the passes (interval 0 once started)
    _rowset: RowSet
    _presorted: list[int]  # the columns whose sort keys are built ahead
    _order: RowOrder | None

    def prepare_keys(self) -> None:
        """Build in idle time, up to 4 ms per event-loop pass, the sort keys of the date, fee and
        number columns shown by default (their first sort then only sorts: ~30 ms less at 100k
        rows), then each row's position in the current sort order (a query with few matches
        then orders them by it: ~20 ms less). It starts ``_PREPARE_DELAY_MS`` after rows
        arrive, not amid the window's start-up."""
        self._prepare_later()

    def _prepare_later(self) -> None:
        """Start the idle work ``_PREPARE_DELAY_MS`` from now (if there are rows)."""
        if len(self._rowset):
            self._prepare_timer.start(_PREPARE_DELAY_MS)

    def prepare_now(self) -> None:
        """Build at once what idle time has not built yet (for tests)."""
        while self._prepare_timer.isActive():
            self._prepare_step()

    def _prepare_step(self) -> None:
        """One event-loop pass of idle work: slices until ``_PREPARE_PASS_S`` is spent."""
        self._prepare_timer.setInterval(0)
        deadline = time.perf_counter() + _PREPARE_PASS_S
        while not self._prepare_slice():
            if time.perf_counter() >= deadline:
                return
        self._prepare_timer.stop()

    def _prepare_slice(self) -> bool:
        """One slice of idle work; True when nothing is left."""
        for column in self._presorted:
            if not prepare_sort_keys(self._rowset, column, _PREPARE_SORT_ROWS):
                return False
        return self._prepare_rank(_PREPARE_RANK_ROWS)

    def _prepare_rank(self, rows: int) -> bool:
        """Note the positions of up to ``rows`` more rows in the sort order; True when done."""
        return self._order is None or self._order.note_positions(rows)
