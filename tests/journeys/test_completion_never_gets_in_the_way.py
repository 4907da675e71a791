"""The query box's completion list: it never swallows the next click, never covers the error
line, and closes on Escape, when the box loses the focus and when its text is cleared."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QFocusEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget

from catalogue_desktop.core.records.kinds import Kind
from tests.journeys.hands import click_row, click_tab, key, selected_ids, until

LEFT, NONE = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier


def _typing(window: Any, text: str) -> Any:
    """On the Courses tab, click into the empty query box and type ``text``: the completion
    list opens."""
    tabs = window.tab_widget.tabBar()
    QTest.mouseClick(tabs, LEFT, NONE, tabs.tabRect(window.tab_kinds().index(Kind.COURSES)).center())
    edit = window.query_box.edit
    QTest.mouseClick(edit, LEFT, NONE, QPoint(5, 5))
    QTest.keyClicks(edit, text)
    until(lambda: _list(window) is not None)  # (the rows follow the typed query after a pause of 30 ms)
    shown = _list(window)
    assert shown is not None and shown.isVisible(), "no completion list"
    return shown


def _list(window: Any) -> QWidget | None:
    """The completion list on screen (whatever widget shows it), or None."""
    for widget in QApplication.topLevelWidgets():
        if widget.isVisible() and widget is not window and widget.inherits("QAbstractItemView"):
            return widget
    return None


def _global_rect(widget: QWidget) -> Any:
    from PySide6.QtCore import QRect

    return QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size())


def test_a_click_on_a_row_while_completions_show_selects_the_row(start: Any, qtbot: Any) -> None:
    session = start()
    window = session.window
    click_tab(window, Kind.COURSES)
    tab = window.current_tab()
    _typing(window, "ci")
    # the rows follow the typed query (after a pause of 30 ms), then the person aims at one
    until(lambda: session.finder.parsed is not None and "ci" in session.finder.parsed.text)
    qtbot.waitUntil(lambda: not session.finder.indexer.busy, timeout=10000)
    aimed = tab.model.record_id(2)
    click_row(tab, 2)  # the first click goes where it is aimed
    assert selected_ids(tab) == [aimed]
    assert _list(window) is None


def test_escape_closes_the_list_and_keeps_the_text(start: Any, qtbot: Any) -> None:
    window = start().window
    _typing(window, "ci")
    key(window.query_box.edit, Qt.Key.Key_Escape)
    assert _list(window) is None and window.query_box.text() == "ci"


def test_the_list_closes_when_the_box_loses_the_focus(start: Any, qtbot: Any) -> None:
    window = start().window
    _typing(window, "ci")
    # the focus goes elsewhere (offscreen, no window is active: the event is sent)
    lost = QFocusEvent(QEvent.Type.FocusOut, Qt.FocusReason.TabFocusReason)
    QApplication.sendEvent(window.query_box.edit, lost)
    QApplication.processEvents()
    assert _list(window) is None


def test_the_list_closes_when_the_text_is_cleared(start: Any, qtbot: Any) -> None:
    window = start().window
    _typing(window, "ci")
    edit = window.query_box.edit
    key(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    key(edit, Qt.Key.Key_Backspace)
    assert edit.text() == "" and _list(window) is None


def test_the_list_never_covers_the_error_line(start: Any, qtbot: Any) -> None:
    window = start().window
    click_tab(window, Kind.COURSES)
    _typing(window, "fees:<300 c")
    error = window.query_box.error
    qtbot.waitUntil(lambda: error.isVisible(), timeout=2000)
    QTest.keyClick(window.query_box.edit, Qt.Key.Key_Backspace)  # the list follows the typing
    QTest.keyClick(window.query_box.edit, Qt.Key.Key_C)
    QApplication.processEvents()
    shown = _list(window)
    assert shown is not None and shown.isVisible()
    assert not _global_rect(shown).intersects(_global_rect(error))


def test_arrows_choose_and_enter_inserts_a_completion(start: Any, qtbot: Any) -> None:
    window = start().window
    shown = _typing(window, "c")
    items = shown.model().stringList()
    assert len(items) >= 2
    edit = window.query_box.edit
    key(edit, Qt.Key.Key_Down)  # the first
    key(edit, Qt.Key.Key_Down)  # the second
    key(edit, Qt.Key.Key_Return)
    assert edit.text() == items[1]
    assert _list(window) is None


def test_enter_without_choosing_applies_the_query_as_typed(start: Any, qtbot: Any) -> None:
    window = start().window
    _typing(window, "ci")
    key(window.query_box.edit, Qt.Key.Key_Return)
    assert window.query_box.text() == "ci" and _list(window) is None
    assert window.query_box.parsed is not None and window.query_box.parsed.text == "ci"


def test_tab_inserts_the_chosen_completion(start: Any, qtbot: Any) -> None:
    window = start().window
    _typing(window, "ci")
    edit = window.query_box.edit
    key(edit, Qt.Key.Key_Down)
    key(edit, Qt.Key.Key_Tab)
    assert edit.text() == "city:" and _list(window) is None
