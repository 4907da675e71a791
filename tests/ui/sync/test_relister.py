"""The window's relisting (``ui.sync.relister``): a kind listed by an older version is listed
again in a worker process born below normal priority, then its rows are read again."""

from __future__ import annotations

import asyncio
import os
import sqlite3
import sys
import threading
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

from catalogue_desktop.core.cache.store import FILE_NAME, Store
from catalogue_desktop.core.listing.rows import LISTING_VERSION
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.service.priority import BACKGROUND_NICENESS
from catalogue_desktop.ui.sync import relister
from catalogue_desktop.ui.sync.relister import relist_stale


class Loader:
    """The window's loader as the relisting sees it: its store, and the kinds read again."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.reloaded: list[Kind] = []

    def reload(self, kind: Kind) -> None:
        self.reloaded.append(kind)


def test_a_kind_listed_by_an_older_version_is_listed_again_and_read_again(filled_cache: Path) -> None:
    path = filled_cache / FILE_NAME
    with Store(path) as store:
        rows = [r for part in store.iter_rows(Kind.TOPICS) for r in part]
    db = sqlite3.connect(path)  # the topics' snapshot as an older version listed it
    db.execute(
        "UPDATE snapshots SET listing = ?"
        " WHERE id = (SELECT snapshot FROM collections WHERE name = 'topics')",
        (LISTING_VERSION - 1,),
    )
    db.commit()
    db.close()
    said: list[str] = []
    with Store(path) as store:
        loader = Loader(store)
        relisted = asyncio.run(relist_stale(path, loader, said.append))
        assert relisted == loader.reloaded == [Kind.TOPICS]
        assert store.stale_listings(LISTING_VERSION) == []
        assert [r for part in store.iter_rows(Kind.TOPICS) for r in part] == rows
    assert said == [
        "Updating the cache for the finder (made by an older version): Topics, 1 of 1…",
        "The cache is up to date for the finder",
    ]


def test_nothing_stale_starts_no_worker(filled_cache: Path) -> None:
    said: list[str] = []
    with Store(filled_cache / FILE_NAME) as store:
        assert asyncio.run(relist_stale(filled_cache / FILE_NAME, Loader(store), said.append)) == []
    assert said == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread's own niceness: Linux")
def test_the_relisting_worker_is_born_below_normal_priority_off_the_loop_s_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The worker is started by a lowered thread of its own (so it is born low, its interpreter's
    start included, not only from its initializer on), not by the loop's thread; lowered once."""
    starters: list[tuple[int, int]] = []
    real = relister._pool_started

    def spy() -> ProcessPoolExecutor:
        starters.append((threading.get_ident(), os.getpriority(os.PRIO_PROCESS, threading.get_native_id())))
        return real()

    monkeypatch.setattr(relister, "_pool_started", spy)

    async def start() -> tuple[ProcessPoolExecutor, int]:
        return await relister.started_low(asyncio.get_running_loop()), threading.get_ident()

    own = os.getpriority(os.PRIO_PROCESS, 0)
    low = min(19, own + BACKGROUND_NICENESS)
    pool, loop_thread = asyncio.run(start())
    try:
        ((starter, starter_niceness),) = starters
        assert starter != loop_thread and starter_niceness == low
        assert pool.submit(os.nice, 0).result(timeout=60) == low
        (worker,) = pool._processes.values()  # type: ignore[union-attr]
        assert os.getpriority(os.PRIO_PROCESS, worker.pid) == low
    finally:
        pool.shutdown()
