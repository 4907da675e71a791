"""A person leaves What's new open and quits with Ctrl+Q: at the next start it is open again, in
its place under the tables, its toolbar button pressed (the README: "an open panel is open again
at the next start"). What's new is made after the window restored its layout, so it must take
its remembered state then."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolBar, QToolButton

from tests.journeys.hands import key


def _news_button(session: Any) -> QToolButton:
    toolbar = session.window.findChild(QToolBar, "toolbar-main")
    button = toolbar.widgetForAction(session.watcher.action)
    assert isinstance(button, QToolButton)
    return button


def test_whats_new_left_open_is_open_after_a_restart(start: Any, qtbot: Any) -> None:
    session = start(finder_ready=False)
    window = session.window
    window.show()
    window.resize(1366, 768)
    QApplication.processEvents()
    QTest.mouseClick(_news_button(session), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: session.watcher.dock.isVisible(), timeout=2000)
    key(window, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)  # File ▸ Quit
    qtbot.waitUntil(lambda: not window.isVisible(), timeout=2000)

    again = start(finder_ready=False)
    again.window.show()
    QApplication.processEvents()
    dock = again.watcher.dock
    qtbot.waitUntil(lambda: dock.isVisible(), timeout=2000)
    assert _news_button(again).isChecked()
    assert not again.window.changes_dock.isVisible()  # one panel at a time
    assert dock.geometry().top() >= again.window.centralWidget().geometry().bottom()  # its place
    assert dock.summary.isVisible()  # its content made and shown, not an empty frame
