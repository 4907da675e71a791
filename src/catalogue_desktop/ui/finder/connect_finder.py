"""The finder in a window: its controller made and connected to the window's query box, facet
panel, tabs (the window asks it what each tab shows: ``MainWindow.use_finder``) and Ctrl+K
palette (one function, so the session stays short)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.finder.controller import FinderController, FinderWindow

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtWidgets import QDockWidget, QMainWindow

    from catalogue_desktop.ui.browse.catalogue_loader import CatalogueLoader
    from catalogue_desktop.ui.common.settings import Settings


class WiredWindow(FinderWindow, Protocol):
    """The window the finder is wired into (``ui.shell.main_window.MainWindow``)."""

    @property
    def facet_dock(self) -> QDockWidget: ...
    @property
    def quick_open_requested(self) -> SignalInstance: ...  # Ctrl+K
    def use_finder(self, finder: FinderController) -> None: ...
    def navigate(self, kind: Kind, record_id: int, *, remember: bool = True) -> bool: ...


def connect_finder(
    window: WiredWindow, main: QMainWindow, loader: CatalogueLoader, settings: Settings
) -> FinderController:
    """The finder of ``window`` (``main``: the same window, the palette's parent and menus)."""
    controller = FinderController(window, lambda: loader.store, settings.vocabulary(), main)
    window.use_finder(controller)
    window.facet_panel.value_toggled.connect(controller.toggle_facet)
    window.facet_panel.more_requested.connect(controller.widen_facet)

    def dock_shown_or_hidden(visible: bool) -> None:
        if visible:
            controller.redraw_panel()

    window.facet_dock.visibilityChanged.connect(dock_shown_or_hidden)

    def open_palette() -> None:
        from catalogue_desktop.ui.finder.palette import open_palette as show

        show(main, controller, window.navigate)

    window.quick_open_requested.connect(open_palette)
    return controller
