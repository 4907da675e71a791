"""Refresh the store from the service: all collections concurrently, one outcome each.

Outcomes: ``updated``, ``unchanged`` (304), ``partial`` (some records rejected, the valid ones
stored) or ``failed`` (the last good copy kept, the reason given, and its ``cause``: ``offline``,
``no-answer``, ``connection-lost``, ``service`` (an HTTP error status), ``bad-data``, ``certificate``
(refused), ``credentials-wanted`` (401), ``credentials-refused`` (403), the proxy's own
(``proxy-unreachable``, ``proxy-unknown``, ``proxy-credentials-wanted``, ``proxy-credentials-refused``,
``proxy-tunnel``, ``proxy-certificate``: ``core.connection.proxy_failures``) or ``error``).
Fetching runs on the event loop; decoding and storing run off it (a worker process for big
payloads, whose validation would hold the GIL; a thread for small ones), so the loop never stalls
on pydantic. Each collection goes through the phases ``waiting`` (for the service), receiving
(``on_progress``: bytes), ``validating`` and done (``on_outcome``). Cancelling a sync stops it
with the cached data as it was: downloads stop, workers are killed (their transaction rolls back),
a small ingest already running in a thread is waited for (one transaction, quick).
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import threading
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Literal

from catalogue_desktop.core.cache.store import CollectionState, Store, utc_now
from catalogue_desktop.core.records.errors import (
    BadEncoding,
    CannotConnect,
    CatalogueError,
    CertificateRefused,
    ConnectionLost,
    CredentialsRefused,
    CredentialsWanted,
    HttpStatus,
    NotArray,
    NotJson,
    ProxyFailed,
    TimedOut,
    TooLarge,
)
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.core.service.client import CatalogueClient, Validators
from catalogue_desktop.core.service.priority import lower_thread
from catalogue_desktop.core.sync.report import Cause, IngestReport, Status
from catalogue_desktop.core.sync.workers import init_worker, run_ingest, warm_up

PROCESS_THRESHOLD = 256 * 1024  # payloads above this are decoded in a worker process
STALE_BODY_AGE = 3600.0  # downloaded bodies (body-*.json next to the store) older than this are litter


@dataclass
class CollectionOutcome:
    """One collection's result, in the shape of ``sync --json``."""

    status: Status
    records: int = 0
    rejected: int = 0
    error: str | None = None
    fetched_at: str | None = None
    checked_at: str | None = None
    problems: list[dict[str, Any]] = field(default_factory=list, repr=False)
    changes: dict[str, Any] | None = field(default=None, repr=False)
    cause: Cause | None = field(default=None, repr=False)  # failed: what kind of failure (above)

    @property
    def stored(self) -> bool:
        """New data was stored: all the records, or the valid ones."""
        return self.status in _STORED

    @property
    def failed(self) -> bool:
        """The cached copy was kept as it was (``cause`` says why)."""
        return self.status == "failed"


_STORED: frozenset[Status] = frozenset(("updated", "partial"))
_OK: frozenset[Status] = frozenset(("updated", "unchanged"))


@dataclass
class SyncReport:
    collections: dict[Kind, CollectionOutcome]

    @property
    def ok(self) -> bool:
        return all(o.status in _OK for o in self.collections.values())

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"collections": {}, "changes": {}, "problems": []}
        for kind, outcome in self.collections.items():
            data = asdict(outcome)
            problems = data.pop("problems")
            changes = data.pop("changes")
            del data["cause"]  # (the window's; not part of sync --json)
            out["collections"][kind.value] = data
            if changes is not None:
                out["changes"][kind.value] = changes
            out["problems"].extend(
                {k: p.get(k) for k in ("collection", "record", "record_id", "field", "message")}
                for p in problems
            )
        return out


