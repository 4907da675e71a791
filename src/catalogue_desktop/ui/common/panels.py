"""The window's panels (What's new, Changes): docked under the tables, never beside them, in one
place (opening one closes the other); one toggle each whose tick says whether the person sees the
panel; Escape in a panel closes it.

A panel docked at the window's side took its width from the table (at 1366 px wide the table kept
about 300 px with two panels open, stacked one above the other), and a toggle that followed Qt's
"not hidden" looked pressed while its panel lay behind the other one's tab. Under the tables a
panel takes some height and no column. (Tabbed together, Qt keeps an empty tab bar for them, a
nameless control off the window: one panel at a time needs none, and the toggles say which.) Their
place, size and whether one is open are the window's dock state (saved with the window,
``WindowLayout``); a panel made after the window restored its state (What's new) takes its
remembered place with ``QMainWindow.restoreDockWidget``.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

AREA = Qt.DockWidgetArea.BottomDockWidgetArea
HEIGHT_SHARE = 0.34  # of the window's height, for a panel first opened
HEIGHT_MIN = 180  # px
_PANEL = "panel"  # a dock's property: it is one of the window's panels (``place``)


def place(
    main: QMainWindow, dock: QDockWidget, beside: QDockWidget | None, above: QDockWidget | None
) -> None:
    """Dock ``dock`` under the tables, in the place of the panel ``beside`` (one shows at a
    time), else above the dock ``above`` (the status line). Hidden until opened; a remembered
    place wins."""
    dock.setAllowedAreas(Qt.DockWidgetArea.AllDockWidgetAreas)
    dock.setProperty(_PANEL, True)
    # A panel made after the window restored its state takes its remembered place (and stays
    # open if it was): first, since docking it anywhere drops the place the restore kept for it.
    if main.restoreDockWidget(dock):
        return
    if beside is not None and main.dockWidgetArea(beside) == AREA:
        main.splitDockWidget(beside, dock, Qt.Orientation.Vertical)
    else:
        main.addDockWidget(AREA, dock, Qt.Orientation.Vertical)
        if above is not None:
            main.splitDockWidget(dock, above, Qt.Orientation.Vertical)  # ``above`` below it
    dock.hide()


def toggle(action: QAction, dock: QDockWidget, main: QMainWindow, back: Callable[[], QWidget | None]) -> None:
    """Make ``action`` the panel's toggle: ticked while the person sees the panel; it opens and
    closes it. Escape in the panel closes it and gives the focus ``back()`` (the table)."""
    action.setCheckable(True)
    action.setChecked(dock.isVisible())
    dock.visibilityChanged.connect(action.setChecked)
    action.triggered.connect(lambda _checked=False: _flip(dock, main))
    escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), dock)
    escape.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    escape.activated.connect(lambda: _close(dock, back))


def show(dock: QDockWidget, main: QMainWindow) -> None:
    """Open the panel in the panels' place (the other one there closes; at a readable height the
    first time), the keyboard in it."""
    first = dock.isHidden() and not dock.property("opened")
    area = main.dockWidgetArea(dock)
    for other in main.findChildren(QDockWidget):
        same_place = main.dockWidgetArea(other) == area and not (other.isFloating() or dock.isFloating())
        if other is not dock and other.property(_PANEL) and same_place:
            other.hide()
    dock.show()
    dock.raise_()
    body = dock.widget()  # the keyboard follows (Escape closes it again)
    inside = body.findChildren(QWidget) if body is not None else []
    target = next((w for w in inside if w.focusPolicy() & Qt.FocusPolicy.TabFocus and w.isVisible()), None)
    if target is not None:
        target.setFocus(Qt.FocusReason.OtherFocusReason)
    if first:
        dock.setProperty("opened", True)
        if area == AREA and not dock.isFloating() and dock.height() < HEIGHT_MIN:
            height = max(HEIGHT_MIN, round(main.height() * HEIGHT_SHARE))
            main.resizeDocks([dock], [height], Qt.Orientation.Vertical)


def _flip(dock: QDockWidget, main: QMainWindow) -> None:
    if dock.isVisible():
        dock.hide()
    else:
        show(dock, main)


def _close(dock: QDockWidget, back: Callable[[], QWidget | None]) -> None:
    dock.hide()
    target = back()
    if target is not None:
        target.setFocus(Qt.FocusReason.ShortcutFocusReason)
