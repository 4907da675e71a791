"""Column widths as a new user meets them: titles get the room, values are not cut or stranded at
the far right of a stretched column, an added column lands in view, cut text is in the tooltip."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.listing.rows import COLUMNS, ColumnType, column_index
from catalogue_desktop.core.records.kinds import Kind


@pytest.fixture
def window(make_session: Any, filled_cache: Any) -> Any:
    session = make_session(base_url="http://127.0.0.1:9", offline=True, wait="ready")
    w = session.window
    w.resize(1800, 900)  # room for every default column beside the facets and the details
    QApplication.processEvents()
    return w


def _shown(header: Any) -> list[int]:
    return [i for i in range(header.count()) if not header.isSectionHidden(i)]


def _room(tab: Any) -> int:
    return tab.view.maximumViewportSize().width()


@pytest.mark.parametrize("kind", [Kind.WEBINARS, Kind.COURSES, Kind.EXPERTS])
def test_titles_get_the_room_and_every_value_fits(window: Any, kind: Kind) -> None:
    tab = window.show_tab(kind)
    QApplication.processEvents()
    tab.columns.fit_title()
    header = tab.view.horizontalHeader()
    shown = _shown(header)
    widths = {i: header.sectionSize(i) for i in shown}
    assert not header.stretchLastSection()
    assert widths[0] == max(widths.values())  # the title column is the widest
    assert sum(widths.values()) <= _room(tab)  # nothing runs off the right edge
    metrics = tab.view.fontMetrics()
    for i in shown[1:]:
        if COLUMNS[kind][i].type is ColumnType.TEXT:
            continue  # names and lists: cut with "…", whole in the tooltip (below)
        texts = [str(tab.model.index(r, i).data() or "") for r in range(tab.model.rowCount())]
        needed = max(metrics.horizontalAdvance(t) for t in texts) if texts else 0
        assert needed <= widths[i], (COLUMNS[kind][i].key, max(texts, key=len), widths[i])
        assert widths[i] <= max(needed, metrics.horizontalAdvance(COLUMNS[kind][i].header)) + 200


def test_an_added_column_lands_in_view(window: Any) -> None:
    tab = window.show_tab(Kind.WEBINARS)
    QApplication.processEvents()
    tab.columns.fit_title()
    header = tab.view.horizontalHeader()
    topics = column_index(Kind.WEBINARS, "topic")
    assert header.isSectionHidden(topics)
    title_before = header.sectionSize(0)
    tab.columns.set_visible(topics, True)
    QApplication.processEvents()
    assert not header.isSectionHidden(topics)
    assert header.sectionSize(0) < title_before  # the title gave room
    left = header.sectionViewportPosition(topics)
    assert left >= 0 and left + header.sectionSize(topics) <= _room(tab) + 1  # in view


def test_in_a_narrow_window_an_added_column_is_scrolled_into_view(window: Any) -> None:
    window.resize(1100, 800)
    tab = window.show_tab(Kind.WEBINARS)
    QApplication.processEvents()
    header = tab.view.horizontalHeader()
    topics = column_index(Kind.WEBINARS, "topic")
    tab.columns.set_visible(topics, True)
    QApplication.processEvents()
    left = header.sectionViewportPosition(topics)
    assert left >= 0 and left + header.sectionSize(topics) <= _room(tab) + 1
    assert tab.view.horizontalScrollBar().value() > 0  # scrolled there


def test_cut_titles_are_whole_in_the_tooltip(window: Any) -> None:
    tab = window.show_tab(Kind.WEBINARS)
    model = tab.model
    longest = max(range(model.rowCount()), key=lambda r: len(str(model.index(r, 0).data())))
    cell = model.index(longest, 0)
    assert model.data(cell, Qt.ItemDataRole.ToolTipRole).startswith(str(cell.data()))
