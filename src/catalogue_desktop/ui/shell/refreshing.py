"""The session's refresh from the service: the sync controller made on first use (with the demo
service started in-process when no service is set), over the catalogue's connection (proxy, trust,
credentials: ``core.connection``, the proxy named in the status messages), each collection's
outcome shown and its rows reloaded, and a switch to another catalogue (File ▸ Catalogue, an
edited connection, a new address). A mixin of ``session.AppSession`` (its attributes are
the session's: window, loader, store file, options, settings).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from catalogue_desktop.core.cache import location as caches
from catalogue_desktop.core.cache.store import Store, store_path
from catalogue_desktop.core.connection.profiles import DEFAULT, Profile
from catalogue_desktop.core.records.errors import CatalogueError
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.shell import profile_choice
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
    profiles: Any
    profile: Profile
    connection: Any = None  # core.connection.resolved.Connection of the refreshes
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

    def title(self) -> str:
        """The window's title: the demo, the address, or a named catalogue and its address."""
        if self.demo:
            return f"{APP_TITLE} — {DEMO_TITLE}"
        if self.profile.name == DEFAULT:
            return f"{APP_TITLE} — {self.base_url}"
        return f"{APP_TITLE} — {self.profile.name} ({self.base_url})"

    def _connection_for(self, base_url: str) -> Any:
        """The catalogue's connection (and the command line's options) for ``base_url``; on a
        worker thread: it may look in the keyring."""
        from catalogue_desktop.core.connection.resolved import resolve
        from catalogue_desktop.core.service.failures import normalise_base_url

        settings = profile_choice.connection_settings(self.profile, self.options)
        return resolve(normalise_base_url(base_url), settings, profile=self.profile.name)

    async def _refresh(self, kinds: list[Kind] | None) -> None:
        if self.sync is None:
            import asyncio

            base_url = self.base_url or await self._start_demo_server()
            try:
                self.connection = await asyncio.to_thread(self._connection_for, base_url)
            except CatalogueError as exc:  # a bad proxy address, an unreadable CA file
                self.window.show_message(f"Refresh failed: {exc}", 0)  # type: ignore[union-attr]
                return
            self.sync = self._make_sync(base_url)
            if self.connection.proxy.url:
                self.window.show_message(  # type: ignore[union-attr]
                    f"Refreshing {self.connection.proxy.describe()}", 0
                )
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
            client_options={**self.client_options, "connection": self.connection},
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
        proxy = self.connection.proxy if self.connection is not None else None
        via = f" — {proxy.describe()}" if proxy is not None and proxy.url else ""
        window.show_message(prefix + window.status.summary() + via, 0)
        self._spawn(self._announce_synced(report))

    async def _announce_synced(self, report: Any) -> None:
        assert self.loader is not None
        await self.loader.wait_idle()  # the window shows the refreshed rows
        if self._pending_open:
            self.open_target(self._pending_open)
            self._pending_open = None
        self.synced.emit(report)

    def _base_url_chosen(self, url: str) -> None:
        """Catalogue ▸ Service URL: the open catalogue's new address (from the demo: ``default``'s)."""
        self.settings.base_url = url
        self.settings.sync()
        name = DEFAULT if self.profile.demo else self.profile.name
        profile = self.profiles.with_base_url(name, url)
        profile_choice.remember(self.profiles, profile.name)
        self._spawn(self._switch_to(profile))

    def _profile_chosen(self, name: str) -> None:
        """File ▸ Catalogue: open the catalogue ``name``."""
        self.profiles = profile_choice.open_profiles(self.settings)
        try:
            profile = self.profiles.get(name)
        except CatalogueError as exc:
            self.window.show_message(str(exc), 0)  # type: ignore[union-attr]
            return
        profile_choice.remember(self.profiles, name)
        self._spawn(self._switch_to(profile))

    def _connection_changed(self) -> None:
        """The open catalogue's connection (or address) was edited: refresh with it."""
        self.profiles = profile_choice.open_profiles(self.settings)
        try:
            profile = self.profiles.get(self.profile.name)
        except CatalogueError:
            return
        self._spawn(self._switch_to(profile))

    async def _switch_to(self, profile: Profile) -> None:
        """Use ``profile`` from now on: its address, connection and cache (its own store)."""
        assert self.loader is not None and self.window is not None
        if self.sync is not None:
            await self.sync.aclose()
            self.sync = None
        self.connection = None
        await self._stop_demo_server()
        self.profile = profile
        self.base_url = None if profile.demo else profile.base_url
        self.demo = self.base_url is None
        base = caches.cache_dir(self.options.cache_dir)
        cache_dir = caches.cache_dir(base, demo=True) if self.demo else profile.cache_dir(base)
        if cache_dir != self.cache_dir:
            self.cache_dir = cache_dir
            self.store_file = store_path(self.cache_dir)
            self.loader.store.close()
            self.loader.store = Store(self.store_file)
            self.loader.load_all()
            await self.loader.wait_idle()
            for kind, state in self.loader.states().items():
                self.window.status.set_cached(kind, state)
        self.window.profile_name = profile.name  # type: ignore[attr-defined]
        self.window.setWindowTitle(self.title())
        self.refresh()

    # -- close ---------------------------------------------------------------------------------

    async def _stop_demo_server(self) -> None:
        import asyncio

        server, self.demo_server = self.demo_server, None
        if server is not None:
            await asyncio.to_thread(server.stop)
