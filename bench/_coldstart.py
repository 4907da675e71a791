"""Cold-start child processes (run by ``bench/run.py`` with ``QT_QPA_PLATFORM=offscreen`` and an
isolated HOME). Prints one JSON line.

* ``bare``: the floor: ``QApplication([]); w = QMainWindow(); w.show();
  QTimer.singleShot(0, app.quit); app.exec()``.
* ``table CACHE_DIR``: a second floor, a bare window plus a QTableView of the cached webinar rows
  (see ``table``): what showing these rows costs any PySide6 program.

The app itself runs as shipped, ``python -m catalogue_desktop ARGS`` with
``CATALOGUE_DESKTOP_EXIT_WHEN_READY=1`` (see ``ui/shell/app.py``), started by ``run.py``.

``BENCH_T0`` (``time.time()`` when the parent started the process) gives "ready since launch".
"""

from __future__ import annotations

import json
import os
import resource
import sys
import time

T0 = float(os.environ.get("BENCH_T0", time.time()))


def _since() -> float:
    return time.time() - T0


def bare() -> dict[str, float]:
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QMainWindow

    app = QApplication([])
    w = QMainWindow()
    w.show()
    shown = _since()
    QTimer.singleShot(0, app.quit)
    app.exec()
    return {
        "shown": shown,
        "exit_start": _since(),
        "rss_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


def table(cache: str) -> dict[str, float]:
    """A second floor: the least any PySide6 program does to show these rows. One QTableView
    over a minimal ``QAbstractTableModel`` of the cached webinar rows (plain sqlite3 +
    ``json.loads``, text only: no sorting, filter, formatting, other tabs, status or menus)."""
    import json as json_
    import sqlite3

    from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, QTimer
    from PySide6.QtWidgets import QApplication, QMainWindow, QTableView

    app = QApplication([])
    db = sqlite3.connect(f"file:{cache}/catalogue.sqlite3?mode=ro", uri=True)
    found = db.execute(
        "SELECT r.row FROM rows r JOIN collections c ON r.snapshot = c.snapshot"
        " WHERE c.name = 'webinars' ORDER BY r.pos"
    ).fetchall()
    rows = json_.loads("[" + ",".join(row for (row,) in found) + "]")
    db.close()
    display = Qt.ItemDataRole.DisplayRole
    Index = QModelIndex | QPersistentModelIndex

    class Model(QAbstractTableModel):
        def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
            return 0 if parent.isValid() else len(rows)

        def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
            return 0 if parent.isValid() else len(rows[0]) if rows else 0

        def data(self, index: Index, role: int = display) -> object:
            return str(rows[index.row()][index.column()]) if role == display else None

    w = QMainWindow()
    view = QTableView()
    model = Model()
    view.setModel(model)
    w.setCentralWidget(view)
    w.resize(1280, 800)
    w.show()
    shown = _since()
    QTimer.singleShot(0, app.quit)
    app.exec()
    return {
        "shown": shown,
        "rows_shown": float(model.rowCount()),
        "exit_start": _since(),
        "rss_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }


if __name__ == "__main__":
    mode = sys.argv[1]
    out = bare() if mode == "bare" else table(sys.argv[2])
    print(json.dumps(out), flush=True)
