"""Reads the catalogue the window shows from the store, in chunks, without stalling the GUI.

Each collection's rows come from ``Store.iter_columns`` a chunk at a time, one chunk per pass of the
Qt event loop (a zero-interval timer), so a cache of 100k records never freezes the window. The
collection the window starts on can be shown as it is read (``rowset_growing``): its first page is
read at once, so that the window's first paint shows it, and the rest after that paint. The
loader needs Qt only, not asyncio: the window shows cached rows before asyncio is even imported.
A reloaded row set whose tab is sorted is put in that order first, a slice per pass
(``SortJob``), then published. After rows change, the ``CatalogueIndex`` is rebuilt once
(coalesced when several collections reload together). Full records for the detail pane are
read one at a time and decoded on demand (pydantic is imported lazily, after the window shows).
"""

from __future__ import annotations

import gc
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal

from catalogue_desktop.core.cache.store import CollectionState, Store
from catalogue_desktop.core.listing import counts
from catalogue_desktop.core.listing.rowset import CatalogueIndex, RowSet
from catalogue_desktop.core.listing.sorting import SortJob
from catalogue_desktop.core.records.errors import StoreError
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.ui.common.pass_budget import PassBudget, loop_budget

if TYPE_CHECKING:
    from catalogue_desktop.core.cache.record_history import Event
    from catalogue_desktop.core.records.models import Record

CHUNK = 2000  # rows per loop pass while the window starts (nothing else to keep responsive yet)
RELOAD_CHUNK = 500  # rows per loop pass when a refresh reloads a collection (window in use)
DISPOSE_CHUNK = 2000  # rows of a replaced row set freed per loop pass
START_PASS_S = 0.016  # while the window starts, chunks read per loop pass: up to one frame's time
# ... once its first page is painted, up to this long (about a chunk): a pass that grows the shown
# table is followed by its repaint (~10-15 ms), and two passes and that paint can fall between two
# ticks of the loop (``bench/run.py --only stall``: 16 ms passes made ~55-66 ms of the GUI thread's
# CPU in one gap, 10,000 webinars)
SHOWN_PASS_S = 0.005
PRESORT_ROWS = 10_000  # a reloaded row set this long is sorted ahead, as its tab shows it
PRESORT_PASS_S = 0.004  # ... in slices for up to this long per loop pass
FIRST_PAINT_WAIT_MS = 150  # after an early first page, reading waits for its paint this long at most


class _Job:
    """One collection being read: the snapshot it started on and the rows read so far. (A plain class: a
    dataclass costs time to make at start-up; docs/decisions.md, "Start-up and Qt".)"""

    __slots__ = (
        "changes",
        "chunk",
        "chunks",
        "done",
        "early",
        "expected",
        "kind",
        "rowset",
        "snapshot",
        "sort",
    )

    def __init__(self, kind: Kind, chunk: int, early: bool = False) -> None:
        self.kind = kind
        self.chunk = chunk
        self.early = early  # show the rows as they are read (``rowset_growing``)
        self.expected = 0  # (early) the snapshot's record count
        self.changes: dict[str, Any] | None = None  # (early) the snapshot's changes
        self.snapshot: int | None = None
        self.rowset: RowSet | None = None
        # the pages still to read (their links may still be packed)
        self.chunks: Iterator[tuple[list[int], list[list[Any]], Any]] | None = None
        self.done: list[Callable[[RowSet], None]] = []  # called with the published row set
        self.sort: SortJob | None = None  # the order its tab shows, made before it is published


