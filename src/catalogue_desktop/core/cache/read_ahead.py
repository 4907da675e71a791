"""A snapshot's fact pages read ahead on a thread of their own, for the window's indexer.

The indexer builds the finder's tables on the window's thread, a page of facts per step. Reading a page
(SQLite) there took the longest of those steps after a refresh (the first read after the sync's writes:
~18 ms of CPU at 100,000 webinars, issue 28). Here a thread with its own connection reads the pages'
bytes a few pages ahead (SQLite lets go of the GIL while it reads); the caller unpacks them. A thread
that cannot open the file, or that waited long for its pages to be taken, ends; the caller then reads
the next page itself (``read_here``), so the pages come in order whatever happens to the thread.

The window's thread never waits for the reader long (``wait``): a page not read yet is ``PENDING``
(the indexer's step ends, the loop has its turn, the page is asked for again), and the thread is
started without waiting for it to run (``threading.Thread.start`` waits until the new thread has
run: on a loaded machine that is the time the scheduler takes to give it a CPU, 50-90 ms of a
refresh's event loop gaps with ~1 ms of the window's CPU in them, issue 40).
"""

from __future__ import annotations

import _thread
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
    pages: queue.Queue[Page] = queue.Queue(AHEAD)
    stop, ended = threading.Event(), threading.Event()
    # (not threading.Thread: its start waits until the new thread runs; see the module's doc)
    _thread.start_new_thread(_read, (path, snapshot, pages, stop, ended))
    try:
        page = 0
        while True:
            found = _next(pages, ended, wait)
            if found is PENDING:
                yield PENDING
                continue
            if found is _GONE:
                found = read_here(page)
            yield found
            if found is None:
                return
            page += 1
    finally:
        stop.set()


_GONE: Any = object()  # the thread ended with no page left for the caller


def _next(pages: queue.Queue[Page], ended: threading.Event, wait: float | None) -> Any:
    """The thread's next page (waiting while it reads it, at most ``wait`` seconds if given:
    then ``PENDING``), or ``_GONE`` if it ended."""
    while True:
        alive = not ended.is_set()  # (before looking: a page put just before it ended is taken)
        try:
            return pages.get(timeout=_POLL_S if wait is None else wait) if alive else pages.get_nowait()
        except queue.Empty:
            if not alive:
                return _GONE
            if wait is not None:
                return PENDING


def _read(
    path: Path, snapshot: int, pages: queue.Queue[Page], stop: threading.Event, ended: threading.Event
) -> None:
    try:
        _read_pages(path, snapshot, pages, stop)
    finally:
        ended.set()


def _read_pages(path: Path, snapshot: int, pages: queue.Queue[Page], stop: threading.Event) -> None:
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
