"""Saved searches, kept in the cache file so that the window and the command line share them (per
catalogue): a name, a query, the kind it was saved on (or none), whether it is watched, and for a
watched one, when its news were last looked at and what it matched then (``core.searches`` works out
the news)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import NamedTuple

SCHEMA = """
CREATE TABLE IF NOT EXISTS saved_searches (
    name TEXT PRIMARY KEY,
    query TEXT NOT NULL,
    kind TEXT,
    watched INTEGER NOT NULL DEFAULT 0,
    seen_at TEXT,
    seen_mark INTEGER,
    baseline TEXT
)
"""


class SavedSearch(NamedTuple):
    """A saved search, as kept (``baseline`` is never changed in place). A named tuple, not a
    dataclass: a dataclass is compiled at every start (docs/decisions.md)."""

    name: str
    query: str
    kind: str | None = None  # the kind it was saved on; None: every kind
    watched: bool = False
    seen_at: str | None = None  # when its news were last looked at (ISO 8601 UTC)
    seen_mark: int = 0  # the history's ``History.mark()`` then: later entries are news
    baseline: dict[str, list[int]] = {}  # noqa: RUF012  # kind -> ids it matched then


class SavedSearches:
    """A store's saved searches, as its ``searches`` attribute."""

    def __init__(
        self, db: sqlite3.Connection, transaction: Callable[[], AbstractContextManager[None]]
    ) -> None:
        self._db = db
        self._transaction = transaction

    def all(self) -> list[SavedSearch]:
        """Every saved search, by name."""
        return [
            SavedSearch(
                name, query, kind, bool(watched), seen_at, mark or 0, json.loads(baseline) if baseline else {}
            )
            for name, query, kind, watched, seen_at, mark, baseline in self._db.execute(
                "SELECT name, query, kind, watched, seen_at, seen_mark, baseline FROM saved_searches"
                " ORDER BY name COLLATE NOCASE"
            )
        ]

    def get(self, name: str) -> SavedSearch | None:
        return next((s for s in self.all() if s.name == name), None)

    def put(self, search: SavedSearch) -> None:
        """Add ``search``, or replace the one of the same name."""
        with self._transaction():
            self._db.execute(
                "INSERT OR REPLACE INTO saved_searches (name, query, kind, watched, seen_at, seen_mark,"
                " baseline) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    search.name,
                    search.query,
                    search.kind,
                    int(search.watched),
                    search.seen_at,
                    search.seen_mark,
                    json.dumps(search.baseline),
                ),
            )

    def remove(self, name: str) -> bool:
        with self._transaction():
            return self._db.execute("DELETE FROM saved_searches WHERE name = ?", (name,)).rowcount > 0

    def set_seen(self, seen: dict[str, dict[str, list[int]]], at: str, mark: int) -> None:
        """Each named search's news looked at ``at`` (the history's ``mark`` then): what it
        matches now is its new baseline."""
        with self._transaction():
            self._db.executemany(
                "UPDATE saved_searches SET seen_at = ?, seen_mark = ?, baseline = ? WHERE name = ?",
                [(at, mark, json.dumps(baseline), name) for name, baseline in seen.items()],
            )
