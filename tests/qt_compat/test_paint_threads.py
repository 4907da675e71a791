"""Qt's raster fills kept on the painting thread (``qt_compat.paint_threads``): the quirk (a
shown tab widget's first paint starts Qt's GUI thread pool) and the cure (with ``serial_fills()``
before the QApplication, the process paints with one thread). Counted: the process's threads
(``/proc/self/task``), each case in a fresh process (Qt reads the switch once)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from catalogue_desktop.qt_compat.paint_threads import SWITCH

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc/self/task"), reason="threads counted on Linux")

_PAINT = """
import os
from catalogue_desktop.qt_compat.paint_threads import serial_fills
if {cure}:
    serial_fills()
from PySide6.QtWidgets import QApplication, QTabWidget, QWidget
app = QApplication([])
tabs = QTabWidget()
tabs.addTab(QWidget(), "one")
tabs.resize(800, 600)
tabs.show()
app.processEvents()
print(len(os.listdir("/proc/self/task")), os.environ.get({switch!r}))
"""


def _threads_after_paint(*, cure: bool, env: dict[str, str] | None = None) -> tuple[int, str]:
    base = {k: v for k, v in os.environ.items() if k != SWITCH}
    code = _PAINT.format(cure=cure, switch=SWITCH)
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**base, "QT_QPA_PLATFORM": "offscreen", **(env or {})},
        timeout=60,
        check=True,
    )
    threads, value = done.stdout.split()
    return int(threads), value


def test_the_quirk_a_tall_fill_starts_qt_s_gui_thread_pool() -> None:
    """Without the switch, the tab widget's frame (a fill of ~600 spans) is painted by pool
    threads the GUI thread waits for. If this fails, Qt no longer does it: remove the module."""
    threads, _ = _threads_after_paint(cure=False)
    assert threads > 1


def test_serial_fills_paints_with_the_one_thread() -> None:
    assert _threads_after_paint(cure=True) == (1, "1")


def test_a_value_the_environment_has_is_kept() -> None:
    assert _threads_after_paint(cure=True, env={SWITCH: "yes"}) == (1, "yes")
