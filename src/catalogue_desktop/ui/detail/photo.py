"""A photo in a detail page (an expert, a certificate): fixed size, a drawn placeholder with the
initials until (or unless) the image arrives, scaled to the screen's pixel density."""

from __future__ import annotations

import re

from PySide6.QtCore import QSize, Qt
from PySide6.QtGui import QColor, QFont, QPainter, QPixmap
from PySide6.QtWidgets import QFrame, QLabel, QWidget

__all__ = ["PhotoLabel", "placeholder_pixmap"]


def _initials(name: str) -> str:
    words = [w for w in re.split(r"[\s,.]+", name) if w and w[0].isalpha()]
    return "".join(w[0].upper() for w in words[:2]) or "?"


def placeholder_pixmap(size: int, text: str = "", dpr: float = 1.0) -> QPixmap:
    """A grey rounded square with initials (or a dash), drawn locally."""
    pixmap = QPixmap(QSize(round(size * dpr), round(size * dpr)))
    pixmap.setDevicePixelRatio(dpr)
    pixmap.fill(Qt.GlobalColor.transparent)
    painter = QPainter(pixmap)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(QColor(200, 204, 210))
    painter.drawRoundedRect(0, 0, size, size, size / 8, size / 8)
    font = QFont()
    font.setPixelSize(max(8, size // 3))
    font.setBold(True)
    painter.setFont(font)
    painter.setPen(QColor(110, 116, 125))
    painter.drawText(0, 0, size, size, Qt.AlignmentFlag.AlignCenter, _initials(text) if text else "—")
    painter.end()
    return pixmap


class PhotoLabel(QLabel):
    """A fixed-size photo; shows a placeholder until (or unless) the image arrives."""

    def __init__(self, size: int, placeholder_text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.photo_size = size
        self.setObjectName("photo")
        self.setFixedSize(size, size)
        self.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.has_photo = False
        self.url: str | None = None
        self.failure: str | None = None
        self._placeholder: str | None = None  # the text of the placeholder shown
        self.set_placeholder(placeholder_text)

    def reset(self) -> None:
        """Forget the photo, URL and failure (the label is reused for another record); the
        caller then sets a photo or a placeholder."""
        self.has_photo = False
        self.url = None
        if self.failure is not None:
            self.failure = None
            self.setToolTip("")

    def set_placeholder(self, text: str) -> None:
        """Show the placeholder for ``text`` (drawn only when it is not already shown)."""
        self.has_photo = False
        if self._placeholder != text:
            self.setPixmap(placeholder_pixmap(self.photo_size, text, self.devicePixelRatioF()))
            self._placeholder = text

    def set_photo(self, pixmap: QPixmap) -> None:
        dpr = self.devicePixelRatioF()
        target = round(self.photo_size * dpr)
        if pixmap.width() > target or pixmap.height() > target:
            pixmap = pixmap.scaled(
                target, target, Qt.AspectRatioMode.KeepAspectRatio, Qt.TransformationMode.SmoothTransformation
            )
        else:
            pixmap = QPixmap(pixmap)
        pixmap.setDevicePixelRatio(dpr)
        self.setPixmap(pixmap)
        self.has_photo = True
        self._placeholder = None

    def set_failed(self, reason: str) -> None:
        self.failure = reason
        self.setToolTip(f"Photo not available: {reason}")
