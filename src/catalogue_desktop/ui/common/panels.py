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

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QAction, QKeySequence, QShortcut
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

AREA = Qt.DockWidgetArea.BottomDockWidgetArea
HEIGHT_SHARE = 0.25  # of the window's height at most, for a panel opened: the table keeps most rows
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
    refit = _Refit(dock, main)  # a list appearing in a short panel: room for it
    dock.visibilityChanged.connect(refit.watch)
    if dock.isVisible():  # (open already: restored open at start-up before its toggle was made)
        refit.watch(True)
    escape = QShortcut(QKeySequence(Qt.Key.Key_Escape), dock)
    escape.setContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
    escape.activated.connect(lambda: _close(dock, back))


def show(dock: QDockWidget, main: QMainWindow) -> None:
    """Open the panel in the panels' place (the other one there closes), the keyboard in it; as
    tall as its content needs (``fitting``) unless the person dragged it to a height of theirs."""
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
    if target is None:  # nothing to list: the panel itself (Escape closes it all the same)
        target = body if body is not None else dock
        target.setFocusPolicy(Qt.FocusPolicy.ClickFocus)
    target.setFocus(Qt.FocusReason.OtherFocusReason)
    if area != AREA or dock.isFloating():
        return
    if not _dragged(dock):  # (a height the person dragged the panel to is kept)
        _fit(dock, main)


def fitting(dock: QDockWidget, main: QMainWindow) -> int:
    """The height the panel's content asks for (a line saying it has nothing to list is short; a
    list of a line or two is as tall as those lines; a long list its usual height), at most
    ``HEIGHT_SHARE`` of the window: at 1024x700 a panel at a third of the height and more left
    the table 8 rows, an empty one a blank box, and one listing a line a quarter of the window."""
    body = dock.widget()
    if body is None:
        content = 0
    elif body.hasHeightForWidth() and body.width() > 0:  # (wrapped lines: as tall as at its width)
        content = body.heightForWidth(body.width())
    else:
        content = body.sizeHint().height()
    title = max(0, dock.height() - body.height()) if body is not None and body.height() else 24
    return max(dock.minimumSizeHint().height(), min(content + title, round(main.height() * HEIGHT_SHARE)))


_FITTED = "fitted"  # a dock's property: the height ``_fit`` gave it last


def _fit(dock: QDockWidget, main: QMainWindow) -> None:
    wanted = fitting(dock, main)
    dock.setProperty(_FITTED, wanted)
    main.resizeDocks([dock], [wanted], Qt.Orientation.Vertical)


def _dragged(dock: QDockWidget) -> bool:
    """The person gave the panel another height than the one it was fitted to."""
    fitted = dock.property(_FITTED)
    return isinstance(fitted, int) and abs(dock.height() - fitted) > _SLACK


_SLACK = 8  # px a fitted panel's height may differ from what was asked (its frame, rounding)


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


class _Refit(QObject):
    """Fits a panel to its content again once the content changes (a list appearing or growing
    after a refresh or another period chosen, or shrinking to a line), unless the person dragged
    it to a height of their own: that height is kept."""

    def __init__(self, dock: QDockWidget, main: QMainWindow) -> None:
        super().__init__(dock)
        self._dock, self._main = dock, main
        self._later = QTimer(self, singleShot=True, interval=0)
        self._later.timeout.connect(self._refit)
        self._watching = False

    def watch(self, visible: bool) -> None:
        """The panel is shown: from now on its content's changes are watched (its event filter),
        and it is fitted as its content needs. Not before: a Python method handed a plain
        ``QEvent`` makes PySide create every event class it could be (~50, with their enums) at
        the first event, and a hidden panel's content needs no room."""
        if visible and not self._watching:
            self._watching = True
            self._dock.installEventFilter(self)
            self._later.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.LayoutRequest:
            self._later.start()
        return False

    def _refit(self) -> None:
        dock, main = self._dock, self._main
        if not dock.isVisible() or dock.isFloating() or main.dockWidgetArea(dock) != AREA:
            return
        if dock.property(_FITTED) is None or (
            not _dragged(dock) and abs(fitting(dock, main) - dock.height()) > _SLACK
        ):
            _fit(dock, main)  # (first seen: open at the start, as left; fitted from now on)
