"""A series' sessions and a certificate's levels read whole in a narrow details pane without
scrolling sideways (issue 39, fresh eyes point 8: the sessions' Start was cut to "reco…", "3/1…"
and levels such as "at least 1 option a…" needed the sideways scroll bar). Where the columns do
not fit, each session's start, fee and type are under its title, each level's details after its
name, wrapped. Every row is clicked as a person does, at 1024x700 and 820x560."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtWidgets import QApplication, QStyle, QTableWidget, QTreeView

from catalogue_desktop.core.records.kinds import Kind
from tests.journeys.hands import click_row, click_tab
from tests.journeys.test_layout import _screen_sized

SIZES = ((1024, 700), (820, 560))


def _sideways(view: Any) -> int:
    """How far the view's columns reach past its rows area (what a person scrolls sideways)."""
    header = view.horizontalHeader() if isinstance(view, QTableWidget) else view.header()
    shown = [header.sectionSize(c) for c in range(header.count()) if not header.isSectionHidden(c)]
    return max(0, sum(shown) - view.viewport().width()) + view.horizontalScrollBar().maximum()


def _cut(view: Any, index: Any, text: str) -> bool:
    """Whether ``text`` drawn in ``index``'s cell (in its font, within the cell's text margins)
    needs more lines than the cell has."""
    rect = view.visualRect(index)
    margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    font = index.data(Qt.ItemDataRole.FontRole)
    metrics = QFontMetrics(font) if isinstance(font, QFont) else view.fontMetrics()
    needs = metrics.boundingRect(
        QRect(0, 0, max(1, rect.width() - 2 * margin), 100000), Qt.TextFlag.TextWordWrap, text
    )
    return needs.height() > rect.height()


def test_a_series_sessions_read_whole_in_a_narrow_pane(start: Any) -> None:
    window = start().window
    problems: list[str] = []
    for size in SIZES:
        _screen_sized(window, *size)
        tab = click_tab(window, Kind.SERIES)
        for row in range(tab.model.rowCount()):
            click_row(tab, row)
            QApplication.processEvents()
            table = tab.detail.current_page().findChild(QTableWidget, "sessions")
            where = f"{size[0]}x{size[1]} series row {row}"
            if _sideways(table):
                problems.append(f"{where}: scrolls {_sideways(table)} px sideways")
            for session in range(table.rowCount()):
                start_text = table.item(session, 0).text()
                seen = [
                    table.item(session, c).text()
                    for c in range(table.columnCount())
                    if not table.isColumnHidden(c)
                ]
                if not any(start_text in text for text in seen):
                    problems.append(f"{where}: session {session}'s start {start_text!r} is not shown")
                for c in range(table.columnCount()):
                    if not table.isColumnHidden(c):
                        index = table.model().index(session, c)
                        if _cut(table, index, table.item(session, c).text()):
                            problems.append(f"{where}: {table.item(session, c).text()!r} is cut")
    assert not problems, problems


def test_a_certificate_s_levels_read_whole_in_a_narrow_pane(start: Any) -> None:
    window = start().window
    problems: list[str] = []
    for size in SIZES:
        _screen_sized(window, *size)
        tab = click_tab(window, Kind.CERTIFICATES)
        for row in range(tab.model.rowCount()):
            click_row(tab, row)
            QApplication.processEvents()
            tree = tab.detail.current_page().findChild(QTreeView, "levels")
            where = f"{size[0]}x{size[1]} certificate row {row}"
            if _sideways(tree):
                problems.append(f"{where}: scrolls {_sideways(tree)} px sideways")
            index = tree.model().index(0, 0)
            while index.isValid():
                for column in range(tree.model().columnCount()):
                    if tree.isColumnHidden(column):
                        continue
                    cell = index.siblingAtColumn(column)
                    text = str(cell.data() or "")
                    if text and _cut(tree, cell, text):
                        problems.append(f"{where}: {text!r} is cut")
                index = tree.indexBelow(index)
    assert not problems, problems
