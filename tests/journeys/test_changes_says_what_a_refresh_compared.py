"""A person refreshes a second time (F5) and the service has nothing new: Changes says the
refresh compared the service's catalogue with the copy kept, and found nothing changed, not
"This is the first copy of the catalogue" (as it said before any refresh)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolBar

from catalogue_desktop.core.records.kinds import Kind
from tests.journeys.hands import click_tab, key


def test_changes_says_what_a_second_refresh_compared(make_session: Any, demo_server: Any, qtbot: Any) -> None:
    session = make_session(base_url=demo_server.base_url)
    window = session.window
    qtbot.waitUntil(lambda: not session.finder.indexer.busy, timeout=10000)
    window.show()
    window.resize(1024, 700)
    QApplication.processEvents()
    toolbar = window.findChild(QToolBar, "toolbar-main")
    QTest.mouseClick(toolbar.widgetForAction(window.menu_actions.changes_action), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(window.changes_dock.isVisible, timeout=2000)
    summary = window.changes_dock.view.summary
    assert summary.text() == "This is the first copy of the catalogue: nothing to compare with yet."

    tab = click_tab(window, Kind.COURSES)
    with qtbot.waitSignal(session.synced, timeout=30000):
        key(tab.view, Qt.Key.Key_F5)  # the service as it was
    qtbot.waitUntil(lambda: "first copy" not in summary.text(), timeout=5000)
    assert summary.text().startswith("The last refresh compared the service's catalogue with the copy ")
    assert summary.text().endswith(": nothing changed.")
    assert summary.isVisible()
