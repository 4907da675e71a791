"""The stall monitor of ``_gui.py stall``: gaps of a 5 ms QTimer on the GUI thread, and for each
long one, what it was made of.

A gap is the app's own doing only in part. On Linux each stall is broken down with ``/proc``:

* **on a CPU**: the GUI thread's run time (``schedstat``): work on the loop (Python or Qt);
* **waiting for a CPU**: runnable but not running (``schedstat`` run delay): other processes or
  threads had the CPUs;
* **steal**: time the hypervisor ran something else on the CPU the thread was on (``/proc/stat``,
  in 10 ms ticks; the thread's CPU from ``/proc/thread-self/stat``). A virtual machine on a shared
  host loses its CPUs for tens of ms at a time; neither the app nor the guest sees it coming;
* the rest: blocked (a lock such as the GIL, a system call) or stolen but not counted.

"The app's share" of a gap is the gap less the steal that certainly fell inside it (one tick less
than counted). A watchdog thread samples the GUI thread's Python stack and kernel state, the
other threads' innermost frames and how many of the machine's threads are runnable (which ones
with ``BENCH_STALL_RUNNABLE=1``) while a gap is open; GUI-thread asyncio callbacks, loader passes
and table models' idle passes over ``SLOW_CALL`` and every cyclic GC are logged with times.
``report(witness=...)`` notes, for each stall, how long the baseline process (``_witness.py``,
an empty window) stalled meanwhile.
"""

from __future__ import annotations

import asyncio
import gc
import os
import resource
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

PERIOD_MS = 5
STUCK = 0.030  # a gap longer than this is a stall: broken down, and its samples kept
SAMPLE_AFTER = 0.012  # the watchdog samples the GUI thread once it has not ticked for this long
SLOW_CALL = 0.002  # GUI-thread callbacks longer than this are logged
RUNNABLE_LIST = bool(os.environ.get("BENCH_STALL_RUNNABLE"))  # list the runnable threads, not count
TICK = 1 / os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 0.01  # /proc/stat unit


