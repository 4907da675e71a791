"""The lexicon the query box reads plain words with (``core.query.reading``: the catalogue's
cities, experts' names, topics' titles), built from the finder's tables on a thread of its own
once every table is built (at start-up, after each sync, after a catalogue is opened), so the
window never waits for it (issue 36: nothing over ~16 ms on the GUI thread).

The tables it reads are not changed once built (a rebuilt table is a new one), so the thread reads
them as they were when it started; a table rebuilt meanwhile makes the result stale: it is
dropped and the lexicon built again.

While the thread builds, Python's switch interval is 1 ms instead of 5: the GUI thread, which
needs the GIL for every event, waits at most about that long for it. At 100,000 webinars the
event loop's longest gap during a build was 29 ms with the default (median of 7 builds), 11 ms with
1 ms (at most 14; 6 ms with no build: bench/lexicon_stall.py, a shared machine)."""

from __future__ import annotations

import logging
import sys
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal

if TYPE_CHECKING:  # (concurrent.futures when the first build starts: ui.shell.start_budget)
    from concurrent.futures import Future, ThreadPoolExecutor

    from catalogue_desktop.core.query.engine import Finder
    from catalogue_desktop.core.query.reading import Lexicon

log = logging.getLogger(__name__)
SWITCH_S = 0.001  # Python's switch interval while the thread builds (the module's doc)


def from_tables(finder: Finder) -> Lexicon:
    """The lexicon of ``finder``'s tables (on the builder's thread). ``of_finder`` keeps it for
    these tables: the watched searches' news, worked out on the GUI thread once the builder is
    done (``ui.searches.watcher`` waits for the indexer), find it made."""
    from catalogue_desktop.core.query.lexicon import of_finder

    return of_finder(finder)


class LexiconBuilder(QObject):
    """Builds the lexicon when asked (``build``), on its thread; ``ready`` once it is in."""

    ready = Signal()
    _built = Signal(object, int)  # the future and the generation it was built for (from the thread)

    def __init__(
        self, build: Callable[[Finder], Lexicon] = from_tables, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._build = build
        self._lexicon: Lexicon | None = None
        self._pool: ThreadPoolExecutor | None = None
        self._future: Future[Lexicon] | None = None
        self._generation = 0  # counts the tables' changes: a lexicon of older tables is dropped
        self.stale = False  # a table changed since the lexicon was built
        self._finder: Finder | None = None
        self._switch: float | None = None  # the switch interval to restore once built
        self._handing = threading.Lock()  # (``_hand_over`` against ``stop``)
        self._token = object()  # a build hands its lexicon over only while this is its own
        self._built.connect(self._take)

    @property
    def lexicon(self) -> Lexicon:
        """The latest lexicon (empty until the first is built)."""
        if self._lexicon is None:
            from catalogue_desktop.core.query.reading import Lexicon

            self._lexicon = Lexicon()
        return self._lexicon

    @property
    def busy(self) -> bool:
        return self.stale or self._future is not None

    def tables_changed(self) -> None:
        self.stale = True
        self._generation += 1

    def build(self, finder: Finder) -> None:
        """Build it (its tables all built now), unless it is current or being built."""
        self._finder = finder
        if not self.stale or self._future is not None:
            return
        self.stale = False
        generation = self._generation
        if self._pool is None:
            from concurrent.futures import ThreadPoolExecutor

            self._pool = ThreadPoolExecutor(1, thread_name_prefix="lexicon")
        self._fast_switch(True)
        future = self._future = self._pool.submit(self._build, finder)
        token = self._token
        future.add_done_callback(lambda done: self._hand_over(done, generation, token))

    def _hand_over(self, done: Future[Lexicon], generation: int, token: object) -> None:
        """(The build's thread.) The lexicon to the window's thread, unless the builder was
        stopped since: the window may have deleted it, and a signal emitted on a deleted object
        crashed the process (a segfault in the suite, a window closed mid-build)."""
        with self._handing:
            if token is self._token:
                self._built.emit(done, generation)

    def _fast_switch(self, on: bool) -> None:
        if on and self._switch is None:
            self._switch = sys.getswitchinterval()
            sys.setswitchinterval(SWITCH_S)
        elif not on and self._switch is not None:
            sys.setswitchinterval(self._switch)
            self._switch = None

    def _take(self, future: Future[Lexicon], generation: int) -> None:
        if future is not self._future:  # (let go of by ``stop``, or taken by ``finish_now``)
            return
        self._future = None
        self._fast_switch(False)
        error = future.exception() if not future.cancelled() else None
        if future.cancelled() or error is not None:
            if error is not None:  # the last lexicon stays: plain words are read as before
                log.warning("The plain-words lexicon could not be built: %s", error)
            return
        if generation == self._generation:
            self._lexicon = future.result()
            self.ready.emit()
        elif self._finder is not None:  # tables changed meanwhile: again, on the new ones
            self.build(self._finder)

    def finish_now(self, finder: Finder) -> None:
        """Build it here and now if it is not current (tests; the self-test)."""
        future, self._future = self._future, None
        self._fast_switch(False)
        if future is not None and not self.stale:  # built for the tables as they are
            try:
                self._lexicon = future.result()
            except Exception as error:  # (as ``_take``)
                log.warning("The plain-words lexicon could not be built: %s", error)
            else:
                self.ready.emit()
        if self.stale:
            self.stale = False
            self._lexicon = self._build(finder)
            self.ready.emit()

    def stop(self) -> None:
        """The window closes: a build under way is let go of (its result never handed over:
        once this returns, the builder may be deleted)."""
        with self._handing:
            self._token = object()
        self._future = None
        self._fast_switch(False)
        self.stale = False
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
