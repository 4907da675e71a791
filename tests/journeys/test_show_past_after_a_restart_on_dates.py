"""Restarted on the Dates tab, "Show past" still shows past occasions. Before the fix, the finder
listened for the Dates tab's toggle when a tab was made (``tab_made``), but the tab the window
restores is made with the window, before the finder: on a restart on Dates the toggle did
nothing. The window now routes the toggle to its finder itself."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from catalogue_desktop.core.records.kinds import OCCASIONS
from tests.journeys.hands import click_tab


def test_show_past_works_on_a_restored_dates_tab(start: Any, qtbot: Any) -> None:
    window = start().window
    click_tab(window, OCCASIONS)
    window.close()

    session = start()
    again = session.window
    assert again.current_kind() is OCCASIONS
    tab = again.current_tab()
    qtbot.waitUntil(lambda: tab.model.rowCount() > 0, timeout=10000)
    assert not session.finder.show_past
    QTest.mouseClick(tab.show_past, Qt.MouseButton.LeftButton)
    assert tab.show_past.isChecked()
    qtbot.waitUntil(lambda: session.finder.show_past, timeout=5000)
