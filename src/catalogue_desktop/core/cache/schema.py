"""The store file's schema: creating it, checking a file is ours, upgrading it, moving it aside.

``open_db`` opens a store file: a new one gets the schema, a version-2 to -9 one is upgraded in
place (``migrate``), current snapshots without readable packed pages are packed again (``repack``),
and a file that is not a store of this app raises ``Unusable`` (the store then moves it aside with
``move_aside`` and starts a fresh one): corrupt, foreign, of another version, or tampered with (a
view, trigger or virtual table in it, a table missing or without a column the app reads:
``guarded``, checked before its tables are read). Its statements are bounded (``guarded.connect``).
WAL mode lets the window read while a sync process writes. A new file gives freed pages back
bit by bit (incremental auto-vacuum, ``space.reclaim``).
"""

from __future__ import annotations

import os
import sqlite3
import time
import urllib.parse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from catalogue_desktop.core.cache import occasion_values, offer_log, record_history, saved_searches
from catalogue_desktop.core.cache import pages as pages
from catalogue_desktop.core.cache.guarded import (
    BoundedConnection,
    Unusable,
    check_tables,
    connect,
    refuse_planted,
)
from catalogue_desktop.core.records.errors import StoreError

SCHEMA_VERSION = 12
# Older versions this one upgrades in place (2: no ``row_pages``; 3: no facts, no listing version;
# 4: no history, no saved searches; 5: removed records' JSON in each history row, uncompressed;
# 6: no offer log; 7: no fingerprint of what each offer quoted; 8: ``records_by_id`` without
# the records' positions; 9: each offer's check's time in its row; 10: no ``occasion_values``;
# 11: no offer terms, price and validity).
MIGRATED = {2, 3, 4, 5, 6, 7, 8, 9, 10, 11}

# Bytes per page of a new store file (a file keeps the page size it was made with). At SQLite's
# default, 4096, a ``rows`` row over ~1,000 bytes (a webinar's row, links and facts: ~1,300)
# spilled to an overflow page of its own, mostly empty: at N=10,000 webinars ``rows`` took 51 MB
# for 16 MB of text, ``records`` 90 MB for 82 MB. At 16384: 18 and 96 MB, and writing a snapshot
# of the webinars took 0.29 s of CPU instead of 0.49 s.
PAGE_SIZE = 16384

# A record's position by its id, off the index alone (schema 9: the offer check reads a few
# thousand records by id, and each look-up read a page of ``records``, kilobytes of JSON, for
# its ``pos``).
RECORDS_BY_ID = "CREATE INDEX IF NOT EXISTS records_by_id ON records (snapshot, record_id, pos)"

SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS collections (
    name TEXT PRIMARY KEY,
    snapshot INTEGER,
    previous INTEGER,
    etag TEXT,
    last_modified TEXT,
    fetched_at TEXT,
    checked_at TEXT,
    last_status TEXT,
    last_error TEXT,
    last_error_at TEXT
);
-- ``occasions``: a snapshot's rows in ``occasion_values`` (NULL: none yet; -1: none, facts read).
CREATE TABLE IF NOT EXISTS snapshots (
    id INTEGER PRIMARY KEY,
    collection TEXT NOT NULL,
    created_at TEXT NOT NULL,
    record_count INTEGER NOT NULL,
    rejected_count INTEGER NOT NULL,
    problem_count INTEGER NOT NULL,
    problems TEXT NOT NULL,
    changes TEXT,
    stats TEXT,
    occasions INTEGER,
    listing INTEGER  -- the ``listing.LISTING_VERSION`` its rows, links and facts were made by
);
-- The listing (row and links, a few hundred bytes) apart from the full JSON (kilobytes): the
-- window reads every row at start-up, and reading them next to ``data`` walked overflow pages.
CREATE TABLE IF NOT EXISTS rows (
    snapshot INTEGER NOT NULL,
    pos INTEGER NOT NULL,
    row TEXT NOT NULL,
    links TEXT NOT NULL,
    facts TEXT,  -- ``core.listing.facts``: what the finder and the sales desk need
    PRIMARY KEY (snapshot, pos)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records (
    snapshot INTEGER NOT NULL,
    pos INTEGER NOT NULL,
    record_id INTEGER,
    data BLOB NOT NULL,
    PRIMARY KEY (snapshot, pos)
);
"""
SCHEMA += RECORDS_BY_ID + ";\n"
# The current snapshot's listing again, packed (see ``pages``): written with the snapshot,
# in its transaction; ``rows`` stays the reference.
_PAGES = """
CREATE TABLE IF NOT EXISTS {} (
    snapshot INTEGER NOT NULL,
    page INTEGER NOT NULL,
    format TEXT NOT NULL,
    crc INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (snapshot, page)
)"""
ROW_PAGES = _PAGES.format("row_pages")
# The current snapshot's facts, packed the same way (read in idle time, after the rows).
FACT_PAGES = _PAGES.format("fact_pages")

# The statements that make the current schema's tables (``TABLES`` is what they make).
STATEMENTS = (
    SCHEMA,
    ROW_PAGES,
    FACT_PAGES,
    record_history.SCHEMA,
    saved_searches.SCHEMA,
    offer_log.SCHEMA,
    occasion_values.SCHEMA,
)
# Every table of the current schema with its columns: what an opened file must hold. Written out,
# not derived at import (``layout`` of ``STATEMENTS`` made an in-memory database at every start:
# ~5.7 M instructions of ~705 M to the first paint); tests/core/cache/test_schema_layout.py keeps
# it equal to what ``STATEMENTS`` make.
TABLES: dict[str, frozenset[str]] = {
    "meta": frozenset(["key", "value"]),
    "collections": frozenset(
        [
            "checked_at",
            "etag",
            "fetched_at",
            "last_error",
            "last_error_at",
            "last_modified",
            "last_status",
            "name",
            "previous",
            "snapshot",
        ]
    ),
    "snapshots": frozenset(
        [
            "changes",
            "collection",
            "created_at",
            "id",
            "listing",
            "occasions",
            "problem_count",
            "problems",
            "record_count",
            "rejected_count",
            "stats",
        ]
    ),
    "rows": frozenset(["facts", "links", "pos", "row", "snapshot"]),
    "records": frozenset(["data", "pos", "record_id", "snapshot"]),
    "row_pages": frozenset(["crc", "data", "format", "page", "snapshot"]),
    "fact_pages": frozenset(["crc", "data", "format", "page", "snapshot"]),
    "history": frozenset(["at", "body", "change", "collection", "data", "fields", "record_id"]),
    "bodies": frozenset(["data", "digest", "id", "size"]),
    "saved_searches": frozenset(["baseline", "kind", "name", "query", "seen_at", "seen_mark", "watched"]),
    "offers": frozenset(
        [
            "currency",
            "found",
            "id",
            "items",
            "made",
            "note",
            "quoted",
            "status",
            "superseded_by",
            "terms",
            "title",
            "version",
            "version_of",
            "written",
        ]
    ),
    "offer_checks": frozenset(["checked_at", "offer"]),
    "occasion_values": frozenset(
        ["city", "ends", "fee", "occasion", "snapshot", "starts", "state", "title", "type", "venue"]
    ),
}


def open_db(path: Path, busy_timeout: float) -> BoundedConnection:
    """Open (create, upgrade, repack) the store file at ``path``; ``Unusable`` if it is not a
    store of this app, ``StoreError`` if it cannot be used now (locked, unreadable)."""
    try:
        db = connect(path, timeout=busy_timeout)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open the cache {path}: {exc}") from None
    try:
        # Check the file is ours before changing it (WAL mode rewrites the file header).
        refuse_planted(db)
        version = schema_version(db)
        if version is None:  # (only before the first table: fixed once the file has one)
            db.execute(f"PRAGMA page_size = {PAGE_SIZE}")
            db.execute("PRAGMA auto_vacuum = INCREMENTAL")
        if version is None or version == SCHEMA_VERSION or version in MIGRATED:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=NORMAL")
        if version is None:
            db.executescript(
                SCHEMA
                + ROW_PAGES
                + ";"
                + FACT_PAGES
                + ";"
                + record_history.SCHEMA
                + saved_searches.SCHEMA
                + ";"
                + offer_log.SCHEMA
                + ";"
                + occasion_values.SCHEMA
            )
            db.execute("INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        elif version in MIGRATED:
            migrate(db, version)
        elif version != SCHEMA_VERSION:
            raise Unusable(f"it has schema version {version}, this app uses {SCHEMA_VERSION}")
        check_tables(db, TABLES)
        db.execute("SELECT count(*) FROM collections").fetchone()
        repack(db, busy_timeout)
    except sqlite3.OperationalError as exc:
        db.close()
        if "locked" in str(exc) or "busy" in str(exc):
            raise StoreError(f"the cache {path} is locked by another process; try again later") from None
        raise Unusable(str(exc)) from None
    except sqlite3.DatabaseError as exc:
        db.close()
        raise Unusable(str(exc)) from None
    except Unusable:
        db.close()
        raise
    return db


def open_read_only(path: Path) -> BoundedConnection:
    """Open the store file at ``path`` for reading only (SQLite ``mode=ro``; ``immutable`` when
    even the WAL's shared memory cannot be made, as in a read-only folder): for ``find`` and
    ``export`` on a cache they may not write. Nothing is created, upgraded or repacked; a file
    that is not a usable store is refused (``StoreError``), left as it is."""
    uri = "file:" + urllib.parse.quote(str(path.absolute())) + "?mode=ro"
    last: sqlite3.Error | None = None
    for suffix in ("", "&immutable=1"):
        try:
            db = connect(uri + suffix, uri=True)
            refuse_planted(db)
            version = schema_version(db)
            if version == SCHEMA_VERSION:
                check_tables(db, TABLES)
        except sqlite3.Error as exc:
            last = exc
            continue
        except Unusable as exc:
            db.close()
            raise StoreError(
                f"The cache file {path} could not be used ({exc}). It is read-only here, so it was "
                f"left as it is: open it where it can be written to have it moved aside"
            ) from None
        if version != SCHEMA_VERSION:
            db.close()
            raise StoreError(
                f"the cache {path} is read-only here and was written by another version "
                f"(schema {version}, this app reads {SCHEMA_VERSION}): open it where it can be written"
            )
        return db
    raise StoreError(f"cannot read the cache {path}: {last}")


def schema_version(db: sqlite3.Connection) -> int | None:
    tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    if not tables:
        return None
    if "meta" not in tables:
        raise Unusable("it is not a Catalogue Desktop cache")
    row = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
    try:
        return int(row[0]) if row else -1
    except ValueError:
        return -1


def move_aside(path: Path, reason: str) -> str:
    """Move the unusable store file at ``path`` (and its WAL files) aside; the message saying where."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.unusable-{stamp}")
    n = 1
    while aside.exists():  # never overwrite an earlier moved-aside file (same second)
        n += 1
        aside = path.with_name(f"{path.name}.unusable-{stamp}-{n}")
    for suffix in ("", "-wal", "-shm"):
        src = Path(str(path) + suffix)
        if src.exists():
            try:
                os.replace(src, Path(str(aside) + suffix))
            except OSError as exc:
                raise StoreError(
                    f"the cache {path} is unusable ({reason}) and could not be moved aside: {exc}"
                ) from None
    return (
        f"The cache file {path} could not be used ({reason}). It was moved to "
        f"{aside} and a fresh cache was started."
    )


@contextmanager
def immediate(db: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any exception (re-raised as is)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def migrate(db: sqlite3.Connection, version: int) -> None:
    """Upgrade a version-2 to -11 store in place: add ``row_pages`` (``repack`` fills it), then
    the facts and each snapshot's listing version (left empty: ``core.sync.relist`` lists its
    snapshots again, from their records, when the app next reads them), then each record's
    history, begun with the difference between the previous and current snapshots held; a
    version-5 history keeps its rows, its inline JSON moved later (``history.compact``); then
    the offer log's table (``offer_log``) and its fingerprints' column; then ``records_by_id``
    made again with the records' positions (one pass over ``records``); then each offer's
    check's time moved to ``offer_checks``; then ``occasion_values``, empty (the next offer
    check makes each snapshot's from its facts, on its thread). The file keeps its auto-vacuum
    mode until space is given back (``space.reclaim``)."""
    with immediate(db):
        if version < 3:
            db.execute(ROW_PAGES)
        if version < 4:
            for table, column, kind in (("rows", "facts", "TEXT"), ("snapshots", "listing", "INTEGER")):
                if column not in {r[1] for r in db.execute(f"PRAGMA table_info({table})")}:
                    db.execute(f"ALTER TABLE {table} ADD COLUMN {column} {kind}")
            db.execute(FACT_PAGES)
        record_history.install(db)  # (statements one by one: executescript would commit)
        if version < 5:
            db.execute(saved_searches.SCHEMA)
            record_history.seed(db)
        offer_log.install(db)  # (7: the offer log; 8: ``quoted``; 10: ``offer_checks``; 12: ``terms``)
        if version < 9:
            db.execute("DROP INDEX IF EXISTS records_by_id")
            db.execute(RECORDS_BY_ID)
        if version < 11:
            if "occasions" not in {r[1] for r in db.execute("PRAGMA table_info(snapshots)")}:
                db.execute("ALTER TABLE snapshots ADD COLUMN occasions INTEGER")
            db.execute(occasion_values.SCHEMA)
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))


