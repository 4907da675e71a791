"""The finder in a window: its controller made and connected to the window's query box, facet
panel, tabs (the window asks it what each tab shows: ``MainWindow.use_finder``), Dates tab and
Ctrl+K palette (one function, so the session stays short)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import QObject

from catalogue_desktop.core.records.kinds import OCCASIONS
from catalogue_desktop.ui.finder.controller import FinderController, FinderWindow

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtWidgets import QDockWidget

    from catalogue_desktop.ui.browse.catalogue_loader import CatalogueLoader
    from catalogue_desktop.ui.common.settings import Settings


class WiredWindow(FinderWindow, Protocol):
    """The window the finder is wired into (``ui.shell.main_window.MainWindow``)."""

    @property
    def facet_dock(self) -> QDockWidget: ...
    @property
    def tab_made(self) -> SignalInstance: ...  # kind, its tab
    @property
    def quick_open_requested(self) -> SignalInstance: ...  # Ctrl+K
    def use_finder(self, finder: FinderController) -> None: ...


def connect_finder(window: WiredWindow, loader: CatalogueLoader, settings: Settings) -> FinderController:
    parent = window if isinstance(window, QObject) else None  # (it goes with the window)
    controller = FinderController(window, lambda: loader.store, settings.vocabulary(), parent)
    window.use_finder(controller)
    window.facet_panel.value_toggled.connect(controller.toggle_facet)
    window.facet_panel.more_requested.connect(controller.widen_facet)

    def dock_shown_or_hidden(visible: bool) -> None:
        if visible:
            controller.redraw_panel()

    window.facet_dock.visibilityChanged.connect(dock_shown_or_hidden)

    def tab_made(kind: Any, tab: Any) -> None:
        if kind is OCCASIONS:
            tab.show_past_changed.connect(controller.set_show_past)

    window.tab_made.connect(tab_made)

    def open_palette() -> None:
        from catalogue_desktop.ui.finder.palette import open_palette as show

        show(window, controller)

    window.quick_open_requested.connect(open_palette)
    return controller
