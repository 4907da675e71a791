"""The filter line of a collection tab: Escape clears it (also where no shortcut can fire)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLineEdit

if TYPE_CHECKING:
    # (QKeyEvent: QEvent's 179 enum members, made at the first key press)
    from PySide6.QtGui import QKeyEvent


class FilterLine(QLineEdit):
    """The filter line: Escape clears it (also where no shortcut can fire).

    A ``keyPressEvent`` override rather than an event filter: a Python event filter receives every
    event of the line (paints, moves, focus), and converting each to its Python type made PySide
    create ~40 event types and their enums at start-up."""

    escape_pressed = Signal()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape and self.text():
            self.escape_pressed.emit()
            event.accept()
            return
        super().keyPressEvent(event)
