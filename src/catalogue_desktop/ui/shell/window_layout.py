"""The window's size and the table/detail split, kept in one place.

* Size: a first start opens at about 88 % of the screen's available area, centred; later starts
  restore the saved geometry, moved and shrunk onto the screen when that is smaller now (a laptop
  after a large monitor). The minimum size stays small enough for a 1024x700 screen. A dialog is
  sized onto the window's screen as well (``fit_to_screen``).
* The split between a tab's table and its detail pane is one setting for every tab: moving it on
  one tab moves it on all, and it is remembered. The detail pane can be hidden and shown (View ▸
  Details pane), which is remembered too.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QRect, Qt, Signal
from PySide6.QtWidgets import QDockWidget, QMainWindow, QWidget

from catalogue_desktop.ui.common.settings import Settings

if TYPE_CHECKING:
    from catalogue_desktop.ui.browse.collection_tab import CollectionTab

SCREEN_SHARE = 0.88  # of the available area, on a first start ...
SMALL_SCREEN = 1300  # ... all of it on a screen narrower than this (a 1024x700 laptop), less
FRAME_ALLOWANCE = (4, 28)  # px: the window manager's frame and title bar (not known before shown)
DETAIL_SHARE = 0.30  # of a tab's width, for the detail pane, until the user moves the split
FACETS_SHARE, FACETS_MIN, FACETS_MAX = 0.14, 200, 300  # the facets' width on a first start
DETAIL_MIN = 260  # px: narrower, the detail pane is hard to read
STATE_VERSION = 1  # of the saved dock layout: 1, the panels under the tables (a state of 0 had them
# at the side, squeezing the table: not restored)


def first_geometry(available: QRect, minimum: tuple[int, int]) -> QRect:
    """A first start's frame: ``SCREEN_SHARE`` of ``available`` (all of a small screen),
    centred (never below the window's ``minimum`` width and height, never above the available
    area)."""
    share = 1.0 if available.width() < SMALL_SCREEN else SCREEN_SHARE
    width = min(available.width(), max(minimum[0], round(available.width() * share)))
    height = min(available.height(), max(minimum[1], round(available.height() * share)))
    left = available.x() + (available.width() - width) // 2
    top = available.y() + (available.height() - height) // 2
    return QRect(left, top, width, height)


def onto(frame: QRect, available: QRect) -> QRect:
    """``frame`` moved (and shrunk if need be) so that it lies within ``available``."""
    width, height = min(frame.width(), available.width()), min(frame.height(), available.height())
    left = min(max(frame.x(), available.x()), available.right() + 1 - width)
    top = min(max(frame.y(), available.y()), available.bottom() + 1 - height)
    return QRect(left, top, width, height)


def fit_to_screen(dialog: QWidget, window: QWidget | None, width: int, height: int) -> None:
    """Size ``dialog`` ``width`` x ``height``, or less where the window's screen is smaller (a
    dialog taller than a 700 px screen had its buttons cut off at the bottom)."""
    screen = window.screen() if window is not None else None
    if screen is not None:
        room = screen.availableGeometry()
        width, height = min(width, room.width() * 9 // 10), min(height, room.height() * 9 // 10)
    dialog.resize(width, height)


class WindowLayout(QObject):
    """The window's geometry on start, and the detail split and visibility of all its tabs."""

    details_shown_changed = Signal(bool)  # (View ▸ Details pane's tick follows)

    def __init__(self, window: QMainWindow, settings: Settings) -> None:
        super().__init__(window)
        self.window = window
        self.settings = settings
        self.split: list[int] | None = self.settings.detail_split
        self.details_shown: bool = self.settings.details_shown
        self._tabs: list[CollectionTab] = []

    # -- size ------------------------------------------------------------------------------------

    def restore_geometry(self, facets: QDockWidget, status: QDockWidget) -> None:
        """The saved geometry and dock layout (onto the screen), else a first start's size (the
        ``facets`` dock a share of the width, the ``status`` dock as short as it can be)."""
        window = self.window
        screen = window.screen()
        available = screen.availableGeometry() if screen is not None else QRect(0, 0, 1024, 700)
        geometry = self.settings.window_geometry()
        if geometry is not None and window.restoreGeometry(geometry):
            if not window.isMaximized() and not available.contains(window.frameGeometry()):
                window.setGeometry(onto(window.geometry(), available))
        else:
            hint = window.minimumSizeHint()
            frame = first_geometry(available, (hint.width(), hint.height()))
            if frame.size() == available.size():  # a small screen: all of it, the frame within
                side, top = FRAME_ALLOWANCE
                frame = frame.adjusted(side, top, -side, -side)
            window.setGeometry(frame)
            width = max(FACETS_MIN, min(FACETS_MAX, round(frame.width() * FACETS_SHARE)))
            window.resizeDocks([facets], [width], Qt.Orientation.Horizontal)
            # the status as short as it can be: the rows get the height
            window.resizeDocks([status], [status.minimumSizeHint().height()], Qt.Orientation.Vertical)
        state = self.settings.window_state()
        if state is not None:
            window.restoreState(state, STATE_VERSION)

    # -- the detail split ------------------------------------------------------------------------

    def attach(self, tab: CollectionTab) -> None:
        """A tab was made: it takes the window's split and visibility, and moves the others'."""
        self._tabs.append(tab)
        tab.set_detail_visible(self.details_shown)
        if self.split is not None:
            tab.set_split(self.split)
        else:
            tab.set_split(self.default_split(tab))
        tab.splitter.splitterMoved.connect(lambda _pos, _index, tab=tab: self._moved(tab))
        tab.resized.connect(lambda tab=tab: self._resized(tab))

    def default_split(self, tab: CollectionTab) -> list[int]:
        """``DETAIL_SHARE`` of the tab for the details (at least ``DETAIL_MIN``), the rest for
        the table."""
        width = tab.splitter.width() if tab.splitter.width() > 2 * DETAIL_MIN else self.window.width() - 280
        detail = max(DETAIL_MIN, round(width * DETAIL_SHARE))
        return [max(1, width - detail), detail]

    def _resized(self, tab: CollectionTab) -> None:
        if self.split is None:  # not moved by the user: the default, again
            tab.set_split(self.default_split(tab))

    def _moved(self, moved: CollectionTab) -> None:
        sizes = moved.splitter.sizes()
        if len(sizes) != 2 or not all(sizes):
            return
        self.split = sizes
        for tab in self._tabs:
            if tab is not moved:
                tab.set_split(sizes)

    def set_details_shown(self, shown: bool) -> None:
        """Show or hide every tab's detail pane (View ▸ Details pane)."""
        self.details_shown = shown
        for tab in self._tabs:
            tab.set_detail_visible(shown)
        self.details_shown_changed.emit(shown)

    def save(self) -> None:
        self.settings.detail_split = self.split
        self.settings.details_shown = self.details_shown
