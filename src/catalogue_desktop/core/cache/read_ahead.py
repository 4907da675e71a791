"""A snapshot's pages read ahead on a thread of their own: its fact pages for the window's indexer,
the rest of its row pages for the window's loader.

The indexer builds the finder's tables on the window's thread, a page of facts per step. Reading a page
(SQLite) there took the longest of those steps after a refresh (the first read after the sync's writes:
~18 ms of CPU at 100,000 webinars, issue 28). Here a thread with its own connection reads the pages'
bytes a few pages ahead (SQLite lets go of the GIL while it reads); the caller unpacks them. A thread
that cannot open the file, or that waited long for its pages to be taken, ends; the caller then reads
the next page itself (``read_here``), so the pages come in order whatever happens to the thread.

The window's loader reads a snapshot's first two row pages itself (the first paint shows the first) and a
thread the pages after them, with their CRC-32s, started when the second is asked for (so not for a start
closed at its first paint): fetching and checking them was ~4-5 ms of the ~40-50 ms of the window's CPU
between its first paint and every row read (10,000 webinars, issue 40). The loader never waits for that
thread (``never_wait``): a page it has not read yet is read here, and the thread reads on after it; its
connection keeps few pages in memory (each is read once).

The window's thread never waits for the reader long (``wait``): a page not read yet is ``PENDING``
(the indexer's step ends, the loop has its turn, the page is asked for again), and the thread is
started without waiting for it to run (``threading.Thread.start`` waits until the new thread has
run: on a loaded machine that is the time the scheduler takes to give it a CPU, 50-90 ms of a
refresh's event loop gaps with ~1 ms of the window's CPU in them, issue 40).
"""

from __future__ import annotations

import _thread
import queue
import sqlite3
import threading
import zlib
from collections.abc import Callable, Generator
from pathlib import Path
from typing import Any

from catalogue_desktop.core.cache.guarded import connect

FACT_PAGE_SQL = (
    "SELECT CAST(format AS BLOB), crc, CAST(data AS BLOB) FROM fact_pages WHERE snapshot = ? AND page = ?"
)
# (as blobs: a damaged value may have become text that is not even UTF-8)
ROW_PAGE_SQL = (
    "SELECT CAST(format AS BLOB), crc, CAST(data AS BLOB) FROM row_pages WHERE snapshot = ? AND page = ?"
)
AHEAD = 4  # pages read ahead
_IDLE_S = 5.0  # a thread whose pages are not taken for this long ends
_POLL_S = 0.1
# Pages of the file its connection keeps: each page is read once (its default, 2 MB, only added
# page faults to the process: ~700 at 10,000 webinars)
_CACHE_PAGES = 16

Page = tuple[Any, ...] | None  # (format, crc, data) as stored, or None: no such page


class Pending:
    """(The type of ``PENDING``.)"""


PENDING = Pending()  # the next page is not read yet (``fact_pages`` with a ``wait``)


def fact_pages(
    path: Path, snapshot: int, read_here: Callable[[int], Page], wait: float | None = None
) -> Generator[Page | Pending, None, None]:
    """Snapshot ``snapshot``'s fact pages in order, then None (no more): read on a thread;
    ``read_here(page)`` reads one on the caller's thread when the thread cannot. With ``wait``
    (seconds), a page the thread has not read by then is ``PENDING``: ask again. Closing the
    iterator ends the thread."""
    return pages_ahead(path, FACT_PAGE_SQL, snapshot, read_here, wait)


