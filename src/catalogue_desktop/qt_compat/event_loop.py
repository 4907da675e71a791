"""asyncio on the Qt event loop (qasync), started late: once the window already shows its rows.

The window starts on ``QApplication.exec()`` alone; importing asyncio and qasync (~50 ms, a third
of a bare Qt start-up) waits until something needs them: the refresh, a photo download, the demo
service. ``LateEventLoop.start()`` then makes a qasync loop on the running Qt loop
(``already_running=True``); ``run_then_quit(coro)`` ends the application after a last coroutine,
and ``close()`` (after ``exec()`` returned) releases the loop.
"""

from __future__ import annotations

import sys
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QApplication

if TYPE_CHECKING:
    import asyncio


_CLOSED: list[Any] = []  # closed loops: their Qt objects stay alive (one per run of the window)


class LateEventLoop:
    """The asyncio loop of one run of the window, made on first need."""

    def __init__(self, app: QApplication | None = None) -> None:
        self._app = app
        self.loop: asyncio.AbstractEventLoop | None = None
        self.exit_code = 0

    def start(self) -> None:
        """Make the qasync loop on the running Qt loop, unless an asyncio loop already runs
        (tests run one for the whole test)."""
        import asyncio

        if self.loop is not None:
            return
        try:
            asyncio.get_running_loop()
            return  # someone else's loop: use it, do not own it
        except RuntimeError:
            pass
        import qasync

        app = self._app or QApplication.instance()
        self.loop = qasync.QEventLoop(app, already_running=True)
        asyncio.set_event_loop(self.loop)

    def run_then_quit(self, coro: Coroutine[Any, Any, Any], exit_code: int = 0) -> None:
        """Run ``coro`` on the loop, then leave ``QApplication.exec()`` with ``exit_code``."""
        import asyncio

        self.start()
        self.exit_code = exit_code

        def done(task: asyncio.Future[Any]) -> None:
            if not task.cancelled() and task.exception() is not None:
                self.exit_code = 1
                exc = task.exception()
                print(f"catalogue-desktop: {type(exc).__name__}: {exc}", file=sys.stderr)
            app = self._app or QApplication.instance()
            if app is not None:
                app.exit(self.exit_code)

        asyncio.ensure_future(coro).add_done_callback(done)

    def close(self) -> None:
        """Release the loop after ``QApplication.exec()`` returned: cancel what is left, stop
        the loop's Qt timers here on the GUI thread, close its executor."""
        loop, self.loop = self.loop, None
        if loop is None:
            return
        import asyncio

        for task in asyncio.all_tasks(loop):
            task.cancel()
        asyncio.events._set_running_loop(None)
        loop._QEventLoop__is_running = False  # type: ignore[attr-defined]  # qasync: ours to stop
        timer = loop._timer  # type: ignore[attr-defined]
        for timer_id in list(timer._SimpleTimer__callbacks):
            timer.killTimer(timer_id)
        timer._SimpleTimer__callbacks.clear()
        loop.close()
        asyncio.set_event_loop(None)
        _CLOSED.append(loop)  # never freed by the GC on a worker thread (see ``qt_lifetime``)
