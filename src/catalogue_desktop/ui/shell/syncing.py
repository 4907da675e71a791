"""The window's sync with the service: ``CatalogueSync``, and ``ServicePlace`` (which catalogue,
which service, which store).

``CatalogueSync`` makes the sync controller on first use (with the demo service started
in-process when no service is set), over the catalogue's connection (proxy, trust, credentials:
``core.connection``, the proxy named in the status messages), shows each collection's outcome
and reloads its rows, and switches to another catalogue (the Catalogue menu, an edited connection,
a new address: its own store). It holds its own state (the controller, the demo service, the
connection, the catalogues, the place) and is given its collaborators: the window it reports to,
the loader it reloads, the settings and command-line options it reads, and ``spawn``, which runs
its coroutines as the session's tasks (closed with the session). It says ``switched`` when the
catalogue (and maybe the store) changed and ``synced`` once a sync's rows are shown.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from PySide6.QtCore import QObject, Signal

from catalogue_desktop.core.cache import location as caches
from catalogue_desktop.core.cache.location import store_file
from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.connection.addresses import redact
from catalogue_desktop.core.connection.profiles import DEFAULT, Profile, Profiles
from catalogue_desktop.core.records.errors import CatalogueError
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.shell import profile_choice
from catalogue_desktop.ui.shell.main_window import APP_TITLE

if TYPE_CHECKING:
    from catalogue_desktop.core.connection.resolved import Connection
    from catalogue_desktop.core.sync.runner import CollectionOutcome, SyncReport
    from catalogue_desktop.demo.server import DemoServer
    from catalogue_desktop.ui.browse.catalogue_loader import CatalogueLoader
    from catalogue_desktop.ui.common.settings import Settings
    from catalogue_desktop.ui.shell.main_window import MainWindow
    from catalogue_desktop.ui.shell.options import Options
    from catalogue_desktop.ui.sync.sync_controller import SyncController

DEMO_TITLE = "Demo catalogue"
Spawn = Callable[[Coroutine[Any, Any, Any]], Any]


class ServicePlace(NamedTuple):
    """Which catalogue (profile) is open, the service it comes from, and where it is kept."""

    profile: Profile
    base_url: str | None  # None: the demo catalogue, served in-process
    cache_dir: Path

    @classmethod
    def of(cls, profile: Profile, cache_root: str | None) -> ServicePlace:
        """``profile``'s place: its address, and its cache folder under ``cache_root`` (the
        command line's, else the default); the demo's own folder for the demo catalogue."""
        base_url = None if profile.demo else profile.base_url
        base = caches.cache_dir(cache_root)
        cache_dir = caches.cache_dir(base, demo=True) if base_url is None else profile.cache_dir(base)
        return cls(profile, base_url, cache_dir)

    @property
    def demo(self) -> bool:
        return self.base_url is None

    @property
    def store_file(self) -> Path:
        return store_file(self.cache_dir)

    def title(self) -> str:
        """The window's title: the demo, the address, or a named catalogue and its address."""
        if self.demo:
            return f"{APP_TITLE} — {DEMO_TITLE}"
        if self.profile.name == DEFAULT:
            return f"{APP_TITLE} — {redact(self.base_url or '')}"
        return f"{APP_TITLE} — {self.profile.name} ({redact(self.base_url or '')})"


