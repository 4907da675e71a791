"""A detail page's layout kept from one record to the next: Slots and FormGrid."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from catalogue_desktop.ui.detail.layout import FormGrid, Slots
from catalogue_desktop.ui.detail.plain_labels import LONG_TEXT, plain_label


@pytest.fixture
def box(qtbot: Any) -> QWidget:
    widget = QWidget()
    QVBoxLayout(widget)
    qtbot.addWidget(widget)
    widget.resize(400, 300)
    widget.show()
    return widget


def _labels(box: QWidget) -> list[QLabel]:
    """The labels in layout order (the stretch item has no widget)."""
    layout = box.layout()
    items = [layout.itemAt(i).widget() for i in range(layout.count())]
    return [w for w in items if isinstance(w, QLabel)]


def _fill(slots: Slots, keys: list[str], fresh: tuple[str, ...] = ()) -> dict[str, QLabel]:
    slots.begin()
    taken = {key: slots.take(key, lambda key=key: plain_label(key, key)) for key in keys}
    for name in fresh:
        slots.add(plain_label(name, name))
    slots.finish()
    return taken


def test_slots_keep_widgets_by_key_in_the_order_asked(box: QWidget) -> None:
    slots = Slots(box.layout(), stretch=True)
    first = _fill(slots, ["a", "b", "c"], fresh=("x",))
    assert [w.objectName() for w in _labels(box)] == ["a", "b", "c", "x"]
    assert all(w.isVisible() for w in _labels(box))  # shown at once, not on the next event pass
    second = _fill(slots, ["c", "a", "d"])
    assert second["a"] is first["a"] and second["c"] is first["c"]
    assert [w.objectName() for w in _labels(box)] == ["c", "a", "d"]
    # what was not asked for is gone from the page at once, deleted later
    assert box.findChild(QLabel, "b") is None and box.findChild(QLabel, "x") is None
    assert all(w.isVisible() for w in _labels(box))
    layout = box.layout()
    assert layout.count() == 4 and layout.itemAt(3).spacerItem() is not None  # stretch stays last


def test_slots_recover_from_a_fill_that_stopped_half_way(box: QWidget) -> None:
    slots = Slots(box.layout())
    _fill(slots, ["a", "b"])
    slots.begin()
    slots.take("a", lambda: plain_label("a", "a"))  # ... and an exception: no finish()
    _fill(slots, ["b", "c"])
    assert [w.objectName() for w in _labels(box)] == ["b", "c"]
    assert len(box.findChildren(QLabel)) == 2


def test_form_grid_refills_rows_in_place(qtbot: Any) -> None:
    grid = FormGrid(name="fields")
    qtbot.addWidget(grid)
    grid.show()
    fee = grid.add("Fee", "249")
    grid.add_url("Details", "https://example.org/a", "detail_url", lambda _href: None)
    grid.add("Notes", "short")
    grid.finish()

    grid.restart()
    assert grid.add("Fee", None) is fee and fee.text() == "—"
    inert = grid.add_url("Details", "javascript:alert(1)", "detail_url", lambda _href: None)
    assert isinstance(inert, QLabel) and inert.property("inert") is True
    assert inert.textFormat() == Qt.TextFormat.PlainText and "not opened" in inert.text()
    long_text = grid.add("Notes", "word " * (LONG_TEXT // 4))
    assert isinstance(long_text, QPlainTextEdit) and long_text.objectName() == "value_notes"
    grid.finish()
    assert grid.findChild(QLabel, "value_notes") is None  # the short-text label was replaced

    grid.restart()
    grid.add("Type", "2")
    grid.finish()
    QApplication.processEvents()
    names = sorted(w.objectName() for w in grid.findChildren(QWidget) if w.parent() is grid)
    assert names == ["key_type", "value_type"]
    assert grid.findChild(QLabel, "key_type").text() == "Type"