class Ingestor:
    """Runs ``ingest`` in a thread (small payloads) or a worker process (large ones).

    The workers run below normal priority and end when this process does, however it ends
    (``core.sync.workers``); they are started from a thread of the ingestor's own, alive as long as
    the pool (on Linux a worker's parent-death signal comes when the thread that started it ends),
    itself below normal priority, so that they are born there (``lower_process``).
    """

    def __init__(self, workers: int = 2, threshold: int = PROCESS_THRESHOLD) -> None:
        self.workers = workers
        self.threshold = threshold
        self._pool: ProcessPoolExecutor | None = None
        self._starter: ThreadPoolExecutor | None = None
        self._lock = threading.Lock()

    def _executor(self) -> ProcessPoolExecutor:
        with self._lock:
            if self._pool is None:
                # spawn, not fork: forking a process that runs Qt or threads is unsafe.
                context = multiprocessing.get_context("spawn")
                self._pool = ProcessPoolExecutor(self.workers, mp_context=context, initializer=init_worker)
                for _ in range(self.workers):  # start the workers now, from this thread
                    self._pool.submit(warm_up)
            return self._pool

    async def _start(self) -> ProcessPoolExecutor:
        """The pool, its workers started by the starter thread: starting processes takes tens of
        ms, kept off the event loop's thread."""
        with self._lock:
            if self._starter is None:
                # (below normal priority: the workers it starts are born there, see ``lower_process``)
                self._starter = ThreadPoolExecutor(
                    1, thread_name_prefix="catalogue-ingest-start", initializer=lower_thread
                )
            starter = self._starter
        return await asyncio.get_running_loop().run_in_executor(starter, self._executor)

    async def prewarm(self) -> None:
        """Start the worker processes now (off the loop), ready for when big payloads arrive."""
        await self._start()

    async def run(
        self, store_file: Path, kind: Kind, body: Path, validators: Validators, checked_at: str
    ) -> IngestReport:
        """Ingest the body in ``body`` (a file, deleted afterwards) into the store."""
        args = (str(store_file), kind.value, body, validators.etag, validators.last_modified, checked_at)
        try:
            # A thread for small payloads, unless the workers already run: validation in a
            # thread holds the GIL (tens of ms even for a small collection), a worker does not.
            if self._pool is None and body.stat().st_size <= self.threshold:
                # A thread cannot be stopped: a cancelled sync waits for it (a small payload, one
                # transaction), so that nothing is written once the cancel is through.
                job = asyncio.ensure_future(asyncio.to_thread(run_ingest, *args))
                try:
                    return await asyncio.shield(job)
                except asyncio.CancelledError:
                    with contextlib.suppress(Exception):
                        await job
                    raise
            # (through the starter thread even when the pool exists: a submit from this thread
            # while the starter still starts workers would start one itself, here)
            try:
                # (a cancel while the starter still starts the workers kills them too: ``abort``
                # waits for the pool it is making)
                pool = await self._start()
                return await asyncio.get_running_loop().run_in_executor(pool, run_ingest, *args)
            except asyncio.CancelledError:
                self.abort()
                raise
        finally:
            body.unlink(missing_ok=True)

    def abort(self) -> None:
        """Kill the workers now (a cancelled sync): what they were writing rolls back, the cache
        stays as it was. The next ingest starts new ones."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is None:
            return
        # (Python 3.14 has ProcessPoolExecutor.kill_workers; before it, only the private table)
        for process in list((getattr(pool, "_processes", None) or {}).values()):
            with contextlib.suppress(Exception):
                process.kill()
        pool.shutdown(wait=False, cancel_futures=True)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None
        if self._starter is not None:  # after the pool: its thread ends once the workers did
            self._starter.shutdown(wait=True)
            self._starter = None


OnProgress = Callable[[Kind, int, int | None], None]
OnOutcome = Callable[[Kind, CollectionOutcome], None]
Phase = Literal["waiting", "validating"]  # (receiving is ``OnProgress``; done is ``on_outcome``)
OnPhase = Callable[[Kind, Phase], None]


async def sync_catalogue(
    client: CatalogueClient,
    store_file: Path,
    *,
    kinds: Iterable[Kind] = ALL_KINDS,
    ingestor: Ingestor | None = None,
    on_progress: OnProgress | None = None,
    on_outcome: OnOutcome | None = None,
    deadline: float | None = None,
    on_phase: OnPhase | None = None,
) -> SyncReport:
    """Fetch ``kinds`` concurrently and store each; never raises for a collection's failure.
    ``deadline``: seconds each collection's fetch may take in all, retries included (None: the
    client's, ``CatalogueClient.deadline``)."""
    own = ingestor is None
    ingestor = ingestor or Ingestor()
    states = await asyncio.to_thread(_states, store_file)
    warm = sum(s.records for s in states.values()) > 2000
    if warm:
        await ingestor.prewarm()
    # Otherwise (a first sync, a small catalogue) the workers start with the first big download,
    # ready when it is in: started once its body arrived, they kept it waiting a third of a second.
    warming: list[asyncio.Future[Any]] = []

    def progress(kind: Kind, received: int, total: int | None) -> None:
        if not warm and not warming and max(received, total or 0) > ingestor.threshold:
            warming.append(asyncio.ensure_future(ingestor.prewarm()))
        if on_progress is not None:
            on_progress(kind, received, total)

    async def one(kind: Kind) -> tuple[Kind, CollectionOutcome]:
        outcome = await _sync_one(
            client, store_file, kind, states[kind], ingestor, progress, deadline, on_phase or _no_phase
        )
        if on_outcome is not None:
            on_outcome(kind, outcome)
        return kind, outcome

    try:
        results = await asyncio.gather(*(one(kind) for kind in kinds))
        if any(outcome.stored for _kind, outcome in results):
            await asyncio.to_thread(_reclaim, store_file)  # (a thread: it may rewrite the file)
    finally:
        try:
            for job in warming:  # (before closing: a pool made after ``close`` would outlive it)
                with contextlib.suppress(Exception):
                    await job
        finally:
            if own:
                await asyncio.to_thread(ingestor.close)
    return SyncReport(dict(results))