class CatalogueSync(QObject):
    """Syncs the window's catalogue with the service (see the module doc)."""

    switched = Signal(object)  # ServicePlace: another service (and maybe store) from now on
    synced = Signal(object)  # a sync finished and the window shows its rows: SyncReport (or None)

    def __init__(
        self,
        place: ServicePlace,
        profiles: Profiles,
        window: MainWindow,
        loader: CatalogueLoader,
        settings: Settings,
        options: Options,
        client_options: dict[str, Any],
        spawn: Spawn,
        parent: QObject | None = None,
    ) -> None:
        """``options``: the command line's (offline: never sync; the connection's overrides;
        the cache folder); ``profiles``: the catalogues, read again when one is chosen."""
        super().__init__(parent)
        self.place = place
        self._profiles = profiles
        self._window = window
        self._loader = loader
        self._settings = settings
        self._options = options
        self._client_options = client_options
        self._spawn = spawn
        self.controller: SyncController | None = None  # made by the first sync
        self.connection: Connection | None = None  # of the syncs
        self.demo_server: DemoServer | None = None  # while it serves
        self._closed = False
        window.menu_actions.catalogue_menu.set_current(place.profile.name)

    # -- sync ----------------------------------------------------------------------------------

    def sync(self, kinds: list[Kind] | None = None) -> None:
        """Sync ``kinds`` (all by default) in the background, unless a sync is running."""
        if self._options.offline or self._closed:
            return
        if self.controller is not None and self.controller.running:
            self._window.show_message("A refresh is already running")
            return
        self._spawn(self._sync(kinds))

    def _connection_for(self, base_url: str) -> Connection:
        """The catalogue's connection (and the command line's options) for ``base_url``; on a
        worker thread: it may look in the keyring."""
        from catalogue_desktop.core.connection.resolved import resolve
        from catalogue_desktop.core.service.failures import normalise_base_url

        settings = profile_choice.connection_settings(self.place.profile, self._options)
        return resolve(normalise_base_url(base_url), settings, profile=self.place.profile.name)

    async def _sync(self, kinds: list[Kind] | None) -> None:
        if self.controller is None:
            import asyncio

            from catalogue_desktop.ui.common.stepped_import import REFRESH, import_in_steps

            base_url = self.place.base_url or await self._start_demo_server()
            await import_in_steps(REFRESH)  # (here, not on the worker thread below: ``stepped_import``)
            try:
                self.connection = await asyncio.to_thread(self._connection_for, base_url)
            except CatalogueError as exc:  # a bad proxy address, an unreadable CA file
                self._window.show_message(f"Refresh failed: {exc}", 0)
                return
            self.controller = self._make_controller(base_url)
            if self.connection.proxy.url:
                self._window.show_message(f"Refreshing {self.connection.proxy.describe()}", 0)
        self.controller.timeout = self._settings.sync_timeout  # (the preference may have changed)
        task = self.controller.sync(kinds)
        if task is not None:
            await task

    async def _start_demo_server(self) -> str:
        import asyncio

        from catalogue_desktop.demo.server import DemoServer, load_sample

        def start() -> DemoServer:
            return DemoServer(load_sample()).start()

        self.demo_server = server = await asyncio.to_thread(start)
        return str(server.base_url)

    def _make_controller(self, base_url: str) -> SyncController:
        from catalogue_desktop.ui.sync.sync_controller import SyncController

        window = self._window
        controller = SyncController(
            base_url,
            self.place.store_file,
            client_options={**self._client_options, "connection": self.connection},
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

    def _outcome(self, kind: Kind, outcome: CollectionOutcome) -> None:
        self._window.status.set_outcome(kind, outcome, self._loader.store.state(kind))
        if outcome.status in ("updated", "partial"):
            self._loader.reload(kind)

    def _cancelled(self, kinds: list[Kind]) -> None:
        for kind in kinds:  # each keeps what the store holds (reloaded if an ingest just finished)
            if self._window.status.set_cancelled(kind, self._loader.store.state(kind)):
                self._loader.reload(kind)

    def _finished(self, report: SyncReport | None) -> None:
        window = self._window
        collections = report.collections if report is not None else {}
        outcomes = list(collections.values())
        if outcomes and all(o.status == "failed" for o in outcomes) and len(outcomes) > 1:
            window.banner.show_failure(collections.items(), window.status.oldest_data_time())
        elif any(o.status != "failed" for o in outcomes):
            window.banner.hide()
        prefix = f"{DEMO_TITLE}: " if self.place.demo else ""
        proxy = self.connection.proxy if self.connection is not None else None
        via = f" — {proxy.describe()}" if proxy is not None and proxy.url else ""
        window.show_message(prefix + window.status.summary() + via, 0)
        self._spawn(self._announce_synced(report))

    async def _announce_synced(self, report: SyncReport | None) -> None:
        await self._loader.wait_idle()  # the window shows the synced rows
        self.synced.emit(report)

    # -- another catalogue -----------------------------------------------------------------

    def choose_service(self, url: str) -> None:
        """Catalogue ▸ Service URL: the open catalogue's new address (from the demo: ``default``'s)."""
        self._settings.base_url = url
        self._settings.sync()
        name = DEFAULT if self.place.profile.demo else self.place.profile.name
        profile = self._profiles.with_base_url(name, url)
        profile_choice.remember(self._profiles, profile.name)
        self._spawn(self._switch_to(profile))

    def choose_catalogue(self, name: str) -> None:
        """The Catalogue menu: open the catalogue ``name``."""
        self._profiles = profile_choice.open_profiles(self._settings)
        try:
            profile = self._profiles.get(name)
        except CatalogueError as exc:
            self._window.show_message(str(exc), 0)
            return
        profile_choice.remember(self._profiles, name)
        self._spawn(self._switch_to(profile))

    def connection_changed(self) -> None:
        """The open catalogue's connection (or address) was edited: sync with it."""
        self._profiles = profile_choice.open_profiles(self._settings)
        try:
            profile = self._profiles.get(self.place.profile.name)
        except CatalogueError:
            return
        self._spawn(self._switch_to(profile))

    async def _switch_to(self, profile: Profile) -> None:
        """Use ``profile`` from now on: its address, connection and cache (its own store)."""
        loader, window = self._loader, self._window
        if self.controller is not None:
            await self.controller.aclose()
            self.controller = None
        self.connection = None
        await self._stop_demo_server()
        old, self.place = self.place, ServicePlace.of(profile, self._options.cache_dir)
        self.switched.emit(self.place)
        if self.place.cache_dir != old.cache_dir:
            loader.switch_store(Store(self.place.store_file))
            loader.load_all()
            await loader.wait_idle()
            for kind, state in loader.states().items():
                window.status.set_cached(kind, state)
        window.menu_actions.catalogue_menu.set_current(profile.name)
        window.setWindowTitle(self.place.title())
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
