"""PhotoLabel: a placeholder until the photo comes, reused for the next record's photo."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap

from catalogue_desktop.ui.detail.photo import PhotoLabel


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
