"""Light or dark, as the system says (Qt 6 ``QStyleHints.colorScheme``).

Styles that follow the system's scheme themselves (Windows, macOS, GNOME through the portal) need
nothing. Where the system says "dark" but the style kept a light palette (Fusion on a bare X11
desktop), a dark Fusion palette is applied; and when the scheme changes while the app runs, the
palette follows and the window re-derives its own colours (``common.colors``) from it
(``MainWindow._palette_changed``, on the application's ``paletteChanged``: past rows, the banner,
the query's error).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette

from catalogue_desktop.ui.common.colors import is_dark

_DARK = {
    "Window": "#2b2b2b",
    "WindowText": "#e8e8e8",
    "Base": "#1e1e1e",
    "AlternateBase": "#262626",
    "Text": "#e8e8e8",
    "Button": "#353535",
    "ButtonText": "#e8e8e8",
    "ToolTipBase": "#2b2b2b",
    "ToolTipText": "#e8e8e8",
    "Highlight": "#2f65ca",
    "HighlightedText": "#ffffff",
    "Link": "#8ab4f8",
    "LinkVisited": "#c58af9",
    "PlaceholderText": "#a0a0a0",
}


def dark_palette() -> QPalette:
    """A dark palette (Fusion's colours), every text colour AA on its background."""
    p = QPalette()
    for name, color in _DARK.items():
        p.setColor(getattr(QPalette.ColorRole, name), QColor(color))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor("#8a8a8a"))
    return p


def follow(app: QGuiApplication) -> None:
    """Apply the system's scheme now and whenever it changes."""
    hints = app.styleHints()
    light = app.palette()

    def apply() -> None:
        dark = hints.colorScheme() == Qt.ColorScheme.Dark
        if dark and not is_dark(app.palette()):
            app.setPalette(dark_palette())
        elif not dark and is_dark(app.palette()) and not is_dark(light):
            app.setPalette(light)

    apply()
    hints.colorSchemeChanged.connect(lambda _scheme: apply())
