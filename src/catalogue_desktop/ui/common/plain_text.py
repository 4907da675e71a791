"""Server text shown as it is, never rendered: tooltips.

Apart from the detail pane's ``page_links`` so that the table and the status panel need neither it
nor ``html`` at start-up.
"""

from __future__ import annotations

from typing import overload

from PySide6.QtGui import QFontMetrics, QGuiApplication
from PySide6.QtGui import Qt as GuiQt

from catalogue_desktop.core.formats.drawn_text import visible

TIP_LINE = 100  # characters: a longer line of a tooltip is broken into lines ...
TIP_CHARS = 80  # ... of about this many of its characters (a readable width) ...
TIP_SCREEN = 0.9  # ... and at most this part of the screen's width (however wide they are)
TIP_SHORT = 40  # characters: a line this short is never measured (never that wide)
TIP_TEXT = 4000  # a tooltip's text beyond this is left out ("…"): ~50 lines already


@overload
def plain_tooltip(text: str) -> str: ...
@overload
def plain_tooltip(text: None) -> None: ...
def plain_tooltip(text: str | None) -> str | None:
    """``text`` as a tooltip that shows literally and stays on screen.

    Qt renders a tooltip that looks like HTML (``Qt.mightBeRichText``) as rich text, so such
    text is escaped into rich text of itself. Qt shows plain text on one line, broken only at
    spaces and only once wider than the screen: a 2,000-character title without spaces ran off
    it, and one with spaces made lines as wide as the screen. So a line of over ``TIP_LINE``
    characters, or wider than the screen, is broken into lines of about ``TIP_CHARS`` of its
    characters (at most ``TIP_SCREEN`` of the screen), at spaces where there are, else
    anywhere: plain text stays plain, a text that fits stays exactly as it is."""
    if not text:
        return text
    text = visible(text)  # service text: bidi and other controls shown, never obeyed
    if len(text) > TIP_SHORT and any(len(line) > TIP_SHORT for line in text.split("\n")):
        text = _wrapped(text[:TIP_TEXT] + ("…" if len(text) > TIP_TEXT else ""))
    if not GuiQt.mightBeRichText(text):
        return text
    return GuiQt.convertFromPlainText(text, GuiQt.WhiteSpaceMode.WhiteSpaceNormal)


def _wrapped(text: str) -> str:
    """``text`` with each line too long broken into lines that fit (``plain_tooltip``)."""
    from PySide6.QtWidgets import QToolTip  # (the tooltip's font: what the lines are drawn in)

    metrics = QFontMetrics(QToolTip.font())
    screen = QGuiApplication.primaryScreen()
    most = int(screen.availableGeometry().width() * TIP_SCREEN) if screen is not None else 1 << 30
    out: list[str] = []
    for line in text.split("\n"):
        wide = metrics.horizontalAdvance(line) if len(line) > TIP_SHORT else 0
        if len(line) > TIP_LINE or wide > most:
            width = min(most, wide * TIP_CHARS // len(line))  # TIP_CHARS of its characters
            while metrics.horizontalAdvance(line) > width:
                fits = _fitting(line, metrics, width)
                space = line.rfind(" ", 0, fits + 1)
                cut = space if space > fits // 2 else fits  # at a space in the line's second half
                out.append(line[:cut].rstrip(" "))
                line = line[cut:].lstrip(" ")
        out.append(line)
    return "\n".join(out)


def _fitting(line: str, metrics: QFontMetrics, width: int) -> int:
    """How many of ``line``'s first characters fit in ``width`` (at least one)."""
    low, high = 1, len(line)
    while low < high:
        middle = (low + high + 1) // 2
        if metrics.horizontalAdvance(line[:middle]) <= width:
            low = middle
        else:
            high = middle - 1
    return low
