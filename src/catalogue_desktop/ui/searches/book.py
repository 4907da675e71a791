"""The window's saved searches, kept in the catalogue's store (``store.searches``) so that the
command line (``catalogue-desktop watch``) sees the same ones, per catalogue.

Searches saved by an older version live in the settings (``finder/saved``): the first store
opened takes them (``migrate``, once: the settings' list is cleared then). Without a store (a
window made without one) the settings are read as before.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from catalogue_desktop.core.cache.saved_searches import SavedSearch
from catalogue_desktop.ui.common.settings import Settings

if TYPE_CHECKING:
    from catalogue_desktop.core.cache.record_history import History
    from catalogue_desktop.core.cache.store import Store
    from catalogue_desktop.core.query.engine import Finder


def settings_searches(settings: Settings) -> list[dict[str, str]]:
    """The searches an older version saved in the settings (``finder/saved``): ``{"name",
    "query", "tab"}`` (tab: a kind's value), in order; what is unusable there is noted."""
    try:
        found = json.loads(str(settings.q.value("finder/saved") or "[]"))
    except (ValueError, RecursionError):
        settings.note("finder/saved", "…", "a JSON list of searches")
        return []
    if not isinstance(found, list):
        return []
    return [
        s
        for s in found
        if isinstance(s, dict) and isinstance(s.get("name"), str) and isinstance(s.get("query"), str)
    ]


def set_settings_searches(settings: Settings, searches: list[dict[str, str]]) -> None:
    """Write (or, with none, clear) the settings' list of searches (``settings_searches``)."""
    settings.put("finder/saved", json.dumps(searches, ensure_ascii=False) if searches else None)


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class SearchBook(QObject):
    """Saved searches as the window uses them: ``{"name", "query", "tab", "watched"}`` dicts.
    ``changed`` says when one was saved, renamed, deleted, watched or unwatched: What's new
    follows at once (it kept saying "No watched searches yet" after a search was watched, until
    a refresh)."""

    changed = Signal()

    def __init__(
        self, store: Callable[[], Store | None], settings: Settings, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._store = store  # () -> the GUI thread's Store (or None)
        self._settings = settings
        self._migrated: set[str] = set()

    def store(self) -> Store | None:
        try:
            store = self._store()
        except AttributeError:  # a window made without a loader
            return None
        if store is not None and str(store.path) not in self._migrated:
            self._migrated.add(str(store.path))
            self.migrate(store)
        return store

    def migrate(self, store: Store) -> int:
        """Move the settings' saved searches into ``store`` (names it has already are kept as
        they are); the settings' list is cleared. Returns how many were moved."""
        old = settings_searches(self._settings)
        if not old:
            return 0
        have = {s.name for s in store.searches.all()}
        moved = 0
        for item in old:
            if item["name"] not in have:
                store.searches.put(SavedSearch(item["name"], item["query"], item.get("tab") or None))
                moved += 1
        set_settings_searches(self._settings, [])
        self._settings.sync()
        if moved:
            self.changed.emit()
        return moved

    def history(self) -> History | None:
        """The open catalogue's ``store.history`` (None: no store)."""
        store = self.store()
        return None if store is None else store.history

    def all(self) -> list[dict[str, Any]]:
        store = self.store()
        if store is None:
            return [dict(s, watched=False) for s in settings_searches(self._settings)]
        return [
            {"name": s.name, "query": s.query, "tab": s.kind or "", "watched": s.watched}
            for s in store.searches.all()
        ]

    def searches(self) -> list[SavedSearch]:
        store = self.store()
        return [] if store is None else store.searches.all()

    def save(self, name: str, query: str, tab: str) -> None:
        """Save (or replace) ``name``; a replaced search keeps being watched, from now."""
        store = self.store()
        if store is None:
            kept = [s for s in settings_searches(self._settings) if s["name"] != name]
            set_settings_searches(self._settings, [*kept, {"name": name, "query": query, "tab": tab}])
            return
        old = store.searches.get(name)
        store.searches.put(SavedSearch(name, query, tab or None))
        if old is not None and old.watched:
            self.set_watched(name, True)  # (says it changed)
        else:
            self.changed.emit()

    def remove(self, name: str) -> None:
        store = self.store()
        if store is None:
            set_settings_searches(
                self._settings, [s for s in settings_searches(self._settings) if s["name"] != name]
            )
        else:
            store.searches.remove(name)
            self.changed.emit()

    def rename(self, name: str, new: str) -> None:
        store = self.store()
        if store is None:
            items = [s for s in settings_searches(self._settings) if s["name"] != new]
            set_settings_searches(
                self._settings, [dict(s, name=new) if s["name"] == name else s for s in items]
            )
            return
        found = store.searches.get(name)
        if found is not None:
            store.searches.remove(new)
            store.searches.remove(name)
            store.searches.put(found._replace(name=new))
            self.changed.emit()

    def set_watched(self, name: str, watched: bool, finder: Finder | None = None) -> None:
        """Watch ``name`` (its news start from what it matches now: in ``finder``'s tables when
        given, else the store's) or stop watching it."""
        store = self.store()
        found = None if store is None else store.searches.get(name)
        if store is None or found is None:
            return
        if not watched:
            store.searches.put(found._replace(watched=False, baseline={}))
            self.changed.emit()
            return
        from catalogue_desktop.core.searches import news
        from catalogue_desktop.core.searches.stored import local_now

        if finder is not None:
            from catalogue_desktop.core.searches.evaluated import matches_in

            baseline = matches_in(finder, found, local_now())
            mark = store.history.mark()
            store.searches.put(
                found._replace(watched=True, seen_at=now_iso(), seen_mark=mark, baseline=baseline)
            )
        else:
            news.watch(store, found.name, found.query, found.kind, now_iso())
        self.changed.emit()
