"""Giving space back: what a sync leaves free in the store file goes back to the disk.

SQLite keeps the pages of deleted rows (a replaced snapshot, history pruned) as free pages of the
file, reused by later writes but never returned: before issue 35, a catalogue whose service
replaced its 10,000 webinars at every sync held 758 MB, 39,068 of its 46,277 pages free.

``reclaim`` runs after a sync (``core.sync.runner``: in a thread of the sync, never on the
window's), in its own connection: it first moves a schema-5 history's inline JSON into ``bodies``
(``record_history.compact``, once), then, when more than a quarter of the file's pages are free
(``FREE_SHARE``), gives them back: ``PRAGMA incremental_vacuum`` in a file made with incremental
auto-vacuum (every store made since schema 6), else (and after a compaction, which leaves the
history's pages sparse rather than free) one ``VACUUM`` that rewrites the file and turns
incremental auto-vacuum on, so that the next times are incremental. The WAL is then
checkpointed and truncated, or the file's space would only have moved into it. Below a quarter
the free pages stay: the next sync's snapshot reuses them.
"""

from __future__ import annotations

import sqlite3

from catalogue_desktop.core.cache import record_history
from catalogue_desktop.core.cache.guarded import BoundedConnection

FREE_SHARE = 0.25
INCREMENTAL = 2  # ``PRAGMA auto_vacuum``'s value for incremental


def free_pages(db: sqlite3.Connection) -> tuple[int, int]:
    """(pages of the file, free ones)."""
    pages = int(db.execute("PRAGMA page_count").fetchone()[0])
    return pages, int(db.execute("PRAGMA freelist_count").fetchone()[0])


def reclaim(db: BoundedConnection) -> str | None:
    """Compact the history, then give free pages back if more than ``FREE_SHARE`` are free: how
    ("incremental" or "vacuum"; None: nothing given back)."""
    compacted = record_history.compact(db)
    pages, free = free_pages(db)
    if not compacted and free <= pages * FREE_SHARE:
        return None
    with db.unbounded():  # (a VACUUM copies the whole file: past any statement's budget)
        # (after a compaction the history's pages are left mostly empty, not free: only a VACUUM
        # gives their space back)
        if not compacted and int(db.execute("PRAGMA auto_vacuum").fetchone()[0]) == INCREMENTAL:
            how = "incremental"
            # (a page per step, and a result row without columns each: ``execute`` would step
            # once, freeing one page; ``executescript`` steps it to the end)
            db.executescript("PRAGMA incremental_vacuum")
        else:
            how = "vacuum"
            db.execute("PRAGMA auto_vacuum = INCREMENTAL")
            db.execute("VACUUM")
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchall()
    return how
