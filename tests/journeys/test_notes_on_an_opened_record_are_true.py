"""What the window says of a record opened with Ctrl+K is true while it is said: "…the query
hides its row" goes once the query is cleared and the row is listed and selected (and when
another tab is shown); and a date whose row the query hides is not called "the selected date"
when no row is selected."""

from __future__ import annotations

from typing import Any

from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import (
    click_row,
    click_tab,
    pane_text,
    quick_open,
    selected_ids,
    status_text,
    type_query,
)

HIDES = "the query hides its row"


def test_the_hidden_row_note_goes_once_the_row_is_listed(start: Any, qtbot: Any) -> None:
    window = start().window
    type_query(window, "cpe:yes -ethics")
    opened = quick_open(qtbot, window, "ethics", first="Course")
    wanted = int(opened.detail.lstrip("#"))
    tab = window.current_tab()
    assert tab.kind is Kind.COURSES and selected_ids(tab) == []
    assert status_text(window).endswith(HIDES)  # true: the query hides it
    type_query(window, "")
    qtbot.waitUntil(lambda: selected_ids(tab) == [wanted], timeout=5000)
    assert HIDES not in status_text(window), status_text(window)


def test_the_hidden_row_note_goes_with_its_tab(start: Any, qtbot: Any) -> None:
    window = start().window
    type_query(window, "cpe:yes -ethics")
    quick_open(qtbot, window, "ethics", first="Course")
    assert status_text(window).endswith(HIDES)
    click_tab(window, Kind.EXPERTS)  # its details are not shown here
    assert HIDES not in status_text(window), status_text(window)


def test_a_date_the_query_hides_is_not_called_selected(start: Any, qtbot: Any) -> None:
    window = start().window
    tab = click_tab(window, OCCASIONS)
    type_query(window, "lease")
    click_row(tab, 0)
    assert len(selected_ids(tab)) == 1
    type_query(window, "ethics")  # the date clicked is not among these
    qtbot.waitUntil(lambda: tab.model.rowCount() > 0 and selected_ids(tab) == [], timeout=5000)
    shown = pane_text(tab)
    assert "The selected date" not in shown, shown
    assert "The date you had selected is not among the rows shown now" in shown, shown