class StallMonitor:
    """Gaps between ticks of a 5 ms PreciseTimer, per phase; a breakdown of each stall."""

    def __init__(self) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.phase = "startup"
        self.gaps: dict[str, list[float]] = {}
        self.timer = QTimer(interval=PERIOD_MS)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.timeout.connect(self._tick)
        self.main_id = threading.get_ident()
        self.main_native = threading.get_native_id()
        self._proc = _ThreadClock()
        self.last = 0.0  # the last tick; ``start`` sets it and ``_clock``
        self._clock: dict[str, Any] = {}
        self.stalls: list[dict[str, Any]] = []
        self.samples: dict[float, list[tuple[str, ...]]] = {}  # stall start -> GUI thread stacks
        self.others: dict[float, Counter[str]] = {}  # stall start -> other threads' frames
        self.runnable: dict[float, list[str]] = {}  # stall start -> the machine's runnable tasks
        self.collections: list[tuple[float, float, int, bool]] = []  # start, s, generation, GUI?
        self.slow_calls: list[tuple[float, float, float, str]] = []  # start, s, CPU s, what
        self._gc_start = 0.0
        # phase -> start, end, GUI thread's CPU s, its time waiting for a CPU s, times preempted
        self._spans: dict[str, tuple[float, float, float, float, int]] = {}
        self._span_start, self._span_cpu = time.perf_counter(), time.thread_time()
        self._span_clock: dict[str, Any] = {}
        self._untime: Any = None
        self._stop = threading.Event()
        self._watch = threading.Thread(target=self._watchdog, daemon=True)

    def start(self) -> None:
        self.last, self._clock = time.perf_counter(), self._proc.read()
        self._span_clock = self._clock
        self.timer.start()
        self._watch.start()
        gc.callbacks.append(self._gc)
        self._untime = _time_callbacks(self.slow_calls, self.main_id)

    def stop(self) -> None:
        self.set_phase("")
        gc.callbacks.remove(self._gc)
        self._untime()
        self.timer.stop()
        self._stop.set()
        self._watch.join(2)

    def set_phase(self, phase: str) -> None:
        self._tick()
        now = time.perf_counter()
        clock, was = self._proc.read(), self._span_clock
        waited = clock["waiting"] - was["waiting"] if clock and was else 0.0
        preempted = clock["preempted"] - was["preempted"] if clock and was else 0
        self._spans[self.phase] = (
            self._span_start,
            now,
            time.thread_time() - self._span_cpu,
            waited,
            preempted,
        )
        self.phase, self._span_start, self._span_cpu = phase, now, time.thread_time()
        self._span_clock = clock

    def _tick(self) -> None:
        now, clock = time.perf_counter(), self._proc.read()
        gap = now - self.last
        self.gaps.setdefault(self.phase, []).append(gap)
        if gap > STUCK:
            self.stalls.append(
                {
                    "start": self.last,
                    "gap": gap,
                    "phase": self.phase,
                    **self._proc.breakdown(self._clock, clock, gap),
                }
            )
        elif gap > SAMPLE_AFTER:  # sampled, but not a stall
            for samples in (self.samples, self.others, self.runnable):
                samples.pop(self.last, None)
        self.last, self._clock = now, clock

    def _gc(self, phase: str, info: dict[str, int]) -> None:
        now = time.perf_counter()
        if phase == "start":
            self._gc_start = now
        else:
            self.collections.append(
                (
                    self._gc_start,
                    now - self._gc_start,
                    info["generation"],
                    threading.get_ident() == self.main_id,
                )
            )

    def _watchdog(self) -> None:
        while not self._stop.wait(0.004):
            last = self.last
            if time.perf_counter() - last <= SAMPLE_AFTER:
                continue
            frames = sys._current_frames()
            frame = frames.pop(self.main_id, None)
            frames.pop(threading.get_ident(), None)
            if frame is None:
                continue
            self.others.setdefault(last, Counter()).update(
                f"{Path(f.f_code.co_filename).name}:{f.f_lineno} {f.f_code.co_name}" for f in frames.values()
            )
            stack = _stack(frame)
            del frames, frame
            bucket = self.samples.setdefault(last, [])
            if len(bucket) < 50:
                bucket.append((*stack, _kernel_state(self.main_native)))
            if last not in self.runnable:  # the list costs ~13 ms of this thread holding the GIL
                self.runnable[last] = _runnable_tasks() if RUNNABLE_LIST else _runnable_count()

    def spans(self) -> dict[str, tuple[float, float]]:
        """Each phase's start and end (``time.perf_counter``)."""
        return {phase: (span[0], span[1]) for phase, span in self._spans.items()}

    def report(self, top: int = 8, witness: list[tuple[float, float]] | None = None) -> dict[str, Any]:
        """Per phase figures and the ``top`` longest stalls; with ``witness`` (the baseline
        process's stalls: start, length), each stall notes the witness's longest gap that
        overlapped it."""
        witness = witness or []
        out: dict[str, Any] = {"phases": {}}
        for phase, gaps in self.gaps.items():
            ms = sorted(g * 1000 for g in gaps)
            start, end, cpu, waited, preempted = self._spans.get(phase, (0.0, 0.0, 0.0, 0.0, 0))
            calls = [c for c in self.slow_calls if start <= c[0] < end]
            by_name: Counter[str] = Counter()
            for c in calls:
                by_name[c[3].split(" at ")[0]] += c[2]
            # the app's share: stalls less the steal inside them; shorter gaps count whole
            shares = [s["app_ms"] for s in self.stalls if s["phase"] == phase]
            shares += [g for g in ms if g <= STUCK * 1000]
            both = [
                s
                for s in self.stalls
                if s["phase"] == phase
                and s["gap"] > 0.05
                and _witnessed(witness, s["start"], s["start"] + s["gap"]) > 0.05
            ]
            out["phases"][phase] = {
                "over_50ms_witnessed": len(both),
                "ticks": len(ms),
                "max_ms": ms[-1] if ms else 0.0,
                "p99_ms": ms[min(len(ms) - 1, int(len(ms) * 0.99))] if ms else 0.0,
                "over_50ms": sum(1 for g in ms if g > 50),
                "over_30ms": sum(1 for g in ms if g > 30),
                "app_max_ms": max(shares, default=0.0),
                # the GUI thread's longest time on a CPU in one gap (over ``STUCK``): the least
                # the gap would have been on an idle machine
                "cpu_max_ms": max(
                    (s.get("on_cpu_ms", 0.0) for s in self.stalls if s["phase"] == phase), default=0.0
                ),
                "seconds": end - start,
                "gui_cpu_s": cpu,
                "gui_wait_s": waited,
                "gui_preempted": preempted,
                "calls_over_2ms": len(calls),
                "calls_over_10ms": sum(1 for c in calls if c[1] > 0.01),
                "calls_max_cpu_ms": max((c[2] for c in calls), default=0.0) * 1000,
                "calls_cpu_by_name_ms": {k: round(v * 1000) for k, v in by_name.most_common(5)},
                "calls_longest": [
                    f"{d * 1000:.0f} ms (CPU {c * 1000:.0f}) {what[:60]}"
                    for _, d, c, what in sorted(calls, key=lambda c: -c[2])[:5]
                ],
            }
        out["worst"] = self._worst(sorted(self.stalls, key=lambda s: -s["gap"])[:top], witness)
        # The same by the GUI thread's own CPU time in the gap: on a loaded machine the longest
        # gaps are mostly waiting for a CPU; these are the app's own longest steps.
        by_cpu = sorted(self.stalls, key=lambda s: -s.get("on_cpu_ms", s["gap"] * 1000))[:top]
        out["worst_cpu"] = self._worst(by_cpu, witness)
        full = [c for c in self.collections if c[2] == 2 and c[3]]  # full passes on the GUI thread
        out["collections"] = {
            "count": len(self.collections),
            "max_ms": max((c[1] for c in self.collections), default=0.0) * 1000,
            "full_on_gui_thread": len(full),
            "full_max_ms": max((c[1] for c in full), default=0.0) * 1000,
        }
        return out

    def _worst(
        self, stalls: list[dict[str, Any]], witness: list[tuple[float, float]]
    ) -> list[dict[str, Any]]:
        """``stalls`` with their samples, the other threads, collections and callbacks in them."""
        out = []
        for s in stalls:
            start, end = s["start"], s["start"] + s["gap"]
            stacks = self.samples.get(start, [])
            inner = Counter(stack[-14:] for stack in stacks).most_common(3)
            out.append(
                {
                    **{k: v for k, v in s.items() if k not in ("start", "gap")},
                    "gap_ms": s["gap"] * 1000,
                    "samples": len(stacks),
                    "stacks": [{"count": c, "frames": list(f)} for f, c in inner],
                    "other_threads": self.others.get(start, Counter()).most_common(4),
                    "runnable": self.runnable.get(start, []),
                    "collections": [
                        f"gen {g} {d * 1000:.0f} ms {'GUI' if gui else 'other'} thread"
                        for t, d, g, gui in self.collections
                        if t < end and t + d > start
                    ],
                    "slow_calls": _overlapping(self.slow_calls, start, end),
                    "witness_ms": _witnessed(witness, start, end) * 1000,
                }
            )
        return out


