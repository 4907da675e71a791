"""At 1024x700 a person watches a search and opens What's new, then refreshes (F5): the panel
says one line per search ("Chicago dates — nothing new") and is as tall as those lines need, not a
quarter of the window; the Dates table keeps its rows, and the panel opens at that height again
after a restart. A height the person dragged the panel to is kept (issue 39, second pass: What's
new grew to a quarter of the window for one line, leaving about 11 table rows)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolBar

from catalogue_desktop.core.records.kinds import OCCASIONS
from tests.journeys.hands import click_tab, key, screen_sized
from tests.ui.conftest import loop_passes


def _rows_seen(tab: Any) -> int:
    view = tab.view
    return view.viewport().height() // view.verticalHeader().defaultSectionSize()


def _open_news(session: Any, qtbot: Any) -> Any:
    toolbar = session.window.findChild(QToolBar, "toolbar-main")
    QTest.mouseClick(toolbar.widgetForAction(session.watcher.action), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(session.watcher.dock.isVisible, timeout=2000)
    return session.watcher.dock


def _lines_need(dock: Any) -> int:
    """What the panel's lines take: its summary and each row listed, with its frame and title."""
    tree = dock.tree
    rows = sum(tree.visualItemRect(tree.topLevelItem(i)).height() for i in range(tree.topLevelItemCount()))
    return dock.summary.height() + rows + 2 * tree.frameWidth()


def _settled(qtbot: Any, dock: Any) -> None:
    qtbot.waitUntil(lambda: dock.tree.isVisible() and dock.tree.topLevelItemCount() == 1, timeout=10000)
    loop_passes(qtbot)  # (the refit is posted: a layout request, then a resize)
    qtbot.waitUntil(lambda: dock.height() <= _lines_need(dock) + 60, timeout=3000)


def test_what_s_new_is_as_tall_as_its_lines(make_session: Any, demo_server: Any, qtbot: Any) -> None:
    def start() -> Any:
        session = make_session(base_url=demo_server.base_url)
        qtbot.waitUntil(lambda: session.window.ready and not session.finder.indexer.busy, timeout=20000)
        return session

    session = start()
    window = session.window
    screen_sized(window, 1024, 700)
    window.search_book.save("Chicago dates", "city:chicago", "")
    window.menu_actions.searches_menu.aboutToShow.emit()  # Searches ▸ Watch ▸ Chicago dates
    watch = next(a.menu() for a in window.menu_actions.searches_menu.actions() if a.text() == "Watch")
    next(a for a in watch.actions() if a.text() == "Chicago dates").trigger()
    tab = click_tab(window, OCCASIONS)
    before = _rows_seen(tab)
    dock = _open_news(session, qtbot)
    _settled(qtbot, dock)

    with qtbot.waitSignals([session.synced, session.watcher.evaluated], timeout=30000):
        key(tab.view, Qt.Key.Key_F5)  # a refresh, and its news worked out again
    QApplication.processEvents()
    _settled(qtbot, dock)
    assert dock.tree.topLevelItem(0).text(0) == "Chicago dates — nothing new"
    assert dock.height() < window.height() // 4 - 40, dock.height()  # not a quarter for one line
    assert _rows_seen(tab) >= before - 5, (_rows_seen(tab), before)
    assert dock.tree.viewport().height() >= dock.tree.visualItemRect(dock.tree.topLevelItem(0)).height()

    key(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)  # File ▸ Quit, and start again
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=2000)
    session = start()
    window = session.window
    screen_sized(window, 1024, 700)
    tab = click_tab(window, OCCASIONS)
    dock = session.watcher.dock
    qtbot.waitUntil(dock.isVisible, timeout=5000)  # open again, at its lines' height
    _settled(qtbot, dock)
    assert dock.height() < window.height() // 4 - 40, dock.height()

    fitted = dock.height()
    window.resizeDocks([dock], [fitted + 60], Qt.Orientation.Vertical)  # dragged taller (as its
    qtbot.waitUntil(lambda: dock.height() > fitted + 40, timeout=2000)  # separator does)
    dragged = dock.height()
    QTest.mouseClick(
        window.findChild(QToolBar, "toolbar-main").widgetForAction(session.watcher.action),
        Qt.MouseButton.LeftButton,
    )  # closed, and opened again: the person's height
    qtbot.waitUntil(lambda: not dock.isVisible(), timeout=2000)
    _open_news(session, qtbot)
    loop_passes(qtbot)  # (a refit posted on opening has run)
    assert abs(dock.height() - dragged) <= 4, (dock.height(), dragged)
