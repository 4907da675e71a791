"""Cold-start child processes (run by ``bench/run.py`` with ``QT_QPA_PLATFORM=offscreen`` and an
isolated HOME). Prints one JSON line.

* ``bare``: the floor: ``QApplication([]); w = QMainWindow(); w.show();
  QTimer.singleShot(0, app.quit); app.exec()``.
* ``table CACHE_DIR``: a second floor, a bare window plus a QTableView of the cached webinar rows
  (see ``table``): what showing these rows costs any PySide6 program.
* ``app ARGS...``: the real entry point, ``catalogue_desktop.cli.main(ARGS)`` (what
  ``python -m catalogue_desktop ARGS`` runs), with one addition made from outside: when the
  session emits ``AppSession.ready`` (cached rows shown, ``--open`` applied) the harness notes the
  time and closes the window, so ``run()`` returns through its normal shutdown path. Until
  ``CATALOGUE_DESKTOP_EXIT_WHEN_READY=1`` exists in ``ui/app.py`` this stands in for it.

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
    return {"shown": shown, "exit_start": _since(),
            "rss_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


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
    found = db.execute("SELECT r.row FROM rows r JOIN collections c ON r.snapshot = c.snapshot"
                       " WHERE c.name = 'webinars' ORDER BY r.pos").fetchall()
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
    return {"shown": shown, "rows_shown": float(model.rowCount()), "exit_start": _since(),
            "rss_peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def app(argv: list[str]) -> dict[str, float]:
    from PySide6.QtCore import QTimer

    from catalogue_desktop import cli
    from catalogue_desktop.ui import app as appmod

    result: dict[str, float] = {}
    original_start = appmod.AppSession.start

    def start(self: appmod.AppSession) -> object:
        window = original_start(self)

        def ready() -> None:
            result["ready"] = _since()
            tab = window.current_tab()
            result["rows_shown"] = float(tab.model.rowCount())
            result["tab"] = float(window.tab_widget.currentIndex())
            result["pydantic_imported"] = float("pydantic" in sys.modules)
            result["httpx_imported"] = float("httpx" in sys.modules)
            QTimer.singleShot(0, window.close)  # -> closed -> run() shuts down normally

        self.ready.connect(ready)
        return window

    appmod.AppSession.start = start  # type: ignore[method-assign]
    code = cli.main(argv)
    result["exit_code"] = float(code)
    result["exit_start"] = _since()
    result["rss_peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return result


if __name__ == "__main__":
    mode = sys.argv[1]
    out = bare() if mode == "bare" else table(sys.argv[2]) if mode == "table" else app(sys.argv[2:])
    print(json.dumps(out), flush=True)
