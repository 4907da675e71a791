"""Dates reads whole at 1024x700 with the details pane shown: Title, Start, City, State and Fee
all in view without scrolling sideways, each value whole (no "…"), the zone still written whole
on each row's start (the zone rule: a sales person quotes it); and at 820 wide the shortened tab
titles keep their counts (the name is cut, never the number)."""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtWidgets import QApplication, QStyleOptionTab

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import OCCASIONS
from tests.journeys.hands import click_row, click_tab

READ = ("title", "start", "city", "state", "fee")


def _sized(window: Any, width: int, height: int) -> None:
    window.show()
    window.resize(width, height)
    QApplication.processEvents()


def test_dates_shows_title_start_city_state_and_fee_whole_at_1024(start: Any) -> None:
    window = start().window
    _sized(window, 1024, 700)
    tab = click_tab(window, OCCASIONS)
    click_row(tab, 0)
    QApplication.processEvents()
    assert tab.detail.isVisible()
    header = tab.view.horizontalHeader()
    room = tab.view.viewport().width()
    metrics = tab.view.fontMetrics()
    for key in READ:
        column = column_index(OCCASIONS, key)
        assert not header.isSectionHidden(column), key
        left = header.sectionViewportPosition(column)
        right = left + header.sectionSize(column)
        assert left >= 0 and right <= room, (key, left, right, room)
        if key == "title":
            assert header.sectionSize(column) >= 120, header.sectionSize(column)
            continue
        for row in range(min(tab.model.rowCount(), 40)):  # each value whole in its cell
            text = str(tab.model.index(row, column).data() or "")
            assert metrics.horizontalAdvance(text) + 8 <= header.sectionSize(column), (key, text)
    start_column = column_index(OCCASIONS, "start")
    for row in range(min(tab.model.rowCount(), 40)):  # the zone stays on the row
        index = tab.model.index(row, start_column)
        text = str(index.data() or "")
        if text:
            assert re.search(r"UTC[+−]\d\d:\d\d", text), text  # whole, zone included ("… UTC−06:00 ⚠")


def test_at_820_wide_shortened_tab_titles_keep_their_counts(start: Any) -> None:
    window = start().window
    _sized(window, 820, 560)
    bar = window.tab_widget.tabBar()
    metrics = bar.fontMetrics()
    shortened = 0
    for index in range(bar.count()):
        shown, whole = bar.tabText(index), bar.full_title(index)
        count = whole.split()[-1]
        assert count.replace(",", "").isdigit(), whole
        assert shown.endswith(" " + count), (whole, shown)  # the name is cut, never the count
        option = QStyleOptionTab()
        bar.initStyleOption(option, index)  # the title as the tab draws it: not cut again
        assert option.text == shown, (shown, option.text)
        assert bar.tabRect(index).width() >= metrics.horizontalAdvance(shown), shown
        if shown != whole:
            shortened += 1
            assert "…" in shown, (whole, shown)
    assert shortened, "at 820 wide some titles are shortened"
    _sized(window, 1366, 700)  # wide again: every title whole
    assert [bar.tabText(i) for i in range(bar.count())] == [bar.full_title(i) for i in range(bar.count())]
