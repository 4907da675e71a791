"""The tabs stay where they are while a query is typed: their counts change, their widths do not,
so a click aimed at Topics before the last keystroke lands on Topics, not on Experts."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.records.kinds import Kind
from tests.journeys.hands import type_query


def _rects(window: Any) -> list[tuple[int, int]]:
    bar = window.tab_widget.tabBar()
    return [(bar.tabRect(i).x(), bar.tabRect(i).width()) for i in range(bar.count())]


def test_tab_widths_stay_while_the_counts_change(start: Any, qtbot: Any) -> None:
    window = start().window
    window.show()
    window.resize(1366, 768)
    QApplication.processEvents()
    bar = window.tab_widget.tabBar()
    before = _rects(window)
    titles = [bar.tabText(i) for i in range(bar.count())]
    type_query(window, "", enter=False)
    seen = set()
    box = window.query_box
    for typed in ("e", "et", "eth", "ethi", "ethic", "ethics"):
        type_query(window, typed, enter=False)
        qtbot.waitUntil(
            lambda typed=typed: box.parsed is not None and box.parsed.text == box.equivalent(typed)
        )
        QApplication.processEvents()
        seen.add(tuple(bar.tabText(i) for i in range(bar.count())))
        assert _rects(window) == before, (typed, [bar.tabText(i) for i in range(bar.count())])
    assert len(seen) > 1 and titles not in [list(s) for s in seen]  # the counts did change
    # the click aimed at Topics (where it was before the query) opens Topics
    topics = window.tab_kinds().index(Kind.TOPICS)
    x, width = before[topics]
    aim = bar.tabRect(topics).center()
    aim.setX(x + width // 2)
    QTest.mouseClick(bar, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, aim)
    QApplication.processEvents()
    assert window.current_kind() is Kind.TOPICS
