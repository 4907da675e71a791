"""Stops a ``catalogue-desktop sync`` at a chosen point of its writing, for
``test_store_durability``'s kills: the process that reaches the point tells the test (a line on a
FIFO) and stops itself (SIGSTOP), frozen there until the test kills its process group with SIGKILL.

The point comes in the environment (``STOP_AT``: ``"<collection>:<phase>"``; ``STOP_FIFO``: the
FIFO's path), so the ingest worker processes the sync spawns stop there too: they import
``sitecustomize`` (``SITECUSTOMIZE``, written into a folder on their ``PYTHONPATH``), which calls
``arm``. The phases, in the order a collection goes through them:

* ``downloaded``: its body is on disk, nothing of it written (``Ingestor.run`` begins);
* ``writing``: its first batch of records and rows inserted, the transaction open;
* ``committing``: all of its snapshot written, just before ``COMMIT``;
* ``committed``: just after its ``COMMIT``;
* ``reclaim:`` (no collection): every collection done, before the space is given back.
"""

from __future__ import annotations

import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, NoReturn

STOP_AT = "CATALOGUE_TEST_STOP_AT"
STOP_FIFO = "CATALOGUE_TEST_STOP_FIFO"
PHASES = ("downloaded", "writing", "committing", "committed")

SITECUSTOMIZE = f"""
import os
if os.environ.get({STOP_AT!r}):
    from tests.core.cache.sync_stops import arm
    arm()
"""


STOP_RETURNED = 86  # the exit status of a process whose stop did not hold (the test expects SIGKILL)


def stop(point: str) -> NoReturn:
    """Tell the test this process reached ``point``, then stop here; never returns (the test
    kills the process group).

    The stop is sent to the calling thread (``pthread_kill``), not to the process: a SIGSTOP sent
    to the process from a thread of a small payload's ingest went to the main thread, and the
    calling thread ran on until the main thread got a CPU and stopped the whole process; on a
    busy machine that was long enough for it to commit the snapshot it was stopped before
    (``test_store_durability``: "run 7: killed at experts's committing" held the new catalogue).
    A thread-directed SIGSTOP stops the whole process before the call returns to its thread."""
    fd = os.open(os.environ[STOP_FIFO], os.O_WRONLY)
    os.write(fd, f"{point} {os.getpid()}\n".encode())  # (one short write: atomic on a FIFO)
    os.close(fd)
    signal.pthread_kill(threading.get_ident(), signal.SIGSTOP)
    os._exit(STOP_RETURNED)  # (only a SIGCONT gets here: never let the write go on)


def arm() -> None:
    """Wrap the store's and the sync's steps so that this process stops at ``STOP_AT``."""
    from pathlib import Path

    from catalogue_desktop.core.cache import pages, schema, store
    from catalogue_desktop.core.records.kinds import Kind
    from catalogue_desktop.core.service.client import Validators
    from catalogue_desktop.core.sync import runner
    from catalogue_desktop.core.sync.report import IngestReport

    point = os.environ[STOP_AT]
    kind_value, phase = point.split(":")
    # the collection whose snapshot this thread writes now (small payloads are ingested in
    # threads of the sync's own process, several at once)
    local = threading.local()

    def writing() -> str:
        return getattr(local, "kind", "")

    def at(here: str, kind: str) -> None:
        if here == phase and kind == kind_value:
            stop(point)

    replace_snapshot = store.Store.replace_snapshot

    def replacing(self: store.Store, kind: Any, *args: Any, **kwargs: Any) -> int:
        local.kind = kind.value
        try:
            return replace_snapshot(self, kind, *args, **kwargs)
        finally:
            local.kind = ""

    write_batch = pages.write_batch

    def batch_written(*args: Any, **kwargs: Any) -> int:
        at("writing", writing())
        return write_batch(*args, **kwargs)

    immediate = schema.immediate  # (the store's transactions call it by its name there)

    @contextmanager
    def transaction(db: Any) -> Iterator[None]:
        kind = writing()
        with immediate(db):
            yield
            at("committing", kind)
        at("committed", kind)

    run = runner.Ingestor.run

    async def ingesting(
        self: runner.Ingestor,
        store_file: Path,
        kind: Kind,
        body: Path,
        validators: Validators,
        checked_at: str,
    ) -> IngestReport:
        at("downloaded", kind.value)
        return await run(self, store_file, kind, body, validators, checked_at)

    reclaim: Callable[[store.Store], str | None] = store.Store.reclaim

    def reclaiming(self: store.Store) -> str | None:
        at("reclaim", "")
        return reclaim(self)

    store.Store.replace_snapshot = replacing  # type: ignore[method-assign]
    pages.write_batch = batch_written
    store.immediate = transaction  # type: ignore[attr-defined]
    runner.Ingestor.run = ingesting  # type: ignore[method-assign]
    store.Store.reclaim = reclaiming  # type: ignore[method-assign]
