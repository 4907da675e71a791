"""A restart brings back the query the window was closed with and the row that was selected on
the shown tab, as the tab and an open panel come back. Before, the box was empty and no row was
selected after a restart."""

from __future__ import annotations

from typing import Any

from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import click_row, click_tab, selected_ids, type_query


def test_the_query_and_the_selected_row_come_back(start: Any, qtbot: Any) -> None:
    window = start().window
    tab = click_tab(window, OCCASIONS)
    type_query(window, "chicago, cheapest first")
    qtbot.waitUntil(lambda: 1 < tab.model.rowCount() < 98, timeout=5000)
    shown = tab.model.rowCount()
    click_row(tab, 1)
    chosen = selected_ids(tab)
    assert len(chosen) == 1
    window.close()

    again = start().window
    assert again.current_kind() is OCCASIONS
    assert again.query_box.text() == "chicago, cheapest first"
    tab = again.current_tab()
    qtbot.waitUntil(lambda: tab.model.rowCount() == shown, timeout=10000)
    qtbot.waitUntil(lambda: selected_ids(tab) == chosen, timeout=10000)
    assert tab.shown_record() is not None

    type_query(again, "")  # an empty box and another tab's row are kept as well
    webinars = click_tab(again, Kind.WEBINARS)
    click_row(webinars, 2)
    picked = selected_ids(webinars)
    again.close()

    third = start().window
    assert third.current_kind() is Kind.WEBINARS and third.query_box.text() == ""
    webinars = third.current_tab()
    qtbot.waitUntil(lambda: selected_ids(webinars) == picked, timeout=10000)
