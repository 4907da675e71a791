"""In-process GUI harnesses (child processes of ``bench/run.py``; offscreen, isolated HOME).
Each prints one JSON line.

The window is the real one: ``ui.shell.session.AppSession`` (store, ``CatalogueLoader``, ``MainWindow``,
``SyncController``) on a qasync loop, built as ``ui.shell.app.run`` builds it.

* ``stall --cache DIR --url URL``: a 5 ms ``QTimer`` (PreciseTimer) records every gap on the GUI
  thread while the session starts from the cache and then refreshes everything from the service
  (the cache's validators are cleared by the parent, so every collection is downloaded, ingested
  and its rows reloaded). Phases: ``startup`` (until the first page of rows is painted: the
  window made and shown), ``onscreen`` (from then until ``ready``: every cached row read),
  ``sync`` (until ``synced`` and 1 s more: what the refresh leaves behind), ``close``.
  ``_stalls.StallMonitor`` breaks each gap over 30 ms down (work, waiting for a CPU, hypervisor
  steal) and samples the GUI thread's stack. The baseline, ``_witness.py`` (an empty window in
  its own process), ticks beside it throughout. ``--sort KEY``: the Webinars tab is sorted by
  that column, descending, as a user left it (a refresh then reloads a sorted tab).
* ``interact --cache DIR --payload BYTES``: offline session; memory (steady RSS, peak RSS) once the
  rows and index are loaded; then filter-as-you-type, sorting and the detail pane on Webinars.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import resource
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import psutil

# PySide6 6.12.0 on CPython 3.11: every call of a void-returning Qt method from Python drops one
# reference to None (``sys.getrefcount(None)`` falls by 1 per ``label.setText(..)``,
# ``widget.repaint()``, ``QTest.keyClick(..)``...), and when it reaches 0 the interpreter aborts
# with "Fatal Python error: none_dealloc". A few thousand calls suffice in a fresh process. The
# harness holds two million extra references so that its measurements can finish; the app itself
# has no such cushion (see bench/README.md).
_NONE_CUSHION = [None] * 2_000_000


def _rss_mb() -> float:
    return psutil.Process().memory_info().rss / 2**20


def _peak_mb() -> float:
    """This process's peak RSS: the kernel's high-water mark of its memory map (VmHWM), fresh at
    exec. ``ru_maxrss`` is kept across exec on Linux, so a child of a big parent (run.py, after
    the sync bench made a catalogue in its own process) reported the parent's peak as its own."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# -- session ---------------------------------------------------------------------------------------


async def _no_images(url: str, max_bytes: int) -> bytes:
    raise ConnectionError("the benchmark does not download images")


def _qapp() -> Any:
    from PySide6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setQuitOnLastWindowClosed(False)
    return app


def _run(app: Any, coro: Any) -> Any:
    import qasync

    with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(app)) as runner:
        return runner.run(coro)


async def _signal(signal: Any, timeout: float) -> Any:
    future = asyncio.get_running_loop().create_future()

    def done(*args: Any) -> None:
        if not future.done():
            future.set_result(args)

    signal.connect(done)
    return await asyncio.wait_for(future, timeout)


# -- stall -----------------------------------------------------------------------------------------


def stall(cache: str, url: str, timeout: float, max_mb: int, sort: str = "") -> dict[str, Any]:
    app = _qapp()
    from _stalls import StallMonitor
    from catalogue_desktop.core.listing.rows import column_index
    from catalogue_desktop.core.records.kinds import Kind
    from catalogue_desktop.ui.common.settings import Settings
    from catalogue_desktop.ui.shell.session import AppSession, Options

    # The Webinars tab as a user left it: sorted (descending) by ``sort``, or as the service sent.
    settings = Settings()
    settings.q.setValue("tabs/webinars/sort_column", column_index(Kind.WEBINARS, sort) if sort else -1)
    settings.q.setValue("tabs/webinars/sort_order", 1)
    settings.sync()

    monitor = StallMonitor()
    witness = _start_witness()

    async def main() -> dict[str, Any]:
        monitor.start()
        t0 = time.perf_counter()
        # The window's client keeps CatalogueClient's default 256 MiB body limit (the window has no
        # --max-size); 100k webinars are 515 MB, so pass what `sync --max-size` would.
        session = AppSession(
            Options(base_url=url, cache_dir=cache),
            image_fetch=_no_images,
            client_options={"max_bytes": max_mb * 2**20} if max_mb else None,
        )
        ready = asyncio.ensure_future(_signal(session.ready, timeout))
        synced = asyncio.ensure_future(_signal(session.synced, timeout))
        # From the first page of rows painted (the window on screen) to ready: "onscreen".
        session.populated.connect(lambda: monitor.set_phase("onscreen"))
        session.start()
        await ready
        t_ready = time.perf_counter()
        monitor.set_phase("sync")  # the session starts the refresh right after ready
        (report,) = await synced
        t_synced = time.perf_counter()
        await asyncio.sleep(1.0)  # what the sync leaves behind (old rows freed, index rebuilt)
        monitor.set_phase("close")
        assert session.loader is not None and session.window is not None
        statuses = {k.value: o.status for k, o in report.collections.items()} if report else {}
        errors = {k.value: o.error for k, o in report.collections.items() if o.error} if report else {}
        rows = session.window.tab(Kind.WEBINARS).model.rowCount()
        sorted_by = session.window.tab(Kind.WEBINARS).model.sort_column
        threads = _thread_cpu()
        await session.aclose()
        monitor.stop()
        return {
            "ready_s": t_ready - t0,
            "sync_s": t_synced - t_ready,
            "statuses": statuses,
            "errors": errors,
            "webinar_rows": rows,
            "sorted_by": sorted_by,
            "rss_mb": _rss_mb(),
            "peak_rss_mb": _peak_mb(),
            "threads_cpu_s": threads,
            "children_peak_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
        }

    out = _run(app, main())
    seen = _stop_witness(witness, monitor.spans())
    out["monitor"] = monitor.report(witness=seen["stalls"])
    out["witness"] = seen["phases"]
    return out


