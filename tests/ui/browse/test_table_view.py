"""TableView: rows appended below the last row on screen (a growing tab's rows as they are read)
repaint nothing; any other change of the rows shown repaints them (counted paints, not time)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QApplication

from catalogue_desktop.ui.browse.table_view import TableView


class _Paints(QObject):
    """Counts the paint events of one widget."""

    def __init__(self, widget: Any) -> None:
        super().__init__()
        self.count = 0
        widget.installEventFilter(self)

    def eventFilter(self, _watched: Any, event: Any) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.count += 1
        return False


def _append(model: QStandardItemModel, rows: range) -> None:
    for row in rows:
        model.appendRow([QStandardItem(f"{row}-{column}") for column in range(3)])


def _shown(qtbot: Any, rows: int) -> tuple[TableView, QStandardItemModel, _Paints]:
    model = QStandardItemModel(0, 3)
    _append(model, range(rows))
    view = TableView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.resize(400, 300)
    paints = _Paints(view.viewport())
    view.show()
    qtbot.waitUntil(lambda: paints.count > 0)  # its first paint
    QApplication.sendPostedEvents()
    paints.count = 0
    return view, model, paints


def _laid_out(qtbot: Any, view: TableView, rows: int) -> None:
    """Wait for Qt's layout of ``rows`` rows (the scroll bar's range), then for its paints."""
    bar = view.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() >= rows - view.height() // view.rowHeight(0))
    QApplication.sendPostedEvents()


def test_rows_appended_below_the_last_row_on_screen_repaint_nothing(qtbot: Any) -> None:
    view, model, paints = _shown(qtbot, 100)
    bar = view.verticalScrollBar()
    maximum = bar.maximum()
    _append(model, range(100, 400))
    _laid_out(qtbot, view, 400)
    assert bar.maximum() > maximum  # the scroll bar knows of the new rows
    assert paints.count == 0  # no cell on screen changed: none repainted
    view.scrollToBottom()  # and they are shown when scrolled to
    QApplication.sendPostedEvents()
    assert paints.count > 0
    assert view.rowAt(view.viewport().height() - 1) > 300


def test_rows_appended_on_screen_or_with_another_change_are_painted(qtbot: Any) -> None:
    _view, model, paints = _shown(qtbot, 3)  # the rows end above the viewport's bottom
    _append(model, range(3, 6))
    qtbot.waitUntil(lambda: paints.count > 0)
    _view, model, paints = _shown(qtbot, 100)
    _append(model, range(100, 400))
    model.sort(0)  # a layout change in the same pass: the rows on screen may be others
    qtbot.waitUntil(lambda: paints.count > 0)
    paints.count = 0
    model.setRowCount(50)  # rows removed, then rows appended below in the same pass
    _append(model, range(50, 400))
    qtbot.waitUntil(lambda: paints.count > 0)
