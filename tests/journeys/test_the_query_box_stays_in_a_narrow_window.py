"""The query box stays in view however narrow the window: the toolbar's buttons show their icons
alone when their names leave no room for it (a fresh-eyes user at 700x520 found the box gone behind
the toolbar's », Ctrl+F focusing it out of sight and the words typed moving the table's selection)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QToolBar, QToolButton

from tests.journeys.hands import key


def _in_view(window: Any) -> bool:
    edit = window.query_box.edit
    box = QRect(edit.mapTo(window, QPoint(0, 0)), edit.size())
    return edit.isVisible() and QRect(QPoint(0, 0), window.size()).contains(box)


def _named(toolbar: QToolBar) -> list[str]:
    """The toolbar's buttons that show their names."""
    buttons = [b for b in toolbar.findChildren(QToolButton) if b.isVisible() and not b.icon().isNull()]
    return [b.text() for b in buttons if b.toolButtonStyle() != Qt.ToolButtonStyle.ToolButtonIconOnly]


def test_the_query_box_stays_in_view_and_takes_the_words_at_the_smallest_width(start: Any) -> None:
    window = start().window
    window.show()
    window.resize(1366, 768)
    QApplication.processEvents()
    toolbar = window.findChild(QToolBar, "toolbar-main")
    wide = _named(toolbar)
    assert "Export" in wide and _in_view(window), wide  # names beside the icons
    window.resize(window.minimumSizeHint().width(), 520)
    QApplication.processEvents()
    assert _in_view(window), window.width()
    assert not _named(toolbar)  # icons alone: room for the box
    key(window.current_tab().view, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    focused = QApplication.focusWidget()
    assert focused is not None
    QTest.keyClicks(focused, "ethics")
    assert window.query_box.edit.text() == "ethics"
    window.resize(1366, 768)
    QApplication.processEvents()
    assert _named(toolbar) == wide  # the names back, the arrows still without theirs
