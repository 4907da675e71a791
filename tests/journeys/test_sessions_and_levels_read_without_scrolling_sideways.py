"""A series' sessions and a certificate's levels read whole in a narrow details pane without
scrolling sideways (issue 39, fresh eyes point 8: the sessions' Start was cut to "reco…", "3/1…"
and levels such as "at least 1 option a…" needed the sideways scroll bar). Where the columns do
not fit, each session's start, fee and type are under its title, each level's details after its
name, wrapped. Every row is clicked as a person does, at 1024x700 and 820x560."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QTableWidget, QTreeView

from catalogue_desktop.core.records.kinds import Kind
from tests.journeys.hands import cut_cells, each_row_shown

SIZES = ((1024, 700), (820, 560))


def _sideways(view: Any) -> int:
    """How far the view's columns reach past its rows area (what a person scrolls sideways)."""
    header = view.horizontalHeader() if isinstance(view, QTableWidget) else view.header()
    shown = [header.sectionSize(c) for c in range(header.count()) if not header.isSectionHidden(c)]
    return max(0, sum(shown) - view.viewport().width()) + view.horizontalScrollBar().maximum()


def test_a_series_sessions_read_whole_in_a_narrow_pane(start: Any) -> None:
    window = start(finder_ready=False).window
    problems: list[str] = []
    for where, tab in each_row_shown(window, Kind.SERIES, SIZES):
        table = tab.detail.current_page().findChild(QTableWidget, "sessions")
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
        problems += cut_cells(table, where)
    assert not problems, problems


def test_a_certificate_s_levels_read_whole_in_a_narrow_pane(start: Any) -> None:
    window = start(finder_ready=False).window
    problems: list[str] = []
    for where, tab in each_row_shown(window, Kind.CERTIFICATES, SIZES):
        tree = tab.detail.current_page().findChild(QTreeView, "levels")
        if _sideways(tree):
            problems.append(f"{where}: scrolls {_sideways(tree)} px sideways")
        problems += cut_cells(tree, where)
    assert not problems, problems
