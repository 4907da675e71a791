"""Server text shown as it is, never rendered: tooltips.

Apart from the detail pane's ``links`` so that the table and the status panel need neither it
nor ``html`` at start-up.
"""

from __future__ import annotations

from typing import overload

from PySide6.QtGui import Qt as GuiQt


@overload
def plain_tooltip(text: str) -> str: ...
@overload
def plain_tooltip(text: None) -> None: ...
def plain_tooltip(text: str | None) -> str | None:
    """``text`` as a tooltip that shows literally: Qt renders a tooltip that looks like HTML
    (``Qt.mightBeRichText``) as rich text, so such text is escaped into rich text of itself."""
    if not text or not GuiQt.mightBeRichText(text):
        return text
    return GuiQt.convertFromPlainText(text, GuiQt.WhiteSpaceMode.WhiteSpaceNormal)
