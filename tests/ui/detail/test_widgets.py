"""Detail-page building blocks kept from one record to the next: Slots, FormGrid, PhotoLabel."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QPixmap
from PySide6.QtWidgets import QApplication, QLabel, QPlainTextEdit, QVBoxLayout, QWidget

from catalogue_desktop.ui.detail.widgets import (
    LONG_TEXT,
    FormGrid,
    Link,
    PhotoLabel,
    Slots,
    TextLabel,
    link_label,
    plain_label,
)


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


def test_photo_label_reused_for_another_photo(qtbot: Any) -> None:
    label = PhotoLabel(72, "Ann Example")
    qtbot.addWidget(label)
    placeholder = label.pixmap().cacheKey()
    label.set_placeholder("Ann Example")
    assert label.pixmap().cacheKey() == placeholder  # not drawn again
    label.set_failed("404")
    photo = QPixmap(200, 100)
    photo.fill(Qt.GlobalColor.red)
    label.reset()
    label.set_photo(photo)
    assert label.has_photo and label.failure is None and not label.toolTip()
    assert (label.pixmap().width(), label.pixmap().height()) == (72, 36)
    label.reset()
    label.set_placeholder("Ann Example")  # back to a placeholder after a photo: drawn
    assert not label.has_photo and label.pixmap().width() == 72 == label.pixmap().height()
    label.set_placeholder("Bo Other")
    assert label.pixmap().cacheKey() != placeholder


_WORDS = ("Lucas mentors new professionals in the Single Audit practice and leads its internal "
          "training; before that he spent 25 years in the commercial leasing group of a firm. ")


def _qlabel_height(label: QLabel, width: int) -> int:
    """The height QLabel itself computes (a plain QLabel set up like ``label``)."""
    twin = QLabel()
    twin.setTextFormat(label.textFormat())
    twin.setWordWrap(label.wordWrap())
    twin.setTextInteractionFlags(label.textInteractionFlags())
    twin.setAlignment(label.alignment())
    twin.setFont(label.font())
    twin.setContentsMargins(label.contentsMargins())
    twin.setText(label.text())
    return twin.heightForWidth(width)


def test_text_label_heights_are_qlabels_and_follow_text_and_font(qtbot: Any) -> None:
    label = plain_label(_WORDS * 3, "bio")
    qtbot.addWidget(label)
    assert isinstance(label, TextLabel)
    widths = (0, 40, 150, 164, 234, 700)
    first = {w: label.heightForWidth(w) for w in widths}
    assert first == {w: _qlabel_height(label, w) for w in widths}
    assert first[150] > first[700] > 0
    assert {w: label.heightForWidth(w) for w in widths} == first  # remembered, the same
    label.setText(_WORDS)  # a new text: measured again
    assert label.heightForWidth(150) == _qlabel_height(label, 150) < first[150]
    font = QFont(label.font())
    font.setPointSizeF(font.pointSizeF() * 2)
    label.setFont(font)  # a new font: measured again
    assert label.heightForWidth(150) == _qlabel_height(label, 150) > first[150] // 3
    label.setContentsMargins(0, 4, 0, 0)
    assert label.heightForWidth(150) == _qlabel_height(label, 150)
    label.setWordWrap(False)
    assert label.heightForWidth(150) == _qlabel_height(label, 150)


def test_link_label_heights_are_qlabels(qtbot: Any) -> None:
    label = link_label([Link(f"Webinar number {i} on leasing", f"catalogue:webinars/{i}") for i in range(6)])
    qtbot.addWidget(label)
    assert isinstance(label, TextLabel)
    for width in (60, 150, 400):
        assert label.heightForWidth(width) == _qlabel_height(label, width)
