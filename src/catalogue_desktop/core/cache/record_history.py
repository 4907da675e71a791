"""Each record's history: what every sync changed, kept in the cache for a span of days.

A sync that replaces a collection's snapshot writes, in the same transaction, one row per record
it added, removed or changed (``record``): the time of the sync, the change, and for a change the
fields that differ, old and new, nested ones named by their path (``locations/7114/fee``,
``sessions/50406/startDate``: the nested record's id between the names). A removed (withdrawn)
record keeps its last JSON, so that it stays findable and can be shown for the span. A failed
sync writes no snapshot and so no history; a partial one carries rejected records over from the
cache (``core.sync.ingest``), so they are not recorded as removed.

That last JSON is kept once (``bodies``, content-addressed by its SHA-256: a record removed, listed
again and removed again with the same JSON costs a history row, not a copy) and zlib-compressed
(a webinar's JSON to 35%). Schema 5 kept it in the row itself (``history.data``): an upgraded
store reads it there until ``compact`` (run after a sync, off the window's thread) moves it.

Two limits, both kept in the store's ``meta`` table (per catalogue; the window and the command
line agree), applied whenever history is written (``prune``): rows older than the span
(``span_days``, default 400), then, while the history is over its budget (``budget_megabytes``,
default 200: rows and bodies, ``size``), the oldest rows; the latest sync's are always kept. A
store upgraded from schema 4 starts its history with the difference between the previous and the
current snapshots it holds (``seed``).
"""

from __future__ import annotations

import json
import re
import sqlite3
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from catalogue_desktop.core.records.diff import diff_snapshots
from catalogue_desktop.core.records.kinds import Kind

DEFAULT_SPAN_DAYS = 400
SPAN_KEY = "history_days"
INLINE_KEY = "history_inline"  # present while rows may hold schema 5's inline JSON
DEFAULT_BUDGET_MB = 200
BUDGET_KEY = "history_megabytes"
# The newest history row (its rowid) pruning ever forgot: what was written after a ``mark`` is
# all there while this is below it (rows are numbered as written; the newest is never forgotten
# without this noting it, so a number used again is seen too).
FORGOTTEN_KEY = "history_forgotten"
MB = 1024 * 1024
# What ``size`` counts for a history row beside its text (ids, time, change, three index entries)
# and for a body beside its compressed JSON (id, digest, size, its digest's index entry).
ROW_BYTES = 64
BODY_BYTES = 96
LEVEL = 6  # zlib's default: webinars' JSON to 34.5%; level 1: 36.6% in 70% of the time
MAX_BODY = 256 * MB  # a body read back is never inflated past this (the download's own cap)

SCHEMA = """
CREATE TABLE IF NOT EXISTS history (
    collection TEXT NOT NULL,
    record_id INTEGER NOT NULL,
    at TEXT NOT NULL,      -- the sync's time, ISO 8601 UTC
    change TEXT NOT NULL,  -- added | removed | changed
    fields TEXT,           -- changed: JSON {path: [old, new]}
    data BLOB,             -- schema 5's inline JSON of a removed record, until ``compact`` moves it
    body INTEGER           -- removed: the record's last JSON, in ``bodies`` (it stays findable)
);
CREATE INDEX IF NOT EXISTS history_by_record ON history (collection, record_id, at);
CREATE INDEX IF NOT EXISTS history_by_time ON history (collection, at);
CREATE INDEX IF NOT EXISTS history_by_body ON history (body) WHERE body IS NOT NULL;
CREATE TABLE IF NOT EXISTS bodies (
    id INTEGER PRIMARY KEY,
    digest BLOB NOT NULL UNIQUE,  -- SHA-256 of the JSON: the same JSON is kept once
    size INTEGER NOT NULL,        -- the JSON's bytes
    data BLOB NOT NULL            -- the JSON, zlib-compressed
);
"""

CHANGES = ("added", "removed", "changed")


def statements() -> list[str]:
    """``SCHEMA``'s statements one by one (``executescript`` would commit a transaction)."""
    return [s.strip() for s in re.sub(r"--[^\n]*", "", SCHEMA).split(";") if s.strip()]


def install(db: sqlite3.Connection) -> None:
    """Make the history's tables, or bring schema 5's up to these (its rows kept as they are: a
    ``body`` column added, the ``bodies`` table made), inside the caller's transaction."""
    columns = {row[1] for row in db.execute("PRAGMA table_info(history)")}
    if columns and "body" not in columns:
        db.execute("ALTER TABLE history ADD COLUMN body INTEGER")
        db.execute("INSERT OR REPLACE INTO meta VALUES (?, 'yes')", (INLINE_KEY,))  # for ``compact``
    for statement in statements():
        db.execute(statement)


