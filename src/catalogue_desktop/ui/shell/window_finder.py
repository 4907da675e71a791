"""What the main window asks of the finder, as a type: ``WindowFinder``.

The finder (``ui.finder.controller.FinderController``) is made after the window, with it, and
handed to it (``MainWindow.use_finder``): the window asks it which rows a tab shows when the tab
is made, tells it the Dates tab's "Show past" (that tab's rows are the finder's), and asks for
the engine (the offers' stale-data check, Preferences' type codes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from catalogue_desktop.core.query.engine import Finder
    from catalogue_desktop.core.records.kinds import ListKind
    from catalogue_desktop.ui.finder.controller import Result


class WindowFinder(Protocol):
    def result(self, kind: ListKind) -> Result:
        """What ``kind``'s tab shows under the query: (matches, overlay, note)."""
        ...

    def set_show_past(self, show: bool) -> None:
        """The Dates tab shows past occasions too (or not)."""
        ...

    @property
    def engine_if_made(self) -> Finder | None:
        """The engine, if made already (None: nothing is imported to answer)."""
        ...
