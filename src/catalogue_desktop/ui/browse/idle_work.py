"""The table model's idle work: what it builds between the user's actions, a slice at a time.

The sort keys of the date, fee and number columns shown by default (their first sort then only
sorts), then each row's position in the current sort order (a query with few matches then orders
them by it). ``IdleWork`` runs the passes on its own timer, over the row set and sort order the
table model gives it (``work_on``) and the columns it was made for.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer

from catalogue_desktop.core.listing.sorting import prepare_sort_keys
from catalogue_desktop.ui.common.pass_budget import PassBudget, loop_budget

if TYPE_CHECKING:
    from catalogue_desktop.core.listing.rowset import RowSet
    from catalogue_desktop.ui.browse.row_order import RowOrder

# Idle work (``prepare_keys``) starts ``_PREPARE_DELAY_MS`` after rows arrive (not while the
# window starts), then runs in slices for up to ``_PREPARE_PASS_S`` per event-loop pass: bounded
# by time, not rows, so a slower or busier CPU does smaller passes, not longer ones.
_PREPARE_DELAY_MS = 300
_PREPARE_PASS_S = 0.004
_PREPARE_SORT_ROWS = 4000  # a slice of one column's sort keys (docs/decisions.md, "Sorting and the tables")
_PREPARE_RANK_ROWS = 4000  # a slice of positions in the sort order


class IdleWork:
    """Idle-time building for one table: the sort keys of ``presorted`` columns, then the
    positions in the sort order, of the row set and order last given (``work_on``)."""

    def __init__(
        self, rowset: RowSet, presorted: list[int], parent: QObject, budget: PassBudget | None = None
    ) -> None:
        self.rowset = rowset
        self._presorted = presorted  # the columns whose sort keys are built ahead
        self._order: RowOrder | None = None
        self._later = QTimer(parent, singleShot=True, interval=_PREPARE_DELAY_MS)
        # its passes in turn with the window's other jobs
        self._budget = budget or loop_budget()
        self._pump = self._budget.pump(parent, self.step)
        self._later.timeout.connect(self._pump.start)

    def work_on(self, rowset: RowSet, order: RowOrder | None) -> None:
        """Build for ``rowset`` in ``order`` (None: as sent) from now on."""
        self.rowset, self._order = rowset, order

    @property
    def pending(self) -> bool:
        """Work is left (a pass is due)."""
        return self._later.isActive() or self._pump.active

    def start_later(self) -> None:
        """Build in idle time, a few milliseconds per event-loop pass, the sort keys of the date, fee
        and number columns shown by default (their first sort then only sorts), then each row's
        position in the current sort order (a query with few matches then orders them by it; the
        gains: docs/decisions.md, "Sorting and the tables"). It starts ``_PREPARE_DELAY_MS`` from now (if
        there are rows), not amid the window's start-up."""
        if len(self.rowset):
            self._pump.stop()
            self._later.start()

    def stop(self) -> None:
        self._later.stop()
        self._pump.stop()

    def finish(self) -> None:
        """Build at once what idle time has not built yet (for tests)."""
        while self.pending:
            self.step()

    def step(self) -> None:
        """One event-loop pass of idle work: slices until ``_PREPARE_PASS_S`` is spent."""
        self._later.stop()
        deadline = time.perf_counter() + min(_PREPARE_PASS_S, self._budget.left())
        while not self._slice():
            if time.perf_counter() >= deadline:
                self._pump.start()  # (the next pass: started already, unless a test steps by hand)
                return
        self._pump.stop()

    def _slice(self) -> bool:
        """One slice of idle work; True when nothing is left."""
        for column in self._presorted:
            if not prepare_sort_keys(self.rowset, column, _PREPARE_SORT_ROWS):
                return False
        return self._order is None or self._order.note_positions(_PREPARE_RANK_ROWS)
