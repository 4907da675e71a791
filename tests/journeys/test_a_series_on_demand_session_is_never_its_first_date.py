"""A series' First and Last session on the Series tab skip its on-demand sessions, as its details do
(issue 39, point 7): an on-demand session's date is when it was recorded, not a past first session
("1/14/26 1:00 PM" for the Estate Planning Intensive, whose first live session is in March 2027).
The tab's order by first session follows. Which types are on demand is the user's choice: marking
"2" on demand in Preferences makes a series of types 1 and 2 read "On demand" there."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox, QTableWidget

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import Kind
from tests.journeys.hands import click_tab, type_query, until, when_dialog_opens

ESTATE, AUDIT = 805, 807  # sessions of types 1, 1, 1, 2 and of 1, 1, 1, 2, 3 (the demo's)
FIRST, LAST = column_index(Kind.SERIES, "first"), column_index(Kind.SERIES, "last")


def _cells(tab: Any, series_id: int) -> list[str]:
    row = tab.model.view_row_of(series_id)
    assert row is not None
    return [tab.model.index(row, column).data() for column in (FIRST, LAST)]


def _ids_in_view(tab: Any) -> list[int]:
    return [tab.model.record_id(row) for row in range(tab.model.rowCount())]


def _mark_on_demand(dialog: Any, code: str) -> None:
    table = dialog.findChild(QTableWidget, "type-labels")
    row = next(r for r in range(table.rowCount()) if table.item(r, 0).text() == code)
    table.item(row, 2).setCheckState(Qt.CheckState.Checked)
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    QTest.mouseClick(ok, Qt.MouseButton.LeftButton)


def test_a_series_on_demand_session_is_never_its_first_date(start: Any) -> None:
    window = start(finder_ready=False).window
    tab = click_tab(window, Kind.SERIES)
    first, last = _cells(tab, ESTATE)
    assert not first.startswith("1/14/26"), first  # its on-demand session, recorded then
    assert first.startswith("3/10/27 1:00 PM") and first == last, (first, last)  # its one live session
    # in order of first (live) session, upcoming first: not by the recording dates
    assert _ids_in_view(tab) == [810, 801, 802, 806, 804, 807, 803, 805, 808, 809]

    when_dialog_opens(lambda dialog: _mark_on_demand(dialog, "2"))
    window.menu_actions.preferences_action.trigger()
    until(lambda: _cells(tab, ESTATE) == ["On demand", ""])  # every session on demand now
    first, last = _cells(tab, AUDIT)
    assert first.startswith("3/17/27 1:00 PM") and first == last, (first, last)  # its type 3 session
    assert not tab.model.is_past(tab.model.view_row_of(ESTATE))  # bookable whenever: never past
    assert _ids_in_view(tab)[0] == AUDIT  # re-sorted: the one series with a live session first
    window.close()


def test_under_a_query_a_series_first_matching_session_is_never_an_on_demand_one(start: Any) -> None:
    """Under a query on its sessions, a series' First and Last matching session skip its on-demand
    sessions too: "webinar series about privacy" showed 2/25/26 and 10/21/26, recording dates that
    look like sessions already past (a fresh-eyes sales user met it). A series whose matching
    sessions are all on demand shows no date there."""
    window = start().window
    tab = click_tab(window, Kind.SERIES)
    own = {804: _cells(tab, 804), 801: _cells(tab, 801)}
    type_query(window, "webinar series about privacy")
    assert sorted(_ids_in_view(tab)) == [801, 804]
    first, last = _cells(tab, 804)
    assert first == last == "1/13/27 1:00 PM UTC−05:00", (first, last, own[804])  # its one live match
    assert _cells(tab, 801) == ["", ""], own[801]  # only its on-demand session is about privacy
