"""Builds the finder's tables in idle time: a kind's facts read from the store a page at a time,
its columns and indexes a slice at a time, then the offerings (the Dates tab's rows) from the
courses, series and webinars; once they are all built, the lexicon the query box reads plain
words with (``lexicon_builder``: on a thread of its own).

Each pass of the Qt event loop runs steps for up to ``PASS_S`` (a step is a few milliseconds at 100,000 rows),
so the window stays responsive while a big catalogue is indexed (docs/decisions.md, "The finder's engine").
The tables follow the rows the window shows: a kind is indexed from the snapshot its row set was read from,
and a reloaded kind replaces its table once the new one is complete. The engine is imported when the finder is
first used (``finder``), not while the window starts."""

from __future__ import annotations

import gc
import time
from collections.abc import Callable, Generator, Iterator
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from catalogue_desktop.core.listing.rowset import RowSet
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind, ListKind
from catalogue_desktop.ui.common.pass_budget import PassBudget, loop_budget
from catalogue_desktop.ui.common.stepped_import import FINDER, import_steps
from catalogue_desktop.ui.finder.lexicon_builder import LexiconBuilder

if TYPE_CHECKING:
    from catalogue_desktop.core.cache.store import Store
    from catalogue_desktop.core.query.engine import Finder
    from catalogue_desktop.core.query.reading import Lexicon
    from catalogue_desktop.core.query.vocabulary import Vocabulary

PASS_S = 0.004  # work per event-loop pass
PAGE_WAIT_S = 0.002  # a step waits this long at most for the thread reading the facts ahead
_MOMENTS_KEPT = 200_000  # parsed date texts kept for the next build of the Dates rows
_SOURCES = frozenset({"courses", "series", "webinars"})  # what the offerings are made of
OFFERINGS = OCCASIONS.value