_INDEX = re.compile(r"\[([^\]]*)\]")


class Event(NamedTuple):
    """One change to one record, as a sync saw it (``fields`` is never changed in place). A named
    tuple, not a dataclass: a dataclass is compiled at every start (docs/decisions.md)."""

    at: str
    change: str  # added | removed | changed
    fields: dict[str, list[Any]] = {}  # noqa: RUF012  # (never changed in place)

    def to_json(self) -> dict[str, Any]:
        return {"at": self.at, "change": self.change, "fields": self.fields}


class Withdrawn(NamedTuple):
    """A record the service no longer lists: when it went, and what it last was."""

    record_id: int
    at: str
    data: bytes


def slash_path(path: str) -> str:
    """``locations[7114].fee`` (``records.diff``'s form) -> ``locations/7114/fee``."""
    return _INDEX.sub(r"/\1", path).replace(".", "/")


def span_days(db: sqlite3.Connection) -> int:
    row = db.execute("SELECT value FROM meta WHERE key = ?", (SPAN_KEY,)).fetchone()
    try:
        days = int(row[0]) if row else DEFAULT_SPAN_DAYS
    except ValueError:
        days = DEFAULT_SPAN_DAYS
    return max(days, 1)


def set_span_days(db: sqlite3.Connection, days: int) -> None:
    if days < 1:
        raise ValueError("history must be kept for at least one day")
    db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (SPAN_KEY, str(days)))


def budget_megabytes(db: sqlite3.Connection) -> int:
    row = db.execute("SELECT value FROM meta WHERE key = ?", (BUDGET_KEY,)).fetchone()
    try:
        megabytes = int(row[0]) if row else DEFAULT_BUDGET_MB
    except ValueError:
        megabytes = DEFAULT_BUDGET_MB
    return max(megabytes, 1)


def set_budget_megabytes(db: sqlite3.Connection, megabytes: int) -> None:
    if megabytes < 1:
        raise ValueError("history must be allowed at least 1 MB")
    db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (BUDGET_KEY, str(megabytes)))


def size(db: sqlite3.Connection) -> int:
    """The history's bytes as the budget counts them: its rows (their text and ``ROW_BYTES`` each)
    and their bodies (compressed, ``BODY_BYTES`` each). SQLite reads a blob's length without its
    pages."""
    rows = db.execute(
        "SELECT count(*) * ? + coalesce(sum(length(fields)), 0) + coalesce(sum(length(data)), 0)"
        " FROM history",
        (ROW_BYTES,),
    ).fetchone()[0]
    bodies = db.execute(
        "SELECT count(*) * ? + coalesce(sum(length(data)), 0) FROM bodies", (BODY_BYTES,)
    ).fetchone()[0]
    return int(rows) + int(bodies)


def keep_body(db: sqlite3.Connection, data: bytes) -> int:
    """The id of ``data`` in ``bodies``: the row already holding this JSON, or a new one."""
    import hashlib  # (here: OpenSSL's library loads with it, and a start from the cache writes nothing)

    digest = hashlib.sha256(data).digest()
    row = db.execute("SELECT id FROM bodies WHERE digest = ?", (digest,)).fetchone()
    if row is not None:
        return int(row[0])
    made = db.execute(
        "INSERT INTO bodies (digest, size, data) VALUES (?, ?, ?)",
        (digest, len(data), zlib.compress(data, LEVEL)),
    ).lastrowid
    assert made is not None  # (an INSERT's row)
    return made


def inflate(length: object, data: bytes) -> bytes | None:
    """A body's JSON from its compressed bytes; None if they do not give ``length`` bytes (a
    damaged or tampered file: never inflated past ``length``, nor past ``MAX_BODY``)."""
    if not isinstance(length, int) or not 0 <= length <= MAX_BODY:
        return None
    try:
        inflater = zlib.decompressobj()
        out = inflater.decompress(data, length + 1)
    except zlib.error:
        return None
    return out if len(out) == length and inflater.eof else None


