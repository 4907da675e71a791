"""The offer log joined to a running session: the offers checked when the catalogue is first read
and after every refresh (``ui.offers.offer_checks``, off the GUI thread), the open offers that
no longer match counted in What's new and said in the refresh's notice, and Go ▸ Offers (and
the palette, which reads the menus) opening the Offers window."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, SignalInstance

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.records.errors import StoreError
from catalogue_desktop.ui.offers.offer_checks import OfferChecks
from catalogue_desktop.ui.searches.notice import Notifier
from catalogue_desktop.ui.searches.watcher import Watcher
from catalogue_desktop.ui.shell.main_window import MainWindow

if TYPE_CHECKING:  # (the offers' modules come after the first paint: ui.shell.start_budget)
    from catalogue_desktop.core.offers.checking import Checked
    from catalogue_desktop.ui.offers.offer_log_window import OffersWindow


class OfferLogSession(Protocol):
    """What the offer log needs of the session: its signals and the catalogue's file."""

    @property
    def ready(self) -> SignalInstance: ...

    @property
    def synced(self) -> SignalInstance: ...

    @property
    def store_file(self) -> Path: ...


class OfferLog(QObject):
    """The session's offer log: its checks and its window (made when first opened)."""

    def __init__(
        self,
        session: OfferLogSession,
        window: MainWindow,
        store: Callable[[], Store],
        watcher: Watcher,
        notifier: Notifier,
    ) -> None:
        super().__init__(window)
        self._main = window
        self._store = store  # the window's store (a re-issue is logged in it)
        self._watcher = watcher
        self.checks = OfferChecks(lambda: session.store_file, window.formatter.time_text, self)
        self.window: OffersWindow | None = None
        session.ready.connect(self._check_at_ready)
        session.synced.connect(lambda _report: self.checks.check(announce=True))
        self.checks.checked.connect(self._counted)
        self.checks.flagged.connect(lambda checked: notifier.say_offers(len(checked.flagged)))
        watcher.dock.offers_activated.connect(self.show)
        window.offers_requested.connect(self.show)

    def _check_at_ready(self) -> None:
        """The cached rows are read: the open offers checked, when the log holds any (none: no
        thread is started and nothing imported for a check that finds nothing)."""
        try:
            open_ones = self._store().offers.any_open()
        except StoreError:
            open_ones = True  # (the check says what is wrong with the cache)
        if open_ones:
            self.checks.check()

    def _counted(self, checked: Checked) -> None:
        """What's new lists the open offers that no longer match, with their changes."""
        flagged = checked.flagged
        lines = [f"{o.title}: {line}" for o in flagged for line in o.changes]
        self._watcher.dock.set_offers(lines, len(flagged))

    def show(self) -> OffersWindow:
        """Go ▸ Offers: the window shown (and the offers checked again)."""
        if self.window is None:
            from catalogue_desktop.ui.offers.offer_log_window import OffersWindow
            from catalogue_desktop.ui.offers.offer_settings import OfferSettings

            remembered = OfferSettings(self._main.settings)
            self.window = OffersWindow(self.checks, self._store, self._main.formatter, remembered, self._main)
            self.window.message.connect(lambda text: self._main.show_message(text, 0))
        self.window.show()
        self.window.raise_()
        self.window.activateWindow()
        self.checks.check()
        return self.window

    def stop(self) -> None:
        self.checks.stop()


def connect_offer_log(
    session: OfferLogSession,
    window: MainWindow,
    store: Callable[[], Store],
    watcher: Watcher,
    notifier: Notifier,
) -> OfferLog:
    """Make the session's offer log (``session.offer_log``)."""
    return OfferLog(session, window, store, watcher, notifier)
