"""A label whose text people can select with the mouse (a reason that quotes the service, to copy
into a ticket), made selectable the first time the mouse comes over it: a selectable QLabel keeps
a text control and its document, built at once and used to lay the text out and paint it, and the
window's status lines and banner were ~1.5% of its start-up so. Only the mouse selects there
(``TextSelectableByMouse``), so a person sees the same."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QEnterEvent
from PySide6.QtWidgets import QLabel


class MouseSelectableLabel(QLabel):
    def __init__(self, text: str = "", **properties: Any) -> None:
        super().__init__(text, **properties)
        self._selectable = False

    def enterEvent(self, event: QEnterEvent) -> None:  # (a handler, not an event filter: see qt_compat)
        if not self._selectable:
            self._selectable = True
            self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        super().enterEvent(event)
