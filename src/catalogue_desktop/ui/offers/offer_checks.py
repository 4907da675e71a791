"""The offer log checked in the window, off the GUI thread: after every refresh (and when the
catalogue is first read, and when Offers opens), a thread of its own opens the store and checks
each open offer against the catalogue (``core.offers.checking``: the quoted occasions read once,
a look-up per item); the result comes back to the GUI thread as ``checked``, its flagged offers
(and, once the Offers window is made, every offer: ``listed``) read on the thread. A refresh's check
also says ``flagged`` with the open offers that no longer match, for What's new and the notice.

Re-issue needs the catalogue's occasions now (``now_occasions``): read on the same thread, then
handed to the GUI thread, where the new version's documents are made and logged."""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

from catalogue_desktop.core.formats.time_text import US_ENGLISH, TimeText

if TYPE_CHECKING:
    from concurrent.futures import ThreadPoolExecutor

    from catalogue_desktop.core.offers.checking import Checked
    from catalogue_desktop.core.offers.occasions import Occasion

log = logging.getLogger(__name__)


class OfferChecks(QObject):
    """Checks the offer log of the store at ``store_file()`` on a thread (``check``)."""

    checked = Signal(object)  # core.offers.checking.Checked: every offer, as checked now
    flagged = Signal(object)  # a refresh's check: the Checked, when open offers no longer match
    failed = Signal(str)  # the check could not be made (a locked or damaged cache): why
    _done = Signal(object)  # a function to run on the GUI thread (from the worker thread)

    def __init__(
        self, store_file: Callable[[], Path], time_text: TimeText = US_ENGLISH, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._store_file = store_file
        self._time_text = time_text  # how the changes write times (the window's locale)
        self._threads: ThreadPoolExecutor | None = None  # made at the first check (after the first paint)
        self._pending = 0  # checks asked for and not yet back
        self._announce = False
        self._closed = False
        self.last: Checked | None = None
        # every offer read with each check (the Offers window lists them); else only the flagged
        self.listed = False
        self._done.connect(lambda then: then())

    @property
    def _pool(self) -> ThreadPoolExecutor:
        """The checks' thread, made when first needed (concurrent.futures is not the first
        paint's: ui.shell.start_budget)."""
        if self._threads is None:
            from concurrent.futures import ThreadPoolExecutor

            self._threads = ThreadPoolExecutor(max_workers=1, thread_name_prefix="offer-checks")
        return self._threads

    @property
    def busy(self) -> bool:
        return self._pending > 0

    def check(self, announce: bool = False) -> None:
        """Check every open offer (``announce``: after a refresh, said when some are flagged)."""
        if self._closed:
            return
        self._announce = self._announce or announce
        self._pending += 1
        self._pool.submit(self._work, self._store_file())

    def _work(self, path: Path) -> None:
        from catalogue_desktop.core.cache.store import Store
        from catalogue_desktop.core.offers.checking import check
        from catalogue_desktop.core.records.errors import CatalogueError
        from catalogue_desktop.core.records.zones import local_now

        try:
            with Store(path) as store:
                result = check(store, local_now(), time_text=self._time_text)
            result.read_offers(every=self.listed)  # (here: the GUI thread only shows them)
        except CatalogueError as exc:
            text = str(exc)
            self._back(lambda: self._took(None, text))
            return
        self._back(lambda: self._took(result, None))

    def _back(self, then: Callable[[], None]) -> None:
        """Run ``then`` on the GUI thread (nothing once closed)."""
        if self._closed:
            return
        try:
            self._done.emit(then)
        except RuntimeError:  # the object went with its window meanwhile
            log.debug("offer check finished after its window closed")

    def _took(self, result: Checked | None, error: str | None) -> None:
        self._pending -= 1
        if result is None:
            self.failed.emit(error or "the offers could not be checked")
            return
        self.last = result
        self.checked.emit(result)
        if self._announce and not self._pending:
            self._announce = False
            if result.flagged:
                self.flagged.emit(result)

    def occasions_now(self, then: Callable[[Mapping[str, Occasion]], None]) -> None:
        """The catalogue's occasions now, by id (``checking.now_occasions``), read on the thread
        and handed to ``then`` on the GUI thread."""
        from catalogue_desktop.core.cache.store import Store
        from catalogue_desktop.core.offers.checking import now_occasions
        from catalogue_desktop.core.records.zones import local_now

        path = self._store_file()

        def work() -> None:
            with Store(path) as store:
                found = now_occasions(store, local_now())
            self._back(lambda: then(found))

        self._pool.submit(work)

    def stop(self) -> None:
        """No more checks (the window closes): one running is waited for (its store closed)."""
        self._closed = True
        if self._threads is not None:
            self._threads.shutdown(wait=True, cancel_futures=True)
