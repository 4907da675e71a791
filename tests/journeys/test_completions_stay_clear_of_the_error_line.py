"""The completion list never covers the error line, even when the error comes after the list was
shown (the query is read after a pause in the typing); the tables do not move when the error
comes; the list closes when the window is moved, and Escape closes it, then clears the box as
usual."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from catalogue_desktop.core.records.kinds import Kind
from tests.journeys.hands import click_tab, key, until


def _list(window: Any) -> QWidget | None:
    """The completion list on screen, or None."""
    for widget in QApplication.topLevelWidgets():
        if widget.isVisible() and widget is not window and widget.inherits("QAbstractItemView"):
            return widget
    return None


def _box(widget: QWidget) -> QRect:
    return QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size())


def test_an_error_that_comes_after_the_list_is_never_covered(start: Any, qtbot: Any) -> None:
    window = start().window
    window.show()
    window.resize(1366, 768)
    click_tab(window, Kind.COURSES)
    tables = window.tab_widget.mapToGlobal(QPoint(0, 0)).y()
    edit = window.query_box.edit
    QTest.mouseClick(edit, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(5, 5))
    QTest.keyClicks(edit, "fees:<300 c")  # typed in one go: the list shows before the query is read
    until(lambda: _list(window) is not None)
    error = window.query_box.error
    qtbot.waitUntil(lambda: error.isVisible(), timeout=2000)  # read after the pause: an error
    QApplication.processEvents()
    shown = _list(window)
    assert shown is not None, "the list went away"
    assert not _box(shown).intersects(_box(error)), (_box(shown), _box(error))
    assert window.tab_widget.mapToGlobal(QPoint(0, 0)).y() == tables  # the error took no room

    key(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)  # typed again: no error
    QTest.keyClicks(edit, "c")
    until(lambda: _list(window) is not None)

    window.move(window.x() + 40, window.y() + 20)  # the window is moved: the list does not linger
    until(lambda: _list(window) is None)

    QTest.keyClicks(edit, "i")
    until(lambda: _list(window) is not None)
    key(edit, Qt.Key.Key_Escape)  # closes the list, keeps the text
    assert _list(window) is None and edit.text() != ""
    key(edit, Qt.Key.Key_Escape)  # then Escape works as usual: the box is cleared
    assert edit.text() == ""
