"""A person at 1024x700 walks the Dates tab with the keyboard: Tab goes in reading order, left to
right (the query box, the facets, Show past, the offer buttons, More, then the table), and
Ctrl+End in the table goes to the last row in the column they were in, the Title kept in view
(it went to the last cell of the last column, scrolling the titles away)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QTableView, QWidget

from catalogue_desktop.core.records.kinds import OCCASIONS
from tests.journeys.hands import click_tab, key


def _tab(widget: QWidget) -> QWidget:
    key(widget, Qt.Key.Key_Tab)
    focused = QApplication.focusWidget()
    assert focused is not None
    return focused


def test_tab_goes_left_to_right_and_ctrl_end_keeps_the_column(start: Any, qtbot: Any) -> None:
    window = start().window
    window.show()
    window.resize(1024, 700)
    QApplication.processEvents()
    tab = click_tab(window, OCCASIONS)
    bar = tab.bar
    qtbot.waitUntil(  # (laid out: at 1024 the last buttons are in More's menu)
        lambda: bar.more.isVisible() and all(b.x() > 0 for b in bar.buttons if b.isVisible()), timeout=2000
    )
    shown_buttons = [b for b in bar.buttons if b.isVisible()]
    row = [tab.show_past, *shown_buttons, bar.more]
    left_to_right = sorted(row, key=lambda w: w.mapTo(window, QPoint(0, 0)).x())
    assert row == left_to_right

    window.facet_panel.tree.setFocus(Qt.FocusReason.MouseFocusReason)  # (a click on the facets)
    qtbot.waitUntil(window.facet_panel.tree.hasFocus, timeout=2000)
    walked = []
    focused: QWidget = window.facet_panel.tree
    for _ in row:
        focused = _tab(focused)
        walked.append(focused)
    assert walked == left_to_right, [w.objectName() or w.accessibleName() for w in walked]
    assert _tab(focused) is tab.view

    view = window.current_tab().view
    assert isinstance(view, QTableView)
    QTest.mouseClick(  # a row's Title cell, then Ctrl+End
        view.viewport(),
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
        view.visualRect(tab.model.index(2, view.horizontalHeader().logicalIndex(0))).center(),
    )
    title_column = view.currentIndex().column()
    key(view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    current = view.currentIndex()
    assert current.row() == tab.model.rowCount() - 1
    assert current.column() == title_column
    assert view.horizontalScrollBar().value() == 0  # the titles still in view
    assert view.visualRect(current).intersects(view.viewport().rect())  # the last row scrolled to
    key(view, Qt.Key.Key_Home, Qt.KeyboardModifier.ControlModifier)
    assert (view.currentIndex().row(), view.currentIndex().column()) == (0, title_column)