class CatalogueLoader(QObject):
    """Owns the GUI thread's store connection and the row sets loaded from it."""

    rowset_loaded = Signal(object, object, object)  # Kind, RowSet, changes (dict | None)
    # Kind, RowSet (the same one, longer each time), records expected, changes: the rows of an
    # early collection read so far; ``rowset_loaded`` follows with it once all are read.
    rowset_growing = Signal(object, object, int, object)
    index_changed = Signal(object)  # CatalogueIndex
    all_loaded = Signal()  # the reads started by ``load_all`` are done and the index is built
    # The kinds whose rows' counts of webinars and courses naming them were (re)filled
    # (``core.listing.counts``): their tables show the new values.
    counts_filled = Signal(list)

    def __init__(
        self,
        store: Store,
        chunk: int = CHUNK,
        parent: QObject | None = None,
        reload_chunk: int = RELOAD_CHUNK,
        budget: PassBudget | None = None,
    ) -> None:
        super().__init__(parent)
        self.store = store
        self.chunk = chunk
        self.reload_chunk = min(chunk, reload_chunk)
        self.rowsets: dict[Kind, RowSet] = {kind: RowSet(kind) for kind in ALL_KINDS}
        self.changes: dict[Kind, dict[str, Any] | None] = dict.fromkeys(ALL_KINDS)
        self.index = CatalogueIndex(self.rowsets)
        self._jobs: dict[Kind, _Job] = {}  # in reading order
        self._first_page_read = False  # an early collection's first page was just read
        self._shown = False  # it was painted (or waited for): passes are shorter from then on
        self._starting: set[Kind] = set()  # kinds of the running ``load_all``
        self._gc_was_enabled: bool | None = None  # set while ``load_all`` holds the GC off
        self._retired: list[RowSet] = []  # replaced row sets, freed a slice at a time
        self._disposing: Iterator[None] | None = None
        self._counting: Iterator[None] | None = None  # the counts being filled (``_count_step``)
        self._counts_due = False  # rows were published since the counts were last filled
        self._counted: list[Kind] = []
        # one chunk of work per event-loop pass, in turn with the window's other jobs
        self._budget = budget or loop_budget()
        self._pump = self._budget.pump(self, self._step)
        # After an early collection's first page, reading pauses until the window painted it
        # (``first_page_painted``), or this long: how many loop passes a first paint takes
        # depends on the platform and on the window's widgets (one pass was not always enough).
        self._paint_wait = QTimer(self, singleShot=True, interval=FIRST_PAINT_WAIT_MS)
        self._paint_wait.timeout.connect(self.first_page_painted)
        self._index_timer = QTimer(self, singleShot=True, interval=30)
        self._index_timer.timeout.connect(self.rebuild_index)
        # kind -> (column, descending) its tab is sorted by, or None (``presort_as``).
        self._sort_of: Callable[[Kind], tuple[int, bool] | None] | None = None
        # Settles the series' rows read so far (``series_dates.settle_rest``, with the window's
        # on-demand codes): called after each page of series read, so that their table has none
        # left to settle when it takes the row set. None: the table settles them all then.
        self.settle_series: Callable[[RowSet], object] | None = None

    def switch_store(self, store: Store) -> None:
        """Read ``store`` from now on (the one read until now is closed); ``load_all`` reads it."""
        self.store.close()
        self.store = store

    def presort_as(self, sort_of: Callable[[Kind], tuple[int, bool] | None]) -> None:
        """Sort a reloaded row set as ``sort_of(kind)`` says its tab shows it ((column,
        descending), or None), a slice per pass, before it is published: the tab would sort all
        its rows in one go as it takes them (docs/decisions.md, "Sorting and the tables")."""
        self._sort_of = sort_of

    # -- rows ------------------------------------------------------------------------------

    def reload(
        self, kind: Kind, done: Callable[[RowSet], None] | None = None, *, early: bool = False
    ) -> None:
        """Start (re)loading one collection; a newer load of the same kind supersedes this one.
        ``done(rowset)`` is called once the rows are published. ``early``: its rows are also
        shown as they are read (``rowset_growing``), and the pass after its first chunk reads
        nothing (the window paints that chunk first)."""
        old = self._jobs.pop(kind, None)
        job = _Job(kind, self.chunk if kind in self._starting else self.reload_chunk, early)
        if old is not None:
            job.done = old.done  # whoever waited for the superseded load waits for this one
        if done is not None:
            job.done.append(done)
        self._jobs[kind] = job
        self._pump.start()

    def load_all(self, kinds: Iterable[Kind] = ALL_KINDS, *, early: Kind | None = None) -> None:
        """Load collections one after another (in the given order), then build the index and
        emit ``all_loaded``. The ``early`` one (the window shows it: put it first) is also shown
        as it is read (``rowset_growing``): its first page now, in this call, the rest from the second pass of
        the event loop (the window paints the first
        page in between)."""
        kinds = list(dict.fromkeys(kinds))
        self._starting = set(kinds)
        # No cyclic GC while the window starts: its passes over the rows read so far cost a
        # quarter of the start-up read (rows hold no cycles; each chunk is frozen anyway).
        if kinds and self._gc_was_enabled is None:
            self._gc_was_enabled = gc.isenabled()
            gc.disable()
        for kind in kinds:
            self.reload(kind, early=kind is early)
        if early is not None and kinds and kinds[0] is early and self.store.state(early).records:
            self._read_chunk(self._jobs[early])  # its first page, for the first paint
        if not kinds:
            self._finish_start()

    def _step(self) -> None:
        """One pass: nothing, just after an early collection's first page was read (the window
        paints it before more rows are read), else read one chunk of the first pending
        collection (while the window starts, chunks for up to ``START_PASS_S``: each pass may
        repaint the window), else unpack a page of links read packed, else free a slice of a
        replaced row set; stop the timer when there is nothing left (``rebuild_index`` restarts
        it for row sets it let go of)."""
        if self._first_page_read:
            self._pump.stop()  # idle until the first page is painted (or the wait is over)
            if not self._paint_wait.isActive():
                self._paint_wait.start()
        elif self._jobs:
            started = time.perf_counter()
            self._read_chunk(next(iter(self._jobs.values())))
            # (an early collection's first page ends the pass: it is painted before more is read)
            while (
                self._starting
                and self._jobs
                and not self._first_page_read
                and time.perf_counter() - started < (SHOWN_PASS_S if self._shown else START_PASS_S)
                and self._budget.left() > 0
            ):
                self._read_chunk(next(iter(self._jobs.values())))
        elif packed := next((r for r in self.rowsets.values() if r.packed_links), None):
            packed.unpack_links(1)  # a page at a time: links are first needed by a detail pane
            gc.freeze()  # as rows are: else full collections walk every link list unpacked so far
        elif self._counts_due or self._counting is not None:
            self._count_step()  # (after the links: counting reads them all)
        elif (self._retired or self._disposing is not None) and not self._index_timer.isActive():
            self._dispose_step()  # only once the index no longer holds the replaced rows
        else:
            self._pump.stop()

    def first_page_painted(self) -> None:
        """The window painted the early collection's first page: read on."""
        self._paint_wait.stop()
        self._shown = True
        if self._first_page_read:
            self._first_page_read = False
            self._pump.start()

    def _read_chunk(self, job: _Job) -> None:
        """Read a chunk of ``job``, or publish it once all are read."""
        if job.chunks is None:
            state = self.store.state(job.kind)
            job.snapshot = state.snapshot
            job.rowset = RowSet(job.kind)
            job.rowset.snapshot = state.snapshot
            job.chunks = self.store.iter_columns(
                job.kind, job.chunk, packed_links=True, snapshot=job.snapshot
            )
            job.sort = None
            if job.early:
                job.expected = state.records
                job.changes = self.store.snapshot_info(job.kind).changes
        assert job.rowset is not None
        chunk = next(job.chunks, None)
        if chunk is not None:
            if job.kind in counts.COUNTED:
                counts.make_room(job.kind, chunk[1])  # (rows listed before the counts existed)
            job.rowset.extend_columns(*chunk)
            if job.kind is Kind.SERIES and self.settle_series is not None:
                self.settle_series(job.rowset)  # (the page just read: a few ms at most)
            # These rows live as long as the window shows them. Without freezing, every ~25% growth of the
            # heap triggers a full collection walking all rows loaded so far (docs/decisions.md, "Sorting and
            # the tables"). Frozen objects are still freed by reference counting (rows hold no cycles).
            gc.freeze()
            if job.early:
                self.rowset_growing.emit(job.kind, job.rowset, job.expected, job.changes)
                if len(job.rowset) == len(chunk[0]):
                    self._first_page_read = True
            return
        if not self._presorted(job):
            return
        if self.store.state(job.kind).snapshot != job.snapshot:
            job.chunks = None  # a sync replaced the snapshot while we read: read it again
            return
        del self._jobs[job.kind]
        # (an early job read its snapshot's changes when it started: the same snapshot)
        changes = job.changes if job.early else self.store.snapshot_info(job.kind).changes
        self._publish(job.kind, job.rowset, changes)
        for callback in job.done:
            callback(job.rowset)
        if job.kind in self._starting:
            self._starting.discard(job.kind)
            if not self._starting:
                self._finish_start()

    def _presorted(self, job: _Job) -> bool:
        """Sort a reloaded row set as its tab shows it, for up to ``PRESORT_PASS_S``; True when
        done or not needed (small, unsorted, or not the tab shown while the window starts)."""
        assert job.rowset is not None
        if job.sort is None:
            if (
                self._sort_of is None
                or (job.kind in self._starting and not job.early)  # (the shown one is sorted first)
                or len(job.rowset) < PRESORT_ROWS
            ):
                return True
            wanted = self._sort_of(job.kind)
            if wanted is None:
                return True
            job.sort = SortJob(job.rowset, *wanted)
        started = time.perf_counter()
        while not job.sort.step():
            if time.perf_counter() - started >= PRESORT_PASS_S:
                return False
        return True

    def _publish(self, kind: Kind, rowset: RowSet, changes: dict[str, Any] | None) -> None:
        old = self.rowsets.get(kind)
        if old is not None and len(old) > DISPOSE_CHUNK:
            self._retired.append(old)
        self.rowsets[kind] = rowset
        self.changes[kind] = changes
        self._counts_due = True
        self.rowset_loaded.emit(kind, rowset, changes)
        self._index_timer.start()

    def _count_step(self) -> None:
        """One slice of filling the rows' counts of webinars and courses (``counts.fill_steps``),
        started anew when rows were published meanwhile; ``counts_filled`` once done."""
        if self._counts_due:
            self._counts_due = False
            self._counted = []
            self._counting = counts.fill_steps(dict(self.rowsets), self._counted)
        assert self._counting is not None
        if next(self._counting, StopIteration) is StopIteration:
            self._counting = None
            if self._counted and not self._counts_due:
                self.counts_filled.emit(self._counted)

    def _restore_gc(self) -> None:
        if self._gc_was_enabled:
            gc.enable()
        self._gc_was_enabled = None

    def _finish_start(self) -> None:
        self._restore_gc()
        self._index_timer.stop()
        self.rebuild_index()
        self.all_loaded.emit()

    async def wait_idle(self) -> None:
        """Until every running load has published its rows and the index is rebuilt."""
        import asyncio  # only coroutines wait: the loader itself runs on Qt timers

        while not self.idle:
            await asyncio.sleep(0.01)

    @property
    def idle(self) -> bool:
        """No collection is being read and no index rebuild is pending."""
        return not self._jobs and not self._index_timer.isActive()

    def rebuild_index(self) -> None:
        self.index = CatalogueIndex(self.rowsets)
        self.index_changed.emit(self.index)
        if self._retired or self._disposing is not None:
            self._pump.start()

    def _dispose_step(self) -> None:
        if self._disposing is None:
            self._disposing = self._dispose(self._retired.pop())
        if next(self._disposing, StopIteration) is StopIteration:
            self._disposing = None

    def _dispose(self, old: RowSet) -> Iterator[None]:
        """Free a replaced row set a slice per loop pass (``RowSet.drain``): dropping them all at once froze
        the window after a refresh (docs/decisions.md, "Sorting and the tables"). Only row sets nothing else
        holds any more are emptied; others are left to reference counting."""
        if sys.getrefcount(old) > 2:  # this frame's variable and getrefcount's argument
            return
        yield from old.drain(DISPOSE_CHUNK)

    def states(self) -> dict[Kind, CollectionState]:
        return self.store.states()

    # -- single records ----------------------------------------------------------------------

    def record(self, kind: Kind, record_id: int) -> Record | None:
        """The full record (a model) of the current snapshot, or None if the store lacks it (or
        holds what no longer decodes: a cache of an older version may hold a number beyond reason)."""
        data = self.store.record_data(kind, record_id)
        if data is None:
            return None
        from catalogue_desktop.core.records.decode import decode_record  # pydantic: only when needed

        try:
            return decode_record(kind, data)
        except ValueError:  # (pydantic's ValidationError)
            return None

    def record_history(self, kind: Kind, record_id: int) -> list[Event]:
        """What the kept history says the syncs changed in this record, oldest first (an indexed
        read of a few rows); empty if the cache cannot say."""
        try:
            return list(self.store.history.events(kind, record_id))
        except StoreError:
            return []

    def course_title(self, course_id: int) -> str | None:
        return self.index.title(Kind.COURSES, course_id)

    def record_changes(self, kind: Kind, record_id: int) -> dict[str, Any] | None:
        """What the last refresh changed in this record: ``{"added": True}``, the diff entry
        ``{"id": .., "fields": {..}}``, or None."""
        changes = self.changes.get(kind)
        if not changes:
            return None
        if record_id in (changes.get("added") or ()):
            return {"added": True}
        for entry in changes.get("changed") or ():
            if isinstance(entry, dict) and entry.get("id") == record_id:
                return entry
        return None

    def stop(self) -> None:
        """Stop reading: drop pending loads and a pending index rebuild, emit nothing more."""
        self._jobs.clear()
        self._first_page_read = False
        self._paint_wait.stop()
        self._starting.clear()
        self._restore_gc()
        self._disposing = None
        self._counting = None
        self._counts_due = False
        self._retired.clear()
        self._pump.stop()
        self._index_timer.stop()
        self.blockSignals(True)

    def close(self) -> None:
        self.stop()
        self.store.close()
