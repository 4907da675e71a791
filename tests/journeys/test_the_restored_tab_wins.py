"""Restarted on the Dates tab with a query: the window stays on Dates when Dates has results,
though other tabs have some too (the move to "the tab with results" is for a tab that shows
nothing). Before the fix, the start read the Dates tab as a collection from the store (it has
none), built an empty table for it, and the query moved the window to Webinars: "No dates
match; showing Webinars"."""

from __future__ import annotations

from typing import Any

from catalogue_desktop.core.records.kinds import OCCASIONS
from tests.journeys.hands import click_tab, status_text

QUERY = "ethics"  # webinars, courses and dates all match


def test_restarted_on_dates_with_a_query_stays_on_dates(start: Any, qtbot: Any) -> None:
    window = start().window
    click_tab(window, OCCASIONS)
    window.close()

    session = start(finder_ready=False, query=QUERY)
    again = session.window
    assert again.current_kind() is OCCASIONS
    tab = again.current_tab()
    qtbot.waitUntil(lambda: not session.finder.indexer.busy, timeout=10000)
    qtbot.waitUntil(lambda: tab.model.rowCount() > 0, timeout=10000)
    assert again.current_kind() is OCCASIONS, status_text(again)
    assert "match" not in status_text(again)