def record(
    db: sqlite3.Connection,
    collection: str,
    changes: Mapping[str, Any],
    at: str,
    removed_data: Mapping[int, bytes],
) -> int:
    """Write one sync's ``changes`` (``records.diff.diff_snapshots``'s summary) at time ``at``,
    inside the caller's transaction, then prune what is older than the span. Returns the number
    of rows written."""
    rows: list[tuple[Any, ...]] = []
    rows += [(collection, rid, at, "added", None, None) for rid in changes.get("added", ())]
    for rid in changes.get("removed", ()):
        data = removed_data.get(rid)
        rows.append((collection, rid, at, "removed", None, None if data is None else keep_body(db, data)))
    for entry in changes.get("changed", ()):
        fields = {slash_path(path): values for path, values in entry["fields"].items()}
        rows.append((collection, entry["id"], at, "changed", json.dumps(fields, ensure_ascii=False), None))
    kept = db.execute("SELECT coalesce(max(rowid), 0) FROM history").fetchone()[0]
    if rows:
        db.executemany(
            "INSERT INTO history (collection, record_id, at, change, fields, body) VALUES (?, ?, ?, ?, ?, ?)",
            rows,
        )
    prune(db, at, kept)
    return len(rows)


def record_sync(
    db: sqlite3.Connection, collection: str, changes: Mapping[str, Any], at: str, current: int | None
) -> int:
    """``record`` one sync's changes to ``collection``, the removed records' last JSON read from
    the ``current`` snapshot (the one being replaced)."""
    removed = data_by_id(db, current, changes.get("removed", ())) if current else {}
    return record(db, collection, changes, at, removed)


def data_by_id(db: sqlite3.Connection, snapshot: int, record_ids: Iterable[int]) -> dict[int, bytes]:
    """The stored JSON of ``record_ids`` in ``snapshot`` (the first copy of an id repeated)."""
    ids = list(record_ids)
    found: dict[int, bytes] = {}
    for start in range(0, len(ids), 500):
        part = ids[start : start + 500]
        marks = ",".join("?" * len(part))
        for rid, data in db.execute(
            f"SELECT record_id, data FROM records WHERE snapshot = ? AND record_id IN ({marks})",
            (snapshot, *part),
        ):
            found.setdefault(rid, bytes(data))
    return found


def prune(db: sqlite3.Connection, now: str, kept: int | None = None) -> int:
    """Forget what is older than the span before ``now`` (ISO 8601), then the oldest rows while
    the history is over its budget, never those after row ``kept`` (the sync just written; by
    default the latest sync's rows); the rows removed."""
    try:
        cutoff = _iso(_parse(now) - timedelta(days=span_days(db)))
    except ValueError:  # not a time (a caller's own stamp): nothing is pruned by age
        removed = 0
    else:
        removed = _forget(db, "at < ?", (cutoff,))
    budget, total = budget_megabytes(db) * MB, size(db)
    if total <= budget:
        return removed
    if kept is None:
        kept = db.execute(
            "SELECT coalesce(min(rowid), 1) - 1 FROM history WHERE at = (SELECT max(at) FROM history)"
        ).fetchone()[0]
    while total > budget:
        count, older = db.execute("SELECT count(*), sum(rowid <= ?) FROM history", (kept,)).fetchone()
        if not older:
            break
        # the rows that should free the excess at the history's average cost per row, oldest first
        share = max(100, int((total - budget) * count / total) + 1)
        (cut,) = db.execute(
            "SELECT rowid FROM history WHERE rowid <= ? ORDER BY rowid LIMIT 1 OFFSET ?",
            (kept, min(share, older) - 1),
        ).fetchone()
        removed += _forget(db, "rowid <= ?", (cut,))
        total = size(db)
    return removed


def _forget(db: sqlite3.Connection, where: str, params: tuple[Any, ...]) -> int:
    """Delete the history rows ``where`` says, and the bodies no row refers to any more; the
    newest row ever forgotten is noted (``FORGOTTEN_KEY``: ``History.whole_after``)."""
    removed = 0
    newest = -1
    for (rowid,) in db.execute(f"DELETE FROM history WHERE {where} RETURNING rowid", params):
        removed += 1
        newest = max(newest, rowid)
    if removed:
        db.execute("DELETE FROM bodies WHERE id NOT IN (SELECT body FROM history WHERE body IS NOT NULL)")
        db.execute(
            "INSERT INTO meta VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value ="
            " max(CAST(value AS INTEGER), CAST(excluded.value AS INTEGER))",
            (FORGOTTEN_KEY, str(newest)),
        )
    return removed


