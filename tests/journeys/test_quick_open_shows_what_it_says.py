"""Quick open (Ctrl+K): the record the status line names, the row selected and the record the
detail pane shows are always the same."""

from __future__ import annotations

import re
from typing import Any

import pytest
from PySide6.QtCore import QEvent, Qt
from PySide6.QtGui import QFocusEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import (
    click_tab,
    key,
    pane_text,
    quick_open,
    selected_ids,
    status_text,
    type_query,
)


def test_the_record_named_the_row_selected_and_the_pane_agree(start: Any, qtbot: Any) -> None:
    window = start().window
    type_query(window, "next-month cpe:yes")
    click_tab(window, OCCASIONS)
    chosen = quick_open(qtbot, window, "ethics", 2)
    assert chosen.what == "Course"
    wanted = int(chosen.detail.lstrip("#"))
    QApplication.processEvents()
    tab = window.current_tab()
    assert tab.kind.value == "courses"
    said = status_text(window)
    named = re.search(r"#(\d+)", said)
    assert named is not None and int(named.group(1)) == wanted, said
    assert tab.detail.current == (tab.kind, wanted)
    assert selected_ids(tab) in ([], [wanted])
    current = tab.view.currentIndex()
    assert not current.isValid() or tab.model.record_id(current.row()) == wanted


def test_the_opened_record_stays_shown_when_the_focus_comes_to_its_table(start: Any, qtbot: Any) -> None:
    """A table without a current row makes its first row current when it gets the focus (the
    window gave it the focus after quick open): that row's record replaced the one named."""
    window = start().window
    click_tab(window, Kind.COURSES)
    tab = window.current_tab()
    type_query(window, "cpe:yes -ethics")  # (the Courses tab's rows follow at once)
    click_tab(window, OCCASIONS)
    wanted = int(quick_open(qtbot, window, "ethics", 2).detail.lstrip("#"))
    assert window.current_tab() is tab and f"#{wanted}" in status_text(window)
    # Shift+Tab from the pane to the table (offscreen, no window is active: the focus a Tab
    # press gives is sent as its event)
    QApplication.sendEvent(tab.view, QFocusEvent(QEvent.Type.FocusIn, Qt.FocusReason.BacktabFocusReason))
    QApplication.processEvents()
    assert tab.detail.current == (Kind.COURSES, wanted)
    current = tab.view.currentIndex()
    assert selected_ids(tab) == [] or (current.isValid() and tab.model.record_id(current.row()) == wanted)
    first_row = tab.view.visualRect(tab.model.index(0, 0)).center()
    QTest.mouseClick(
        tab.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, first_row
    )
    assert selected_ids(tab) == [tab.model.record_id(0)]  # a row chosen: its record is shown
    assert tab.detail.current == (Kind.COURSES, tab.model.record_id(0))


@pytest.mark.parametrize(
    ("kind", "query", "words"),
    # (queries that hide the record opened whatever the date: the was next-month cpe:yes)
    [(Kind.COURSES, "cpe:yes -ethics", "ethics"), (Kind.CERTIFICATES, "fee:<1", "law practice ethics")],
)
def test_escape_in_the_query_box_lists_the_opened_record_s_row_without_a_false_word(
    start: Any, qtbot: Any, kind: Kind, query: str, words: str
) -> None:
    window = start().window
    type_query(window, query)
    opened = quick_open(qtbot, window, words, first=kind.singular.capitalize())
    assert opened.what == kind.singular.capitalize(), opened
    wanted = int(opened.detail.lstrip("#"))
    QApplication.processEvents()
    tab = window.current_tab()
    assert tab.kind is kind and tab.detail.current == (kind, wanted)
    assert status_text(window).endswith("is shown in the details; the query hides its row")
    edit = window.query_box.edit
    QTest.mouseClick(edit, Qt.MouseButton.LeftButton)
    key(edit, Qt.Key.Key_Escape)
    assert window.query_box.text() == ""
    assert tab.model.rowCount() == tab.model.total_count()
    assert tab.detail.current == (kind, wanted)
    assert "not among the rows" not in pane_text(tab)
    assert selected_ids(tab) == [wanted]
