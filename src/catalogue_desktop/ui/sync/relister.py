"""Lists again, in a worker process, the collections a cache of an older version holds without
the finder's facts (``core.sync.relist``), then reloads their rows: an upgrade needs no refresh from the
service, and the window shows the old rows meanwhile. Pydantic holds the GIL while it decodes, so
the work runs in a process, below normal priority, never on the window's thread."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.records.kinds import Kind

if TYPE_CHECKING:  # (imported when a kind is stale: not at start-up)
    from concurrent.futures import ProcessPoolExecutor


class Relisted(Protocol):
    """What the relisting asks of the window's loader (``ui.browse.catalogue_loader``, above this
    package): its store, and to read a relisted kind's rows again."""

    @property
    def store(self) -> Store: ...

    def reload(self, kind: Kind) -> None: ...


async def relist_stale(store_file: Path, loader: Relisted, say: Callable[[str], None]) -> list[Kind]:
    """Relist every kind whose listing is older than this version's; returns them."""
    from catalogue_desktop.core.listing.rows import LISTING_VERSION

    stale = loader.store.stale_listings(LISTING_VERSION)
    if not stale:  # (the usual case: nothing more imported, at start-up once the window shows)
        return []
    from catalogue_desktop.ui.common.stepped_import import RELIST, import_in_steps

    await import_in_steps(RELIST)  # core.sync.relist imports pydantic: a module at a time
    from catalogue_desktop.core.sync.relist import relist

    loop = asyncio.get_running_loop()
    pool = await started_low(loop)
    try:
        for i, kind in enumerate(stale, 1):
            say(
                f"Updating the cache for the finder (made by an older version): {kind.label}, "
                f"{i} of {len(stale)}…"
            )
            report = await loop.run_in_executor(pool, relist, str(store_file), kind.value)
            if report.get("error"):
                say(f"{kind.label}: {report['error']}")
            loader.reload(kind)
    finally:
        await asyncio.to_thread(pool.shutdown)
    say("The cache is up to date for the finder")
    return stale


def _pool_started() -> ProcessPoolExecutor:
    """(On the starter thread.) The worker process, started now, from this thread."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from catalogue_desktop.core.service.priority import lower_process

    pool = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"), initializer=lower_process)
    pool.submit(int)  # (a spawn pool starts its worker at the first submit, in the submitting thread)
    return pool


async def started_low(loop: asyncio.AbstractEventLoop) -> ProcessPoolExecutor:
    """The relisting's worker process, started by a thread of its own below normal priority: the
    worker is born there (on Linux a process inherits the niceness of the thread that started
    it: its interpreter's start and imports run low too, as the sync's ingest workers do), and
    starting it (tens of ms) is not the window's thread's work."""
    from concurrent.futures import ThreadPoolExecutor

    from catalogue_desktop.core.service.priority import lower_thread

    starter = ThreadPoolExecutor(1, thread_name_prefix="relist-start", initializer=lower_thread)
    try:
        return await loop.run_in_executor(starter, _pool_started)
    finally:
        starter.shutdown(wait=False)