def compact(db: sqlite3.Connection, batch: int = 2000) -> int:
    """Move schema 5's inline JSON of removed records into ``bodies`` (kept once, compressed), a
    transaction per ``batch`` rows; the rows moved. Only an upgraded store has any (``install``)."""
    if db.execute("SELECT 1 FROM meta WHERE key = ?", (INLINE_KEY,)).fetchone() is None:
        return 0
    moved = 0
    while True:
        db.execute("BEGIN IMMEDIATE")
        try:
            found = db.execute(
                # (as blobs: a damaged or tampered value may be text)
                "SELECT rowid, CAST(data AS BLOB) FROM history WHERE data IS NOT NULL LIMIT ?",
                (batch,),
            ).fetchall()
            db.executemany(
                "UPDATE history SET body = ?, data = NULL WHERE rowid = ?",
                [(keep_body(db, bytes(data)), rowid) for rowid, data in found],
            )
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        moved += len(found)
        if len(found) < batch:
            db.execute("DELETE FROM meta WHERE key = ?", (INLINE_KEY,))
            return moved


def seed(db: sqlite3.Connection) -> None:
    """A store's first history, on its upgrade to schema 5: per collection, the difference between
    the previous snapshot and the current one, dated when the current one was stored."""
    pairs = db.execute(
        "SELECT c.name, c.snapshot, c.previous, s.created_at FROM collections c"
        " JOIN snapshots s ON s.id = c.snapshot WHERE c.previous IS NOT NULL"
    ).fetchall()
    for collection, current, previous, created in pairs:
        old = dict(_records(db, previous))
        if not old:
            continue
        changes = diff_snapshots(
            {rid: data for rid, data in old.items() if rid is not None},
            ((rid, data) for rid, data in _records(db, current) if rid is not None),
        )
        record(db, collection, changes, created, {rid: old[rid] for rid in changes["removed"]})


def events(db: sqlite3.Connection, collection: str, record_id: int) -> list[Event]:
    """A record's history, oldest first."""
    return [
        Event(at, change, json.loads(fields) if fields else {})
        for at, change, fields in db.execute(
            "SELECT at, change, fields FROM history WHERE collection = ? AND record_id = ?"
            " ORDER BY at, rowid",
            (collection, record_id),
        )
    ]


def since(
    db: sqlite3.Connection, collection: str, start: str, end: str | None = None
) -> Iterator[tuple[int, Event]]:
    """Every (record id, event) of ``collection`` from ``start`` (ISO 8601) on, up to ``end``
    (excluded), oldest first."""
    sql = "SELECT record_id, at, change, fields FROM history WHERE collection = ? AND at >= ?"
    params: list[Any] = [collection, start]
    if end is not None:
        sql += " AND at < ?"
        params.append(end)
    for rid, at, change, fields in db.execute(sql + " ORDER BY at, rowid", params):
        yield rid, Event(at, change, json.loads(fields) if fields else {})


def withdrawn(db: sqlite3.Connection, collection: str) -> list[Withdrawn]:
    """The records of ``collection`` removed within the span and not listed again since, newest
    removal first."""
    found: list[Withdrawn] = []
    seen: set[int] = set()
    for rid, at, inline, length, body in db.execute(
        "SELECT h.record_id, h.at, CAST(h.data AS BLOB), b.size, CAST(b.data AS BLOB)"
        " FROM history h LEFT JOIN bodies b ON b.id = h.body"
        " WHERE h.collection = ? AND h.change = 'removed' AND (h.data IS NOT NULL OR b.data IS NOT NULL)"
        " AND NOT EXISTS (SELECT 1 FROM history l WHERE l.collection = h.collection"
        " AND l.record_id = h.record_id AND l.change = 'added' AND l.rowid > h.rowid) ORDER BY h.rowid DESC",
        (collection,),
    ):
        if rid in seen:
            continue
        data = bytes(inline) if inline is not None else inflate(length, bytes(body))
        if data is not None:
            seen.add(rid)
            found.append(Withdrawn(rid, at, data))
    return found


def _records(db: sqlite3.Connection, snapshot: int) -> Iterable[tuple[int | None, bytes]]:
    for rid, data in db.execute(
        "SELECT record_id, data FROM records WHERE snapshot = ? ORDER BY pos", (snapshot,)
    ):
        yield rid, bytes(data)


