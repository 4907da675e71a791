"""The window's entry point: ``run(args)`` opens the window (or runs ``--self-test``) and returns
the process's exit code; ``AppSession`` (``session``) feeds the window.

``run`` makes the QApplication, then the session shows the window on ``QApplication.exec()`` alone;
asyncio joins the running Qt loop once the cached rows are shown (``qt_compat.event_loop``).
``CATALOGUE_DESKTOP_EXIT_WHEN_READY`` makes it report the start-up and close (benchmarks, smoke
tests).
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.records.errors import StoreError
from catalogue_desktop.paths import resource_path
from catalogue_desktop.qt_compat.event_loop import LateEventLoop
from catalogue_desktop.qt_compat.paint_threads import serial_fills
from catalogue_desktop.qt_compat.platform_check import explain_fatal_start
from catalogue_desktop.ui.shell.main_window import APP_TITLE
from catalogue_desktop.ui.shell.options import Options
from catalogue_desktop.ui.shell.session import AppSession

# Set for benchmarks and smoke tests: once the window is populated (``populated``; with the value
# ``all``: once every cached row is read, ``ready``), print one JSON line to stdout (``ready_at``:
# time.time(), the tab shown, its rows shown and in all, which of the modules start-up avoids were
# imported, the modules loaded and those of them the start-up budget keeps for after the first
# paint: ``start_budget``; the process's threads) and close the window through its normal shutdown.
EXIT_WHEN_READY = "CATALOGUE_DESKTOP_EXIT_WHEN_READY"
_AVOIDED_AT_START = ("asyncio", "qasync", "pydantic", "httpx")
# The start-up's own marks (time.time()), in the report: the QApplication made, the window made
# (``AppSession.start`` returned, not yet painted); the report's ``ready_at`` is the first paint.
_MARKS: dict[str, float] = {}


def _release_gc() -> None:
    """The window is ready: keep what start-up made out of later collections (``gc.freeze``)
    and let the cyclic GC run again."""
    gc.freeze()
    gc.enable()


def _threads() -> int | None:
    """The process's threads, Qt's and Python's (Linux: ``/proc/self/task``; else None)."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return None


def _report_ready_and_close(session: AppSession) -> None:
    """The ``EXIT_WHEN_READY`` report, then the window is closed (on the next loop pass), with
    nothing more read from the cache in between (at ``populated``, the loader would read rows
    for another pass first).

    Pending layouts and paints are done first: the rows may be loaded but not yet painted, and
    a start-up is measured to the rows on screen."""
    window = session.window
    assert window is not None and session.loader is not None
    session.loader.stop()
    QApplication.sendPostedEvents()
    modules = sorted(sys.modules)  # (before the report's own import)
    from catalogue_desktop.ui.shell.start_budget import too_early

    tab = window.current_tab()
    report = {
        "ready_at": time.time(),
        "tab": tab.kind.value,
        "rows_shown": tab.model.rowCount(),
        "rows": tab.model.total_count(),
        "imported": [name for name in _AVOIDED_AT_START if name in modules],
        "modules": modules,
        "too_early": too_early(modules),
        "threads": _threads(),
        "marks": _MARKS,
    }
    print(json.dumps(report), flush=True)
    QTimer.singleShot(0, window.close)


def _run_window(app: QApplication, options: Options, *, release_gc: bool = False) -> int:
    """Show the window on the Qt loop; asyncio joins it once the cached rows are shown."""
    event_loop = LateEventLoop(app)
    session = AppSession(options, event_loop=event_loop)
    if release_gc:
        session.ready.connect(_release_gc)
    if exit_when := os.environ.get(EXIT_WHEN_READY):
        signal = session.ready if exit_when == "all" else session.populated
        signal.connect(lambda: _report_ready_and_close(session), Qt.ConnectionType.SingleShotConnection)
    try:
        window = session.start()
        _MARKS["window_made"] = time.time()
    except StoreError as exc:
        from PySide6.QtWidgets import QMessageBox

        QMessageBox.critical(None, APP_TITLE, str(exc))
        return 1

    def closed() -> None:
        if not session.async_started:
            session.close()
            app.quit()
        else:
            event_loop.run_then_quit(session.aclose())

    window.closed.connect(closed)
    try:
        app.exec()
    finally:
        event_loop.close()
    return event_loop.exit_code


def app_icon() -> QIcon:
    """The application icon, every size shipped in resources/icons."""
    icon = QIcon()
    try:
        for path in sorted(resource_path("icons").glob("catalogue-desktop-*.png")):
            icon.addFile(str(path))
    except FileNotFoundError:  # a bare source tree without resources: Qt's default icon
        pass
    return icon


def run(args: argparse.Namespace) -> int:
    """Open the window (or run ``--self-test``); returns the process exit code.

    ``cli.main`` turns the cyclic GC off before importing the window: its collections over the
    objects imports make cost start-up time (docs/decisions.md, "Start-up and Qt"). It goes back on when the
    window is ready."""
    gc_held = not gc.isenabled()
    app = QApplication.instance()
    if app is None:
        serial_fills()  # Qt's fills on this thread: no pool threads to wait for
        with explain_fatal_start():  # Qt's abort (no platform plugin) -> one paragraph, exit 2
            app = QApplication(sys.argv[:1])
    assert isinstance(app, QApplication)  # (ours, or a test's: never a bare QCoreApplication)
    _MARKS["qapplication"] = time.time()
    app.setApplicationName(APP_TITLE)
    app.setDesktopFileName("catalogue-desktop")  # matches packaging/linux/*.desktop
    app.setWindowIcon(app_icon())
    app.setQuitOnLastWindowClosed(False)  # the main coroutine ends the loop, then cleans up
    from catalogue_desktop.ui.common import scheme

    scheme.follow(app)  # light or dark, as the system says
    options = Options.from_args(args)
    if not options.self_test:
        return _run_window(app, options, release_gc=gc_held)
    if gc_held:
        gc.enable()
    from catalogue_desktop.qt_compat.event_loop import run_on_qt
    from catalogue_desktop.ui.shell.self_test import run_self_test

    return int(run_on_qt(app, run_self_test(options)))
