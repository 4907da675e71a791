"""Ctrl+K opens a command palette sized to what it finds, like VS Code's or Qt Creator's locator:
one hit is one row under the line (no large empty window), more hits make it taller up to a dozen
rows, and it sits at the top of the window, over the tables, narrower than the window."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtWidgets import QApplication

from tests.journeys.hands import key, open_palette


def _box(widget: Any) -> QRect:
    return QRect(widget.mapToGlobal(QPoint(0, 0)), widget.size())


def test_one_hit_makes_a_palette_one_row_tall_and_more_hits_make_it_taller(start: Any, qtbot: Any) -> None:
    window = start().window
    window.show()
    window.resize(1366, 768)
    QApplication.processEvents()
    palette = open_palette(window, "3120")  # an expert's id: one record
    QApplication.processEvents()
    assert [item.title for item in palette.model.items] == ["David Feldman"]
    row = palette.list.sizeHintForRow(0)
    # what a person sees: the line, one row under it, and the palette's edge, nothing else
    assert palette.list.isVisible() and palette.list.viewport().height() <= row + 2
    assert palette.height() <= palette.line.height() + row + 30, (
        palette.height(),
        palette.line.height(),
        row,
    )
    assert palette.width() < window.width() * 0.6
    tables = _box(window.centralWidget())
    shown = _box(palette)
    assert tables.contains(shown.topLeft()) and shown.top() - tables.top() < 40, (shown, tables)
    assert abs(shown.center().x() - _box(window).center().x()) <= 2  # centred over the window
    one_row = palette.height()

    palette.line.clear()
    from PySide6.QtTest import QTest

    QTest.keyClicks(palette.line, "a")  # many records
    palette.update_hits()
    QApplication.processEvents()
    assert len(palette.model.items) > 12
    assert palette.list.viewport().height() >= 12 * row - 2  # a dozen rows, then it scrolls
    assert one_row < palette.height() <= palette.line.height() + 12 * row + 40
    key(palette.line, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not palette.isVisible(), timeout=2000)