async def _sync_one(
    client: CatalogueClient,
    store_file: Path,
    kind: Kind,
    state: CollectionState,
    ingestor: Ingestor,
    on_progress: OnProgress | None,
    deadline: float | None,
    on_phase: OnPhase,
) -> CollectionOutcome:
    validators = Validators(state.etag, state.last_modified) if state.has_data else Validators()
    try:
        on_phase(kind, "waiting")
        result = await client.fetch(
            kind, validators, on_progress, spool_dir=store_file.parent, deadline=deadline
        )
        checked_at = utc_now()
        if result.not_modified:
            await asyncio.to_thread(_mark_unchanged, store_file, kind, result.validators, checked_at)
            return CollectionOutcome(
                "unchanged", state.records, state.rejected, None, state.fetched_at, checked_at
            )
        assert result.body_file is not None
        on_phase(kind, "validating")
        report = await ingestor.run(store_file, kind, result.body_file, result.validators, checked_at)
    except CatalogueError as exc:
        return await _failed(store_file, kind, state, str(exc), cause_of(exc))
    except Exception as exc:  # a bug or an unexpected environment failure: report, keep data
        return await _failed(
            store_file, kind, state, f"unexpected error: {type(exc).__name__}: {exc}", "error"
        )
    if report.status == "failed":  # the ingest recorded the failure in the store itself
        outcome = _kept(state, report.error, "bad-data")
        outcome.problems = report.problems
        return outcome
    return CollectionOutcome(
        report.status,
        report.records,
        report.rejected,
        None,
        checked_at,
        checked_at,
        report.problems,
        report.changes,
    )


def _no_phase(kind: Kind, phase: Phase) -> None:
    pass


def cause_of(exc: CatalogueError) -> Cause:
    """What kind of failure ``exc`` is, for words such as "offline" or "bad data"."""
    if isinstance(exc, ProxyFailed):
        return exc.cause
    if isinstance(exc, CertificateRefused):
        return "certificate"
    if isinstance(exc, CredentialsWanted):
        return "credentials-wanted"
    if isinstance(exc, CredentialsRefused):
        return "credentials-refused"
    if isinstance(exc, CannotConnect):
        return "offline"
    if isinstance(exc, TimedOut):
        return "no-answer"
    if isinstance(exc, ConnectionLost):
        return "connection-lost"
    if isinstance(exc, HttpStatus):
        return "service"
    if isinstance(exc, NotJson | NotArray | BadEncoding | TooLarge):
        return "bad-data"
    return "error"


async def _failed(
    store_file: Path, kind: Kind, state: CollectionState, error: str, cause: Cause
) -> CollectionOutcome:
    """Record a failed refresh (best effort: the store may be what failed) and keep the data."""
    with contextlib.suppress(CatalogueError):
        await asyncio.to_thread(_mark_failed, store_file, kind, error)
    return _kept(state, error, cause)


def _kept(state: CollectionState, error: str | None, cause: Cause) -> CollectionOutcome:
    """A failed outcome: the cached copy's counts and times stay as they were."""
    return CollectionOutcome(
        "failed", state.records, state.rejected, error, state.fetched_at, state.checked_at, cause=cause
    )


def _states(store_file: Path) -> dict[Kind, CollectionState]:
    with Store(store_file) as store:
        states = store.states()
    _remove_stale_bodies(store_file.parent)
    return states


def _reclaim(store_file: Path) -> None:
    """Give the space the sync freed back to the disk (``Store.reclaim``); best effort: a store
    busy or failing now keeps its free pages until the next sync."""
    with contextlib.suppress(CatalogueError), Store(store_file, busy_timeout=30.0) as store:
        store.reclaim()


def _remove_stale_bodies(folder: Path) -> None:
    """Bodies a killed sync left behind (tens of MB each) would pile up in the cache dir forever."""
    cutoff = time.time() - STALE_BODY_AGE
    for path in folder.glob("body-*.json"):
        try:
            if path.stat().st_mtime < cutoff:
                path.unlink()
        except OSError:
            pass


def _mark_unchanged(store_file: Path, kind: Kind, validators: Validators, at: str) -> None:
    with Store(store_file) as store:
        store.mark_unchanged(
            kind, etag=validators.etag, last_modified=validators.last_modified, checked_at=at
        )


def _mark_failed(store_file: Path, kind: Kind, error: str) -> None:
    with Store(store_file) as store:
        store.mark_failed(kind, error, utc_now())