def _witnessed(witness: list[tuple[float, float]], start: float, end: float) -> float:
    """The witness's longest gap that overlapped [start, end] (0 if none)."""
    return max((g for s, g in witness if s < end and s + g > start), default=0.0)


def _overlapping(calls: list[tuple[float, float, float, str]], start: float, end: float) -> dict[str, Any]:
    """The logged callbacks that ran during [start, end]: how many, their time, the longest."""
    inside = [c for c in calls if c[0] < end and c[0] + c[1] > start]
    longest = sorted(inside, key=lambda c: -c[1])[:3]
    return {
        "count": len(inside),
        "ms": sum(c[1] for c in inside) * 1000,
        "longest": [f"{d * 1000:.0f} ms (CPU {cpu * 1000:.0f}) {what}" for _, d, cpu, what in longest],
    }


class _ThreadClock:
    """The calling thread's clocks and the state of its CPU (Linux; zeros elsewhere)."""

    def __init__(self) -> None:
        self._fds = [
            _open("/proc/thread-self/schedstat"),
            _open("/proc/thread-self/stat"),
            _open("/proc/stat"),
        ]
        self.ok = None not in self._fds and hasattr(resource, "RUSAGE_THREAD")

    def read(self) -> dict[str, Any]:
        """Seconds on a CPU and waiting for one (``schedstat``); user and system seconds, page
        faults, voluntary and involuntary context switches (``getrusage(RUSAGE_THREAD)``); the
        CPU it is on; per CPU, ticks of steal and of interrupt handling (``/proc/stat``)."""
        if not self.ok:
            return {}
        sched, stat, cpus = (os.pread(fd, 4096, 0) for fd in self._fds)  # type: ignore[arg-type]
        use = resource.getrusage(resource.RUSAGE_THREAD)  # type: ignore[attr-defined]
        on_cpu, waiting = sched.split()[:2]
        per_cpu = [
            line.split()
            for line in cpus.splitlines()
            if line.startswith(b"cpu") and not line.startswith(b"cpu ")
        ]
        return {
            "on_cpu": int(on_cpu) / 1e9,
            "waiting": int(waiting) / 1e9,
            "user": use.ru_utime,
            "system": use.ru_stime,
            "faults": use.ru_minflt + use.ru_majflt,
            "blocked": use.ru_nvcsw,
            "preempted": use.ru_nivcsw,
            "cpu": int(stat[stat.rindex(b")") + 2 :].split()[36]),
            "steal": [int(f[8]) for f in per_cpu],
            "irq": [int(f[6]) + int(f[7]) for f in per_cpu],
        }

    @staticmethod
    def breakdown(before: dict[str, Any], after: dict[str, Any], gap: float) -> dict[str, Any]:
        """A gap's parts (ms, counts). The time neither on a CPU nor waiting for one is the thread
        blocked (it slept: ``blocked`` > 0) or its CPU taken from under it: steal or interrupts,
        which the scheduler's clock leaves out. If it never slept, that time is exactly that
        ("lost_ms"); if it did, only the steal ticks of its CPU are certainly lost (less one: the
        counter may have ticked just inside the gap)."""
        if not before or not after:
            return {"app_ms": gap * 1000}
        d = {
            k: after[k] - before[k]
            for k in ("on_cpu", "waiting", "user", "system", "faults", "blocked", "preempted")
        }
        unaccounted = max(0.0, gap - d["on_cpu"] - d["waiting"])
        same = before["cpu"] == after["cpu"] and 0 <= after["cpu"] < len(after["steal"])
        steal = (after["steal"][after["cpu"]] - before["steal"][after["cpu"]]) if same else None
        irq = (after["irq"][after["cpu"]] - before["irq"][after["cpu"]]) if same else None
        lost = unaccounted if d["blocked"] == 0 else max(0, (steal or 0) - 1) * TICK
        return {
            "on_cpu_ms": d["on_cpu"] * 1000,
            "runqueue_ms": d["waiting"] * 1000,
            "user_ms": d["user"] * 1000,
            "system_ms": d["system"] * 1000,
            "faults": d["faults"],
            "slept": d["blocked"],
            "preempted": d["preempted"],
            "unaccounted_ms": unaccounted * 1000,
            "steal_ms": None if steal is None else steal * TICK * 1000,
            "irq_ms": None if irq is None else irq * TICK * 1000,
            "lost_ms": min(lost, gap) * 1000,
            "app_ms": (gap - min(lost, gap)) * 1000,
        }


