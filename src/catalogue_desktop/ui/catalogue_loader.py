"""Reads the catalogue the window shows from the store, in chunks, without stalling the GUI.

Each collection's rows come from ``Store.iter_rows`` a chunk at a time, yielding to the event loop
between chunks, so a cache of 100k records never freezes the window. After rows change, the
``CatalogueIndex`` is rebuilt once (coalesced when several collections reload together).
Full records for the detail pane are read one at a time and decoded on demand (pydantic is
imported lazily, after the window shows).
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time
from collections.abc import Iterable
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from catalogue_desktop.core.catalogue import CatalogueIndex, RowSet
from catalogue_desktop.core.kinds import ALL_KINDS, Kind
from catalogue_desktop.core.store import CollectionState, Store

CHUNK = 2000  # rows per loop pass while the window starts (nothing else to keep responsive yet)
RELOAD_CHUNK = 500  # rows per loop pass when a refresh reloads a collection (window in use)
DISPOSE_CHUNK = 2000  # rows of a replaced row set freed per loop pass


class CatalogueLoader(QObject):
    """Owns the GUI thread's store connection and the row sets loaded from it."""

    rowset_loaded = Signal(object, object, object)  # Kind, RowSet, changes (dict | None)
    index_changed = Signal(object)  # CatalogueIndex

    def __init__(self, store: Store, chunk: int = CHUNK, parent: QObject | None = None,
                 reload_chunk: int = RELOAD_CHUNK) -> None:
        super().__init__(parent)
        self.store = store
        self.chunk = chunk
        self.reload_chunk = min(chunk, reload_chunk)
        self._starting = False
        self.rowsets: dict[Kind, RowSet] = {kind: RowSet(kind) for kind in ALL_KINDS}
        self.changes: dict[Kind, dict[str, Any] | None] = dict.fromkeys(ALL_KINDS)
        self.index = CatalogueIndex(self.rowsets)
        self._tasks: dict[Kind, asyncio.Task[RowSet]] = {}
        self._retired: list[RowSet] = []  # replaced row sets, freed a slice at a time
        self._disposing: asyncio.Task[None] | None = None
        self._index_timer = QTimer(self, singleShot=True, interval=30)
        self._index_timer.timeout.connect(self.rebuild_index)

    # -- rows ------------------------------------------------------------------------------

    async def _read(self, kind: Kind) -> RowSet:
        while True:
            snapshot = self.store.state(kind).snapshot
            rowset = RowSet(kind)
            size = self.chunk if self._starting else self.reload_chunk
            for chunk in self.store.iter_rows(kind, size):
                rowset.extend(chunk)
                # These rows live as long as the window shows them. Without freezing, every ~25%
                # growth of the heap triggers a full collection walking all rows loaded so far:
                # loading 100k webinars paid 7 of them (19..126 ms each) and took 2.6 s, not 0.9 s.
                # Frozen objects are still freed by reference counting (rows hold no cycles).
                gc.freeze()
                await asyncio.sleep(0)  # let the GUI paint and handle input between chunks
            # A sync may have replaced the snapshot while we read: read again, consistently.
            if self.store.state(kind).snapshot == snapshot:
                return rowset

    def reload(self, kind: Kind) -> asyncio.Task[RowSet]:
        """Start (re)loading one collection; a newer load of the same kind supersedes this one."""
        task = asyncio.ensure_future(self._load(kind))
        self._tasks[kind] = task
        return task

    async def _load(self, kind: Kind) -> RowSet:
        rowset = await self._read(kind)
        if self._tasks.get(kind) is not asyncio.current_task():
            return rowset  # superseded while reading: the newer load publishes its rows
        changes = self.store.snapshot_info(kind).get("changes")
        old = self.rowsets.get(kind)
        if old is not None and len(old) > DISPOSE_CHUNK:
            self._retired.append(old)
        self.rowsets[kind] = rowset
        self.changes[kind] = changes
        self.rowset_loaded.emit(kind, rowset, changes)
        self._index_timer.start()
        return rowset

    async def load_all(self, kinds: Iterable[Kind] = ALL_KINDS) -> None:
        """Load collections one after another (small ones are instant), then build the index."""
        self._starting = True
        try:
            for kind in kinds:
                await self.reload(kind)
        finally:
            self._starting = False
        self._index_timer.stop()
        self.rebuild_index()

    async def wait_idle(self) -> None:
        """Until every running load has published its rows and the index is rebuilt."""
        while not self.idle:
            pending = [t for t in self._tasks.values() if not t.done()]
            if pending:
                await asyncio.gather(*pending, return_exceptions=True)
            else:
                await asyncio.sleep(0.01)

    @property
    def idle(self) -> bool:
        """No collection is being read and no index rebuild is pending."""
        return all(t.done() for t in self._tasks.values()) and not self._index_timer.isActive()

    def rebuild_index(self) -> None:
        self.index = CatalogueIndex(self.rowsets)
        self.index_changed.emit(self.index)
        if self._retired and (self._disposing is None or self._disposing.done()):
            try:
                self._disposing = asyncio.ensure_future(self._dispose())
            except RuntimeError:  # no event loop (a synchronous test): refcounting frees them
                self._retired.clear()

    async def _dispose(self) -> None:
        """Free replaced row sets a slice per loop pass: dropping 100k rows at once (millions of
        objects) froze the window for ~150 ms after a refresh. Only row sets nothing else holds
        any more are emptied; others are left to reference counting."""
        while self._retired:
            await asyncio.sleep(0)
            old = self._retired.pop()
            if sys.getrefcount(old) > 2:  # this frame's variable and the call's argument
                continue
            old.sort_cache.clear()
            old._by_id = None
            for seq in (old.rows, old.links, old.positions):
                while seq:
                    del seq[-DISPOSE_CHUNK:]
                    await asyncio.sleep(0)
            del old

    def states(self) -> dict[Kind, CollectionState]:
        return self.store.states()

    # -- single records ----------------------------------------------------------------------

    def record(self, kind: Kind, record_id: int) -> Any | None:
        """The full record (a model) of the current snapshot, or None if the store lacks it."""
        data = self.store.record_data(kind, record_id)
        if data is None:
            return None
        from catalogue_desktop.core.decode import decode_record  # pydantic: only when needed

        return decode_record(kind, data)

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

    def detail_context(self, kind: Kind, record_id: int) -> Any:
        from catalogue_desktop.ui.detail import DetailContext

        return DetailContext(
            index=self.index,
            changes=self.record_changes(kind, record_id),
            course_title=self.course_title,
            now_ms=int(time.time() * 1000),
        )

    def stop(self) -> None:
        """Stop reading: cancel loads, drop a pending index rebuild, emit nothing more."""
        for task in self._tasks.values():
            task.cancel()
        if self._disposing is not None:
            self._disposing.cancel()
        self._retired.clear()
        self._index_timer.stop()
        self.blockSignals(True)

    def close(self) -> None:
        self.stop()
        self.store.close()
