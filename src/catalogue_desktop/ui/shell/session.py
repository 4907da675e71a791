"""``AppSession``: one run of the window, fed from the store and the service.

Start-up order: QApplication (``app.run``), store, the current tab's first page of cached rows read,
window shown and painted (``populated``; then the watched searches and the offer log are made:
``ui.shell.start_budget``), then the other rows read in chunks on Qt timers (the
tab's rows grow in, then the other collections come), ``--open`` applied, ``ready``: no network,
no asyncio, no pydantic, no httpx until then. On the next event-loop pass, asyncio starts on the
running Qt loop (``qt_compat.event_loop``) and the background sync begins (with the demo
service started in-process on loopback when no service is configured, or with ``--demo``).
Importing asyncio and qasync costs a third of a bare Qt start-up (docs/decisions.md, "Start-up and Qt"): the
window does not wait for it. The asyncio loop is closed before the QApplication goes away.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QLocale, QObject, Qt, Signal

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.listing import series_dates
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.qt_compat.event_loop import LateEventLoop, install_asyncgen_finalizer
from catalogue_desktop.qt_compat.lifetime import delete_later, is_alive
from catalogue_desktop.ui.browse.catalogue_loader import CatalogueLoader
from catalogue_desktop.ui.common.a11y import name_inner_buttons
from catalogue_desktop.ui.common.formatting import Formatter, people_locale
from catalogue_desktop.ui.common.pass_budget import loop_budget
from catalogue_desktop.ui.common.settings import Settings
from catalogue_desktop.ui.shell import profile_choice
from catalogue_desktop.ui.shell.main_window import MainWindow
from catalogue_desktop.ui.shell.navigation import not_found, parse_target
from catalogue_desktop.ui.shell.options import Options
from catalogue_desktop.ui.shell.syncing import CatalogueSync, ServicePlace

if TYPE_CHECKING:
    import asyncio
    from pathlib import Path

    from PySide6.QtGui import QAction

    from catalogue_desktop.core.connection.profiles import Profile
    from catalogue_desktop.core.listing.rowset import CatalogueIndex
    from catalogue_desktop.core.records.kinds import Kind
    from catalogue_desktop.core.sync.runner import SyncReport
    from catalogue_desktop.ui.detail.images import ImageLoader
    from catalogue_desktop.ui.finder.controller import FinderController
    from catalogue_desktop.ui.searches.notice import Notifier
    from catalogue_desktop.ui.searches.watcher import Watcher
    from catalogue_desktop.ui.shell.faults import Faults
    from catalogue_desktop.ui.shell.offer_log_wiring import OfferLog
    from catalogue_desktop.ui.shell.problem_report import Catalogue, ProblemReport
    from catalogue_desktop.ui.sync.auto_sync import AutoSync
    from catalogue_desktop.ui.sync.sync_controller import SyncController


async def _offline_fetch(url: str, max_bytes: int) -> bytes:
    raise ConnectionError("offline mode: images are not downloaded")


class AppSession(QObject):
    """One run of the window: store, loader, window, finder, sync (``syncing``); closed by
    ``aclose``."""

    # The window has painted the current tab's cached rows (the first page of them, if it starts
    # unsorted: the rest grow in as they are read) and takes input; at ``ready`` at the latest.
    populated = Signal()
    ready = Signal()  # every cached row read and shown, --open applied
    synced = Signal(object)  # a sync finished: SyncReport (or None if it could not run)

    def __init__(
        self,
        options: Options,
        *,
        settings: Settings | None = None,
        client_options: dict[str, Any] | None = None,
        image_fetch: Callable[[str, int], Coroutine[Any, Any, bytes]] | None = None,
        event_loop: LateEventLoop | None = None,
    ) -> None:
        super().__init__()
        # asyncio on the Qt loop, started after the window shows (tests pass one already running)
        self.event_loop = event_loop or LateEventLoop()
        self.options = options
        self.settings = settings or Settings()
        self.client_options = client_options or {"max_bytes": options.max_size * 1024 * 1024}
        if options.base_url and not options.demo:
            self.settings.base_url = options.base_url
        # The catalogue (profile) to open: its address, connection and cache folder.
        profiles, profile = profile_choice.choose(self.settings, options)
        # Demo data lives in its own store, never mixed with a real service's data (the CLI's --demo).
        self.place = ServicePlace.of(profile, options.cache_dir)  # the syncing's once made (``switched``)
        self._profiles = profiles
        self._image_fetch = _offline_fetch if options.offline else image_fetch
        self._images: ImageLoader | None = None
        self.window: MainWindow | None = None
        self.loader: CatalogueLoader | None = None
        self.finder: FinderController | None = None  # made by ``start``
        self.watcher: Watcher | None = None  # made once the first page is painted
        self.notifier: Notifier | None = None  # made with it
        self._whats_new: QAction | None = None  # the toolbar's What's new, made with the window
        self.auto_sync: AutoSync | None = None  # (not --offline)
        self.offer_log: OfferLog | None = None  # the offers made, checked after each sync
        self.syncing: CatalogueSync | None = None  # made by ``start``
        self.faults: Faults | None = None  # made by ``start``
        self.problem_report: ProblemReport | None = None  # at Help ▸ Report a problem…
        self.loaded = False
        self.is_populated = False
        self._pending_open: str | None = None
        self._tasks: set[asyncio.Future[Any]] = set()
        self._async_started = False
        self._closed = False
        self._restore_asyncgen_hooks: Callable[[], None] = lambda: None

    @property
    def profile(self) -> Profile:
        """The catalogue open."""
        return self.place.profile

    @property
    def base_url(self) -> str | None:
        return self.place.base_url

    @property
    def demo(self) -> bool:
        return self.place.demo

    @property
    def cache_dir(self) -> Path:
        return self.place.cache_dir

    @property
    def store_file(self) -> Path:
        return self.place.store_file

    @property
    def sync_controller(self) -> SyncController | None:
        return None if self.syncing is None else self.syncing.controller

    # -- start ---------------------------------------------------------------------------------

    def start(self) -> MainWindow:
        """Open the store, show the window and start reading the cache (returns at once)."""
        store = Store(self.store_file)
        self.loader = loader = CatalogueLoader(store)
        currency = _currency(self.options.currency or self.settings.currency)
        QLocale.setDefault(people_locale())  # one locale for every widget, Qt's dialogs too
        self.formatter = formatter = Formatter(currency=currency)
        loader.settle_series = lambda rowset: series_dates.settle_rest(
            rowset, formatter.vocabulary.on_demand, formatter.on_demand
        )
        self._apply_display_settings()
        self.window = window = MainWindow(self.settings, self.formatter, self.image_loader, loader)
        window.setWindowTitle(self.place.title() + (" (offline)" if self.options.offline else ""))
        loader.presort_as(window.sort_of)
        from catalogue_desktop.ui.finder.connect_finder import connect_finder

        self.finder = finder = connect_finder(window, window, loader, self.settings)
        from catalogue_desktop.ui.searches.whats_new_action import whats_new_action

        # the toolbar's What's new now, the watch behind it once the first page is painted
        self._whats_new = whats_new_action(window)
        from catalogue_desktop.ui.sync.changes_dock import connect_changes

        connect_changes(window.changes_dock, lambda: loader.store, self.finder)  # periods, the query
        if not self.options.offline:  # a sync on its own every N hours (the same sync as F5)
            from catalogue_desktop.ui.sync.auto_sync import connect_auto_sync

            self.auto_sync = connect_auto_sync(
                self.sync, self.settings, self.ready, self.synced, window.preferences_changed, self
            )
        window.preferences_changed.connect(self._preferences_changed)
        loader.rowset_loaded.connect(finder.take_rowset)
        loader.rowset_growing.connect(finder.take_growing)
        loader.index_changed.connect(self._index_changed)
        loader.counts_filled.connect(self._counts_filled)
        loader.all_loaded.connect(self._loaded, Qt.ConnectionType.SingleShotConnection)
        self.syncing = syncing = CatalogueSync(
            self.place,
            self._profiles,
            window,
            loader,
            self.settings,
            self.options,
            self.client_options,
            self._spawn,
            parent=self,
        )
        syncing.switched.connect(self._switched)
        syncing.synced.connect(self._synced)
        window.sync_requested.connect(self.sync)
        window.retry_requested.connect(lambda kind: self.sync([kind]))
        window.base_url_chosen.connect(syncing.choose_service)
        window.menu_actions.catalogue_menu.chosen.connect(syncing.choose_catalogue)
        window.menu_actions.catalogue_menu.connection_changed.connect(syncing.connection_changed)
        window.problem_report_requested.connect(self._report_problem)
        # a recovered cache, a malformed profiles.json (kept aside), settings values unusable
        said = [text for text in (store.recovered, self._profiles.problem, *self.settings.notes) if text]
        if said:
            window.status.show_message("\n".join(said))
        # What the store's metadata says is shown from the first paint: each collection's cached
        # status and record count and, offline, the banner with the data's age. (Set once the rows
        # were read, they said "not cached" until then, and the banner's arrival pushed the table
        # down and repainted the whole window a second time.)
        states = store.states()
        window.status.set_all_cached(states)
        for kind in ALL_KINDS:
            if states[kind].has_data:
                window.set_tab_count(kind, states[kind].records)
        if self.options.offline:
            window.menu_actions.sync_action.setEnabled(False)
            window.banner.show_offline_mode(window.status.oldest_data_time())
            window.show_message("Offline mode: showing the cached catalogue", 0)
        tab = window.current_tab()
        current = tab.kind
        # The current tab's rows are shown as they are read, its first page read now: the first
        # paint shows it (a sorted tab is put in order once every row is read). The Dates tab's rows are
        # made by the finder from the collections, not read: the store has no such collection
        # (read as one, an empty "offerings" table was built, and the query's move to "the tab
        # with results" left a restored Dates tab before its rows were made).
        early = current if isinstance(current, Kind) else None
        first = [early] if early is not None else []
        loader.load_all([*first, *(kind for kind in ALL_KINDS if kind is not current)], early=early)
        # populated once they are painted (queued: after the paint); the loader reads on then
        tab.view.rows_painted.connect(self._populate, Qt.ConnectionType.QueuedConnection)
        tab.view.rows_painted.connect(loader.first_page_painted, Qt.ConnectionType.QueuedConnection)
        window.show()
        return window

    def _populate(self) -> None:
        """The current tab has painted rows (or, at ``ready``, all there are): ``populated``,
        once. The watch (its modules, then itself: ``_import_watch``) and the fault hooks follow
        on later loop passes (not the first paint's work, nor the pass that paints it;
        ``_loaded`` makes them at once if ``ready`` comes first)."""
        if not self.is_populated:
            self.is_populated = True
            self.populated.emit()
            self._next_pass(self._import_watch)
            self._next_pass(self._watch_faults)

    def _import_watch(self) -> None:
        """The watch's modules, a loop pass before the watch is made (``_connect_watch``): each
        half ~5 ms of the window's CPU, in one pass they shared a gap of the loop with the
        start-up's reading and a repaint of the table (``bench/run.py --only stall``)."""
        if self.watcher is not None or self._closed:
            return
        import catalogue_desktop.ui.searches.connect_watch
        import catalogue_desktop.ui.shell.offer_log_wiring  # noqa: F401

        self._next_pass(self._connect_watch)

    def _next_pass(self, call: Callable[[], object]) -> None:
        """``call`` on a later pass of the event loop, in turn with the start-up's other jobs (the
        loader's chunks, the finder's indexer, the tables' idle work: ``ui.common.pass_budget``),
        on a pass with time left (a ``QTimer.singleShot(0)``, a queued call in Qt 6, came with the
        posted events, in any pass, beside the jobs' own timers)."""
        loop_budget().once(self, call)

    def _connect_watch(self) -> None:
        """Once the first page is painted (not the first paint's work: ``ui.shell.start_budget``),
        the watched searches (What's new, its badge and notification) and the offer log (checked
        after each sync, Go ▸ Offers); both start working at ``ready``."""
        if self.watcher is not None or self._closed:
            return
        assert self.window is not None and self.loader is not None and self.finder is not None
        from catalogue_desktop.ui.searches.connect_watch import connect_watch
        from catalogue_desktop.ui.shell.offer_log_wiring import connect_offer_log

        window, loader = self.window, self.loader
        self.watcher, self.notifier = connect_watch(
            window, window, loader, self.finder, self, parent=self, action=self._whats_new
        )
        self.offer_log = connect_offer_log(self, window, lambda: loader.store, self.watcher, self.notifier)

    def _watch_faults(self) -> None:
        """From the first paint on (its imports are not start-up's), what breaks anyway is
        logged and shown ("Something went wrong"), and the window stays up."""
        if self.faults is None and not self._closed:
            from catalogue_desktop.ui.shell.faults import Faults

            self.faults = Faults(lambda: self.window)
            self.faults.install()

    def image_loader(self) -> ImageLoader:
        """The photo loader, made when a detail pane first needs it (not at start-up)."""
        if self._images is None:
            from catalogue_desktop.ui.detail.images import ImageCache, ImageLoader

            self._images = ImageLoader(ImageCache(self.cache_dir / "images"), self._image_fetch)
        return self._images

    def _start_async(self) -> None:
        """Run asyncio on the Qt loop from now on (idempotent)."""
        if self._async_started or self._closed:
            return
        self.event_loop.start()
        self._async_started = True
        self._restore_asyncgen_hooks = install_asyncgen_finalizer()
        loop = self.event_loop.loop  # (None: a test's loop, not ours to change)
        if loop is not None:
            loop.set_exception_handler(self._loop_fault)

    def _loop_fault(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        """What asyncio could not hand to anyone (a callback's error, a task's never looked
        at): to the log and the "Something went wrong" window, as well as asyncio's own report."""
        exc = context.get("exception")
        if self.faults is not None:
            import traceback

            what = f"{type(exc).__name__}: {exc}" if exc is not None else str(context.get("message"))
            details = "".join(traceback.format_exception(exc)) if exc is not None else repr(context)
            self.faults.report(what, details)
        loop.default_exception_handler(context)

    def _spawn(self, coro: Coroutine[Any, Any, Any]) -> asyncio.Future[Any]:
        import asyncio

        self._start_async()
        task = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Future[Any]) -> None:
        self._tasks.discard(task)
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None and self.window is not None and not self._closed:
            self.window.show_message(f"Internal error: {type(exc).__name__}: {exc}", 0)
            print(f"catalogue-desktop: {type(exc).__name__}: {exc}", file=sys.stderr)
            if self.faults is not None:
                import traceback

                self.faults.report(f"{type(exc).__name__}: {exc}", "".join(traceback.format_exception(exc)))

    def _report_problem(self) -> None:
        """Help ▸ Report a problem…: the report gathered (the doctor off the GUI thread) and
        put on the clipboard; the status line says when."""
        from catalogue_desktop.ui.shell.problem_report import ProblemReport

        self._watch_faults()
        assert self.window is not None and self.faults is not None
        window = self.window
        if self.problem_report is None:
            self.problem_report = report = ProblemReport(self._reported_catalogue, self.faults.log)

            def shown(text: str) -> None:  # (what was copied, shown: the menu's "…" opens it)
                from catalogue_desktop.ui.sync.status_details import show_details

                window.show_message(
                    "Copied a problem report to the clipboard (secrets left out): paste it into "
                    "your message to whoever helps you",
                    0,
                )
                show_details(window, "Problem report — copied to the clipboard", text)

            report.done.connect(shown)
        window.show_message("Gathering a problem report (the connection doctor runs first)…", 0)
        self.problem_report.start()

    def _reported_catalogue(self) -> Catalogue:
        from catalogue_desktop.ui.shell.problem_report import Catalogue

        return Catalogue(
            self.profile.name,
            None if self.demo else self.base_url,
            profile_choice.connection_settings(self.profile, self.options),
            self.options.offline,
        )

    def _loaded(self) -> None:
        """The cached rows are shown: apply ``--open``, say ``ready``, then go async."""
        assert self.loader is not None and self.window is not None
        if self.options.open:
            self._start_async()  # its photos may have to be fetched
            if not self.open_target(self.options.open, final=self.options.offline):
                self._pending_open = self.options.open  # maybe the sync brings it: try again
        self.loaded = True
        window = self.window
        window.mark_ready()

        def name_buttons() -> None:  # after the first paints, if the window was not closed by then
            if is_alive(window):
                name_inner_buttons(window)

        self._next_pass(name_buttons)
        assert self.finder is not None
        self.finder.indexer.start()  # the finder's tables, in idle time from now on
        # ``--query``, or the query the window was closed with
        query = self.options.query if self.options.query is not None else self.settings.last_query
        if query:
            self.window.query_box.set_text(query)
        self._populate()
        self._connect_watch()  # (at work from ``ready``: made now if the paint's passes did not yet)
        self._watch_faults()
        self.ready.emit()
        # Next loop passes, after the paint: asyncio, then the sync.
        self._next_pass(self._after_ready)

    def _after_ready(self) -> None:
        """The passes after ``ready``: asyncio's modules imported a step per loop pass
        (``stepped_import.ASYNC``; what ready changed is painted on its own pass meanwhile, not
        flushed here with them: ~65-70 ms of CPU in one gap), then asyncio started and the sync
        begun."""
        from catalogue_desktop.ui.common.stepped_import import ASYNC, import_steps

        steps = import_steps(ASYNC)

        def step() -> None:
            if self._closed:
                return
            if next(steps, StopIteration) is not StopIteration:
                self._next_pass(step)
            else:
                self._go_async()

        self._next_pass(step)

    def _go_async(self) -> None:
        self._start_async()
        if self.options.offline:
            self._spawn(self._import_decoder())
        self._spawn(self._relist())
        self.sync()

    # -- sync ----------------------------------------------------------------------------------

    def sync(self, kinds: list[Kind] | None = None) -> None:
        """Sync ``kinds`` (all by default) with the service, in the background (not offline)."""
        if self.syncing is not None and not self._closed:
            self.syncing.sync(kinds)

    def _switched(self, place: ServicePlace) -> None:
        self.place = place

    def _synced(self, report: SyncReport | None) -> None:
        """A sync's rows are shown: the record ``--open`` asked for, if it brought it; ``synced``."""
        if self._pending_open:
            self.open_target(self._pending_open)
            self._pending_open = None
        unchanged = report is not None and all(o.status == "unchanged" for o in report.collections.values())
        if report is not None and report.collections and unchanged and self.window and self.loader:
            from catalogue_desktop.ui.sync.changes_dock import copy_compared

            self.window.changes_dock.refreshed(copy_compared(self.loader.store))  # (Changes says so)
        self.synced.emit(report)

    async def _relist(self) -> None:
        """A cache written by an older version gets the finder's facts (offline, in a worker)."""
        from catalogue_desktop.ui.sync.relister import relist_stale

        assert self.loader is not None and self.window is not None
        window = self.window
        await relist_stale(self.store_file, self.loader, lambda text: window.show_message(text, 0))

    async def _import_decoder(self) -> None:
        """Offline, no sync imports pydantic: import it now, a module at a time, so that the
        first detail pane does not stall the window for it (docs/decisions.md, "Start-up and Qt")."""
        from catalogue_desktop.ui.common.stepped_import import DECODER, import_in_steps

        await import_in_steps(DECODER)

    def open_target(self, text: str, *, final: bool = True) -> bool:
        """Select ``text`` (KIND:ID); if it is not there, a notice says so until dismissed (not
        ``final``: that it is looked for again after the sync)."""
        assert self.window is not None and self.loader is not None
        try:
            place = parse_target(text)
        except ValueError as exc:
            self.window.status.show_notice(f"Cannot open {text!r}: {exc}")
            return False
        if self.window.navigate(place.kind, place.record_id):
            if self._pending_open is not None:  # found after the sync: the wait is over
                self.window.status.show_notice("")
            return True
        rows = self.loader.rowsets[place.kind]
        ids = [row[rows.id_column] for row in rows.rows]
        where = "demo catalogue" if self.demo else "catalogue"
        self.window.status.show_notice(not_found(place, ids, where, final=final))
        return False

    def _index_changed(self, index: CatalogueIndex) -> None:
        assert self.window is not None and self.loader is not None
        for kind in ALL_KINDS:
            self.window.set_changes(kind, self.loader.changes[kind], index.title)
        self.window.current_tab().redraw_details()

    def _counts_filled(self, kinds: list[Kind]) -> None:
        """The rows' counts of webinars and courses were filled: shown, and a tab sorted by one
        of them sorted again."""
        from catalogue_desktop.core.listing.counts import count_columns

        for kind in kinds:
            tab = None if self.window is None else self.window.made_tab(kind)
            if tab is None:
                continue  # (made later, with the values)
            model = tab.model
            if model.sort_column in count_columns(kind):
                column, order = model.sort_column, model.sort_order
                model.sort(-1, order)
                model.sort(column, order)
            model.redraw()

    # -- settings ------------------------------------------------------------------------------

    def _apply_display_settings(self) -> None:
        self.formatter.event_zones = self.settings.event_zones
        # doubtful course times read as the seller chose for the offers: one answer everywhere
        self.formatter.doubtful_times = self.settings.doubtful_times
        vocabulary = self.settings.vocabulary()
        if vocabulary is not None:
            self.formatter.vocabulary = vocabulary

    def _preferences_changed(self) -> None:
        """Preferences were saved: show them everywhere (labels, past rows, offerings, zones)."""
        assert self.window is not None and self.finder is not None
        self._apply_display_settings()
        self.formatter.set_currency(_currency(self.settings.currency))
        self.finder.set_vocabulary(self.formatter.vocabulary)
        self.window.redraw()

    @property
    def async_started(self) -> bool:
        """Whether asyncio runs for this session (if not, ``close`` is all the cleanup needed)."""
        return self._async_started

    def close(self) -> None:
        """Close a session that never started asyncio (else use ``aclose``)."""
        if self.async_started:
            raise RuntimeError("this session runs on asyncio: close it with aclose()")
        self._closed = True
        self._close_window_and_store()

    def _close_window_and_store(self) -> None:
        if self.faults is not None:
            self.faults.uninstall()
        if self.problem_report is not None:
            self.problem_report.close()
        if self.finder is not None:
            self.finder.indexer.stop()  # it reads the store in idle passes
        if self.watcher is not None:
            self.watcher.stop()  # so does the watched searches' evaluation
        if self.offer_log is not None:
            self.offer_log.stop()  # and the offers' checks
        if self.auto_sync is not None:
            self.auto_sync.stop()
        if self.loader is not None:
            self.loader.stop()
        if self.window is not None and self.window.isVisible():
            self.window.close()
        if self.loader is not None:
            self.loader.close()
            delete_later(self.loader)
        if self.window is not None:
            delete_later(self.window)

    async def aclose(self) -> None:
        """Stop syncing and loading, close the client, workers, demo service and store."""
        import asyncio

        if self._closed:
            return
        self._closed = True
        if self.finder is not None:
            self.finder.indexer.stop()
        if self.loader is not None:
            self.loader.stop()
        if self.window is not None and self.window.isVisible():
            self.window.close()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.gather(*self._tasks, return_exceptions=True)
        if self.syncing is not None:
            await self.syncing.aclose()
        if self._images is not None:
            await self._images.aclose()
        self._close_window_and_store()
        self._restore_asyncgen_hooks()  # generators started meanwhile keep the loop's finalizer


def _currency(stored: str | None) -> str | None:
    """The fees' currency the window uses: an ISO 4217 code only (a stored "DOLLARS" is shown in
    Preferences, said, and never used); read only when one is set (not at every start-up)."""
    if not stored:
        return None
    from catalogue_desktop.core.formats import currencies

    return currencies.read(stored).code