def repack(db: sqlite3.Connection, busy_timeout: float) -> None:
    """Pack the current snapshots that have rows (or facts) but no pages this app reads: after
    an upgrade, or pages of another format (a Python whose ``marshal`` differs). Reading
    falls back to ``rows`` without them, so a failure here (a damaged file, or another process
    writing: this does not wait for it) changes nothing: the next open tries again."""
    page_rows = pages.PAGE_ROWS
    db.execute("PRAGMA busy_timeout = 0")
    try:
        stale = [
            snapshot
            for (snapshot,) in db.execute(
                "SELECT c.snapshot FROM collections c JOIN snapshots s ON s.id = c.snapshot"
                " WHERE s.record_count > 0 AND NOT EXISTS (SELECT 1 FROM row_pages p"
                " WHERE p.snapshot = c.snapshot AND p.page = 0 AND p.format = ?)",
                (pages.PAGE_FORMAT,),
            )
        ]
        stale_facts = [
            snapshot
            for (snapshot,) in db.execute(
                "SELECT c.snapshot FROM collections c JOIN snapshots s ON s.id = c.snapshot"
                " WHERE s.record_count > 0 AND s.listing IS NOT NULL AND NOT EXISTS (SELECT 1"
                " FROM fact_pages p WHERE p.snapshot = c.snapshot AND p.page = 0 AND p.format = ?)",
                (pages.FACT_FORMAT,),
            )
        ]
        if not stale and not stale_facts:
            return
        with immediate(db):
            for snapshot in stale:
                db.execute("DELETE FROM row_pages WHERE snapshot = ?", (snapshot,))
                listing = db.execute(
                    "SELECT pos, row, links FROM rows WHERE snapshot = ? ORDER BY pos", (snapshot,)
                ).fetchall()
                for page, start in enumerate(range(0, len(listing), page_rows)):
                    pages.write_page(db, snapshot, page, listing[start : start + page_rows])
            for snapshot in stale_facts:
                pages.write_fact_pages(db, snapshot)
    except (sqlite3.Error, ValueError):  # ValueError: a row that is not JSON (damaged text)
        pass
    finally:
        db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
