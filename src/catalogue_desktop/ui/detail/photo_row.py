"""A photo beside a record's title and facts (a certificate, an expert), or above them when the
details pane is too narrow for both side by side: the page then never gets wider than the pane
(text cut off on the right)."""

from __future__ import annotations

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QBoxLayout, QLayout, QWidget


class PhotoRow(QWidget):
    """``photo`` then ``column`` (a layout), side by side when they fit, else stacked."""

    def __init__(self, photo: QWidget, column: QLayout, spacing: int) -> None:
        super().__init__()
        self._photo = photo
        self._column = column
        self._box = QBoxLayout(QBoxLayout.Direction.LeftToRight, self)
        self._box.setSizeConstraint(QLayout.SizeConstraint.SetNoConstraint)  # (minimumSizeHint below)
        self._box.setContentsMargins(0, 0, 0, 0)
        self._box.setSpacing(spacing)
        self._box.addWidget(photo, 0, Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self._box.addLayout(column, 1)

    def _side_by_side_width(self) -> int:
        return self._photo.sizeHint().width() + self._box.spacing() + self._column.minimumSize().width()

    def minimumSizeHint(self) -> QSize:
        """As narrow as the wider of photo and column (stacked), as tall as side by side."""
        photo, column = self._photo.minimumSizeHint(), self._column.minimumSize()
        return QSize(max(photo.width(), column.width()), max(photo.height(), column.height()))

    def resizeEvent(self, event: QResizeEvent) -> None:
        wide = event.size().width() >= self._side_by_side_width()
        direction = QBoxLayout.Direction.LeftToRight if wide else QBoxLayout.Direction.TopToBottom
        if self._box.direction() != direction:
            self._box.setDirection(direction)
            self.updateGeometry()
        super().resizeEvent(event)

    def heightForWidth(self, width: int) -> int:
        return self._box.heightForWidth(width) if self._box.hasHeightForWidth() else -1
