"""A date row's details lead with that date's own facts: a course's date shows that date's fee,
place and days (not the course's fee range over all its dates); a series' session shows that
session and its fee."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QLabel

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind, OccasionKind
from tests.journeys.hands import click_row, click_tab


def _value(tab: Any, slug: str) -> str:
    page = tab.detail.current_page()
    found = [w for w in page.findChildren(QLabel, f"value_{slug}") if w.isVisibleTo(page)]
    assert found, f"no {slug!r} shown: {[w.objectName() for w in page.findChildren(QLabel)]}"
    return str(found[0].text())


def _rows_of(tab: Any, kind: OccasionKind) -> list[int]:
    kinds = column_index(OCCASIONS, "kind")
    return [r for r in range(tab.model.rowCount()) if tab.model.index(r, kinds).data() == kind.value]


def test_a_course_date_shows_its_own_fee_and_place(start: Any, qtbot: Any) -> None:
    window = start().window
    tab = click_tab(window, OCCASIONS)
    fee, city = column_index(OCCASIONS, "fee"), column_index(OCCASIONS, "city")
    by_title: dict[str, set[str]] = {}
    rows = _rows_of(tab, OccasionKind.COURSE)
    for r in rows:
        by_title.setdefault(tab.model.index(r, 0).data(), set()).add(tab.model.index(r, fee).data())
    row = next(r for r in rows if len(by_title[tab.model.index(r, 0).data()]) > 1)  # fees differ
    its_fee, its_city = tab.model.index(row, fee).data(), tab.model.index(row, city).data()
    click_row(tab, row)
    assert tab.detail.current is not None and tab.detail.current[0] is Kind.COURSES
    assert _value(tab, "fee").endswith(its_fee), (_value(tab, "fee"), its_fee)
    assert "–" not in _value(tab, "fee")  # one fee, not the range
    assert its_city in _value(tab, "place")
    assert _value(tab, "this_date") != "—"
    others = sorted(by_title[tab.model.index(row, 0).data()] - {its_fee})
    assert others[0] in _value(tab, "fee_range")  # the other dates' fees said as such


def test_a_series_session_shows_that_session(start: Any, qtbot: Any) -> None:
    window = start().window
    tab = click_tab(window, OCCASIONS)
    row = _rows_of(tab, OccasionKind.SESSION)[0]
    title = tab.model.index(row, 0).data()
    click_row(tab, row)
    assert tab.detail.current is not None and tab.detail.current[0] is Kind.SERIES
    assert _value(tab, "this_date").startswith(title), (_value(tab, "this_date"), title)