def _thread_cpu() -> dict[str, float]:
    """CPU seconds (user + system) of the GUI thread and of the process's other threads."""
    main = threading.get_native_id()
    out = {"gui": 0.0, "others": 0.0, "others_system": 0.0}
    for t in psutil.Process().threads():
        if t.id == main:
            out["gui"] += t.user_time + t.system_time
        else:
            out["others"] += t.user_time + t.system_time
            out["others_system"] += t.system_time
    return out


def _start_witness() -> subprocess.Popen[str]:
    """The baseline (``_witness.py``): an empty window in its own process, ticking beside the app."""
    witness = subprocess.Popen(
        [sys.executable, str(Path(__file__).with_name("_witness.py"))],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert witness.stdout is not None and witness.stdout.readline().strip() == "started"
    return witness


def _stop_witness(witness: subprocess.Popen[str], spans: dict[str, tuple[float, float]]) -> dict[str, Any]:
    lines = "".join(f"{name} {start!r} {end!r}\n" for name, (start, end) in spans.items() if name)
    out, _ = witness.communicate(lines, timeout=60)
    return json.loads(out)


# -- interact --------------------------------------------------------------------------------------


# Realistic typing over the synthetic titles ("Revenue Recognition Under ASC 606: ...",
# "Lease Accounting Under ASC 842", experts' names), with typos fixed by backspace.
def _typing(script: list[tuple[str, Any]]) -> list[str]:
    keys: list[str] = []
    for op, arg in script:
        keys.extend(list(arg) if op == "type" else ["\b"] * arg)
    return keys


TYPING = _typing(
    [
        ("type", "revenue"),
        ("type", " recog"),
        ("back", 6),
        ("back", 7),
        ("type", "lease asc 842"),
        ("back", 4),
        ("type", " year"),
        ("back", 14),
        ("type", "tax update"),
        ("back", 10),
    ]
)
# Then words as typed (issue 28): course-title words begun afresh, up to their 3 and 5 letters,
# each a substring of many words ("acc": accounting, accounts...), alone and after a word. Their
# keystrokes are reported on their own (``typed_prefix`` in each key's record).
PREFIX_START = len(TYPING)
TYPING += _typing(
    [
        ("type", "acc"),
        ("back", 3),
        ("type", "depos"),
        ("back", 5),
        ("type", "gov"),
        ("type", "er"),
        ("back", 5),
        ("type", "witne"),
        ("back", 5),
        ("type", "pra"),
        ("back", 3),
        ("type", "tax com"),
        ("type", "pl"),
        ("back", 9),
        ("type", "stand"),
    ]
)


def _key_click(widget: Any, ch: str) -> None:
    """Press and release one key on ``widget``, as ``QTest.keyClick`` does (synchronous
    ``sendEvent``). Not ``QTest.keyClick``/``keyClicks`` themselves: on PySide6 6.12 each call
    drops one reference to ``None`` (sys.getrefcount(None) falls by 1 per call), and a few hundred
    keystrokes later the interpreter aborts with "Fatal Python error: none_dealloc"."""
    from PySide6.QtCore import QEvent, Qt
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import QApplication

    if ch == "\b":
        key, text = Qt.Key.Key_Backspace, ""
    elif ch == " ":
        key, text = Qt.Key.Key_Space, " "
    else:
        key, text = Qt.Key(ord(ch.upper())), ch
    for kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
        QApplication.sendEvent(widget, QKeyEvent(kind, key, Qt.KeyboardModifier.NoModifier, text))


def _photo_bytes(seed: int) -> bytes:
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice
    from PySide6.QtGui import QColor, QImage, QPainter

    image = QImage(400, 400, QImage.Format.Format_RGB32)
    image.fill(QColor((seed * 53) % 256, (seed * 97) % 256, (seed * 31) % 256))
    painter = QPainter(image)
    painter.drawEllipse(100, 60, 200, 260)
    painter.end()
    data = QByteArray()
    buffer = QBuffer(data)
    buffer.open(QIODevice.OpenModeFlag.WriteOnly)
    image.save(buffer, "JPEG", 85)
    return bytes(data.data())


def _webinars_with_experts(store_file: Path, want: int, experts: int = 3) -> list[tuple[int, list[str]]]:
    """(webinar id, expert photo URLs) of webinars with exactly ``experts`` experts, all with
    photos and distinct from the ones picked before (so each selection decodes its photos)."""
    found: list[tuple[int, list[str]]] = []
    seen: set[str] = set()
    with sqlite3.connect(store_file) as db:
        (snapshot,) = db.execute("SELECT snapshot FROM collections WHERE name='webinars'").fetchone()
        for record_id, data in db.execute(
            "SELECT record_id, data FROM records WHERE snapshot = ? ORDER BY pos LIMIT 20000", (snapshot,)
        ):
            record = json.loads(data)
            people = record.get("experts") or []
            urls = [p.get("imageUrl") for p in people]
            if len(people) != experts or not all(urls) or seen.intersection(urls):
                continue
            seen.update(urls)
            found.append((record_id, urls))
            if len(found) >= want:
                break
    return found


def time_queries(finder: Any, window: Any, tab: Any) -> tuple[list[float], Any]:
    """Time each query the query box applies (``FinderController.set_query``: the current tab's
    rows, every tab's count in its title) with the repaint of the table, count and tab bar, into
    the list returned; with a function that puts the box's own connection back."""
    box = window.query_box
    applied: list[float] = []
    real_set_query = finder.set_query

    def set_query(parsed: Any) -> None:  # called by the box's debounce timer
        t = time.perf_counter()
        real_set_query(parsed)
        tab.view.viewport().repaint()
        tab.count_label.repaint()
        window.tab_widget.tabBar().repaint()
        applied.append(time.perf_counter() - t)

    def restore() -> None:
        box.query_changed.disconnect(set_query)
        box.query_changed.connect(real_set_query)

    box.query_changed.disconnect(real_set_query)
    box.query_changed.connect(set_query)
    box.edit.setFocus()
    return applied, restore


def interact(cache: str, payload: int, repeat: int, detail_n: int) -> dict[str, Any]:
    app = _qapp()
    from PySide6.QtCore import QItemSelectionModel, Qt

    from catalogue_desktop.core.listing.rows import column_index
    from catalogue_desktop.core.records.kinds import Kind
    from catalogue_desktop.ui.detail.images import ImageCache
    from catalogue_desktop.ui.shell.session import AppSession, Options

    cache_dir = Path(cache)
    picks = _webinars_with_experts(cache_dir / "catalogue.sqlite3", detail_n + 1)
    images = ImageCache(cache_dir / "images")
    for i, (_, urls) in enumerate(picks):
        for j, url in enumerate(urls):
            if url not in images:
                images.put(url, _photo_bytes(i * 3 + j))
    del images

    out: dict[str, Any] = {}

    async def main() -> None:
        t0 = time.perf_counter()
        session = AppSession(
            Options(base_url="http://127.0.0.1:9", offline=True, cache_dir=cache), image_fetch=_no_images
        )
        ready = asyncio.ensure_future(_signal(session.ready, 600))
        window = session.start()
        await ready
        out["ready_s"] = time.perf_counter() - t0
        assert session.loader is not None
        await session.loader.wait_idle()
        await asyncio.sleep(0.3)
        gc.collect()
        await asyncio.sleep(0.7)
        out["memory"] = {"steady_rss_mb": _rss_mb(), "peak_rss_mb": _peak_mb(), "payload_mb": payload / 2**20}
        out["memory"]["steady_ratio"] = out["memory"]["steady_rss_mb"] * 2**20 / payload
        out["memory"]["peak_ratio"] = out["memory"]["peak_rss_mb"] * 2**20 / payload

        tab = window.show_tab(Kind.WEBINARS)
        window.activateWindow()
        view, model = tab.view, tab.model
        out["webinar_rows"] = model.rowCount()
        await asyncio.sleep(0.1)

        # -- the query, as you type ------------------------------------------------------------
        finder = session.finder
        t = time.perf_counter()
        while finder.indexer.busy and time.perf_counter() - t < 600:  # the finder's tables
            await asyncio.sleep(0.05)
        out["finder_ready_s"] = time.perf_counter() - t0
        box = window.query_box
        applied, restore = time_queries(finder, window, tab)
        keys: list[dict[str, Any]] = []
        for _ in range(repeat):
            for at, ch in enumerate(TYPING):
                before = len(applied)
                t = time.perf_counter()
                _key_click(box.edit, ch)
                key_s = time.perf_counter() - t
                waited = time.perf_counter()
                while len(applied) == before and time.perf_counter() - waited < 1:
                    await asyncio.sleep(0.002)
                # No textChanged (nothing to delete): no query pass, the key handling is all.
                keys.append(
                    {
                        "key": ch,
                        "text": box.text(),
                        "key_ms": key_s * 1000,
                        "apply_ms": (applied[-1] if len(applied) > before else 0.0) * 1000,
                        "rows": model.rowCount(),
                        "typed_prefix": at >= PREFIX_START,
                    }
                )
            box.clear()
            await asyncio.sleep(0.05)
        restore()
        out["filter"] = keys

        # -- sort --------------------------------------------------------------------------------
        await asyncio.sleep(0.1)
        start_col, fee_col = column_index(Kind.WEBINARS, "start"), column_index(Kind.WEBINARS, "fee")
        sorts = []
        for _ in range(repeat):
            for name, col, order in (
                ("start asc", start_col, Qt.SortOrder.AscendingOrder),
                ("fee asc", fee_col, Qt.SortOrder.AscendingOrder),
                ("start desc", start_col, Qt.SortOrder.DescendingOrder),
                ("fee desc", fee_col, Qt.SortOrder.DescendingOrder),
            ):
                t = time.perf_counter()
                view.sortByColumn(col, order)
                sort_s = time.perf_counter() - t
                view.viewport().repaint()
                sorts.append(
                    {"sort": name, "ms": (time.perf_counter() - t) * 1000, "model_sort_ms": sort_s * 1000}
                )
                await asyncio.sleep(0.05)
        out["sort"] = sorts

        # -- detail pane ---------------------------------------------------------------------------
        details = []
        profile_to = os.environ.get("BENCH_PROFILE_DETAIL")
        profiler = None
        if profile_to:
            from pyinstrument import Profiler

            profiler = Profiler(interval=0.0005)
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        for i, (record_id, _urls) in enumerate(picks):
            row = model.view_row_of(record_id)
            if row is None:
                continue
            index = model.index(row, 0)
            await asyncio.sleep(0.05)
            if profiler is not None and i == 1:  # one session over selections 2..n (pyinstrument
                profiler.start()  # keeps only the last start/stop session)
            t = time.perf_counter()
            view.selectionModel().setCurrentIndex(index, flags)  # -> detail pane built
            built = time.perf_counter() - t
            app.processEvents()  # layout of the new page
            tab.detail.repaint()
            shown = time.perf_counter() - t
            page = tab.detail.current_page()
            from catalogue_desktop.ui.detail.photo import PhotoLabel

            photos = [w for w in page.findChildren(PhotoLabel)] if page is not None else []
            details.append(
                {
                    "id": record_id,
                    "first": i == 0,
                    "ms": shown * 1000,
                    "build_ms": built * 1000,
                    "photos_shown": sum(1 for p in photos if p.has_photo),
                    "shown": tab.detail.current == (Kind.WEBINARS, record_id),
                }
            )
        out["detail"] = details
        if profiler is not None and profile_to:
            profiler.stop()
            Path(profile_to).write_text(profiler.output_text(unicode=False, color=False, show_all=False))
        await session.aclose()

    _run(app, main())
    return out


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["stall", "interact"])
    parser.add_argument("--cache", required=True)
    parser.add_argument("--url")
    parser.add_argument("--payload", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--detail", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=900)
    parser.add_argument("--max-mb", type=int, default=0, help="client body limit (0: the app's)")
    parser.add_argument("--sort", default="", help="stall: the Webinars tab sorted by this column")
    args = parser.parse_args()
    if args.mode == "stall":
        result = stall(args.cache, args.url, args.timeout, args.max_mb, args.sort)
    else:
        result = interact(args.cache, args.payload, args.repeat, args.detail)
    print(json.dumps(result), flush=True)
    os._exit(0)  # skip interpreter teardown of 100k rows (not part of any measurement)
