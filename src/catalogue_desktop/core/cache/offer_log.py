"""The offer log's table: every offer made from this catalogue (the window's offer actions,
``export offerings --title``), kept in the cache file so that the window and the command line
share it, per catalogue, for the history's span (``history.span_days``).

A row holds what was promised as JSON (``core.offers.logged`` reads and writes its shape: the
formats written and where, each occasion's quoted values) and what the last check found
(``core.offers.checking``: a status and each item's values now). A re-issued offer is a new row,
``version_of`` the first version's id; the old row keeps its promise and names its successor
(``superseded_by``). Schema 7 added the table (``schema.migrate``); schema 8 its ``quoted``
column: each item's compared values in a few bytes (``core.offers.logged.fingerprint``), all a
check reads of an offer that still matches (an offer logged before it has none: its check reads
``items`` and keeps the fingerprint, ``set_quoted``). Schema 10 keeps each offer's last check's
time apart, in ``offer_checks``: most checks change nothing of most offers but that time, and
SQLite writes a whole row again (~2 KB of JSON an offer) on any change to it. Schema 12 added
``terms``: what the offer's documents said of it as a whole (its price as the sheet prices it, its
validity), so that the log says the same (an offer logged before has none: read from ``items``).
"""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from catalogue_desktop.core.cache.record_history import span_days

SCHEMA = """
CREATE TABLE IF NOT EXISTS offers (
    id INTEGER PRIMARY KEY,
    made TEXT NOT NULL,       -- when, ISO 8601 UTC
    title TEXT NOT NULL,      -- the title or customer ("Offer for Acme")
    note TEXT,
    currency TEXT,
    written TEXT NOT NULL,    -- JSON [[format, where], ...]
    items TEXT NOT NULL,      -- JSON: each occasion's quoted values
    version_of INTEGER,       -- a re-issue: the first version's id
    version INTEGER NOT NULL DEFAULT 1,
    superseded_by INTEGER,    -- re-issued as this offer
    status TEXT,              -- the last check's: current | changed | withdrawn | past | superseded
    found TEXT,               -- JSON: the last check's findings per item
    quoted TEXT,              -- JSON: each item's occasion and compared values (a check's fingerprint)
    terms TEXT                -- JSON: the offer's price and validity, as its documents said them
);
CREATE INDEX IF NOT EXISTS offers_by_time ON offers (made);
CREATE TABLE IF NOT EXISTS offer_checks (
    offer INTEGER PRIMARY KEY,  -- offers.id
    checked_at TEXT NOT NULL    -- its last check's time (none: never checked)
);
"""

# The meta key of what the last check was made against (each source's snapshot, the history's
# mark...: ``core.offers.refreshed``), one for the log: every check looks at every open offer.
AGAINST_KEY = "offers_checked_against"

_COLUMNS = (
    "o.id, o.made, o.title, o.note, o.currency, o.written, o.items, o.version_of, o.version,"
    " o.superseded_by, o.status, o.found, c.checked_at, o.quoted, o.terms"
    " FROM offers o LEFT JOIN offer_checks c ON c.offer = o.id"
)


class OfferRow(NamedTuple):
    """One row of the ``offers`` table, its JSON unparsed."""

    id: int
    made: str
    title: str
    note: str | None
    currency: str | None
    written: str
    items: str
    version_of: int | None
    version: int
    superseded_by: int | None
    status: str | None
    found: str | None
    checked_at: str | None
    quoted: str | None = None  # (None: logged before schema 8, or damaged: read from ``items``)
    terms: str | None = None  # (None: logged before schema 12)


def statements() -> list[str]:
    """``SCHEMA``'s statements one by one (inside a caller's transaction)."""
    return [s.strip() for s in re.sub(r"--[^\n]*", "", SCHEMA).split(";") if s.strip()]


def install(db: sqlite3.Connection) -> None:
    """Make the tables (an upgrade to schema 7), or give ``offers`` the ``quoted`` column (to
    schema 8: the fingerprints are made by the next check), or move each offer's check's time to
    ``offer_checks`` (to schema 10), or give ``offers`` the ``terms`` column (to schema 12),
    inside the caller's transaction."""
    for statement in statements():
        db.execute(statement)
    columns = {r[1] for r in db.execute("PRAGMA table_info(offers)")}
    if "quoted" not in columns:
        db.execute("ALTER TABLE offers ADD COLUMN quoted TEXT")
    if "terms" not in columns:
        db.execute("ALTER TABLE offers ADD COLUMN terms TEXT")
    if "checked_at" in columns:
        db.execute(
            "INSERT OR REPLACE INTO offer_checks (offer, checked_at)"
            " SELECT id, checked_at FROM offers WHERE checked_at IS NOT NULL"
        )
        db.execute("ALTER TABLE offers DROP COLUMN checked_at")