def pages_ahead(
    path: Path,
    sql: str,
    snapshot: int,
    read_here: Callable[[int], Page],
    wait: float | None = None,
    first: int = 0,
    *,
    never_wait: bool = False,
    crc: bool = False,
) -> Generator[Page | Pending, None, None]:
    """As ``fact_pages``, the pages ``sql`` reads (its parameters: snapshot, page), from page
    ``first`` on. The thread starts now, not when the first page is asked for. ``never_wait``: a
    page the thread has not read yet is read here (``read_here``), and the thread reads on after
    it (on a loaded machine a thread given no CPU yet would hold up the window). ``crc``: each
    page the thread reads comes with its data's CRC-32 worked out there, after what was stored
    (format, crc, data, the data's CRC-32), for the caller to compare."""
    pages: queue.Queue[tuple[int, Page]] = queue.Queue(AHEAD)
    stop, ended = threading.Event(), threading.Event()
    wanted = [first]  # the page the caller asks for next: the thread reads none before it
    # (not threading.Thread: its start waits until the new thread runs; see the module's doc)
    _thread.start_new_thread(_read, (path, sql, snapshot, wanted, pages, stop, ended, crc))
    return _taken(pages, stop, ended, read_here, 0.0 if never_wait else wait, wanted, never_wait)


def _taken(
    pages: queue.Queue[tuple[int, Page]],
    stop: threading.Event,
    ended: threading.Event,
    read_here: Callable[[int], Page],
    wait: float | None,
    wanted: list[int],
    never_wait: bool,
) -> Generator[Page | Pending, None, None]:
    try:
        while True:
            page = wanted[0]
            found = _next(pages, ended, wait, page)
            if found is PENDING and not never_wait:
                yield PENDING
                continue
            if found is _GONE or found is PENDING:
                found = read_here(page)
            wanted[0] = page + 1  # (before the yield: the thread reads on meanwhile)
            yield found
            if found is None:
                return
    finally:
        stop.set()


_GONE: Any = object()  # the thread ended with no page left for the caller


def _next(pages: queue.Queue[tuple[int, Page]], ended: threading.Event, wait: float | None, page: int) -> Any:
    """The thread's page ``page`` (waiting while it reads it, at most ``wait`` seconds if given:
    then ``PENDING``), or ``_GONE`` if it ended. (Pages before ``page``, read here meanwhile, are
    dropped.)"""
    while True:
        alive = not ended.is_set()  # (before looking: a page put just before it ended is taken)
        try:
            at, found = pages.get(timeout=_POLL_S if wait is None else wait) if alive else pages.get_nowait()
        except queue.Empty:
            if not alive:
                return _GONE
            if wait is not None:
                return PENDING
            continue
        if at >= page:
            return found


def _read(
    path: Path,
    sql: str,
    snapshot: int,
    wanted: list[int],
    pages: queue.Queue[tuple[int, Page]],
    stop: threading.Event,
    ended: threading.Event,
    crc: bool = False,
) -> None:
    try:
        _read_pages(path, sql, snapshot, wanted, pages, stop, crc)
    finally:
        ended.set()


def _read_pages(
    path: Path,
    sql: str,
    snapshot: int,
    wanted: list[int],
    pages: queue.Queue[tuple[int, Page]],
    stop: threading.Event,
    crc: bool = False,
) -> None:
    try:
        db = connect(path)  # (bounded, as the store's own connection)
        db.execute("PRAGMA query_only = ON")
        db.execute(f"PRAGMA cache_size = {_CACHE_PAGES}")  # (each page read once)
    except sqlite3.Error:
        return  # (the caller reads the pages itself)
    try:
        page = wanted[0]
        while True:
            page = max(page, wanted[0])  # (none the caller has read itself)
            try:
                found = db.execute(sql, (snapshot, page)).fetchall()
            except sqlite3.Error:
                return
            item = found[0] if found else None
            if crc and item is not None:
                item = (*item, zlib.crc32(item[2]) if isinstance(item[2], bytes) else None)
            waited = 0.0
            while True:
                if stop.is_set() or waited >= _IDLE_S:
                    return
                try:
                    pages.put((page, item), timeout=_POLL_S)
                    break
                except queue.Full:
                    waited += _POLL_S
            if item is None:
                return
            page += 1
    finally:
        db.close()
