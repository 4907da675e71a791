"""A series' sessions and a certificate's levels read whole in the details pane, at 1024x700 and
1366x768 (issue 39, point 16): the sessions table had a column without a visible heading (Title's,
slid out of a pane too narrow for four columns that could not scroll), titles cut to a word, and
fees and types out of reach; the levels tree's columns were cut and its last row hid under its
scroll bar. Every row of each is clicked as a person does; what the pane then shows is read."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect, Qt
from PySide6.QtWidgets import QTableWidget, QTreeView

from catalogue_desktop.core.records.kinds import Kind
from tests.journeys.hands import each_row_shown, rows_top_down
from tests.journeys.test_every_dialog_fits_a_small_screen import header_problems

SIZES = ((1024, 700), (1366, 768))


def _rows_hidden(view: Any, heights: list[int], most: int) -> int:
    """How many of the first rows (``most`` at most: more scroll) do not fit the view's rows area."""
    room = view.viewport().height()
    shown = 0
    for height in heights[:most]:
        room -= height
        if room < 0:
            break
        shown += 1
    return min(len(heights), most) - shown


def _title_problems(table: Any) -> list[str]:
    """Titles a person cannot read: the column not the first, or a title cut without its
    whole text in a tooltip."""
    header = table.horizontalHeader()
    title = next(c for c in range(header.count()) if table.horizontalHeaderItem(c).text() == "Title")
    problems = []
    if header.visualIndex(title) != 0:
        problems.append(f"the Title column is column {header.visualIndex(title) + 1} from the left")
    metrics = table.fontMetrics()
    width = header.sectionSize(title) - 8  # (the cell's margins)
    for row in range(table.rowCount()):
        item = table.item(row, title)
        needs = metrics.boundingRect(QRect(0, 0, width, 100000), Qt.TextFlag.TextWordWrap, item.text())
        if needs.height() > table.rowHeight(row) and item.text() not in item.toolTip():
            problems.append(f"{item.text()!r} is cut and has no tooltip")
        words = max((metrics.horizontalAdvance(w) for w in item.text().split()), default=0)
        if width < min(words, 100):  # (not even one word a line)
            problems.append(f"{item.text()!r} gets {width} px")
    return problems


def test_every_series_sessions_show_every_heading_and_title(start: Any) -> None:
    window = start(finder_ready=False).window
    problems: list[str] = []
    for where, tab in each_row_shown(window, Kind.SERIES, SIZES):
        table = tab.detail.current_page().findChild(QTableWidget, "sessions")
        problems += header_problems(table, where)
        problems += [f"{where}: {p}" for p in _title_problems(table)]
        hidden = _rows_hidden(table, [table.rowHeight(r) for r in range(table.rowCount())], 15)
        if hidden:
            problems.append(f"{where}: {hidden} sessions hidden")
    assert not problems, problems


def test_every_certificate_tree_shows_its_columns_and_rows_whole(start: Any) -> None:
    window = start(finder_ready=False).window
    problems: list[str] = []
    for where, tab in each_row_shown(window, Kind.CERTIFICATES, SIZES):
        tree = tab.detail.current_page().findChild(QTreeView, "levels")
        problems += header_problems(tree, where)
        header = tree.header()
        for column in range(header.count()):
            if tree.isColumnHidden(column) or tree.wordWrap():
                continue  # (stacked in a narrow pane: wrapped, read whole in
                # test_sessions_and_levels_read_without_scrolling_sideways)
            if header.sectionSize(column) < tree.sizeHintForColumn(column):
                name = tree.model().headerData(column, Qt.Orientation.Horizontal)
                has, needs = header.sectionSize(column), tree.sizeHintForColumn(column)
                problems.append(f"{where}: {name} is {has} px of its text's {needs}")
        rows = [tree.visualRect(index).height() for index in rows_top_down(tree)]
        hidden = _rows_hidden(tree, rows, 30)
        if hidden:
            problems.append(f"{where}: {hidden} rows hidden")
    assert not problems, problems