def _time_callbacks(into: list[tuple[float, float, float, str]], main_id: int) -> Any:
    """Log the GUI thread's asyncio callbacks, loader passes, table models' idle passes and the
    session's ready and the pass after it over ``SLOW_CALL`` (wall and thread CPU time). Returns
    the function that undoes it."""
    from catalogue_desktop.ui.browse.catalogue_loader import CatalogueLoader
    from catalogue_desktop.ui.browse.idle_work import IdleWork

    def timed(real: Any, name: Any) -> Any:
        def call(self: Any, *args: Any, **kwargs: Any) -> Any:
            if threading.get_ident() != main_id:
                return real(self, *args, **kwargs)
            t, c = time.perf_counter(), time.thread_time()
            try:
                return real(self, *args, **kwargs)
            finally:
                d = time.perf_counter() - t
                if d > SLOW_CALL:
                    into.append((t, d, time.thread_time() - c, name(self)))

        return call

    from catalogue_desktop.ui.browse.table_model import RowSetTableModel
    from catalogue_desktop.ui.finder.indexer import FinderIndexer
    from catalogue_desktop.ui.shell.session import AppSession

    patched = [
        (asyncio.events.Handle, "_run", _handle_name),
        (CatalogueLoader, "_step", lambda _: "CatalogueLoader._step"),
        (CatalogueLoader, "rebuild_index", lambda _: "CatalogueLoader.rebuild_index"),
        (CatalogueLoader, "reload", lambda _: "CatalogueLoader.reload"),
        (IdleWork, "step", lambda w: f"IdleWork.step {w.rowset.kind.value}"),
        (FinderIndexer, "_pass", lambda i: f"FinderIndexer._pass {next(iter(i._jobs), '')}"),
        (FinderIndexer, "stop", lambda _: "FinderIndexer.stop"),
        (RowSetTableModel, "set_rowset", lambda m: f"RowSetTableModel.set_rowset {m.kind.value}"),
        (RowSetTableModel, "show_growing", lambda m: f"RowSetTableModel.show_growing {m.kind.value}"),
        (RowSetTableModel, "sort", lambda m: f"RowSetTableModel.sort {m.kind.value}"),
        (AppSession, "_loaded", lambda _: "AppSession._loaded"),  # ready
        (AppSession, "_after_ready", lambda _: "AppSession._after_ready"),  # the pass after it
    ]
    # (what the code measured has: the bench also runs against older versions)
    patched = [p for p in patched if hasattr(p[0], p[1])]
    saved = [(cls, attr, getattr(cls, attr)) for cls, attr, _ in patched]
    for cls, attr, name in patched:
        setattr(cls, attr, timed(getattr(cls, attr), name))

    def undo() -> None:
        for cls, attr, real in saved:
            setattr(cls, attr, real)

    return undo


