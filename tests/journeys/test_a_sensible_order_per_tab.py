"""A sensible default order per tab: dated kinds by start, upcoming first (past ones after, greyed),
the others by title or name; a sort the user chooses is remembered over a restart."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind, ListKind
from tests.journeys.hands import click_tab

ORDER: dict[ListKind, str] = {
    Kind.WEBINARS: "start",
    Kind.SERIES: "first",
    Kind.COURSES: "next",
    OCCASIONS: "start",
    Kind.CERTIFICATES: "title",
    Kind.EXPERTS: "name",
    Kind.TOPICS: "title",
    Kind.ROLES: "title",
    Kind.SITUATIONS: "title",
}


def _indicator(tab: Any) -> tuple[int, Qt.SortOrder]:
    header = tab.view.horizontalHeader()
    return header.sortIndicatorSection(), header.sortIndicatorOrder()


def _group(model: Any, row: int, column: int) -> int:
    """0: upcoming, 1: on demand, 2: past (greyed) — as the row shows it."""
    if model.is_past(row):
        return 2
    return 1 if str(model.index(row, column).data()).startswith("On demand") else 0


def test_each_tab_opens_in_a_sensible_order(start: Any, qtbot: Any) -> None:
    window = start().window
    for kind, key in ORDER.items():
        click_tab(window, kind)
        tab = window.current_tab()
        model = tab.model
        column = column_index(kind, key)
        assert _indicator(tab) == (column, Qt.SortOrder.AscendingOrder), kind
        rows = range(model.rowCount())
        values = [model.data(model.index(r, column), Qt.ItemDataRole.UserRole) for r in rows]
        past = [model.is_past(r) for r in rows]
        if kind in (Kind.WEBINARS, Kind.SERIES, Kind.COURSES):
            # upcoming first, by start; then on demand (bookable whenever); then past (greyed)
            groups = [_group(model, r, column) for r in rows]
            assert groups == sorted(groups) and groups[0] == 0, kind
            for group in (0, 1, 2):
                starts = [v for v, g in zip(values, groups, strict=True) if g == group and v is not None]
                assert starts == sorted(starts), (kind, group)
        elif kind is OCCASIONS:
            assert not any(past) and values == sorted(values, key=lambda v: (v is None, v or 0))
        else:
            shown = [str(model.index(r, column).data()).casefold() for r in rows]
            assert shown == sorted(shown), kind


def test_the_sort_a_person_chooses_is_remembered(start: Any, qtbot: Any) -> None:
    window = start(finder_ready=False).window
    click_tab(window, Kind.WEBINARS)
    tab = window.current_tab()
    fee = column_index(Kind.WEBINARS, "fee")
    header = tab.view.horizontalHeader()
    x = header.sectionViewportPosition(fee) + header.sectionSize(fee) // 2
    for _ in range(2):  # by fee, then highest first
        QTest.mouseClick(
            header.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(x, 5)
        )
        QApplication.processEvents()
    chosen = _indicator(tab)
    assert chosen[0] == fee
    window.close()

    again = start(finder_ready=False).window
    assert again.current_kind() is Kind.WEBINARS
    tab = again.current_tab()
    assert _indicator(tab) == chosen
    model = tab.model
    fees = [model.data(model.index(r, fee), Qt.ItemDataRole.UserRole) for r in range(model.rowCount())]
    present = [f for f in fees if f is not None]
    descending = chosen[1] == Qt.SortOrder.DescendingOrder
    assert present == sorted(present, reverse=descending) and len(set(present)) > 1


def test_under_a_query_courses_are_in_the_order_of_the_matching_dates_shown(start: Any, qtbot: Any) -> None:
    """A course row shows its matching location's date under ``city:dallas``: the rows are in the
    order of those dates (they were in the order of each course's next date, whatever its city)."""
    from datetime import datetime

    from tests.journeys.hands import type_query

    window = start().window
    click_tab(window, Kind.COURSES)
    type_query(window, "city:dallas")
    tab = window.current_tab()
    model = tab.model
    column = column_index(Kind.COURSES, "next")
    assert model.headerData(column, Qt.Orientation.Horizontal) == "Matching date"
    shown = [str(model.index(r, column).data()).split()[0] for r in range(model.rowCount())]
    dates = [datetime.strptime(d, "%m/%d/%y") for d in shown]
    assert len(dates) > 2 and dates == sorted(dates), shown
