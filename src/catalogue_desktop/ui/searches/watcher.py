"""The watched searches' news in the window, after each sync: worked out on the finder's tables
once they are rebuilt, a search per event-loop pass (no stall), then shown in What's new, as a
badge on the Searches menu and the toolbar's What's new, and said once (``news_arrived``) when a
refresh brought something not said before. Showing What's new marks the news seen.

What the watcher needs of the window and the finder is ``WatchWindow`` and ``WatchFinder``."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QMenu, QWidget

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.common import panels
from catalogue_desktop.ui.common.pass_budget import loop_budget
from catalogue_desktop.ui.searches.book import SearchBook, now_iso
from catalogue_desktop.ui.searches.whats_new import WhatsNewDock
from catalogue_desktop.ui.searches.whats_new_action import whats_new_action

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from catalogue_desktop.core.query.engine import Finder
    from catalogue_desktop.core.query.syntax import Parsed
    from catalogue_desktop.core.searches.news import News
    from catalogue_desktop.ui.sync.changes_dock import ChangesDock

WAIT_MS = 200  # how often to look whether the finder's tables are rebuilt


class WatchActions(Protocol):
    """The window's menus the watcher badges (``ui.shell.menus.WindowActions``)."""

    @property
    def searches_menu(self) -> QMenu: ...
    @property
    def changes_action(self) -> QAction: ...  # (View ▸ Changes: What's new goes after it)


class ShownTab(Protocol):
    """The tab shown (``ui.browse.collection_tab.CollectionTab``): its table takes the focus
    back when What's new is closed with Escape."""

    @property
    def view(self) -> QWidget: ...


class WatchWindow(Protocol):
    """What the watched searches need of the window (``ui.shell.main_window.MainWindow``)."""

    @property
    def ready(self) -> bool: ...  # every cached row shown
    @property
    def search_book(self) -> SearchBook: ...
    @property
    def menu_actions(self) -> WatchActions: ...
    @property
    def changes_dock(self) -> ChangesDock: ...
    @property
    def preferences_changed(self) -> SignalInstance: ...
    def navigate(self, kind: Kind, record_id: int, *, remember: bool = True) -> bool: ...
    def current_tab(self) -> ShownTab: ...


class Indexing(Protocol):
    """The finder's indexer (``ui.finder.indexer.FinderIndexer``)."""

    @property
    def busy(self) -> bool: ...  # building tables


class WatchFinder(Protocol):
    """What the watched searches need of the finder (``ui.finder.controller.FinderController``)."""

    @property
    def indexer(self) -> Indexing: ...
    @property
    def engine(self) -> Finder: ...  # made now if need be
    @property
    def engine_if_made(self) -> Finder | None: ...
    @property
    def parsed(self) -> Parsed | None: ...  # the window's query
    @property
    def evaluated(self) -> SignalInstance: ...  # the query's results are up to date


