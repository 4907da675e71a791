"""Text and link labels remember Qt's own heights for a width until their text or font changes."""

from __future__ import annotations

from typing import Any

from PySide6.QtGui import QFont
from PySide6.QtWidgets import QLabel

from catalogue_desktop.ui.detail.page_links import Link, link_label
from catalogue_desktop.ui.detail.plain_labels import TextLabel, plain_label

_WORDS = (
    "Lucas mentors new professionals in the Single Audit practice and leads its internal "
    "training; before that he spent 25 years in the commercial leasing group of a firm. "
)


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
