"""Keyboard alone: switching tabs from every widget (Ctrl+Tab, Ctrl+PgDown and back), the
shortcuts listed from the actions themselves, the way from the query to the rows to the details."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.records.kinds import Kind


@pytest.fixture
def window(make_session: Any, filled_cache: Any) -> Any:
    session = make_session(base_url="http://127.0.0.1:9", offline=True, wait="ready")
    session.finder.indexer.finish_now()
    return session.window


@pytest.mark.parametrize(
    "keys",
    [
        (Qt.Key.Key_Tab, Qt.KeyboardModifier.ControlModifier),
        (Qt.Key.Key_PageDown, Qt.KeyboardModifier.ControlModifier),
    ],
)
def test_next_tab_from_the_table_the_query_box_and_the_facets(window: Any, qtbot: Any, keys: Any) -> None:
    tab = window.show_tab(Kind.WEBINARS)
    for widget in (tab.view, window.query_box.edit, window.facet_panel.tree):
        start = window.tab_widget.currentIndex()
        widget.setFocus()
        row = tab.view.currentIndex().row()
        qtbot.keyClick(widget, *keys)
        assert window.tab_widget.currentIndex() == (start + 1) % window.tab_widget.count(), widget
        assert tab.view.currentIndex().row() == row  # not the last row instead
        window.show_tab(Kind.WEBINARS)


def test_previous_tab_goes_back_and_wraps(window: Any, qtbot: Any) -> None:
    tab = window.show_tab(Kind.WEBINARS)
    tab.view.setFocus()
    qtbot.keyClick(tab.view, Qt.Key.Key_PageUp, Qt.KeyboardModifier.ControlModifier)
    assert window.tab_widget.currentIndex() == window.tab_widget.count() - 1
    qtbot.keyClick(
        window.current_tab().view,
        Qt.Key.Key_Backtab,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert window.tab_widget.currentIndex() == window.tab_widget.count() - 2


def test_the_shortcut_list_comes_from_the_actions(window: Any) -> None:
    from catalogue_desktop.ui.shell import dialogs

    rows = dict((what, keys) for keys, what in dialogs.shortcut_rows(window))
    assert rows["Find"].startswith("Ctrl+F") and rows["Quick open"] == "Ctrl+K" and rows["Refresh"] == "F5"
    assert rows["Back"] == "Alt+Left" and rows["Next tab"].startswith("Ctrl+Tab")
    assert rows["Dates"] == "Ctrl+9"
    window.menu_actions.find_action.setShortcut("Ctrl+Shift+F")  # changed: the list follows
    assert dict((w, k) for k, w in dialogs.shortcut_rows(window))["Find"] == "Ctrl+Shift+F"


def test_from_the_query_to_the_rows_to_the_details_and_back(window: Any, qtbot: Any) -> None:
    """Down leaves the query for the results (on the first row); Enter goes into that row's
    details, whose page scrolls with the keys; Escape comes back to the table."""
    window.activateWindow()
    tab = window.show_tab(Kind.COURSES)
    box = window.query_box.edit
    box.setFocus()
    window.query_box.set_text("ethics")  # (typed, it offers completions: Down would pick one)
    assert tab.model.rowCount() > 0
    qtbot.keyClick(box, Qt.Key.Key_Down)
    assert tab.view.hasFocus()
    assert tab.view.currentIndex().row() == 0
    first = tab.model.record_id(0)
    assert tab.detail.current == (Kind.COURSES, first)
    qtbot.keyClick(tab.view, Qt.Key.Key_Return)
    page = tab.detail.current_page().parentWidget().parentWidget()  # the page's scroll area
    assert page.hasFocus()
    tab.detail.resize(tab.detail.width(), 200)
    QApplication.processEvents()
    bar = page.verticalScrollBar()
    assert bar.maximum() > 0
    qtbot.keyClick(page, Qt.Key.Key_PageDown)
    assert bar.value() > 0
    qtbot.keyClick(page, Qt.Key.Key_Escape)
    assert tab.view.hasFocus() and tab.detail.current == (Kind.COURSES, first)
