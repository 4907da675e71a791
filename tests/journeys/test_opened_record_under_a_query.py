"""A record asked for at start (``--open``) under a query that lists it (``--query``) is the row
selected and the record shown — not "not among the rows the query shows" (seen on the demo with
``--query city:chicago --open course:6101``: the pane said so while 6101's row was listed)."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QLabel

from catalogue_desktop.core.records.kinds import Kind


def test_the_record_opened_at_start_under_a_query_that_lists_it_is_selected_and_shown(
    start: Any, qtbot: Any
) -> None:
    window = start(open="course:6101", query="city:chicago").window
    tab = window.tab(Kind.COURSES)
    qtbot.waitUntil(lambda: tab.model.rowCount() == 5, timeout=5000)  # the Chicago courses
    qtbot.waitUntil(lambda: tab.selected_record_id() == 6101, timeout=5000)
    assert window.current_tab() is tab
    assert tab.detail.current == (Kind.COURSES, 6101)
    shown = " ".join(label.text() for label in tab.findChildren(QLabel) if label.isVisible())
    assert "not among the rows" not in shown and "Advanced Lease Accounting Workshop" in shown
