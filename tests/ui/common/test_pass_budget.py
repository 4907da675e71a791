"""``PassBudget``: the jobs share one budget per pass of the event loop, take turns, and none starves.
Counted, not timed: the passes are run by hand, the clock is the test's own (each step says how
long it took), except in the last test, which runs the real event loop with that clock to show
what this platform's dispatcher marks as a pass."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QAbstractEventDispatcher, QCoreApplication, QEvent, QObject, Signal

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
        """``passes`` passes, each begun (the dispatcher's mark) ``before`` seconds before the
        jobs' turns (what the pass spent first: a repaint)."""
        for _ in range(passes):
            self.passes.append([])
            self.budget.begin_pass()
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


def test_without_a_mark_the_pass_begins_at_the_turns(qapp: Any) -> None:
    """A dispatcher that marks no pass: the budget is the jobs' own time (what the pass spent
    before their turn is unknown, not counted)."""
    jobs = Jobs({"loader": 0.010, "indexer": 0.010})
    for pump in jobs.pumps.values():
        pump.start()
    jobs.clock.now += 0.030  # time since the last turn, unknown to the budget: not a pass's
    jobs.passes.append([])
    jobs.budget.run_pass()
    assert jobs.passes == [["loader", "indexer"]]


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


def test_this_platform_s_dispatcher_marks_each_pass_before_its_posted_events_and_timers(
    qapp: Any, qtbot: Any
) -> None:
    """What ``PassBudget`` reads from the event loop, on the dispatcher these tests run on (Qt's
    glib or Unix one, as the shipped app on Linux): ``aboutToBlock`` comes once per pass while a
    job waits, before the pass's posted events (a repaint) and its timers, so a pass whose
    repaint spent the budget runs no job's step (it waits for the next pass)."""
    name = QAbstractEventDispatcher.instance().metaObject().className()
    assert name in (
        "QEventDispatcherGlib",
        "QPAEventDispatcherGlib",
        "QEventDispatcherUNIX",
        "QUnixEventDispatcherQPA",
    )
    clock = Clock()
    budget = PassBudget(PASS_S, clock)
    seen: list[str] = []
    repaint = _Repaint(clock, 0.030, seen)
    QAbstractEventDispatcher.instance().aboutToBlock.connect(lambda: seen.append("pass"))

    def step() -> None:
        seen.append("step")
        if seen.count("step") == 3:  # a repaint posted: it comes in the next pass, before the turns
            QCoreApplication.postEvent(repaint, QEvent(QEvent.Type.User))
        if seen.count("step") == 6:
            pump.stop()
            repaint.done.emit()

    pump = budget.pump(repaint, step)
    with qtbot.waitSignal(repaint.done, timeout=5000):  # (the loop run as exec() runs it: it may wait)
        pump.start()
    passes = "".join(" " if e == "pass" else e[0] for e in seen).split()  # per pass: s(tep), r(epaint)
    start = passes.index("s", passes.index("s") + 1)  # from a pass the budget heard begin
    assert passes[start : start + 5] == ["s", "s", "r", "s", "s"], passes