class FinderIndexer(QObject):
    """Keeps ``finder``'s tables in step with the row sets the window shows."""

    table_ready = Signal(str)  # a table ("webinars", ..., "offerings") is (re)built
    dates_ready = Signal(object)  # the Dates tab's RowSet (made with the offerings table)
    progress = Signal(int, int)  # tables built, tables wanted (for "preparing the finder")

    def __init__(
        self,
        vocabulary: Vocabulary | None,
        store: Callable[[], Store],
        sort_of: Callable[[ListKind], tuple[int, bool] | None] = lambda _kind: None,
        parent: QObject | None = None,
        budget: PassBudget | None = None,
    ) -> None:
        super().__init__(parent)
        self._vocabulary = vocabulary
        self._engine: Finder | None = None
        self._store = store  # () -> the GUI thread's Store
        self._jobs: dict[str, Iterator[None]] = {}
        self._stopped: list[dict[str, Iterator[None]]] = []  # jobs let go of by ``stop``
        self._rowsets: dict[str, RowSet] = {}  # the row set each table was (or is) built for
        self._offerings_stale = False
        self.lexicon_builder = LexiconBuilder(parent=self)  # (builds once every table is built)
        self._moments: dict[Any, Any] = {}  # date texts parsed for the Dates rows, kept across builds
        self._paused = True
        self._wanted = 0
        self._built = 0
        # (kind) -> (column, descending) its tab is sorted by, or None: the Dates rows are put in
        # that order before they are shown (the window's ``sort_of``)
        self.sort_of = sort_of
        self._budget = budget or loop_budget()  # its passes in turn with the window's other jobs
        self._pump = self._budget.pump(self, self._pass)

    @property
    def engine(self) -> Finder:
        """The engine and its tables (made, and the engine imported, on first use)."""
        if self._engine is None:
            from catalogue_desktop.core.query.engine import Finder

            self._engine = Finder(self._vocabulary)
        return self._engine

    @property
    def engine_if_made(self) -> Finder | None:
        """The engine, if anything made it already (None: nothing is imported to answer)."""
        return self._engine

    @property
    def lexicon(self) -> Lexicon:
        """The plain words the catalogue's data gives (empty until its tables are built)."""
        return self.lexicon_builder.lexicon

    # -- what to build -----------------------------------------------------------------------

    def index(self, kind: Kind, rowset: RowSet) -> None:
        """(Re)build ``kind``'s table for the row set the window now shows."""
        self._rowsets[kind.value] = rowset
        self._jobs.pop(kind.value, None)
        self._jobs[kind.value] = self._kind_job(kind, rowset)
        self._want()

    def rebuild_offerings(self) -> None:
        """Make the offerings again (another vocabulary: what is on demand)."""
        self._offerings_stale = True
        self._want()

    def start(self) -> None:
        """Start building (the window's start-up reads the rows first)."""
        self._paused = False
        if self._building:
            self._pump.start()

    def stop(self) -> None:
        """Stop building (the window closes). The jobs under way are let go of, not freed here: a
        half-built table of 100,000 rows took ~200 ms to free, on the event loop, as the window
        closed; they go with the indexer itself."""
        self._paused = True
        self._pump.stop()
        self._stopped.append(self._jobs)
        self._jobs = {}
        self.lexicon_builder.stop()

    def ready(self, name: str) -> bool:
        """Whether ``name``'s table matches the rows shown (no rebuild pending)."""
        if name == OFFERINGS:
            return name in self.engine.tables and not self._offerings_stale and OFFERINGS not in self._jobs
        return name in self.engine.tables and name not in self._jobs

    def rowset_of(self, name: str) -> RowSet | None:
        return self._rowsets.get(name)

    @property
    def busy(self) -> bool:
        return self._building or self.lexicon_builder.busy

    @property
    def _building(self) -> bool:
        return bool(self._jobs) or self._offerings_stale

    def finish_now(self) -> None:
        """Build everything pending at once (tests; the self-test)."""
        while self._building:
            self._step()
        self.lexicon_builder.finish_now(self.engine)

    def _want(self) -> None:
        self._wanted = len(self._jobs) + self._built + (1 if self._offerings_stale else 0)
        if not self._paused:
            self._pump.start()

    # -- the work ----------------------------------------------------------------------------

    def _pass(self) -> None:
        started = time.perf_counter()
        enabled = gc.isenabled()
        gc.disable()  # (below)
        try:
            built = self._built
            while self._building:
                self._step()
                # (a table announced ends the pass: what its signal's slots do, the facets of the tab
                # shown among it, is not added to other steps)
                spent = time.perf_counter() - started >= PASS_S or self._budget.left() <= 0
                if spent or self._built != built:
                    return
            self._pump.stop()
            self.lexicon_builder.build(self.engine)  # every table built: the lexicon, on its thread
        finally:
            # What the steps made lives as long as its table: frozen, later collections do not walk it (freed
            # by reference counting; tables hold no cycles). Without this, building the offerings of a big
            # catalogue triggered full collections (docs/decisions.md, "The finder's engine").
            gc.freeze()
            if enabled:
                gc.enable()

    def _step(self) -> None:
        if not self._jobs and self._offerings_stale:
            self._offerings_stale = False
            self._jobs[OFFERINGS] = self._offerings_job()
        name, job = next(iter(self._jobs.items()))
        if next(job, StopIteration) is StopIteration and self._jobs.get(name) is job:
            del self._jobs[name]

    def _kind_job(self, kind: Kind, rowset: RowSet) -> Iterator[None]:
        yield from import_steps(FINDER)  # (the first job: the engine's modules, a step each)
        from catalogue_desktop.qt_compat.lazy_classes import FACETS, made_in_steps

        yield from made_in_steps(FACETS)  # (and the Qt classes the facets' first layout makes)
        from catalogue_desktop.core.query.facets import prepare_steps
        from catalogue_desktop.core.query.table import TableBuilder
        from catalogue_desktop.core.query.withdrawn import attach_history_steps

        builder = TableBuilder(kind.value)
        store = self._store()
        read = 0
        # The pages are read by a thread of their own (``read_ahead``: the first read after a sync's
        # writes was a step of 17 ms of CPU here), unpacked in one step and added to the table in another;
        # a page the thread has not read yet is asked for again at the next step, not waited for.
        for page in store.facts_ahead(kind, rowset.snapshot, wait=PAGE_WAIT_S):
            yield
            if self._store() is not store:  # another catalogue is shown: this one's job ends
                return
            if page is None:
                continue
            positions, facts = page
            # (a record listed before facts existed has none yet: the listing is redone soon)
            builder.add(
                [
                    f if isinstance(f, dict) else {"id": rowset.record_id(read + i)}
                    for i, f in enumerate(facts)
                ]
            )
            read += len(positions)
            yield
        if read != len(rowset):  # the store moved on meanwhile: a reload will come
            return
        table = builder.finish()
        yield  # (a step of its own: the ids compacted, the children's first rows listed)
        yield from table.build()
        # the time clauses (added:, changed:), read from the store the rows came from: a job of a
        # catalogue closed meanwhile (another chosen in the Catalogue menu) ends, its store is not read again
        steps = attach_history_steps(store, kind, table)
        while True:  # (checked before each step: a step reads the store)
            if self._store() is not store:
                return
            if next(steps, StopIteration) is StopIteration:
                break
            yield
        yield from prepare_steps(table)  # (what its facets read: their first count builds nothing)
        old = self.engine.tables.get(kind.value)
        self.engine.set_table(table)
        self._done(kind.value)
        if kind.value in _SOURCES:
            self._offerings_stale = True
        if old is not None and old is not table:  # (once no tab reads it: freed a slice at a time)
            self._jobs[f"{kind.value} (replaced)"] = old.dispose_steps()

    def _offerings_job(self) -> Iterator[None]:
        """What showing the Dates rows needs (their instants, when each occasion ended, their
        order if the tab is sorted), then the tab shows them (each row made when first read);
        then, in idle time, the offerings' other columns and their table's indexes for queries
        (one asked for meanwhile is made when asked)."""
        from catalogue_desktop.core.listing.sorting import SortJob
        from catalogue_desktop.core.query import dates_rows, facets, offerings
        from catalogue_desktop.core.query.table import Table

        finder = self.engine
        found = yield from offerings.lazy_columns_steps(finder.tables, finder.vocabulary)
        yield
        if len(self._moments) > _MOMENTS_KEPT:
            self._moments = {}
        rows = yield from _steps(dates_rows.rows_steps(found, self._moments))
        found["id"]
        yield
        table = Table(OFFERINGS, "record", found, found.n)
        rowset = RowSet(OCCASIONS, None, [[]] * found.n, list(range(found.n)), source=rows)
        yield
        yield from finder.past_steps(table, rows.ended)
        sort = self.sort_of(OCCASIONS)
        if sort is not None:
            job = SortJob(rowset, *sort, keys=rows.dated_column(sort[0]))
            while not job.step():
                yield
        old, old_table = self._rowsets.get(OFFERINGS), finder.tables.get(OFFERINGS)
        self._rowsets[OFFERINGS] = rowset
        finder.set_table(table)
        self.dates_ready.emit(rowset)
        if old is not None and old is not rowset:  # (kept until now: freed a slice at a time)
            yield from _dispose(old)
        if old_table is not None and old_table is not table:
            yield from old_table.dispose_steps()
        del old, old_table
        yield from found.fill_steps()
        yield from finder.past_index_steps(table)  # (answered by a scan till now)
        yield from table.build()
        yield from facets.prepare_steps(table)
        self._done(OFFERINGS)

    def _done(self, name: str) -> None:
        # The job ends here: no longer pending when the signal is heard (``ready`` is true for
        # the slots; the Dates facets waited for another tab to be chosen when it was not).
        self._jobs.pop(name, None)
        self._built += 1
        self.lexicon_builder.tables_changed()
        self.table_ready.emit(name)
        self.progress.emit(min(self._built, self._wanted), self._wanted)


def _dispose(rowset: RowSet) -> Iterator[None]:
    """Free the rows of a row set no longer shown a slice at a time (at once, they hold the
    event loop: docs/decisions.md, "Sorting and the tables")."""
    yield from rowset.drain(16_384)  # (the Dates rows: their chunks, a few at a time)


def _steps(gen: Generator[None, None, Any]) -> Generator[None, None, Any]:
    """Run a stepping generator, yielding with it, and return its value."""
    return (yield from gen)
