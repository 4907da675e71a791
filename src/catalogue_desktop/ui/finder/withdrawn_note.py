"""What a tab says of the withdrawn records a ``removed:`` query matches.

Withdrawn records are not rows of a tab (its rows are the catalogue's current records, and every
view counts on that); a query asking for them (``removed:last30d``) shows, where the tab's table
would be empty, the ones that match with the day each was withdrawn ("withdrawn 14 Nov 2026"),
as ``find`` lists them apart. Their tables are read from the store when first asked, again once
the history has grown (a sync).
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from catalogue_desktop.core.cache.store import Store
    from catalogue_desktop.core.query.syntax import Parsed
    from catalogue_desktop.core.query.withdrawn import WithdrawnTables

SHOWN = 8  # withdrawn records named in the note


class WithdrawnNote:
    """The note per tab, from the store's withdrawn records."""

    def __init__(self, store: Callable[[], Store | None]) -> None:
        """``store()``: the GUI thread's store."""
        self._store = store
        self._tables: WithdrawnTables | None = None
        self._mark = -1

    def note(self, parsed: Parsed | None, name: str, now: datetime) -> str | None:
        """The note for tab ``name`` under ``parsed`` (None: the query asks for no withdrawn
        records)."""
        from catalogue_desktop.core.query.syntax import has_removed
        from catalogue_desktop.core.records.history_words import iso_day_text

        if parsed is None or parsed.root is None or not has_removed(parsed.root):
            return None
        tables = self._current()
        if tables is None:
            return None
        outcome = tables.evaluate(parsed, name, now)
        if outcome is None:
            return None
        if not outcome.count:
            return f"No {name} withdrawn that match."
        gone = tables.get(name)
        if gone is None:  # (never: an outcome comes from this table)
            return None
        rows = outcome.rows
        lines = [f"{len(rows)} withdrawn {name} match (no longer in the catalogue):"]
        for row in rows[:SHOWN]:
            title = gone.table.column("name" if name == "experts" else "title")[row] or "(no title)"
            lines.append(f"{gone.table.ids[row]}  {title} — withdrawn {iso_day_text(gone.day_of(row))}")
        if len(rows) > SHOWN:
            lines.append(f"… and {len(rows) - SHOWN} more (catalogue-desktop find lists them all)")
        return "\n".join(lines)

    def _current(self) -> WithdrawnTables | None:
        from catalogue_desktop.core.query.withdrawn import WithdrawnTables

        store = self._store()
        if store is None:
            return None
        mark = store.history.mark()
        if self._tables is None or mark != self._mark:
            self._tables, self._mark = WithdrawnTables(store), mark
        return self._tables
