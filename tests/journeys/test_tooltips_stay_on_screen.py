"""Tooltips stay on screen: a long text (a 2,000-character title, with spaces or without) shows
in lines of a readable width inside the screen, not as one line running off it; a short text is
shown as it is."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import QApplication, QLabel, QToolTip

from catalogue_desktop.core.records.kinds import Kind
from tests.faultserver import FaultServer
from tests.journeys.conftest import NOISE
from tests.journeys.hands import click_tab

SPACED, UNBROKEN = 991001, 991002
TITLES = {
    SPACED: "Spaced " + "lorem ipsum dolor sit amet " * 74,  # ~2,000 characters
    UNBROKEN: "Unbroken " + "W" * 2000,
}


@pytest.fixture
def long_titles(sample: dict[Kind, bytes]) -> Iterator[FaultServer]:
    """The sample catalogue, and two webinars with 2,000-character titles."""
    with FaultServer() as server:
        for kind, payload in sample.items():
            records = json.loads(payload)
            if kind is Kind.WEBINARS:
                records += [
                    {"webinarId": i, "type": 1, "title": t, "startDate": "2030-01-01T10:00:00Z"}
                    for i, t in TITLES.items()
                ]
            server.set(kind.path, "json", body=json.dumps(records).encode(), gzip=True)
        yield server


def _hover(qtbot: Any, tab: Any, row: int, column: int) -> QLabel:
    """Rest the mouse on a cell (the view's tooltip event); the tooltip shown."""
    view = tab.view
    index = tab.model.index(row, column)
    view.scrollTo(index)
    QApplication.processEvents()
    pos = view.visualRect(index).center()
    QApplication.sendEvent(
        view.viewport(), QHelpEvent(QEvent.Type.ToolTip, pos, view.viewport().mapToGlobal(pos))
    )
    qtbot.waitUntil(QToolTip.isVisible, timeout=2000)
    tip = next(w for w in QApplication.allWidgets() if w.objectName() == "qtooltip_label" and w.isVisible())
    assert isinstance(tip, QLabel)
    return tip


@pytest.mark.qt_log_ignore(*NOISE)
def test_a_long_title_s_tooltip_wraps_inside_the_screen(
    make_session: Any, long_titles: FaultServer, qtbot: Any
) -> None:
    session = make_session(base_url=long_titles.base_url, client_options={"retries": 0})
    window = session.window
    click_tab(window, Kind.WEBINARS)
    tab = window.current_tab()
    screen = window.screen().availableGeometry()
    try:
        for record_id, title in TITLES.items():
            row = tab.model.view_row_of(record_id)
            assert row is not None
            tip = _hover(qtbot, tab, row, 0)
            where = tip.geometry()
            assert screen.contains(where), (record_id, where, screen)
            assert where.width() < screen.width() * 19 // 20, (record_id, where)  # a margin left
            text = QToolTip.text()
            lines = text.split("\n")
            assert len(lines) > 10 and max(map(len, lines)) <= 100, [len(x) for x in lines][:5]
            assert "".join(text.split()) == "".join(title[:2000].split())  # (a cell shows 2,000)
            QToolTip.hideText()
            QApplication.processEvents()
        # a short tooltip is the text as it is, on one line
        short = tab.model.view_row_of(
            next(r for r in range(1, 10**6) if tab.model.view_row_of(r) is not None)
        )
        assert short is not None
        tip = _hover(qtbot, tab, short, 0)
        assert "\n" not in QToolTip.text() and QToolTip.text() == tab.model.index(short, 0).data()
    finally:
        QToolTip.hideText()
