"""The watched searches joined to a running session: the What's new dock and badge (``Watcher``),
worked out when the cache is read and after each sync, and the word said when a refresh brings
news (``notice``). ``connect_watch`` makes them and hands them back (``Watching``): the session
keeps them. (The Changes panel and the sync on its own are the sync's: ``ui.sync.changes_dock``,
``ui.sync.auto_sync``.)

What they need of the window, the finder and the session are ``WatchWindow``, ``WatchFinder``
and ``WatchSession`` (``ui.searches`` sits below the shell and beside the finder)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple, Protocol

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.searches.notice import Notifier
from catalogue_desktop.ui.searches.watcher import Watcher, WatchFinder, WatchWindow

if TYPE_CHECKING:
    from PySide6.QtCore import QObject, SignalInstance
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QMainWindow

    from catalogue_desktop.core.cache.store import Store
    from catalogue_desktop.ui.browse.catalogue_loader import CatalogueLoader


class WatchSession(Protocol):
    """What the watched searches need of the session (``ui.shell.session.AppSession``)."""

    @property
    def ready(self) -> SignalInstance: ...  # every cached row shown
    @property
    def synced(self) -> SignalInstance: ...  # a sync finished (its report)


class Watching(NamedTuple):
    """What ``connect_watch`` made (the session keeps them, and stops them when it closes)."""

    watcher: Watcher
    notifier: Notifier


def connect_watch(
    window: WatchWindow,
    main: QMainWindow,
    loader: CatalogueLoader,
    finder: WatchFinder,
    session: WatchSession,
    parent: QObject,
    action: QAction | None = None,
) -> Watching:
    """Make the watcher and its notifier for ``window`` (``main``: the same window, where the
    docks, the toolbar and the status bar are; ``action``: its toolbar's What's new, if made
    already); ``parent`` keeps them."""
    gone = WithdrawnTitles(lambda: loader.store)
    watcher = Watcher(
        window,
        main,
        finder,
        lambda kind, rid: loader.index.title(kind, rid) or gone.title(kind, rid),
        parent,
        action,
    )
    notifier = Notifier(main, watcher.show, parent)
    watcher.news_arrived.connect(lambda count: notifier.say(count, watcher.news))
    # the notice goes once What's new is seen, however opened (and is not left while it shows)
    watcher.news_arrived.connect(lambda _count: notifier.seen() if watcher.dock.isVisible() else None)
    watcher.dock.visibilityChanged.connect(lambda shown: notifier.seen() if shown else None)
    session.ready.connect(lambda: watcher.after_sync(announce=False))
    session.synced.connect(lambda _report: watcher.after_sync())
    return Watching(watcher, notifier)


class WithdrawnTitles:
    """The last title of a withdrawn record and the day it went ("… — withdrawn 14 Nov 2026"),
    from the history (read once per kind and history mark)."""

    def __init__(self, store: Callable[[], Store]) -> None:
        self._store = store
        self._found: dict[tuple[Kind, int], dict[int, str]] = {}

    def title(self, kind: Kind, record_id: int) -> str | None:
        import json

        from catalogue_desktop.core.records.history_words import iso_day_text

        store = self._store()
        key = (kind, store.history.mark())
        found = self._found.get(key)
        if found is None:
            found = self._found[key] = {}
            for gone in store.history.withdrawn(kind):
                try:
                    data = json.loads(gone.data)
                except ValueError:
                    continue
                name = data.get("title") or data.get("name") if isinstance(data, dict) else None
                day = iso_day_text(gone.at)
                found[gone.record_id] = f"{name or f'#{gone.record_id}'} — withdrawn {day}"
        return found.get(record_id)
