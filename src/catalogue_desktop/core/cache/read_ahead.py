"""A snapshot's fact pages read ahead on a thread of their own, for the window's indexer.

The indexer builds the finder's tables on the window's thread, a page of facts per step. Reading a page
(SQLite) there took the longest of those steps after a refresh (the first read after the sync's writes:
~18 ms of CPU at 100,000 webinars, issue 28). Here a thread with its own connection reads the pages'
bytes a few pages ahead (SQLite lets go of the GIL while it reads); the caller unpacks them. A thread
that cannot open the file, or that waited long for its pages to be taken, ends; the caller then reads
the next page itself (``read_here``), so the pages come in order whatever happens to the thread.
"""

from __future__ import annotations

import itertools
import queue
import sqlite3
import threading
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

from catalogue_desktop.core.cache.guarded import connect

FACT_PAGE_SQL = (
    "SELECT CAST(format AS BLOB), crc, CAST(data AS BLOB) FROM fact_pages WHERE snapshot = ? AND page = ?"
)
AHEAD = 4  # pages read ahead
_IDLE_S = 5.0  # a thread whose pages are not taken for this long ends
_POLL_S = 0.1

Page = tuple[Any, ...] | None  # (format, crc, data) as stored, or None: no such page


def fact_pages(path: Path, snapshot: int, read_here: Callable[[int], Page]) -> Generator[Page, None, None]:
    """Snapshot ``snapshot``'s fact pages in order, then None (no more): read on a thread;
    ``read_here(page)`` reads one on the caller's thread when the thread cannot. Closing the
    iterator ends the thread."""
    pages: queue.Queue[Page] = queue.Queue(AHEAD)
    stop = threading.Event()
    thread = threading.Thread(
        target=_read, args=(path, snapshot, pages, stop), name="catalogue-fact-pages", daemon=True
    )
    thread.start()
    try:
        for page in itertools.count():
            found = _next(pages, thread)
            if found is _GONE:
                found = read_here(page)
            yield found
            if found is None:
                return
    finally:
        stop.set()


_GONE: Any = object()  # the thread ended with no page left for the caller


def _next(pages: queue.Queue[Page], thread: threading.Thread) -> Page:
    """The thread's next page (waiting while it reads it), or ``_GONE`` if it ended."""
    while True:
        alive = thread.is_alive()  # (before looking: a page put just before it ended is taken)
        try:
            return pages.get(timeout=_POLL_S) if alive else pages.get_nowait()
        except queue.Empty:
            if not alive:
                return _GONE  # type: ignore[no-any-return]


def _read(path: Path, snapshot: int, pages: queue.Queue[Page], stop: threading.Event) -> None:
    try:
        db = connect(path)  # (bounded, as the store's own connection)
        db.execute("PRAGMA query_only = ON")
    except sqlite3.Error:
        return  # (the caller reads the pages itself)
    try:
        for page in itertools.count():
            try:
                found = db.execute(FACT_PAGE_SQL, (snapshot, page)).fetchall()
            except sqlite3.Error:
                return
            item = found[0] if found else None
            waited = 0.0
            while True:
                if stop.is_set() or waited >= _IDLE_S:
                    return
                try:
                    pages.put(item, timeout=_POLL_S)
                    break
                except queue.Full:
                    waited += _POLL_S
            if item is None:
                return
    finally:
        db.close()
