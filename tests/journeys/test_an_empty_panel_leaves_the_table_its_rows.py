"""At 1024x700 a person opens What's new and Changes with nothing in them ("No watched searches
yet…", "nothing to compare with yet"): each panel is as short as its line, not a blank box
taking a third of the window, and the Dates table keeps most of its rows."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QToolBar

from catalogue_desktop.core.records.kinds import OCCASIONS
from tests.journeys.hands import click_tab


def _rows_seen(tab: Any) -> int:
    view = tab.view
    return view.viewport().height() // view.verticalHeader().defaultSectionSize()


def test_an_empty_panel_leaves_the_table_its_rows(start: Any, qtbot: Any) -> None:
    session = start()
    window = session.window
    window.show()
    window.resize(1024, 700)
    QApplication.processEvents()
    tab = click_tab(window, OCCASIONS)
    before = _rows_seen(tab)
    toolbar = window.findChild(QToolBar, "toolbar-main")
    news, changes = session.watcher.dock, window.changes_dock

    def news_line() -> QLabel:
        return news.summary

    def changes_line() -> QLabel:
        return changes.view.summary

    for action, dock, line, says in (
        (session.watcher.action, news, news_line, "No watched searches yet"),
        (window.menu_actions.changes_action, changes, changes_line, "nothing to compare"),
    ):
        QTest.mouseClick(toolbar.widgetForAction(action), Qt.MouseButton.LeftButton)
        qtbot.waitUntil(dock.isVisible, timeout=2000)
        QApplication.processEvents()
        assert says in line().text()
        assert line().isVisible()
        assert dock.height() <= 100, (action.text(), dock.height())  # its line, not a blank box
        assert _rows_seen(tab) >= before * 3 // 4, (action.text(), _rows_seen(tab), before)
