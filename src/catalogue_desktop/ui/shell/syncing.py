"""The window's sync with the service: ``CatalogueSync``, and ``ServicePlace`` (which service, which
store).

``CatalogueSync`` makes the sync controller on first use (with the demo service started
in-process when no service is set), shows each collection's outcome and reloads its rows, and
switches to another service (its own store when leaving the demo catalogue). It holds its own
state (the controller, the demo service, the place) and is given its collaborators: the window it
reports to, the loader it reloads, the settings it reads, and ``spawn``, which runs its
coroutines as the session's tasks (closed with the session). It says ``switched`` when the
service (and maybe the store) changed and ``synced`` once a sync's rows are shown.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from PySide6.QtCore import QObject, Signal

from catalogue_desktop.core.cache.store import Store, store_path
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.shell.main_window import APP_TITLE

if TYPE_CHECKING:
    from catalogue_desktop.ui.browse.catalogue_loader import CatalogueLoader
    from catalogue_desktop.ui.common.settings import Settings
    from catalogue_desktop.ui.shell.main_window import MainWindow
    from catalogue_desktop.ui.sync.sync_controller import SyncController

DEMO_TITLE = "Demo catalogue"
Spawn = Callable[[Coroutine[Any, Any, Any]], Any]


class ServicePlace(NamedTuple):
    """Which service the catalogue comes from, and where it is kept."""

    base_url: str | None  # None: the demo catalogue, served in-process
    cache_dir: Path

    @property
    def demo(self) -> bool:
        return self.base_url is None

    @property
    def store_file(self) -> Path:
        return store_path(self.cache_dir)


class CatalogueSync(QObject):
    """Syncs the window's catalogue with the service (see the module doc)."""

    switched = Signal(object)  # ServicePlace: another service (and maybe store) from now on
    synced = Signal(object)  # a sync finished and the window shows its rows: SyncReport (or None)

    def __init__(
        self,
        place: ServicePlace,
        window: MainWindow,
        loader: CatalogueLoader,
        settings: Settings,
        client_options: dict[str, Any],
        spawn: Spawn,
        *,
        offline: bool = False,
        parent: QObject | None = None,
    ) -> None:
        """``offline``: never sync (the window shows the cache only)."""
        super().__init__(parent)
        self.place = place
        self._offline = offline
        self._window = window
        self._loader = loader
        self._settings = settings
        self._client_options = client_options
        self._spawn = spawn
        self.controller: SyncController | None = None  # made by the first sync
        self.demo_server: Any = None  # demo.server.DemoServer, while it serves
        self._closed = False

    # -- sync ----------------------------------------------------------------------------------

    def sync(self, kinds: list[Kind] | None = None) -> None:
        """Sync ``kinds`` (all by default) in the background, unless a sync is running."""
        if self._offline or self._closed:
            return
        if self.controller is not None and self.controller.running:
            self._window.show_message("A refresh is already running")
            return
        self._spawn(self._sync(kinds))

    async def _sync(self, kinds: list[Kind] | None) -> None:
        if self.controller is None:
            base_url = self.place.base_url or await self._start_demo_server()
            self.controller = self._make_controller(base_url)
        self.controller.timeout = self._settings.sync_timeout  # (the preference may have changed)
        task = self.controller.sync(kinds)
        if task is not None:
            await task

    async def _start_demo_server(self) -> str:
        import asyncio

        from catalogue_desktop.demo.server import DemoServer, load_sample

        def start() -> Any:
            return DemoServer(load_sample()).start()

        self.demo_server = await asyncio.to_thread(start)
        return str(self.demo_server.base_url)

    def _make_controller(self, base_url: str) -> SyncController:
        from catalogue_desktop.ui.sync.sync_controller import SyncController

        window = self._window
        controller = SyncController(
            base_url,
            self.place.store_file,
            client_options=self._client_options,
            timeout=self._settings.sync_timeout,
            parent=self,
        )
        controller.started.connect(self._started)
        controller.progress.connect(window.status.set_progress)
        controller.phase.connect(window.status.set_phase)
        controller.outcome.connect(self._outcome)
        controller.cancelled.connect(self._cancelled)
        window.status.cancel_requested.connect(controller.cancel)
        controller.finished.connect(self._finished)
        controller.error.connect(lambda text: window.show_message(f"Refresh failed: {text}", 0))
        return controller

    def _started(self, kinds: list[Kind]) -> None:
        for kind in kinds:
            self._window.status.set_loading(kind)

    def _outcome(self, kind: Kind, outcome: Any) -> None:
        self._window.status.set_outcome(kind, outcome, self._loader.store.state(kind))
        if outcome.status in ("updated", "partial"):
            self._loader.reload(kind)

    def _cancelled(self, kinds: list[Kind]) -> None:
        for kind in kinds:  # each keeps what the store holds (reloaded if an ingest just finished)
            if self._window.status.set_cancelled(kind, self._loader.store.state(kind)):
                self._loader.reload(kind)

    def _finished(self, report: Any) -> None:
        window = self._window
        outcomes = list(report.collections.values()) if report is not None else []
        if outcomes and all(o.status == "failed" for o in outcomes) and len(outcomes) > 1:
            window.banner.show_failure(report.collections.items(), window.status.oldest_data_time())
        elif any(o.status != "failed" for o in outcomes):
            window.banner.hide()
        prefix = f"{DEMO_TITLE}: " if self.place.demo else ""
        window.show_message(prefix + window.status.summary(), 0)
        self._spawn(self._announce_synced(report))

    async def _announce_synced(self, report: Any) -> None:
        await self._loader.wait_idle()  # the window shows the synced rows
        self.synced.emit(report)

    # -- another service -------------------------------------------------------------------

    def choose_service(self, url: str) -> None:
        """Use the service at ``url`` from now on (remembered in the settings), and sync."""
        self._settings.base_url = url
        self._settings.sync()
        self._spawn(self._switch_service(url))

    async def _switch_service(self, url: str) -> None:
        """Use another service from now on (its own store when leaving the demo catalogue)."""
        loader, window = self._loader, self._window
        if self.controller is not None:
            await self.controller.aclose()
            self.controller = None
        await self._stop_demo_server()
        leaving_demo = self.place.demo
        self.place = ServicePlace(url, self.place.cache_dir.parent if leaving_demo else self.place.cache_dir)
        self.switched.emit(self.place)
        if leaving_demo:
            loader.switch_store(Store(self.place.store_file))
            loader.load_all()
            await loader.wait_idle()
            for kind, state in loader.states().items():
                window.status.set_cached(kind, state)
        window.setWindowTitle(f"{APP_TITLE} — {url}")
        self.sync()

    # -- close ---------------------------------------------------------------------------------

    async def aclose(self) -> None:
        """Stop syncing: the controller (client, workers) and the demo service closed."""
        self._closed = True
        if self.controller is not None:
            await self.controller.aclose()
        await self._stop_demo_server()

    async def _stop_demo_server(self) -> None:
        import asyncio

        server, self.demo_server = self.demo_server, None
        if server is not None:
            await asyncio.to_thread(server.stop)
