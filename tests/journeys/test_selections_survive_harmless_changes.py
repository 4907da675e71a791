"""Selections survive changes that do not touch them: Preferences ▸ OK, a column turned on."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QPoint, Qt
from PySide6.QtGui import QContextMenuEvent, QFocusEvent
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.listing.rows import COLUMNS
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import (
    choose_in_next_popup_menu,
    click_row,
    click_tab,
    preferences_ok,
    selected_ids,
)

CTRL = Qt.KeyboardModifier.ControlModifier


def test_three_rows_selected_on_dates_stay_selected_after_preferences_ok(start: Any, qtbot: Any) -> None:
    session = start()
    window = session.window
    click_tab(window, OCCASIONS)
    tab = window.current_tab()
    rows = tab.model.rowset
    click_row(tab, 0)
    click_row(tab, 2, CTRL)
    click_row(tab, 4, CTRL)
    chosen = selected_ids(tab)
    assert len(chosen) == 3
    shown = tab.detail.current
    preferences_ok(qtbot, window)
    qtbot.waitUntil(lambda: not session.finder.indexer.busy, timeout=10000)
    assert tab.model.rowset is not rows  # (the Dates rows were made again)
    assert selected_ids(tab) == chosen
    assert tab.detail.current == shown


def test_turning_a_column_on_from_the_header_menu_selects_nothing_and_adds_no_history(
    start: Any, qtbot: Any
) -> None:
    window = start().window
    click_tab(window, Kind.WEBINARS)
    click_row(window.current_tab(), 3)  # a record seen: Back would go to it
    assert not window.menu_actions.back_action.isEnabled()
    for kind in (Kind.COURSES, OCCASIONS):
        click_tab(window, kind)
        tab = window.current_tab()
        header = tab.view.horizontalHeader()
        hidden = next(i for i in range(header.count()) if header.isSectionHidden(i))
        chosen = choose_in_next_popup_menu(COLUMNS[kind][hidden].header)
        # a right click on the header (the platform sends its context menu event)
        where = QPoint(10, header.height() // 2)
        QApplication.sendEvent(
            header.viewport(),
            QContextMenuEvent(QContextMenuEvent.Reason.Mouse, where, header.mapToGlobal(where)),
        )
        assert chosen and not header.isSectionHidden(hidden)
        # the menu closed: the focus is back in the table (offscreen, the event is sent)
        QApplication.sendEvent(tab.view, QFocusEvent(QEvent.Type.FocusIn, Qt.FocusReason.PopupFocusReason))
        QApplication.processEvents()
        assert selected_ids(tab) == []
        assert tab._detail is None or tab.detail.current is None
        assert not window.menu_actions.back_action.isEnabled()
