"""The session's refresh from the service: the sync controller made on first use (with the demo
service started in-process when no service is set), each collection's outcome shown and its rows
reloaded, and a switch to another service. A mixin of ``session.AppSession`` (its attributes are
the session's: window, loader, store file, options, settings).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from catalogue_desktop.core.cache.store import Store, store_path
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.shell.main_window import APP_TITLE

if TYPE_CHECKING:
    from catalogue_desktop.ui.browse.catalogue_loader import CatalogueLoader
    from catalogue_desktop.ui.shell.main_window import MainWindow
    from catalogue_desktop.ui.sync.sync_controller import SyncController

DEMO_TITLE = "Demo catalogue"


class Refreshing:
    """Refreshing and switching services, for ``AppSession``."""

    window: MainWindow | None
    loader: CatalogueLoader | None
    sync: SyncController | None
    options: Any
    settings: Any
    base_url: str | None
    demo: bool
    demo_server: Any
    cache_dir: Path
    store_file: Path
    client_options: dict[str, Any]
    _closed: bool
    _pending_open: str | None

    def _spawn(self, coro: Any) -> Any: ...  # the session's
    def open_target(self, text: str, *, final: bool = True) -> bool: ...  # the session's

    # -- refresh -------------------------------------------------------------------------------

    def refresh(self, kinds: list[Kind] | None = None) -> None:
        if self.options.offline or self._closed:
            return
        if self.sync is not None and self.sync.running:
            self.window.show_message("A refresh is already running")  # type: ignore[union-attr]
            return
        self._spawn(self._refresh(kinds))

    async def _refresh(self, kinds: list[Kind] | None) -> None:
        if self.sync is None:
            base_url = self.base_url or await self._start_demo_server()
            self.sync = self._make_sync(base_url)
        self.sync.timeout = self.settings.sync_timeout  # (the preference may have changed)
        task = self.sync.refresh(kinds)
        if task is not None:
            await task

    async def _start_demo_server(self) -> str:
        import asyncio

        from catalogue_desktop.demo.server import DemoServer, load_sample

        def start() -> Any:
            return DemoServer(load_sample()).start()

        self.demo_server = await asyncio.to_thread(start)
        return str(self.demo_server.base_url)

    def _make_sync(self, base_url: str) -> SyncController:
        from catalogue_desktop.ui.sync.sync_controller import SyncController

        window = self.window
        assert window is not None
        sync = SyncController(
            base_url,
            self.store_file,
            client_options=self.client_options,
            timeout=self.settings.sync_timeout,
            parent=self,
        )
        sync.started.connect(lambda kinds: [window.status.set_loading(k) for k in kinds])
        sync.progress.connect(window.status.set_progress)
        sync.phase.connect(window.status.set_phase)
        sync.outcome.connect(self._outcome)
        sync.cancelled.connect(self._cancelled)
        window.status.cancel_requested.connect(sync.cancel)
        sync.finished.connect(self._finished)
        sync.error.connect(lambda text: window.show_message(f"Refresh failed: {text}", 0))
        return sync

    def _outcome(self, kind: Kind, outcome: Any) -> None:
        assert self.loader is not None and self.window is not None
        self.window.status.set_outcome(kind, outcome, self.loader.store.state(kind))
        if outcome.status in ("updated", "partial"):
            self.loader.reload(kind)

    def _cancelled(self, kinds: list[Kind]) -> None:
        assert self.loader is not None and self.window is not None
        for kind in kinds:  # each keeps what the store holds (reloaded if an ingest just finished)
            if self.window.status.set_cancelled(kind, self.loader.store.state(kind)):
                self.loader.reload(kind)

    def _finished(self, report: Any) -> None:
        window = self.window
        assert window is not None
        outcomes = list(report.collections.values()) if report is not None else []
        if outcomes and all(o.status == "failed" for o in outcomes) and len(outcomes) > 1:
            window.banner.show_failure(report.collections.items(), window.status.oldest_data_time())
        elif any(o.status != "failed" for o in outcomes):
            window.banner.hide()
        prefix = f"{DEMO_TITLE}: " if self.demo else ""
        window.show_message(prefix + window.status.summary(), 0)
        self._spawn(self._announce_synced(report))

    async def _announce_synced(self, report: Any) -> None:
        assert self.loader is not None
        await self.loader.wait_idle()  # the window shows the refreshed rows
        if self._pending_open:
            self.open_target(self._pending_open)
            self._pending_open = None
        self.synced.emit(report)

    def _base_url_chosen(self, url: str) -> None:
        self.settings.base_url = url
        self.settings.sync()
        self._spawn(self._switch_service(url))

    async def _switch_service(self, url: str) -> None:
        """Use another service from now on (its own store when leaving the demo catalogue)."""
        assert self.loader is not None and self.window is not None
        if self.sync is not None:
            await self.sync.aclose()
            self.sync = None
        await self._stop_demo_server()
        if self.demo:
            self.demo = False
            self.cache_dir = self.cache_dir.parent
            self.store_file = store_path(self.cache_dir)
            self.loader.store.close()
            self.loader.store = Store(self.store_file)
            self.loader.load_all()
            await self.loader.wait_idle()
            for kind, state in self.loader.states().items():
                self.window.status.set_cached(kind, state)
        self.base_url = url
        self.window.setWindowTitle(f"{APP_TITLE} — {url}")
        self.refresh()

    # -- close ---------------------------------------------------------------------------------

    async def _stop_demo_server(self) -> None:
        import asyncio

        server, self.demo_server = self.demo_server, None
        if server is not None:
            await asyncio.to_thread(server.stop)