def _parse(iso: str) -> datetime:
    moment = datetime.fromisoformat(iso.replace("Z", "+00:00"))
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class History:
    """A store's history, as its ``history`` attribute: reading it, and its span."""

    def __init__(
        self, db: sqlite3.Connection, transaction: Callable[[], AbstractContextManager[None]]
    ) -> None:
        self._db = db
        self._transaction = transaction
        # A cache opened read-only (``find``, ``export`` on a cache they cannot write) may be of
        # an older schema, not yet upgraded: it has no history, and says so by having none.
        self.kept = db.execute("SELECT 1 FROM sqlite_master WHERE name = 'history'").fetchone() is not None

    def events(self, kind: Kind, record_id: int) -> list[Event]:
        """What the syncs kept in the span changed in this record, oldest first."""
        return events(self._db, kind.value, record_id) if self.kept else []

    def since(self, kind: Kind, start: str, end: str | None = None) -> list[tuple[int, Event]]:
        """Every change to ``kind``'s records from ``start`` (ISO 8601 UTC) on, oldest first."""
        return list(since(self._db, kind.value, start, end)) if self.kept else []

    def mark(self) -> int:
        """Where the history stands: entries written later have a greater ``after`` mark."""
        if not self.kept:
            return 0
        row = self._db.execute("SELECT coalesce(max(rowid), 0) FROM history").fetchone()
        return int(row[0])

    def whole_after(self, mark: int) -> bool:
        """Whether every row written after ``mark`` (``mark()``) is still kept: pruning (the span,
        the budget) never forgot one of them, nor the row at ``mark`` (rows numbered again)."""
        if not self.kept:
            return False
        row = self._db.execute("SELECT value FROM meta WHERE key = ?", (FORGOTTEN_KEY,)).fetchone()
        try:
            forgotten = -1 if row is None else int(row[0])
        except ValueError:
            return False
        return forgotten < mark

    def after(self, kind: Kind, mark: int) -> list[tuple[int, Event]]:
        """Every change to ``kind``'s records written after ``mark`` (``mark()``), oldest first."""
        if not self.kept:
            return []
        return [
            (rid, Event(at, change, json.loads(fields) if fields else {}))
            for rid, at, change, fields in self._db.execute(
                "SELECT record_id, at, change, fields FROM history WHERE collection = ? AND rowid > ?"
                " ORDER BY rowid",
                (kind.value, mark),
            )
        ]

    def written_after(self, kind: Kind, mark: int) -> list[tuple[int, str, str | None]]:
        """Every (record id, change, fields JSON) of ``kind`` written after ``mark``, unparsed:
        what a refresh changed (the offer check's look-up), read by the rows' numbers (the
        newest syncs' rows only)."""
        if not self.kept:
            return []
        return self._db.execute(
            "SELECT record_id, change, fields FROM history WHERE rowid > ? AND +collection = ?"
            " ORDER BY rowid",
            (mark, kind.value),
        ).fetchall()

    def rows(self, kind: Kind) -> list[tuple[int, str, str, str | None]]:
        """Every (record id, at, change, fields JSON) of ``kind`` kept, oldest first: what the
        finder indexes (``core.query.timeline``), unparsed."""
        if not self.kept:
            return []
        return self._db.execute(
            "SELECT record_id, at, change, fields FROM history WHERE collection = ? ORDER BY rowid",
            (kind.value,),
        ).fetchall()

    def withdrawn(self, kind: Kind) -> list[Withdrawn]:
        """``kind``'s records the service stopped listing within the span, newest first."""
        return withdrawn(self._db, kind.value) if self.kept else []

    @property
    def span_days(self) -> int:
        return span_days(self._db)

    @property
    def budget_megabytes(self) -> int:
        return budget_megabytes(self._db)

    def set_budget_megabytes(self, megabytes: int, now: str | None) -> None:
        """Keep at most ``megabytes`` (at least 1) of history; the oldest syncs' rows over it go
        (the space they held is given back after the next sync, off the window's thread). With
        ``now`` None only the setting is written: the window prunes on a thread (``prune``)."""
        with self._transaction():
            set_budget_megabytes(self._db, megabytes)
            if now is not None:
                prune(self._db, now)

    def set_span_days(self, days: int, now: str | None) -> None:
        """Keep history for ``days`` (at least 1); what is older than that before ``now`` goes
        (``now`` None: only the setting is written, as ``set_budget_megabytes``)."""
        with self._transaction():
            set_span_days(self._db, days)
            if now is not None:
                prune(self._db, now)

    def prune(self, now: str) -> int:
        """Forget what the span and the budget no longer keep at ``now``; the rows removed."""
        with self._transaction():
            return prune(self._db, now)
