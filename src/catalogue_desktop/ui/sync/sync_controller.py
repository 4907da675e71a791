"""Background sync of the store from the service, as Qt signals; ``cancel`` stops one.

Per collection: ``started`` (waiting for the service), ``progress`` (bytes received), ``phase``
("validating"), ``outcome`` (done). A cancelled sync says which collections it stopped
(``cancelled``): their cached copy is as it was (``core.sync.runner``: downloads stop, workers are killed
and their transactions roll back).

One long-lived ``CatalogueClient`` and one ``Ingestor`` per controller (closed in ``aclose``).
The network modules (httpx, pydantic via the ingest path) are imported on the first sync, after
the window has shown the cached rows, a module at a time (``ui.common.stepped_import``): start-up
never waits for them, and the GUI keeps painting while they load.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.ui.common.stepped_import import REFRESH, import_in_steps

if TYPE_CHECKING:
    from catalogue_desktop.core.service.client import CatalogueClient
    from catalogue_desktop.core.sync.runner import CollectionOutcome, Ingestor, Phase, SyncReport

PROGRESS_INTERVAL = 0.1  # s: progress signals per collection at most ~10/s (each repaints)


class SyncController(QObject):
    """Runs ``core.sync.runner.sync_catalogue`` on the asyncio (qasync) loop and reports via signals."""

    started = Signal(object)  # list[Kind] being synced (each waiting for the service)
    progress = Signal(object, int, object)  # Kind, bytes received, total bytes or None
    phase = Signal(object, str)  # Kind, "waiting" | "validating"
    outcome = Signal(object, object)  # Kind, CollectionOutcome
    cancelled = Signal(object)  # list[Kind] stopped by ``cancel`` before their outcome
    finished = Signal(object)  # SyncReport, or None when the sync broke or was cancelled
    error = Signal(str)  # the sync could not run at all (a bug, a bad URL)

    def __init__(
        self,
        base_url: str,
        store_file: Path,
        *,
        client_options: dict[str, Any] | None = None,
        timeout: float | None = None,
        parent: QObject | None = None,
    ) -> None:
        """``timeout``: seconds a sync waits for one collection in all, retries included
        (None: the client's default, 60 s); ``self.timeout`` may change between syncs."""
        super().__init__(parent)
        self.base_url = base_url
        self.store_file = Path(store_file)
        self.timeout = timeout
        self._client_options = client_options or {}
        self._client: CatalogueClient | None = None
        self._ingestor: Ingestor | None = None
        self._task: asyncio.Task[Any] | None = None
        self._closed = False
        self._cancelling = False
        self._done: set[Kind] = set()  # collections of the running sync with an outcome
        self.last_report: SyncReport | None = None
        self._last_progress: dict[Kind, float] = {}

    @property
    def running(self) -> bool:
        return self._task is not None and not self._task.done()

    @property
    def client(self) -> CatalogueClient | None:
        """The service's client (None before the first sync)."""
        return self._client

    async def _ensure(self) -> Any:
        # Everything a sync imports, before it starts, a module at a time on this thread (on
        # first use, httpcore would import anyio's backend during the first request; on a worker
        # thread the imports froze the window: ``stepped_import``).
        await import_in_steps(REFRESH)
        from catalogue_desktop.core.service.client import CatalogueClient
        from catalogue_desktop.core.sync import runner as sync

        if self._client is None:
            # Building the httpx client (TLS context) takes tens of ms: off the loop's thread.
            self._client = await asyncio.to_thread(CatalogueClient, self.base_url, **self._client_options)
            self._ingestor = sync.Ingestor()
        return sync

    def sync(self, kinds: Iterable[Kind] | None = None) -> asyncio.Task[Any] | None:
        """Start syncing ``kinds`` (all by default); None if a sync is already running."""
        if self.running or self._closed:
            return None
        self._task = asyncio.ensure_future(self.run(list(kinds or ALL_KINDS)))
        return self._task

    def cancel(self) -> bool:
        """Stop the running sync (``cancelled``, then ``finished(None)``, once it stopped);
        False if none runs."""
        if not self.running or self._closed:
            return False
        self._cancelling = True
        assert self._task is not None
        self._task.cancel()
        return True

    async def run(self, kinds: list[Kind]) -> SyncReport | None:
        self._done.clear()
        self._cancelling = False
        self.started.emit(kinds)
        report = None
        try:
            sync = await self._ensure()
            report = await sync.sync_catalogue(
                self._client,
                self.store_file,
                kinds=kinds,
                ingestor=self._ingestor,
                on_progress=self._on_progress,
                on_outcome=self._on_outcome,
                deadline=self.timeout,
                on_phase=self._on_phase,
            )
        except asyncio.CancelledError:
            if not self._cancelling or self._closed:  # closing: no more signals
                raise
            self.cancelled.emit([kind for kind in kinds if kind not in self._done])
        except Exception as exc:  # a bad URL or a bug: say so, never crash the window
            self.error.emit(f"{type(exc).__name__}: {exc}")
        finally:
            self._cancelling = False
        self.last_report = report
        self.finished.emit(report)
        return report

    def _on_phase(self, kind: Kind, phase: Phase) -> None:
        self.phase.emit(kind, phase)

    def _on_progress(self, kind: Kind, received: int, total: int | None) -> None:
        # Bodies arrive in 64 KiB pieces: hundreds of label/bar updates a second otherwise.
        now = time.monotonic()
        done = total is not None and received >= total
        if not done and now - self._last_progress.get(kind, -1.0) < PROGRESS_INTERVAL:
            return
        self._last_progress[kind] = now
        self.progress.emit(kind, received, total)

    def _on_outcome(self, kind: Kind, outcome: CollectionOutcome) -> None:
        self._done.add(kind)
        self.outcome.emit(kind, outcome)

    async def aclose(self) -> None:
        """Stop a running sync and close the HTTP client and the worker processes."""
        self._closed = True
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task
        if self._client is not None:
            await self._client.aclose()
            self._client = None
        if self._ingestor is not None:
            await asyncio.to_thread(self._ingestor.close)
            self._ingestor = None
