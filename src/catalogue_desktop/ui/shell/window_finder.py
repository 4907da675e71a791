"""What the main window asks of the finder, as a type: ``WindowFinder``.

The finder (``ui.finder.controller.FinderController``) is made after the window, with it, and
handed to it (``MainWindow.use_finder``): the window asks it which rows a tab shows when the tab
is made, and for the engine (the offers' stale-data check, Preferences' type codes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from catalogue_desktop.core.query.engine import Finder


class WindowFinder(Protocol):
    def result(self, kind: Any) -> Any:
        """What ``kind``'s tab shows under the query: (matches, overlay, note)."""
        ...

    @property
    def engine_if_made(self) -> Finder | None:
        """The engine, if made already (None: nothing is imported to answer)."""
        ...
