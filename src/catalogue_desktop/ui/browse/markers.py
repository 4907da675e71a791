"""How the table marks rows: records added or changed by the last refresh get a dot (green, amber),
a bold title and a tooltip saying what changed; and what its column headers' tooltips say.

The dot is drawn, and the bold font made, on first use: ``QPainter``'s enums alone take time to
create (docs/decisions.md, "Start-up and Qt"), and most starts show no marker.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication

from catalogue_desktop.core.listing.rows import Column, ColumnType
from catalogue_desktop.ui.common.plain_text import plain_tooltip

if TYPE_CHECKING:
    from PySide6.QtGui import QFont, QIcon

    from catalogue_desktop.ui.common.formatting import Formatter

__all__ = ["ADDED_COLOR", "CHANGED_COLOR", "bold_font", "cell_tooltip", "header_tip", "marker_icon"]

ADDED_COLOR = QColor(46, 160, 67)  # green
CHANGED_COLOR = QColor(219, 151, 0)  # amber
_ICONS: dict[str, QIcon] = {}


def marker_icon(state: str) -> QIcon | None:
    """A small filled dot: ``"added"`` green, ``"changed"`` amber (cached; needs a QGuiApplication)."""
    icon = _ICONS.get(state)
    if icon is None:
        if QGuiApplication.instance() is None:
            return None
        # only now: QPainter's enums take time to create, and most starts show no marker
        from PySide6.QtGui import QIcon, QPainter, QPixmap

        size = 10
        pixmap = QPixmap(size, size)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(ADDED_COLOR if state == "added" else CHANGED_COLOR)
        painter.drawEllipse(1, 1, size - 2, size - 2)
        painter.end()
        icon = _ICONS[state] = QIcon(pixmap)
    return icon


@cache
def bold_font() -> QFont:
    """The font of added and changed records' titles, made on first use."""
    from PySide6.QtGui import QFont

    font = QFont()
    font.setBold(True)
    return font


def cell_tooltip(
    column: Column, value: object, added: bool, changed: str | None, past: str | None
) -> str | None:
    """A cell's tooltip: a text in full (up to 2,000 characters: a column may be too narrow for
    it), what the last refresh did to its record (added, or what changed: ``changed``, e.g. "fee
    199 -> 219"), and ``past``: that the occasion has ended, in words (greyed is not enough)."""
    parts = []
    if column.type is ColumnType.TEXT and isinstance(value, str) and value:
        parts.append(value[:2000])
    if added:
        parts.append("Added in the last refresh")
    elif changed is not None:
        parts.append(f"Changed in the last refresh: {changed}")
    if past:
        parts.append(past)
    return plain_tooltip("\n".join(parts)) or None  # server text: shown, never rendered


def header_tip(column: Column) -> str:
    """The tooltip of ``column``'s header."""
    return _HEADER_TIPS.get(column.type, column.header).format(header=column.header)


_HEADER_TIPS = {
    ColumnType.DATE: "{header}: date and time as the service wrote them, with their UTC offset "
    "(Preferences: or in your time zone)",
    ColumnType.MONEY: "{header}: the fee as the service sends it",
    ColumnType.MONEY_RANGE: "{header}: lowest – highest fee over all locations",
    ColumnType.CODE: "{header}: the service's code, by the label set in Preferences",
    ColumnType.BOOL: "{header}: Yes / No",
}


_CELL_TEXT = 1000  # characters a cell shows (no column is wider); the tooltip shows 2000


def cell_text(formatter: Formatter, column: Column, value: object, offset: int | None) -> str:
    """A cell's text: a date at its UTC ``offset``; long text cut (eliding a 1 MB title on
    every repaint was slow: docs/decisions.md, "Sorting and the tables")."""
    if column.type is ColumnType.DATE:
        return formatter.date(value, offset)
    text = formatter.value(column, value)
    return text[:_CELL_TEXT] + "…" if len(text) > _CELL_TEXT else text