class Watcher(QObject):
    """Owns the What's new dock and its action; ``after_sync`` works the news out."""

    news_arrived = Signal(int)  # a refresh brought news not said before: how many news in all
    evaluated = Signal()  # the news are up to date (What's new shows them)

    def __init__(
        self,
        window: WatchWindow,
        main: QMainWindow,
        controller: WatchFinder,
        title: Callable[[Kind, int], str | None],
        parent: QObject | None = None,
        action: QAction | None = None,
    ) -> None:
        """``main``: the same window (its docks, toolbar and menus); ``title(kind, id)``: a
        record's title, or None; ``action``: the toolbar's What's new, if the window made it
        already (``whats_new_action``)."""
        super().__init__(parent)
        self.window = window
        self._controller = controller  # the finder controller (its indexer and engine)
        self._title = title
        self.news: list[News] = []
        self.badge = 0  # unseen news: the count on the Searches menu and What's new
        self._said: set[tuple[str, str, str, int]] = set()  # news already announced
        self._steps: Iterator[None] | None = None
        self._announce = False
        self._stopped = False
        self._main = main
        self.dock = WhatsNewDock(main)
        panels.place(main, self.dock, window.changes_dock, None)  # in the place of Changes
        self.dock.record_activated.connect(window.navigate)
        self.dock.visibilityChanged.connect(self._looked)
        self.action = action or whats_new_action(main)
        panels.toggle(self.action, self.dock, main, lambda: window.current_tab().view)
        self._beside_changes(main, window.menu_actions.changes_action)
        self._searches_title = window.menu_actions.searches_menu.title()
        self._pump = loop_budget().pump(self, self._step)  # in turn with the window's other jobs
        self._wait = QTimer(self, interval=WAIT_MS)
        self._wait.timeout.connect(self._start_when_ready)
        # a search watched, unwatched, renamed or deleted: What's new follows at once, as after a
        # refresh (nothing is announced: the person did it)
        window.search_book.changed.connect(lambda: self.after_sync(announce=False))

    def _beside_changes(self, main: QMainWindow, changes: QAction) -> None:
        """What's new in the View menu, after Changes (its fellow panel): only the toolbar had it."""
        for entry in main.menuBar().actions():
            menu = entry.menu()
            items = menu.actions() if isinstance(menu, QMenu) else []
            if isinstance(menu, QMenu) and changes in items:
                after = items.index(changes) + 1
                if after < len(items):
                    menu.insertAction(items[after], self.action)
                else:
                    menu.addAction(self.action)
                return

    @property
    def unseen(self) -> int:
        return self.badge

    def stop(self) -> None:
        """No more evaluation (the store is closing)."""
        self._wait.stop()
        self._pump.stop()
        self._steps = None
        self._stopped = True

    def show(self) -> None:
        panels.show(self.dock, self._main)

    def after_sync(self, announce: bool = True) -> None:
        """Work the news out once the finder's tables are rebuilt (``announce``: a refresh, whose
        news not said before are said)."""
        if self._stopped:
            return
        self._announce = self._announce or announce
        self._wait.start()
        self._start_when_ready()

    def _start_when_ready(self) -> None:
        if self._controller.indexer.busy or not self.window.ready:
            return
        self._wait.stop()
        engine = self._controller.engine  # (its tables are the rows shown: the indexer is idle)
        store = self.window.search_book.store()
        if store is None:
            return
        from catalogue_desktop.core.searches.evaluated import news_steps
        from catalogue_desktop.core.searches.stored import local_now

        self._fresh: list[News] = []
        self._searches = self.window.search_book.searches()
        self._steps = news_steps(engine, store, self._searches, local_now(), self._fresh)
        self._pump.start()

    def _step(self) -> None:
        if self._steps is not None and next(self._steps, StopIteration) is not StopIteration:
            return
        self._pump.stop()
        self._steps = None
        self.news = self._fresh
        watched = sum(1 for s in self._searches if s.watched)
        self.dock.set_news(self.news, self._title, watched)
        self._badge(sum(item.count for item in self.news))
        if self._announce:
            self._announce = False
            fresh = self._keys() - self._said
            if fresh:
                self._said |= fresh
                self.news_arrived.emit(self.unseen)
        if self.dock.isVisible():
            self._looked(True)
        self.evaluated.emit()

    def _keys(self) -> set[tuple[str, str, str, int]]:
        return {
            (item.search.name, part, kind, rid)
            for item in self.news
            for part in ("new", "changed", "gone")
            for kind, ids in getattr(item, part).items()
            for rid in ids
        }

    def _looked(self, visible: bool) -> None:
        """What's new shown: its news are seen (the present becomes each search's baseline)."""
        if not visible or not self.unseen:
            return
        store = self.window.search_book.store()
        if store is None:
            return
        from catalogue_desktop.core.searches.news import mark_seen

        mark_seen(store, [item for item in self.news if item.count], now_iso())
        self._said |= self._keys()
        self._badge(0)

    def _badge(self, count: int) -> None:
        suffix = f" ({count})" if count else ""
        self.action.setText(f"What's new{suffix}")
        self.window.menu_actions.searches_menu.setTitle(self._searches_title + suffix)
        self.badge = count

    def title(self, kind: Kind, record_id: int) -> str | None:
        return self._title(kind, record_id)
