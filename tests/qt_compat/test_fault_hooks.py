"""``qt_compat.fault_hooks``: PySide hands an exception raised in a slot or a virtual override to
``sys.excepthook`` and goes on (the quirk that makes the hook the place to see it), and the hooks
send those, other threads' exceptions and Qt's critical messages to one function, chained to the
hooks that were there and put back after."""

from __future__ import annotations

import sys
import threading
from typing import Any

import pytest
from PySide6.QtCore import QObject, Signal, qCritical, qWarning
from PySide6.QtWidgets import QPushButton

from catalogue_desktop.qt_compat.fault_hooks import install


class _Emitter(QObject):
    fired = Signal()


@pytest.mark.qt_no_exception_capture
def test_a_slots_exception_reaches_sys_excepthook_and_the_process_goes_on(qtbot: Any) -> None:
    seen: list[str] = []
    before = sys.excepthook
    sys.excepthook = lambda kind, value, tb: seen.append(f"{kind.__name__}: {value}")
    try:
        emitter = _Emitter()
        emitter.fired.connect(lambda: 1 / 0)
        emitter.fired.emit()

        class Failing(QPushButton):
            def paintEvent(self, event: Any) -> None:
                raise KeyError("paint")

        button = Failing()
        qtbot.addWidget(button)
        button.show()
        qtbot.waitUntil(lambda: "KeyError: 'paint'" in seen)
        button.close()
    finally:
        sys.excepthook = before
    assert seen[0] == "ZeroDivisionError: division by zero"


@pytest.mark.qt_no_exception_capture
@pytest.mark.qt_log_ignore("for the test", "left alone")
def test_faults_reach_the_function_chained_and_the_hooks_are_put_back(qapp: Any) -> None:
    faults: list[tuple[str, str]] = []
    chained: list[str] = []
    before = sys.excepthook
    sys.excepthook = lambda kind, value, tb: chained.append(kind.__name__)
    before_thread = threading.excepthook
    threading.excepthook = lambda args: chained.append(f"thread {args.exc_type.__name__}")
    quiet_thread = threading.excepthook
    try:
        uninstall = install(lambda what, details: faults.append((what, details)))
        emitter = _Emitter()
        emitter.fired.connect(lambda: {}["missing"])
        emitter.fired.emit()
        worker = threading.Thread(target=lambda: [][1], name="worker-7")
        worker.start()
        worker.join()
        qCritical("critical for the test")
        qWarning("a warning is left alone")
        uninstall()
        assert sys.excepthook is not before and threading.excepthook is quiet_thread
        emitter.fired.emit()  # (uninstalled: not reported again)
        qCritical("critical after uninstall, left alone")
    finally:
        sys.excepthook = before
        threading.excepthook = before_thread
    whats = [what for what, _details in faults]
    assert whats == [
        "KeyError: 'missing'",
        "IndexError: list index out of range (thread worker-7)",
        "Qt: critical for the test",
    ]
    assert "Traceback (most recent call last)" in faults[0][1] and '{}["missing"]' in faults[0][1]
    assert faults[2][1].startswith("Qt QtCriticalMsg: critical for the test")
    assert chained == ["KeyError", "thread IndexError", "KeyError"]  # the hooks there saw them too
