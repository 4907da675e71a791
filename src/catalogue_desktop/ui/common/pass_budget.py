"""One time budget per pass of the event loop, shared by the jobs that work between the user's actions.

The start-up's jobs (the loader's chunks, the finder's indexer, the tables' idle work, the session's
steps once the first page is painted) each keep their own step short, a few milliseconds, but each
ran on a zero-interval timer of its own: several fell in one pass of the loop, with the repaint of
what they changed, each within its budget and the pass over 50 ms (issue 40, ``bench/run.py --only
stall``). Here they take turns. ``PassBudget`` runs their steps from one zero-interval timer: a job's
``Pump`` is started and stopped as its timer was, and its step runs once per pass at most, while
the pass has time left of ``PASS_S``. A job that finds the pass spent waits for the next one, and
the jobs are served in turn (one that waited goes first: a later one cannot starve it). The first
job in line of a pass found spent before any step waits once, then runs, however the pass is spent
(a repaint, asyncio's callbacks): every job gets a pass at least every other one of its turns.

When the pass began: on Qt's glib dispatcher (Linux, offscreen or not, under ``exec()`` or qasync
alike), its ``aboutToBlock``, heard while a job waits: emitted once per pass before the pass's
posted events (the repaints among them) and timers, and a pass with a zero-interval timer pending
does not block, so the mark is the pass's start. Elsewhere, when the jobs' last turn ended: what the
thread did since (the timers after theirs, the next pass's posted events, the timers before theirs)
is the pass as their turn finds it. (The Unix dispatcher, ``QT_NO_GLIB``, emits ``aboutToBlock``
after the posted events: the repaint would go uncounted. Windows' and macOS's were not checked.
``tests/ui/common/test_pass_budget.py`` runs the real loop. On glib, the bench's longest start-up
gap was shorter with the mark than with the last turn's end: docs/decisions.md.) The first turn
after the line was empty begins its pass itself.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from PySide6.QtCore import QAbstractEventDispatcher, QCoreApplication, QObject, QTimer

from catalogue_desktop.qt_compat.lifetime import is_alive

# The dispatchers whose aboutToBlock comes once per pass before its posted events and timers.
_MARKING = frozenset({"QEventDispatcherGlib", "QPAEventDispatcherGlib"})
# A pass's time: a frame (a pass that repaints the window spends 10-20 ms of it on that repaint).
PASS_S = 0.016


class Pump:
    """A job's turns: ``call`` once per pass of the event loop at most, while started, when the
    pass has time left (``PassBudget``). Started and stopped like a zero-interval ``QTimer``; the
    job ends with ``owner`` (a Qt object deleted stops its pumps)."""

    __slots__ = ("_active", "_budget", "_owner", "call", "once", "waited")

    def __init__(
        self, budget: PassBudget, owner: QObject, call: Callable[[], object], once: bool = False
    ) -> None:
        self._budget = budget
        self._owner = owner
        self.call = call
        self.once = once  # stopped as it is called: one step
        self.waited = False  # it found the last pass spent: the first of the next is its
        self._active = False

    @property
    def active(self) -> bool:
        return self._active

    def start(self) -> None:
        """Its steps from the next pass with time left on (started already: nothing changes)."""
        if not self._active:
            self._active = True
            self._budget._join(self)

    def stop(self) -> None:
        if self._active:
            self._active = False
            self.waited = False
            self._budget._leave(self)


class PassBudget:
    """The jobs' turns at the event loop, ``seconds`` of each pass between them (``clock``:
    seconds, monotonic; a test's fake); its timer a child of ``parent`` (it needs no Qt class of
    its own)."""

    def __init__(
        self,
        seconds: float = PASS_S,
        clock: Callable[[], float] = time.perf_counter,
        parent: QObject | None = None,
    ) -> None:
        self.seconds = seconds
        self._clock = clock
        self._line: list[Pump] = []  # the started pumps, in turn order
        self._timer = QTimer(parent, interval=0)
        self._timer.timeout.connect(self.run_pass)
        self._yielded: float | None = None  # when the last turn ended (None: none since the line filled)
        self._began: float | None = None  # when the dispatcher said this pass began (glib)
        self._dispatcher: QAbstractEventDispatcher | None = None  # heard while a pump is started
        self._start: float | None = None  # the pass's start, while the jobs take their turns

    @property
    def alive(self) -> bool:
        """Its timer is still there (it goes with its parent)."""
        return is_alive(self._timer)

    def pump(self, owner: QObject, call: Callable[[], object]) -> Pump:
        """A job's pump (stopped): ``call`` is its step."""
        return Pump(self, owner, call)

    def once(self, owner: QObject, call: Callable[[], object]) -> None:
        """``call`` once, on a later pass: its turn in line with the jobs'."""
        Pump(self, owner, call, once=True).start()

    def begin_pass(self) -> None:
        """A pass of the loop begins (the glib dispatcher's ``aboutToBlock``)."""
        self._began = self._clock()

    def left(self) -> float:
        """Seconds left of the pass whose turns run now (0 or less: spent); outside them, all."""
        if self._start is None:
            return self.seconds
        return self.seconds - (self._clock() - self._start)

    def run_pass(self) -> None:
        """One pass's turns (its timer's slot): the pumps in line, one step each at most, until
        the pass is spent; the first in line runs anyway if it waited already."""
        began, self._began = self._began, None
        self._start = (
            began if began is not None else self._yielded if self._yielded is not None else self._clock()
        )
        line = list(self._line)
        ran: list[Pump] = []
        try:
            for pump in line:
                if not pump.active:  # (stopped by a step before it)
                    continue
                if not is_alive(pump._owner):
                    pump.stop()
                    continue
                if self.left() <= 0 and (ran or not pump.waited):
                    break
                self._line.remove(pump)
                self._line.append(pump)  # to the end of the line
                pump.waited = False
                ran.append(pump)
                if pump.once:
                    pump.stop()
                pump.call()
        finally:
            self._start = None
            self._yielded = self._clock()  # the loop's from here to the next turn
            for pump in line:  # (not one started meanwhile: it has not waited)
                if pump.active and pump not in ran:
                    pump.waited = True

    def _join(self, pump: Pump) -> None:
        if not self._line:
            self._yielded = self._began = None  # (the loop may have waited since the last turn)
            self._hear_passes(True)
            self._timer.start()
        self._line.append(pump)

    def _leave(self, pump: Pump) -> None:
        self._line.remove(pump)
        if not self._line:
            self._timer.stop()
            self._hear_passes(False)

    def _hear_passes(self, on: bool) -> None:
        """Hear the glib dispatcher mark each pass while pumps are started (a slot per pass: not
        while idle)."""
        if on and self._dispatcher is None:
            dispatcher = QAbstractEventDispatcher.instance()
            if dispatcher is not None and dispatcher.metaObject().className() in _MARKING:
                dispatcher.aboutToBlock.connect(self.begin_pass)
                self._dispatcher = dispatcher
        elif not on and self._dispatcher is not None:
            if is_alive(self._dispatcher):
                self._dispatcher.aboutToBlock.disconnect(self.begin_pass)
            self._dispatcher = None


_SHARED: list[PassBudget] = []  # the GUI thread's (one event loop: one budget), made on first use


def loop_budget() -> PassBudget:
    """The budget the window's jobs share (a child of the application: it goes with it)."""
    if not _SHARED or not _SHARED[0].alive:
        _SHARED[:] = [PassBudget(parent=QCoreApplication.instance())]
    return _SHARED[0]
