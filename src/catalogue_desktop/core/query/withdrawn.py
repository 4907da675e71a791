"""The history as the finder reads it from a store: each table's ``HistoryIndex``, and the
withdrawn records (gone from the service within the kept span) as tables of their own.

Withdrawn records are never mixed into a kind's table (its rows are the current snapshot's, in
the store's order, and every view counts on that): they form a second table per kind, built from
their last JSON, that only a query with a ``removed:`` clause is asked of (``WithdrawnTables``).
Such a row is shown flagged "withdrawn DAY" (``day_of``).
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.listing.facts import facts
from catalogue_desktop.core.query import timeline
from catalogue_desktop.core.query.engine import Finder, Outcome
from catalogue_desktop.core.query.fields import OFFERINGS
from catalogue_desktop.core.query.syntax import Parsed, has_removed
from catalogue_desktop.core.query.table import Table, TableBuilder
from catalogue_desktop.core.records.kinds import Kind

log = logging.getLogger(__name__)


def events_of(store: Store, kind: Kind) -> list[timeline.TimedEvent]:
    """``kind``'s history kept in ``store``, as the index takes it."""
    return timeline.events_from_rows(kind.value, store.history.rows(kind))


def attach_history(store: Store, kind: Kind, table: Table) -> list[timeline.TimedEvent]:
    """Give ``table`` (``kind``'s listed records) its history index; returns the events read
    (the withdrawn table takes them too)."""
    events = events_of(store, kind)
    table.history = timeline.HistoryIndex(table.ids, events)
    return events


def attach_history_steps(store: Store, kind: Kind, table: Table, chunk: int = 2000) -> Iterator[None]:
    """``attach_history`` a slice at a time (the window's indexer: 30,000 events parsed at once
    would hold its event loop ~100 ms)."""
    rows = store.history.rows(kind)
    yield
    events: list[timeline.TimedEvent] = []
    for start in range(0, len(rows), chunk):
        events += timeline.events_from_rows(kind.value, rows[start : start + chunk])
        yield
    index = timeline.HistoryIndex(table.ids, events)
    yield
    yield from index.build()
    table.history = index


@dataclass
class WithdrawnTable:
    """One kind's withdrawn records: their table, and when each went (ISO 8601, per row)."""

    table: Table
    removed_at: list[str]
    ids: list[Any] = field(default_factory=list)

    def day_of(self, row: int) -> str:
        """``2026-11-14``: the day the record was withdrawn (UTC, as the sync wrote it)."""
        return self.removed_at[row][:10]


def withdrawn_table(
    store: Store, kind: Kind, events: list[timeline.TimedEvent] | None = None
) -> WithdrawnTable:
    """``kind``'s withdrawn records as a table with its history (a record whose JSON no longer
    decodes is left out, logged)."""
    from catalogue_desktop.core.records.decode import decode_record  # (pydantic: when asked only)

    builder = TableBuilder(kind.value)
    removed_at: list[str] = []
    ids: list[Any] = []
    for gone in store.history.withdrawn(kind):
        try:
            record = decode_record(kind, gone.data)
        except ValueError:
            log.warning("withdrawn %s %s no longer decodes: left out", kind.value, gone.record_id)
            continue
        builder.add([facts(kind, record)])
        removed_at.append(gone.at)
        ids.append(gone.record_id)
    table = builder.finish()
    table.history = timeline.HistoryIndex(
        table.ids, events if events is not None else events_of(store, kind), withdrawn=True
    )
    return WithdrawnTable(table, removed_at, ids)


class WithdrawnTables:
    """A finder over the withdrawn records of some kinds (built when first asked)."""

    def __init__(self, store: Store, events: dict[str, list[timeline.TimedEvent]] | None = None) -> None:
        self._store = store
        self._events = events or {}
        self.finder = Finder()
        self.tables: dict[str, WithdrawnTable] = {}

    def get(self, name: str) -> WithdrawnTable | None:
        if name == OFFERINGS:
            return None
        found = self.tables.get(name)
        if found is None:
            kind = Kind(name)
            found = self.tables[name] = withdrawn_table(self._store, kind, self._events.get(name))
            self.finder.set_table(found.table)
        return found

    def evaluate(self, query: Parsed, name: str, now: datetime) -> Outcome | None:
        """The withdrawn records of ``name`` matching ``query``; None unless the query asks for
        withdrawn records (a ``removed:`` clause) and the table can answer it."""
        if query.root is None or not has_removed(query.root):
            return None
        found = self.get(name)
        if found is None:
            return None
        outcome = self.finder.evaluate(query, name, now)
        return None if outcome.missing else outcome
