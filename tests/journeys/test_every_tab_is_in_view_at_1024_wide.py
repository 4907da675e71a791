"""Every tab is in view at 1024x700 (and 1366x768): no tab scrolled out of the bar, no scroll
arrows, each title whole, and a click on each tab opens it — Dates, the last one, included."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect
from PySide6.QtWidgets import QApplication, QToolButton

from tests.journeys.hands import click_tab


@pytest.mark.parametrize(("width", "height"), [(1024, 700), (1366, 768)])
def test_every_tab_title_is_whole_and_in_view(start: Any, width: int, height: int) -> None:
    window = start().window
    window.show()
    window.resize(width, height)
    QApplication.processEvents()
    bar = window.tab_widget.tabBar()
    inside = QRect(QPoint(0, 0), window.size())
    arrows = [b for b in bar.findChildren(QToolButton) if b.isVisible()]
    assert not arrows, "the tab bar scrolls"
    metrics = bar.fontMetrics()
    for index, kind in enumerate(window.tab_kinds()):
        rect = bar.tabRect(index)
        box = QRect(bar.mapTo(window, rect.topLeft()), rect.size())
        assert bar.rect().contains(rect) and inside.contains(box), (kind.label, rect, bar.rect())
        title = bar.tabText(index)
        assert title.startswith(kind.label) and title.split()[-1].replace(",", "").isdigit(), title
        assert rect.width() >= metrics.horizontalAdvance(title), (title, rect.width())  # not cut
    for kind in reversed(window.tab_kinds()):  # a click on each opens it
        click_tab(window, kind)
