"""Qt's raster fills on the GUI thread itself, not handed to Qt's GUI thread pool.

Qt's raster engine hands every fill of 96 or more spans (a line or rectangle that many pixels
high: a tab widget's frame, a table's background) to a thread pool of its own
(``QGuiApplicationPrivate::qtGuiThreadPool``) in segments of 64 spans, and the GUI thread waits
for them. A bare ``QMainWindow`` paints nothing that tall; the window's first paint started two
pool threads (``QTabWidget::paintEvent`` -> ``QFusionStyle::drawPrimitive`` ->
``QRasterPaintEngine::drawLines``) and waited on them ~300-450 times (futex waits; ~500 context
switches against ~200 without). On a busy machine each wait is a wake-up the scheduler may be
late for: wall time with no work in it, the part of the cold start beyond its CPU time
(docs/decisions.md, "Start-up and Qt"). The fills of a window this size are a few microseconds
each on the GUI thread.

``serial_fills()`` sets ``QT_NO_GUI_THREADPOOL`` (Qt reads it once, when the pool is first asked
for; any value turns the pool off) unless the environment already has it; ``ui.shell.app.run``
calls it before the QApplication is made. Measured on PySide6 6.11.3;
``tests/qt_compat/test_paint_threads.py`` shows the pool's threads without it and none with it.
"""

from __future__ import annotations

import os

SWITCH = "QT_NO_GUI_THREADPOOL"


def serial_fills() -> None:
    """Keep Qt's raster fills on the painting thread (see above). Before the first paint."""
    os.environ.setdefault(SWITCH, "1")
