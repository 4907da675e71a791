"""The watched searches joined to a running session: the What's new dock and badge (``Watcher``),
worked out when the cache is read and after each sync, and the word said when a refresh brings
news (``notice``)."""

from __future__ import annotations

from typing import Any

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.searches.notice import Notifier
from catalogue_desktop.ui.searches.watcher import Watcher


def connect_watch(session: Any) -> Watcher:
    """Make the session's watcher (``session.watcher``) and its notifier."""
    window, loader = session.window, session.loader
    gone = WithdrawnTitles(lambda: loader.store)
    watcher = Watcher(
        window,
        session.finder,
        lambda kind, rid: loader.index.title(kind, rid) or gone.title(kind, rid),
        session,
    )
    notifier = Notifier(window, watcher.show, session)
    watcher.news_arrived.connect(lambda count: notifier.say(count, watcher.news))
    session.ready.connect(lambda: watcher.after_sync(announce=False))
    session.synced.connect(lambda _report: watcher.after_sync())
    session.notifier = notifier
    return watcher


class WithdrawnTitles:
    """The last title of a withdrawn record and the day it went ("… — withdrawn 14 Nov 2026"),
    from the history (read once per kind and history mark)."""

    def __init__(self, store: Any) -> None:
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
