"""``PassBudget``: the jobs share one budget per pass of the event loop, take turns, and none starves.
Counted, not timed: the passes are run by hand, the clock is the test's own (each step says how
long it took), except in the last test, which runs the real event loop with that clock to show
that what the loop does between two turns (a repaint) counts in the pass."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QCoreApplication, QEvent, QObject, Signal

from catalogue_desktop.ui.common.pass_budget import PASS_S, PassBudget


class Clock:
    """The test's clock: seconds, moved on by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Jobs:
    """Jobs on one budget, each a pump whose step takes ``costs[name]`` seconds of the clock;
    ``passes`` lists which ran in each pass run by ``run``."""

    def __init__(self, costs: dict[str, float], seconds: float = PASS_S) -> None:
        self.owner = QObject()
        self.clock = Clock()
        self.budget = PassBudget(seconds, self.clock, parent=self.owner)
        self.costs = costs
        self.passes: list[list[str]] = []
        self.pumps = {name: self.budget.pump(self.owner, self._step(name)) for name in costs}

    def _step(self, name: str) -> Any:
        def step() -> None:
            self.passes[-1].append(name)
            self.clock.now += self.costs[name]

        return step

    def run(self, passes: int, before: float = 0.0) -> list[list[str]]:
        """``passes`` passes, the loop spending ``before`` seconds in each before the jobs' turns
        (what the pass did since the last turn: a repaint)."""
        for _ in range(passes):
            self.passes.append([])
            self.clock.now += before
            self.budget.run_pass()
        return self.passes[-passes:]


def test_once_the_pass_is_spent_no_other_job_runs_in_it(qapp: Any) -> None:
    """Two jobs whose steps each spend the pass: one step per pass, in turn (not both, as two
    timers of their own did); cheap steps share a pass."""
    jobs = Jobs({"loader": 0.010, "indexer": 0.010})
    for pump in jobs.pumps.values():
        pump.start()
    # the loader's step leaves 6 ms: the indexer's runs; the pass is then spent
    assert jobs.run(1) == [["loader", "indexer"]]
    jobs.costs.update(loader=0.020, indexer=0.020)  # each step over the whole budget
    assert jobs.run(6) == [["loader"], ["indexer"]] * 3
    jobs.costs.update(loader=0.002, indexer=0.002)
    assert jobs.run(2) == [["loader", "indexer"]] * 2


def test_a_job_that_yielded_goes_first_on_the_next_pass_and_none_starves(qapp: Any) -> None:
    """Three jobs, room for two a pass: the one left out runs first on the next pass; over many
    passes each gets its share, however the pumps were started (the last one started is not
    left behind by the first, whose step would always fill the pass)."""
    jobs = Jobs({"loader": 0.010, "indexer": 0.010, "idle": 0.010})
    for name in ("loader", "indexer", "idle"):
        jobs.pumps[name].start()
    assert jobs.run(3) == [["loader", "indexer"], ["idle", "loader"], ["indexer", "idle"]]
    jobs.costs["loader"] = 0.050  # a step longer than any pass
    runs = [name for ran in jobs.run(30) for name in ran]
    assert {name: runs.count(name) for name in jobs.costs} == {"loader": 15, "indexer": 15, "idle": 15}


def test_a_pass_spent_before_the_turns_is_left_to_the_next_once(qapp: Any) -> None:
    """A pass that spent its budget before the jobs' turns (a repaint): the job first in line
    waits for the next pass, once; a job that waited runs however the pass is spent, so a loop
    busy with other work still moves every job on (one step every other pass)."""
    jobs = Jobs({"loader": 0.004})
    jobs.pumps["loader"].start()
    assert jobs.run(1, before=0.002) == [["loader"]]  # time left: it runs
    assert jobs.run(4, before=0.030) == [[], ["loader"], [], ["loader"]]


def test_the_first_turn_after_the_loop_was_idle_begins_its_pass(qapp: Any) -> None:
    """With no job started, the loop may have waited: the first turn after counts from itself,
    not from the last turn's end."""
    jobs = Jobs({"loader": 0.010, "indexer": 0.010})
    jobs.pumps["loader"].start()
    jobs.run(1)
    jobs.pumps["loader"].stop()
    jobs.clock.now += 0.030  # idle: the loop waited for something to do
    for pump in jobs.pumps.values():
        pump.start()
    assert jobs.run(1) == [["loader", "indexer"]]
    assert jobs.run(1, before=0.030) == [[]]  # (since that turn: the pass's own)


def test_a_stopped_job_leaves_the_line_and_a_one_step_job_runs_once(qapp: Any) -> None:
    jobs = Jobs({"loader": 0.020, "indexer": 0.020, "once": 0.020})
    for name in ("loader", "indexer"):
        jobs.pumps[name].start()
    jobs.run(1)
    jobs.pumps["indexer"].stop()  # it had waited: no pass is kept for it
    jobs.budget.once(jobs.owner, jobs.pumps["once"].call)
    # its turn in line, after the loader's; once
    assert jobs.run(4) == [["loader"], ["once"], ["loader"], ["loader"]]
    jobs.pumps["loader"].stop()
    assert jobs.run(1) == [[]]


def test_a_job_whose_owner_is_deleted_stops(qapp: Any) -> None:
    jobs = Jobs({"loader": 0.001})
    owner = QObject()
    ran: list[int] = []
    pump = jobs.budget.pump(owner, lambda: ran.append(1))
    pump.start()
    jobs.pumps["loader"].start()
    jobs.run(1)
    import shiboken6

    shiboken6.delete(owner)
    assert jobs.run(1) == [["loader"]] and ran == [1] and not pump.active


class _Repaint(QObject):
    """A posted event that spends ``cost`` of the clock, as a repaint does in its pass."""

    done = Signal()

    def __init__(self, clock: Clock, cost: float, seen: list[str]) -> None:
        super().__init__()
        self.clock, self.cost, self.seen = clock, cost, seen

    def event(self, event: QEvent) -> bool:
        if event.type() == QEvent.Type.User:
            self.seen.append("repaint")
            self.clock.now += self.cost
            return True
        return super().event(event)


def test_a_repaint_between_two_turns_counts_in_the_pass_on_this_platform_s_loop(
    qapp: Any, qtbot: Any
) -> None:
    """The real event loop (as ``exec()`` runs it), the test's clock: a posted event (a repaint)
    that spends the budget between two turns leaves the next turn no step to run; the turn after
    runs it. (Qt's glib dispatcher delivers a pass's posted events before its timers, the Unix one,
    ``QT_NO_GLIB``, too, but marks the pass, ``aboutToBlock``, only after them: this holds on both.)"""
    clock = Clock()
    seen: list[str] = []

    class Budget(PassBudget):
        def run_pass(self) -> None:
            seen.append("turn")
            super().run_pass()

    budget = Budget(PASS_S, clock)
    repaint = _Repaint(clock, 0.030, seen)

    def step() -> None:
        seen.append("step")
        if seen.count("step") == 3:  # a repaint posted: it comes before the next turn
            QCoreApplication.postEvent(repaint, QEvent(QEvent.Type.User))
        if seen.count("step") == 5:
            pump.stop()
            repaint.done.emit()

    pump = budget.pump(repaint, step)
    with qtbot.waitSignal(repaint.done, timeout=5000):
        pump.start()
    assert seen == ["turn", "step"] * 3 + ["repaint", "turn"] + ["turn", "step"] * 2, seen