def _handle_name(handle: Any) -> str:
    """An asyncio callback, named by its task's coroutine when it steps a task."""
    task = getattr(getattr(handle, "_callback", None), "__self__", None)
    if isinstance(task, asyncio.Task):
        coro = task.get_coro()
        frame = getattr(coro, "cr_frame", None)
        where = f" at {Path(frame.f_code.co_filename).name}:{frame.f_lineno}" if frame else ""
        return f"task {getattr(coro, '__qualname__', coro)}{where}"
    return repr(handle)[:160]


def _stack(frame: Any) -> tuple[str, ...]:
    """A frame's stack, outermost first, as "file:line function" (no source lines read: the
    watchdog holds the GIL meanwhile)."""
    out = []
    while frame is not None:
        out.append(f"{Path(frame.f_code.co_filename).name}:{frame.f_lineno} {frame.f_code.co_name}")
        frame = frame.f_back
    return tuple(reversed(out))


def _kernel_state(tid: int) -> str:
    """Where a thread is in the kernel (Linux): the system call it is in and its wait channel."""
    try:
        task = Path(f"/proc/self/task/{tid}")
        call = (task / "syscall").read_text().split()
        return f"[kernel: syscall {' '.join(call[:2])}, wchan {(task / 'wchan').read_text()}]"
    except OSError:
        return "[kernel: ?]"


def _runnable_count() -> list[str]:
    """How many threads of the machine are runnable, of how many (``/proc/loadavg``)."""
    try:
        return [f"{Path('/proc/loadavg').read_text().split()[3]} threads runnable"]
    except (OSError, IndexError):
        return []


def _runnable_tasks() -> list[str]:
    """The machine's runnable threads (Linux ``/proc``), as "command (nice)", this process's as
    "[its Python thread name]"."""
    names = {t.native_id: t.name for t in threading.enumerate()}
    mine = f"/proc/{os.getpid()}/"
    found = []
    for stat in Path("/proc").glob("[0-9]*/task/[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name, rest = text[text.index("(") + 1 : text.rindex(")")], text[text.rindex(")") + 2 :].split()
        if rest[0] == "R":
            tid = int(stat.parent.name)
            found.append(
                f"[{names.get(tid, name)}]" if str(stat).startswith(mine) else f"{name} ({rest[16]})"
            )
    return sorted(found)


def _open(path: str) -> int | None:
    try:
        return os.open(path, os.O_RDONLY)
    except OSError:
        return None