class OfferLog:
    """A store's offer log, as its ``offers`` attribute: rows in, rows out, the span kept."""

    def __init__(
        self, db: sqlite3.Connection, transaction: Callable[[], AbstractContextManager[None]]
    ) -> None:
        self._db = db
        self._transaction = transaction
        # (a cache opened read-only may be of an older schema: it has no offers, and says so)
        self.kept = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'offers'").fetchone() is not None

    def add(
        self,
        *,
        made: str,
        title: str,
        note: str | None,
        currency: str | None,
        written: str,
        items: str,
        quoted: str | None = None,
        terms: str | None = None,
        version_of: int | None = None,
        supersedes: int | None = None,
    ) -> int:
        """Log an offer (``supersedes``: the row it re-issues, then marked superseded), forget
        those older than the span; the new row's id."""
        with self._transaction():
            version = 1
            if supersedes is not None:
                row = self._db.execute("SELECT version FROM offers WHERE id = ?", (supersedes,)).fetchone()
                version = (int(row[0]) if row else 0) + 1
            made_id = self._db.execute(
                "INSERT INTO offers (made, title, note, currency, written, items, quoted, terms,"
                " version_of, version) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (made, title, note, currency, written, items, quoted, terms, version_of, version),
            ).lastrowid
            assert made_id is not None  # (an INSERT's row)
            if supersedes is not None:
                self._db.execute(
                    "UPDATE offers SET superseded_by = ?, status = 'superseded' WHERE id = ?",
                    (made_id, supersedes),
                )
            self._prune(made)
        return made_id

    def same(
        self,
        *,
        title: str,
        note: str | None,
        currency: str | None,
        items: str,
        since: str,
        terms: str | None = None,
    ) -> int | None:
        """The newest offer made at or after ``since`` with this title, note, currency, terms
        (its validity) and these quoted items that is not superseded (the same offer written
        again in another format)."""
        if not self.kept:
            return None
        found = self._db.execute(
            "SELECT id FROM offers WHERE made >= ? AND title = ? AND note IS ? AND currency IS ?"
            " AND items = ? AND terms IS ? AND superseded_by IS NULL ORDER BY made DESC, id DESC LIMIT 1",
            (since, title, note, currency, items, terms),
        ).fetchone()
        return None if found is None else int(found[0])

    def set_written(self, offer_id: int, written: str) -> None:
        """An offer's formats written and where (JSON), one more added."""
        with self._transaction():
            self._db.execute("UPDATE offers SET written = ? WHERE id = ?", (written, offer_id))

    def rows(self) -> list[OfferRow]:
        """Every offer kept, newest first."""
        if not self.kept:
            return []
        return list(
            map(OfferRow._make, self._db.execute(f"SELECT {_COLUMNS} ORDER BY o.made DESC, o.id DESC"))
        )

    def any_open(self) -> bool:
        """Whether an offer is kept that a check looks at (not superseded, not past): one indexed
        step, not the rows."""
        if not self.kept:
            return False
        found = self._db.execute(
            "SELECT 1 FROM offers WHERE superseded_by IS NULL AND status IS NOT 'past' LIMIT 1"
        ).fetchone()
        return found is not None

    def row(self, offer_id: int) -> OfferRow | None:
        if not self.kept:
            return None
        found = self._db.execute(f"SELECT {_COLUMNS} WHERE o.id = ?", (offer_id,)).fetchone()
        return None if found is None else OfferRow(*found)

    def against(self) -> str | None:
        """What the last check was made against (``core.offers.refreshed``'s text; None: no
        check kept one)."""
        if not self.kept:
            return None
        found = self._db.execute("SELECT value FROM meta WHERE key = ?", (AGAINST_KEY,)).fetchone()
        return None if found is None else str(found[0])

    def set_checked(
        self,
        findings: list[tuple[int, str, str]],
        at: str,
        same: Sequence[int] = (),
        quoted: Sequence[tuple[int, str]] = (),
        against: str | None = None,
    ) -> None:
        """Each offer's (id, status, findings JSON) as checked ``at``, and the offers ``same`` as
        checked ``at`` with the status and findings they had, and the (id, fingerprint) of
        ``quoted`` (offers logged before schema 8), and what the check was made ``against``
        (kept for the next one: ``against``); the span kept."""
        with self._transaction():
            if against is not None:
                self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (AGAINST_KEY, against))
            self._db.executemany(
                "UPDATE offers SET status = ?, found = ? WHERE id = ?",
                [(status, found, offer_id) for offer_id, status, found in findings],
            )
            stamped = [*(f[0] for f in findings), *same]
            if stamped:  # (most, after most refreshes, only this: one statement, rows of a few bytes)
                self._db.execute(
                    "INSERT OR REPLACE INTO offer_checks (offer, checked_at)"
                    " SELECT o.id, ? FROM offers o WHERE o.id IN (SELECT value FROM json_each(?))",
                    (at, "[" + ",".join(map(str, stamped)) + "]"),
                )
            self._db.executemany("UPDATE offers SET quoted = ? WHERE id = ?", [(q, i) for i, q in quoted])
            self._prune(at)

    def _prune(self, now: str) -> int:
        """Forget the offers made longer ago than the history's span before ``now``."""
        try:
            moment = datetime.fromisoformat(now.replace("Z", "+00:00"))
        except ValueError:
            return 0
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        cutoff = (moment - timedelta(days=span_days(self._db))).astimezone(UTC)
        stamp = cutoff.isoformat(timespec="seconds").replace("+00:00", "Z")
        self._db.execute(
            "DELETE FROM offer_checks WHERE offer IN (SELECT id FROM offers WHERE made < ?)", (stamp,)
        )
        return self._db.execute("DELETE FROM offers WHERE made < ?", (stamp,)).rowcount
