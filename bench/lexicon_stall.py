"""The window's side of plain words (issue 36) at N: the lexicon built on its thread while the GUI
thread's event loop runs, and the reading of typed phrases on the GUI thread.

    python bench/lexicon_stall.py [--cache bench/out/cache-100000] [--runs 5] [--default-switch]

Prints, per run, the lexicon's build time on its thread (``ui.finder.lexicon_builder``, as the
window runs it once every table is built) and the longest gap of a 5 ms PreciseTimer on the GUI
thread meanwhile (the stall goal: under 16 ms), against the same timer's longest gap over an equal
time with no build (the machine's own noise); then the reading per phrase (``read`` for the
Courses and Dates tabs, the lexicon of the cache): median and max over the phrases. Offscreen.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from catalogue_desktop.core.query.reading import Lexicon
from catalogue_desktop.ui.finder.lexicon_builder import LexiconBuilder

PHRASES = [
    "texas courses under 1500",
    "chicago december",
    "cle webinars by margaret okafor",
    "courses in new york in april 2027",
    "live webinars this week",
    "tax webinars under $200",
    "ethics cle in washington dc",
    "what's on in boston next month",
    "on demand webinars about privacy",
    "experts with more than 3 courses",
    "cheapest cpe course in dallas",
    "atlanta mar 2027",
    "webinars without experts",
    "chicgo",
    "illinois cpe",
]


def _gaps_while(app: object, busy: object) -> float:
    """The longest gap (ms) between ticks of a 5 ms timer while ``busy()`` is true."""
    from PySide6.QtCore import QElapsedTimer, Qt, QTimer
    from PySide6.QtWidgets import QApplication

    clock = QElapsedTimer()
    clock.start()
    last = [clock.nsecsElapsed()]
    longest = [0.0]

    def tick() -> None:
        now = clock.nsecsElapsed()
        longest[0] = max(longest[0], (now - last[0]) / 1e6)
        last[0] = now

    timer = QTimer(interval=5)
    timer.setTimerType(Qt.TimerType.PreciseTimer)
    timer.timeout.connect(tick)
    timer.start()
    while busy():  # type: ignore[operator]
        QApplication.processEvents()
        time.sleep(0.0005)
    timer.stop()
    return longest[0]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache", type=Path, default=Path("bench/out/cache-100000"))
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument(
        "--default-switch", action="store_true", help="keep Python's switch interval while building"
    )
    args = parser.parse_args()
    if args.default_switch:  # (the builder's 1 ms off: what it gains)
        from catalogue_desktop.ui.finder import lexicon_builder

        lexicon_builder.SWITCH_S = sys.getswitchinterval()

    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    from catalogue_desktop.core.cache.store import Store
    from catalogue_desktop.core.query import loading
    from catalogue_desktop.core.query.reading import read
    from catalogue_desktop.ui.finder.controller import now

    app = QApplication(sys.argv[:1])
    with Store(args.cache / "catalogue.sqlite3") as store:
        finder = loading.finder_from_store(store)
    sizes = {name: table.n for name, table in finder.tables.items()}
    print(f"tables: {sizes}")
    builds, stalls, quiet = [], [], []
    lexicon = Lexicon()
    for _ in range(args.runs):
        builds_ms, stall, lexicon = _one_build(app, finder, LexiconBuilder(Lexicon.from_finder))
        builds.append(builds_ms)
        stalls.append(stall)
        quiet.append(_quiet_for(app, builds_ms / 1000))
    print(
        f"lexicon on its thread: build median {statistics.median(builds):.0f} ms; longest GUI-thread gap "
        f"meanwhile median {statistics.median(stalls):.1f} ms, max {max(stalls):.1f} ms "
        f"(no build: median {statistics.median(quiet):.1f} ms, max {max(quiet):.1f} ms)"
    )
    when = now()
    for table in ("courses", "offerings"):
        times = {}
        for phrase in PHRASES:
            read(phrase, lexicon, when, table=table)  # (first use of its lookups)
            t0 = time.perf_counter()
            for _ in range(20):
                read(phrase, lexicon, when, table=table)
            times[phrase] = (time.perf_counter() - t0) / 20 * 1000
        slowest = max(times, key=lambda p: times[p])
        middle = statistics.median(times.values())
        print(
            f"read on {table}: median {middle:.2f} ms, max {times[slowest]:.2f} ms ({slowest!r}) "
            f"over {len(PHRASES)} phrases"
        )
    return 0


def _one_build(app: object, finder: object, builder: LexiconBuilder) -> tuple[float, float, Lexicon]:
    """One build on the builder's thread: (its ms, the GUI thread's longest gap meanwhile, it)."""
    started = time.perf_counter()
    built: list[float] = []
    builder.ready.connect(lambda: built.append(time.perf_counter() - started))
    builder.tables_changed()
    builder.build(finder)  # type: ignore[arg-type]
    stall = _gaps_while(app, lambda: builder.busy)
    lexicon = builder.lexicon
    builder.stop()
    return built[0] * 1000, stall, lexicon


def _quiet_for(app: object, seconds: float) -> float:
    """The GUI thread's longest gap over ``seconds`` of nothing (the machine's own noise)."""
    until = time.perf_counter() + seconds
    return _gaps_while(app, lambda: time.perf_counter() < until)


if __name__ == "__main__":
    raise SystemExit(main())
