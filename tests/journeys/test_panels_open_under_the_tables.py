"""What's new and Changes open under the tables, one at a time in the same place, not beside
them: the table keeps its width at 1024x700. Each toolbar toggle looks pressed exactly while its
panel is seen, Escape in a panel closes it (the focus back in the table), the open panel is there
again after a restart, and the "… news — show" notice goes once What's new was seen, however it
was opened."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolBar, QToolButton

from catalogue_desktop.core.records.kinds import OCCASIONS
from tests.journeys.hands import click_tab, key


def _sized(window: Any, width: int, height: int) -> None:
    window.show()
    window.resize(width, height)
    QApplication.processEvents()


def _button(window: Any, action: Any) -> QToolButton:
    toolbar = window.findChild(QToolBar, "toolbar-main")
    button = toolbar.widgetForAction(action)
    assert isinstance(button, QToolButton)
    return button


def _click(qtbot: Any, button: QToolButton) -> None:
    QTest.mouseClick(button, Qt.MouseButton.LeftButton)
    QApplication.processEvents()


def test_the_panels_open_under_the_table_and_their_toggles_follow_them(start: Any, qtbot: Any) -> None:
    session = start()
    window = session.window
    _sized(window, 1024, 700)
    tab = click_tab(window, OCCASIONS)
    width = tab.view.width()
    changes = _button(window, window.menu_actions.changes_action)
    news = _button(window, session.watcher.action)
    assert not changes.isChecked() and not news.isChecked()

    _click(qtbot, changes)
    qtbot.waitUntil(lambda: window.changes_dock.isVisible(), timeout=2000)
    assert changes.isChecked()
    assert tab.view.width() >= width - 2, (tab.view.width(), width)  # the table keeps its width
    panel = window.changes_dock.geometry()
    assert panel.top() >= window.centralWidget().geometry().bottom()  # under the tables
    assert panel.width() > window.width() // 2

    _click(qtbot, news)  # What's new in the same place: Changes makes room for it
    dock = session.watcher.dock
    qtbot.waitUntil(lambda: dock.isVisible(), timeout=2000)
    assert news.isChecked() and not window.changes_dock.isVisible() and not changes.isChecked()
    assert tab.view.width() >= width - 2
    assert dock.geometry().top() >= window.centralWidget().geometry().bottom()

    focused = QApplication.focusWidget()  # in the panel (it lists nothing)
    assert focused is not None
    key(focused, Qt.Key.Key_Escape)  # closed from the keyboard
    qtbot.waitUntil(lambda: not dock.isVisible(), timeout=2000)
    assert not news.isChecked() and not changes.isChecked()
    _click(qtbot, changes)
    qtbot.waitUntil(lambda: window.changes_dock.isVisible(), timeout=2000)
    tree = window.changes_dock.view.tree
    QTest.mouseClick(tree.viewport(), Qt.MouseButton.LeftButton)  # into the panel, then Escape
    key(tree, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not window.changes_dock.isVisible(), timeout=2000)
    assert not changes.isChecked() and tab.view.hasFocus()

    _click(qtbot, changes)
    qtbot.waitUntil(lambda: window.changes_dock.isVisible(), timeout=2000)
    window.close()
    again = start().window
    _sized(again, 1024, 700)
    qtbot.waitUntil(lambda: again.changes_dock.isVisible(), timeout=2000)  # remembered
    assert again.menu_actions.changes_action.isChecked()
    assert again.changes_dock.geometry().top() >= again.centralWidget().geometry().bottom()


def test_the_news_notice_goes_once_whats_new_was_seen(start: Any, qtbot: Any) -> None:
    session = start()
    window = session.window
    _sized(window, 1366, 768)
    session.notifier.say(3, [])  # (as a refresh that brought news says it)
    notice = session.notifier.notice
    assert notice.isVisible() and "3 news" in notice.text()
    _click(qtbot, _button(window, session.watcher.action))  # opened from the toolbar, not the notice
    qtbot.waitUntil(lambda: session.watcher.dock.isVisible(), timeout=2000)
    assert not notice.isVisible()
