"""The finder in a window: its controller made and connected to the window's query box, facet
panel, Dates tab and Ctrl+K palette (one function, so the session stays short)."""

from __future__ import annotations

from typing import Any

from catalogue_desktop.core.listing.rows import DATES
from catalogue_desktop.ui.finder.controller import FinderController


def connect_finder(window: Any, loader: Any, settings: Any) -> FinderController:
    controller = FinderController(window, loader, settings_vocabulary(settings), parent=window)
    controller.indexer.sort_of = window.sort_of
    window.facet_panel.value_toggled.connect(controller.toggle_facet)
    window.facet_dock.visibilityChanged.connect(lambda visible: visible and controller.refresh_panel())

    def tab_made(kind: Any, tab: Any) -> None:
        if kind is DATES:
            tab.show_past_changed.connect(controller.set_show_past)

    window.tab_made.connect(tab_made)

    def open_palette() -> None:
        from catalogue_desktop.ui.finder.palette import open_palette as show

        show(window, controller)

    window.open_palette = open_palette
    return controller


def settings_vocabulary(settings: Any) -> Any:
    """The type labels and on-demand codes the user set; None: the defaults."""
    return settings.vocabulary()
