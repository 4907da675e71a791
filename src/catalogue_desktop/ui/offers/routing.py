"""The window's offers: what the Dates tab's offers need besides its rows (``source``), and where
File ▸ Offer takes its occasions from (``offer``): the series, courses or webinars selected on
their own tab (all their upcoming occasions: ``core.offers.of_records``), else the Dates tab
(shown first), which offers its selected rows or all it shows."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from catalogue_desktop.core.records.kinds import OCCASIONS, ListKind

if TYPE_CHECKING:
    from catalogue_desktop.core.query.engine import Finder
    from catalogue_desktop.ui.browse.catalogue_loader import CatalogueLoader
    from catalogue_desktop.ui.browse.collection_tab import CollectionTab
    from catalogue_desktop.ui.common.settings import Settings
    from catalogue_desktop.ui.offers.desk import OfferSource


class OfferWindow(Protocol):
    """What the offers need of the window (``ui.shell.main_window.MainWindow``): its tabs, and
    to show every cell and detail pane again (the fees' currency chosen at the first offer)."""

    def redraw(self) -> None: ...
    def current_kind(self) -> ListKind: ...
    def current_tab(self) -> CollectionTab: ...
    def tab(self, kind: ListKind) -> CollectionTab: ...
    def show_tab(self, kind: ListKind) -> CollectionTab: ...


class WindowOffers:
    """The offers of one window: the Dates tab's ``source`` and File ▸ Offer (``offer``)."""

    def __init__(
        self,
        window: OfferWindow,
        loader: CatalogueLoader,
        settings: Settings,
        engine: Callable[[], Finder | None],
        about: Callable[[], list[str]],
        shown_query: Callable[[], str | None] = lambda: None,
    ) -> None:
        """``engine()``: the finder's engine, if made (its ``offerings`` table's columns);
        ``about()``: where the occasions come from, the catalogue and the query (a spreadsheet's
        About sheet); ``shown_query()``: while the query box's text has an error, the last valid
        query, which the tables show (None: the box's)."""
        self._window = window
        self._loader = loader
        self._settings = settings
        self._engine = engine
        self._about = about
        self._shown_query = shown_query

    def source(self) -> OfferSource:
        """What the Dates tab's offers need besides its rows (``ui.offers.desk``)."""
        from catalogue_desktop.ui.offers.desk import OfferSource

        loader, settings = self._loader, self._settings
        return OfferSource(
            self._engine,
            loader.states,
            lambda: settings.offer_max_age_days,
            settings,
            lambda: loader.store,
            self._about,
            self._window.redraw,
            self._shown_query,
        )

    def offer(self, what: str) -> Any:
        """Make the offer ``what`` ("pdf", "print", "ics", "xlsx", "copy") from what the window shows
        (what ``DatesTab.offer`` returns)."""
        from catalogue_desktop.core.offers.of_records import OFFERED_KINDS  # (after the first paint)
        from catalogue_desktop.ui.offers.dates_tab import DatesTab

        window = self._window
        kind = window.current_kind()
        if kind.value in OFFERED_KINDS:
            ids = window.current_tab().selected_ids()
            if ids:
                dates = window.tab(OCCASIONS)
                assert isinstance(dates, DatesTab)  # (the window's tab of the Dates)
                return dates.offer(what, (kind.value, ids))
        dates = window.show_tab(OCCASIONS)
        assert isinstance(dates, DatesTab)
        return dates.offer(what)
