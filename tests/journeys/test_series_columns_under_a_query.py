"""Under a query on sessions, a Series row shows its matching sessions, and its headings say so."""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import Qt

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import Kind
from tests.journeys.hands import click_tab, type_query

HORIZONTAL = Qt.Orientation.Horizontal


def _headings(tab: Any) -> list[str]:
    header = tab.view.horizontalHeader()
    return [header.model().headerData(i, HORIZONTAL) for i in range(header.count())]


def test_series_first_and_last_columns_say_they_show_the_matching_sessions(start: Any, qtbot: Any) -> None:
    window = start().window
    click_tab(window, Kind.SERIES)
    tab = window.current_tab()
    first, last = column_index(Kind.SERIES, "first"), column_index(Kind.SERIES, "last")
    assert [_headings(tab)[i] for i in (first, last)] == ["First session", "Last session"]
    type_query(window, "starts:2027-02")
    assert 0 < tab.model.rowCount() < tab.model.total_count()
    assert [_headings(tab)[i] for i in (first, last)] == ["First matching session", "Last matching session"]
    for row in range(tab.model.rowCount()):  # (the cells' sort keys stay the series' own)
        shown = [tab.model.index(row, c).data() for c in (first, last)]
        assert all(re.match(r"(2/\d+/(20)?27\b|Feb\w* \d+, 2027)", text) for text in shown), shown
    type_query(window, "")
    assert [_headings(tab)[i] for i in (first, last)] == ["First session", "Last session"]
