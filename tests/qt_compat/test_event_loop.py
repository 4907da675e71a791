"""asyncio on the Qt loop: joined late, closed by hand, finalizing abandoned async generators.

Each runs in a fresh process (a QApplication and its event loop of its own)."""

from __future__ import annotations

import textwrap
from typing import Any

from tests.fresh_python import run_json

_LATE = textwrap.dedent("""
    import json, sys, threading
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    from catalogue_desktop.qt_compat.event_loop import (
        _CLOSED, LateEventLoop, install_asyncgen_finalizer)
    late = LateEventLoop(app)
    seen = {"asyncio_at_start": "asyncio" in sys.modules}

    def begin():
        late.start()
        import asyncio
        seen["finalizer_before"] = sys.get_asyncgen_hooks().finalizer is not None
        if INSTALL:
            install_asyncgen_finalizer()

        async def gen():
            try:
                yield 1
                yield 2
            finally:
                await asyncio.sleep(0)  # a cleanup that awaits, as httpx's does
                seen["cleaned_up"] = True

        async def main():
            seen["on_gui_thread"] = threading.current_thread() is threading.main_thread()
            seen["loop"] = type(asyncio.get_running_loop()).__module__.split(".")[0]
            abandoned = gen()
            await abandoned.__anext__()
            del abandoned  # left mid-stream (a size cap, a bad encoding)
            for _ in range(5):
                await asyncio.sleep(0.01)

        late.run_then_quit(main(), exit_code=5)

    QTimer.singleShot(0, begin)
    seen["code"] = app.exec()
    loop = late.loop
    seen["still_running_after_exec"] = loop.is_running()
    late.close()
    import asyncio
    seen["closed"] = loop.is_closed()
    seen["timers_left"] = len(loop._timer._SimpleTimer__callbacks)
    seen["kept_alive"] = loop in _CLOSED
    try:
        asyncio.get_running_loop()
        seen["a_loop_runs"] = True
    except RuntimeError:
        seen["a_loop_runs"] = False
    print(json.dumps(seen))
""")


def _run(code: str) -> tuple[dict[str, Any], str]:
    return run_json(code)


def test_the_late_loop_runs_coroutines_on_the_running_qt_loop_then_is_released() -> None:
    """asyncio is not imported until the loop starts; the coroutine runs on the GUI thread on a
    qasync loop made on the running ``QApplication.exec()``, which it then ends with the exit code
    given. qasync leaves such a loop running (the quirk): ``close`` stops it, kills its Qt timers
    here, closes it and keeps it alive."""
    seen, _ = _run("INSTALL = True\n" + _LATE)
    assert seen["asyncio_at_start"] is False
    assert (seen["on_gui_thread"], seen["loop"], seen["code"]) == (True, "qasync", 5)
    assert seen["still_running_after_exec"] is True  # qasync's: "the user is responsible"
    assert (seen["closed"], seen["timers_left"], seen["kept_alive"], seen["a_loop_runs"]) == (
        True,
        0,
        True,
        False,
    )


def test_abandoned_async_generators_are_finalized_on_the_loop() -> None:
    """qasync's loop installs no async-generator hooks (the quirk): an abandoned generator whose
    cleanup awaits then fails ("ignored GeneratorExit"). With the finalizer installed, its cleanup
    runs on the loop."""
    without, stderr = _run("INSTALL = False\n" + _LATE)
    assert without["finalizer_before"] is False
    assert "cleaned_up" not in without and "ignored GeneratorExit" in stderr
    with_finalizer, stderr = _run("INSTALL = True\n" + _LATE)
    assert with_finalizer["cleaned_up"] is True and "GeneratorExit" not in stderr


def test_run_on_qt_runs_a_coroutine_to_its_end_on_a_qasync_loop() -> None:
    seen, _ = _run(
        textwrap.dedent("""
        import asyncio, json
        from PySide6.QtWidgets import QApplication
        from catalogue_desktop.qt_compat.event_loop import run_on_qt
        app = QApplication([])

        async def work():
            await asyncio.sleep(0.01)
            return type(asyncio.get_running_loop()).__module__.split(".")[0]

        print(json.dumps({"result": run_on_qt(app, work())}))
    """)
    )
    assert seen == {"result": "qasync"}
