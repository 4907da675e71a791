"""asyncio on the Qt event loop (qasync): joined late, finalizing async generators, closed by hand.

The window starts on ``QApplication.exec()`` alone; importing asyncio and qasync waits until
something needs them: the refresh, a photo download, the demo service. ``LateEventLoop.start()``
then makes a qasync loop on the running Qt loop (``already_running=True``);
``run_then_quit(coro)`` ends the application after a last coroutine, and ``close()`` (after
``exec()`` returned) releases the loop. The workarounds below were measured on PySide6 6.11.3,
qasync 0.28.0, Python 3.11; ``tests/qt_compat/test_event_loop.py`` shows each still does what it
claims.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from PySide6.QtWidgets import QApplication

if TYPE_CHECKING:
    import asyncio

# Why the loop joins late (``LateEventLoop``): importing asyncio and qasync costs a third of a bare PySide6
# start-up (docs/decisions.md, "Start-up and Qt"), and the window shows its cached rows without them. qasync
# supports a loop on an already running QApplication (``already_running=True``), but leaves stopping and
# closing such a loop to its owner: see ``release_loop``.

# Why closed loops are kept (``release_loop``): a closed qasync loop collected by the cyclic GC on
# a worker thread (an ingest or HTTP thread) stopped its Qt timers from that thread ("Timers
# cannot be stopped from another thread") and crashed a later event loop.
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
        """Release the loop after ``QApplication.exec()`` returned (see ``release_loop``)."""
        loop, self.loop = self.loop, None
        if loop is not None:
            release_loop(loop)


def release_loop(loop: Any) -> None:  # (a qasync loop: qasync ships no types)
    """Close a qasync loop made with ``already_running=True`` once the Qt loop no longer runs it:
    cancel what is left, mark it stopped (qasync leaves that to its owner), kill its Qt timers
    here, on the GUI thread, close it (and its executor), and keep it alive (``_CLOSED``)."""
    import asyncio

    for task in asyncio.all_tasks(loop):
        task.cancel()
    asyncio.events._set_running_loop(None)
    loop._QEventLoop__is_running = False  # qasync: ours to stop
    timer = loop._timer
    for timer_id in list(timer._SimpleTimer__callbacks):
        timer.killTimer(timer_id)
    timer._SimpleTimer__callbacks.clear()
    loop.close()
    asyncio.set_event_loop(None)
    _CLOSED.append(loop)  # never freed by the GC on a worker thread


def install_asyncgen_finalizer() -> Callable[[], None]:
    """Let the running loop finalize abandoned async generators; returns the undo.

    Why: asyncio's own loops install these hooks in ``run_forever``; qasync's loop does not, so
    the garbage collector closed such generators without a loop, and httpx's body generators, left
    mid-stream by a size cap or a bad encoding, could not await their cleanup ("async generator
    ignored GeneratorExit", and the connection's cleanup never ran). Measured on qasync 0.28.0.
    """
    import asyncio

    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return lambda: None
    previous = sys.get_asyncgen_hooks()
    # The finalizer only: registering generators too (firstiter) would make asyncio.Runner's
    # shutdown_asyncgens run on a loop that qasync has already stopped.
    sys.set_asyncgen_hooks(firstiter=previous.firstiter, finalizer=loop._asyncgen_finalizer_hook)  # type: ignore[attr-defined]
    return lambda: sys.set_asyncgen_hooks(*previous)


def run_on_qt(app: QApplication, coro: Coroutine[Any, Any, Any]) -> Any:
    """Run ``coro`` to its end on a qasync loop that runs ``app``'s event loop (``--self-test``).

    Not a workaround: here because this package is the one place that imports qasync (the
    contracts in pyproject.toml), so that its quirks above stay in one view."""
    import asyncio

    import qasync

    with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(app)) as runner:
        return runner.run(coro)
