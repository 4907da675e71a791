"""The sales desk's figures in the window (a child process of ``bench/run.py``; offscreen, isolated
HOME): ``python bench/_dates.py --cache DIR [--repeat R]`` prints one JSON line.

The real window (``ui.shell.session.AppSession``, offline, on the pre-filled cache) with the Dates
tab current, as a user looking at it:

* **Dates tab built**: once every table is indexed, ``FinderIndexer.rebuild_offerings()`` makes
  the offerings again, as it does after a refresh of courses, series or webinars (its
  ``_offerings_job``: the offerings' columns, their table's indexes, the Dates rows, then the tab's
  rows set, sorted by start, past hidden). Measured: wall time from the call until the tab shows
  the new rows and has painted them; the longest indexer step (``_step``); the longest gap of a
  5 ms ``PreciseTimer`` meanwhile (the event loop's stall). ``--repeat`` times, and once at
  start-up (the same job after the kinds' tables, as a detail).
* **Query per keystroke on Dates**: the interact phase's typing (``_gui.TYPING``) into the query
  box; per key = key handling + the debounced ``FinderController.set_query`` (the Dates tab's
  rows, every tab's count) + repaint of the table, count and tab bar (the debounce wait excluded).
* **Offer sheet PDF of 50 occasions / .ics of 1,000**: the first 50 (1,000) rows of the Dates tab
  selected, then ``DatesTab.offer("pdf")`` (``"ics"``) with the file dialog and the sheet's dialog
  answered at once: occasions from the offerings' columns, the sheet laid out on A4 pages
  (``sheet_pdf``) or the calendar text, written to a file. First run and median of ``--repeat``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import _gui


class GapMonitor:
    """A 5 ms PreciseTimer noting the longest gap between its ticks while ``running``."""

    def __init__(self) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.timer = QTimer(interval=5)
        self.timer.setTimerType(Qt.TimerType.PreciseTimer)
        self.timer.timeout.connect(self._tick)
        self.last = 0.0
        self.max_gap = 0.0

    def start(self) -> None:
        self.max_gap, self.last = 0.0, time.perf_counter()
        self.timer.start()

    def _tick(self) -> None:
        now = time.perf_counter()
        self.max_gap = max(self.max_gap, now - self.last)
        self.last = now

    def stop(self) -> float:
        self._tick()
        self.timer.stop()
        return self.max_gap


def main(cache: str, repeat: int) -> dict[str, Any]:
    app = _gui._qapp()
    from PySide6.QtCore import QItemSelection, QItemSelectionModel

    from catalogue_desktop.core.offers.offer import CLOCK
    from catalogue_desktop.core.records.kinds import OCCASIONS
    from catalogue_desktop.ui.offers import desk
    from catalogue_desktop.ui.offers.sheet_dialog import SheetDialog, SheetOptions
    from catalogue_desktop.ui.shell.session import AppSession, Options

    out: dict[str, Any] = {}
    tmp = Path(tempfile.mkdtemp(prefix="bench-offers-"))

    async def run() -> None:
        t0 = time.perf_counter()
        session = AppSession(
            Options(base_url="http://127.0.0.1:9", offline=True, cache_dir=cache), image_fetch=_gui._no_images
        )
        ready = asyncio.ensure_future(_gui._signal(session.ready, 600))
        window = session.start()
        window.show_tab(OCCASIONS)  # the Dates tab current: its rows are set (and sorted) as they come
        await ready
        out["ready_s"] = time.perf_counter() - t0
        indexer = session.finder.indexer
        steps: list[tuple[str, float]] = []
        real_step = indexer._step

        def step() -> None:  # each indexer step, timed, with the job it belonged to
            name = next(iter(indexer._jobs), "offerings")
            t = time.perf_counter()
            real_step()
            steps.append((name, time.perf_counter() - t))

        indexer._step = step
        while indexer.busy:
            await asyncio.sleep(0.02)
        tab = window.current_tab()
        tab.view.viewport().repaint()
        out["first_build"] = {
            "ready_to_dates_s": time.perf_counter() - t0 - out["ready_s"],
            "offerings_ms": sum(s for n, s in steps if n == "offerings") * 1000,
            "offerings_max_step_ms": max((s for n, s in steps if n == "offerings"), default=0) * 1000,
            "max_step_ms": max(s for _n, s in steps) * 1000,
            "steps": len(steps),
        }
        out["dates_rows"] = len(tab.model.rowset)
        out["dates_shown"] = tab.model.rowCount()
        await asyncio.sleep(0.3)

        # -- the Dates tab built again from the loaded catalogue ---------------------------------
        monitor = GapMonitor()
        builds = []
        for _ in range(repeat):
            steps.clear()
            shown: list[Any] = []
            session.finder.indexer.dates_ready.connect(shown.append)
            await asyncio.sleep(0.2)
            monitor.start()
            t = time.perf_counter()
            indexer.rebuild_offerings()
            while not shown:
                await asyncio.sleep(0)
            assert tab.model.rowset is shown[0]
            tab.view.viewport().repaint()  # (the step that showed them returned: paint them now)
            shown_s = time.perf_counter() - t
            gap_shown = monitor.max_gap
            shown_steps = len(steps)
            while indexer.busy:
                await asyncio.sleep(0)
            done_s = time.perf_counter() - t
            await asyncio.sleep(0.02)
            builds.append(
                {
                    "shown_ms": shown_s * 1000,
                    "done_ms": done_s * 1000,
                    "max_step_ms": max(s for _n, s in steps) * 1000,
                    "steps_to_shown": shown_steps,
                    "steps": len(steps),
                    "max_gap_to_shown_ms": gap_shown * 1000,
                    "max_gap_ms": monitor.stop() * 1000,
                }
            )
            session.finder.indexer.dates_ready.disconnect(shown.append)
        out["build"] = builds

        # -- the query, typed, on the Dates tab --------------------------------------------------
        finder, box = session.finder, window.query_box
        applied, restore = _gui.time_queries(finder, window, tab)
        keys = []
        for _ in range(repeat):
            for ch in _gui.TYPING:
                before = len(applied)
                t = time.perf_counter()
                _gui._key_click(box.edit, ch)
                key_s = time.perf_counter() - t
                waited = time.perf_counter()
                while len(applied) == before and time.perf_counter() - waited < 1:
                    await asyncio.sleep(0.002)
                apply_s = applied[-1] if len(applied) > before else 0.0
                keys.append(
                    {
                        "key": ch,
                        "text": box.text(),
                        "rows": tab.model.rowCount(),
                        "key_ms": key_s * 1000,
                        "apply_ms": apply_s * 1000,
                        "ms": (key_s + apply_s) * 1000,
                    }
                )
            box.clear()
            await asyncio.sleep(0.1)
        restore()
        out["keys"] = keys
        # What a typed key leaves for when typing pauses: the facet panel's counts.
        facets = []
        for text in dict.fromkeys(k["text"] for k in keys):
            box.set_text(text)
            await asyncio.sleep(0)
            t = time.perf_counter()
            finder.redraw_panel()
            window.facet_panel.repaint()
            facets.append((time.perf_counter() - t) * 1000)
        box.clear()
        out["facets_ms"] = facets
        await asyncio.sleep(0.2)

        # -- offers: the sheet of 50, the calendar of 1,000 ------------------------------------------
        stale = []
        desk.ask_to_continue = lambda _parent, text: stale.append(text) or True
        desk.ask_path = lambda _p, _c, name, _f, *_remembered: tmp / name
        SheetDialog.ask = classmethod(lambda cls, *_a, **_k: SheetOptions("Offer for ACME", "course", "A4"))
        window.formatter.set_currency("USD")  # (else the first offer asks for it)
        offer_desk = tab.desk
        remembered = offer_desk.remembered if offer_desk is not None else None
        assert remembered is not None, "no offers' settings: the bench would wait on a dialog"
        remembered.times = CLOCK  # doubtful course times as chosen once (else a modal box asks)
        flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
        for what, n in (("pdf", 50), ("ics", 1000), ("copy", 1000)):
            selection = tab.view.selectionModel()
            selection.clearSelection()
            selection.select(QItemSelection(tab.model.index(0, 0), tab.model.index(n - 1, 0)), flags)
            runs = []
            for _ in range(repeat + 1):
                t = time.perf_counter()
                tab.offer(what)
                runs.append((time.perf_counter() - t) * 1000)
                await asyncio.sleep(0.05)
            out[f"offer_{what}"] = {"n": n, "runs_ms": runs, "message": window.statusBar().currentMessage()}
        pdf = tmp / next(p.name for p in tmp.iterdir() if p.suffix == ".pdf")
        out["offer_pdf"]["bytes"] = pdf.stat().st_size
        out["stale_warnings"] = len(stale)
        await session.aclose()

    _gui._run(app, run())
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--cache", required=True)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(json.dumps(main(args.cache, args.repeat)), flush=True)
    os._exit(0)
