"""The offline store: one SQLite file holding the last good snapshot of every collection.

Per collection: the current snapshot (rows for lists, also packed a page at a time for the
window's start-up read; full records for details), the previous one (for change tracking), the
HTTP validators, ``fetched_at`` (last change) and ``checked_at`` (last successful contact), the
last error. A snapshot is replaced in ONE transaction, so a crash or a ``kill -9`` at any moment
leaves either the old or the new snapshot, never a mix. WAL mode lets the window read while a sync
process writes. A corrupt or foreign file is moved aside and a fresh store created, with a message
saying where the old file went. Pydantic is not imported here.
"""

from __future__ import annotations

import itertools
import json
import marshal
import os
import sqlite3
import time
import zlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from catalogue_desktop.core.errors import CatalogueError
from catalogue_desktop.core.kinds import Kind

SCHEMA_VERSION = 3
_MIGRATED = {2}  # older versions this one upgrades in place (2: no ``row_pages``)
FILE_NAME = "catalogue.sqlite3"
ENV_CACHE_DIR = "CATALOGUE_DESKTOP_CACHE_DIR"
_MAX_PROBLEMS = 1000  # problems kept per snapshot (the count is always kept)
PAGE_ROWS = 1000  # rows per packed page (``row_pages``)
# marshal's format may change with Python; pages of another format are ignored (rows are read).
PAGE_FORMAT = f"marshal-{marshal.version}/links-apart"
_PAGE_FORMAT_BYTES = PAGE_FORMAT.encode()

_SCHEMA = """
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
CREATE TABLE IF NOT EXISTS snapshots (
    id INTEGER PRIMARY KEY,
    collection TEXT NOT NULL,
    created_at TEXT NOT NULL,
    record_count INTEGER NOT NULL,
    rejected_count INTEGER NOT NULL,
    problem_count INTEGER NOT NULL,
    problems TEXT NOT NULL,
    changes TEXT,
    stats TEXT
);
-- The listing (row and links, a few hundred bytes) apart from the full JSON (kilobytes): the
-- window reads every row at start-up, and reading them next to ``data`` walked overflow pages.
CREATE TABLE IF NOT EXISTS rows (
    snapshot INTEGER NOT NULL,
    pos INTEGER NOT NULL,
    row TEXT NOT NULL,
    links TEXT NOT NULL,
    PRIMARY KEY (snapshot, pos)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS records (
    snapshot INTEGER NOT NULL,
    pos INTEGER NOT NULL,
    record_id INTEGER,
    data BLOB NOT NULL,
    PRIMARY KEY (snapshot, pos)
);
CREATE INDEX IF NOT EXISTS records_by_id ON records (snapshot, record_id);
"""
# The current snapshot's listing again, packed: ``marshal`` of (positions, rows, links marshalled
# on their own) for PAGE_ROWS rows, with a CRC-32 and the format. The window reads every row at
# start-up: pages cost a fifth of reading the same rows as JSON text from ``rows`` (10,000
# webinars: ~10 ms instead of ~50), the links left packed until needed. Written with the
# snapshot, in its transaction; ``rows`` stays the reference.
_ROW_PAGES = """
CREATE TABLE IF NOT EXISTS row_pages (
    snapshot INTEGER NOT NULL,
    page INTEGER NOT NULL,
    format TEXT NOT NULL,
    crc INTEGER NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (snapshot, page)
)"""


class StoreError(CatalogueError):
    """The store cannot be used (locked by another process, unwritable directory, ...)."""


class CollectionState(NamedTuple):
    """What the store knows about one collection."""

    kind: Kind
    snapshot: int | None = None
    records: int = 0
    rejected: int = 0
    etag: str | None = None
    last_modified: str | None = None
    fetched_at: str | None = None
    checked_at: str | None = None
    last_status: str | None = None
    last_error: str | None = None
    last_error_at: str | None = None

    @property
    def has_data(self) -> bool:
        return self.snapshot is not None


class Entry(NamedTuple):
    """One record of a snapshot as stored: its array position, id, row, links and JSON."""

    pos: int
    record_id: int | None
    row: str
    links: str
    data: bytes


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def default_cache_dir() -> Path:
    """``$CATALOGUE_DESKTOP_CACHE_DIR``, else the platform's user cache dir."""
    env = os.environ.get(ENV_CACHE_DIR)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("catalogue-desktop", appauthor=False))


def store_path(cache_dir: str | Path | None = None) -> Path:
    return Path(cache_dir).expanduser() / FILE_NAME if cache_dir else default_cache_dir() / FILE_NAME


class Store:
    """One SQLite store file. Not shared between threads: open one per thread or process."""

    def __init__(self, path: str | Path, *, busy_timeout: float = 10.0) -> None:
        self.path = Path(path)
        self.recovered: str | None = None  # set when a bad file was moved aside
        self._busy_timeout = busy_timeout
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the cache directory {self.path.parent}: {exc}") from None
        try:
            self._db = self._open()
        except _Unusable as exc:
            self._move_aside(str(exc))
            self._db = self._open()

    # -- opening and recovery ---------------------------------------------------------------

    def _open(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(self.path, timeout=self._busy_timeout, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open the cache {self.path}: {exc}") from None
        try:
            # Check the file is ours before changing it (WAL mode rewrites the file header).
            version = self._schema_version(db)
            if version is None or version == SCHEMA_VERSION or version in _MIGRATED:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=NORMAL")
            if version is None:
                db.executescript(_SCHEMA + _ROW_PAGES + ";")
                db.execute(
                    "INSERT OR REPLACE INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),)
                )
            elif version in _MIGRATED:
                _migrate(db)
            elif version != SCHEMA_VERSION:
                raise _Unusable(f"it has schema version {version}, this app uses {SCHEMA_VERSION}")
            db.execute("SELECT count(*) FROM collections").fetchone()
            _repack(db, self._busy_timeout)
        except sqlite3.OperationalError as exc:
            db.close()
            if "locked" in str(exc) or "busy" in str(exc):
                raise StoreError(
                    f"the cache {self.path} is locked by another process; try again later"
                ) from None
            raise _Unusable(str(exc)) from None
        except sqlite3.DatabaseError as exc:
            db.close()
            raise _Unusable(str(exc)) from None
        except _Unusable:
            db.close()
            raise
        return db

    @staticmethod
    def _schema_version(db: sqlite3.Connection) -> int | None:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            return None
        if "meta" not in tables:
            raise _Unusable("it is not a Catalogue Desktop cache")
        row = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        try:
            return int(row[0]) if row else -1
        except ValueError:
            return -1

    def _move_aside(self, reason: str) -> None:
        stamp = time.strftime("%Y%m%d-%H%M%S")
        aside = self.path.with_name(f"{self.path.name}.unusable-{stamp}")
        n = 1
        while aside.exists():  # never overwrite an earlier moved-aside file (same second)
            n += 1
            aside = self.path.with_name(f"{self.path.name}.unusable-{stamp}-{n}")
        for suffix in ("", "-wal", "-shm"):
            src = Path(str(self.path) + suffix)
            if src.exists():
                try:
                    os.replace(src, Path(str(aside) + suffix))
                except OSError as exc:
                    raise StoreError(f"the cache {self.path} is unusable ({reason}) and "
                                     f"could not be moved aside: {exc}") from None
        self.recovered = (
            f"The cache file {self.path} could not be used ({reason}). It was moved to "
            f"{aside} and a fresh cache was started."
        )

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading -----------------------------------------------------------------------------

    def _query(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._db.execute(sql, tuple(params)).fetchall()
        except sqlite3.OperationalError as exc:
            raise StoreError(f"cannot read the cache {self.path}: {exc}") from None
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"the cache {self.path} is damaged: {exc}") from None

    def state(self, kind: Kind) -> CollectionState:
        rows = self._query(
            "SELECT c.snapshot, s.record_count, s.rejected_count, c.etag, c.last_modified,"
            " c.fetched_at, c.checked_at, c.last_status, c.last_error, c.last_error_at"
            " FROM collections c LEFT JOIN snapshots s ON s.id = c.snapshot WHERE c.name = ?",
            (kind.value,),
        )
        if not rows:
            return CollectionState(kind)
        snap, count, rejected, *rest = rows[0]
        return CollectionState(kind, snap, count or 0, rejected or 0, *rest)

    def states(self) -> dict[Kind, CollectionState]:
        return {kind: self.state(kind) for kind in Kind}

    def iter_columns(self, kind: Kind, chunk: int = 5000, *, packed_links: bool = False,
                     snapshot: int | None = None
                     ) -> Iterator[tuple[list[int], list[list[Any]], Any]]:
        """The current snapshot's rows (or those of ``snapshot``, the one the caller noted as
        current) in array order, ``chunk`` at a time, each chunk as three parallel lists
        (positions, rows, links): the window's loader reads them this way.

        With ``packed_links`` a chunk is a stored page as it is (``PAGE_ROWS`` rows, or ``chunk``
        rows read from ``rows``), and its links may come as ``PackedLinks``, unpacked when needed:
        unpacking them is half the cost of reading a page."""
        if snapshot is None:
            snapshot = self.state(kind).snapshot
        if snapshot is None:
            return
        if packed_links:
            yield from self._pages(snapshot, chunk)
            return
        positions: list[int] = []
        rows: list[list[Any]] = []
        links: list[list[list[int]]] = []
        for page in self._pages(snapshot, chunk):
            positions += page[0]
            rows += page[1]
            links += page[2].unpack() if isinstance(page[2], PackedLinks) else page[2]
            while len(positions) >= chunk:
                yield positions[:chunk], rows[:chunk], links[:chunk]
                del positions[:chunk], rows[:chunk], links[:chunk]
        if positions:
            yield positions, rows, links

    def _pages(self, snapshot: int, chunk: int) -> Iterator[tuple[list[int], list[list[Any]], Any]]:
        """A snapshot's rows in array order, a page at a time: from ``row_pages`` while its pages
        are sound, then (a snapshot written before pages existed, a damaged or foreign page) from
        ``rows``, after the last position read."""
        last = -1
        for page in itertools.count():
            try:
                found = self._query(
                    # as blobs: a damaged value may have become text that is not even UTF-8
                    "SELECT CAST(format AS BLOB), crc, CAST(data AS BLOB) FROM row_pages"
                    " WHERE snapshot = ? AND page = ?",
                    (snapshot, page),
                )
            except StoreError:  # a damaged page of the file itself: ``rows`` may still be sound
                break
            unpacked = _unpack(*found[0]) if found else None
            if unpacked is None or unpacked[0][0] <= last:
                break
            yield unpacked
            last = unpacked[0][-1]
        while found := self._query(
            "SELECT pos, row, links FROM rows WHERE snapshot = ? AND pos > ? ORDER BY pos LIMIT ?",
            (snapshot, last, chunk),
        ):
            yield (
                [pos for pos, _row, _links in found],
                _json_array([row for _pos, row, _links in found]),
                _json_array([links for _pos, _row, links in found]),
            )
            last = found[-1][0]

    def iter_rows(self, kind: Kind, chunk: int = 5000) -> Iterator[list[list[Any]]]:
        """The same chunks as ``iter_columns``, as ``[pos, row, links]`` items."""
        for positions, rows, links in self.iter_columns(kind, chunk):
            yield [list(item) for item in zip(positions, rows, links, strict=True)]

    def record_data(self, kind: Kind, record_id: int) -> bytes | None:
        """The JSON of the current record with this id (the first one if ids repeat)."""
        snapshot = self.state(kind).snapshot
        if snapshot is None:
            return None
        rows = self._query(
            "SELECT data FROM records INDEXED BY records_by_id WHERE snapshot = ? AND record_id = ?"
            " ORDER BY pos LIMIT 1",
            (snapshot, record_id),
        )
        return bytes(rows[0][0]) if rows else None

    def entries(self, kind: Kind, *, previous: bool = False) -> Iterator[Entry]:
        """Every stored record of the current (or previous) snapshot, in array order."""
        column = "previous" if previous else "snapshot"
        try:  # the query itself may hit a damaged page, not only the iteration
            cursor = self._db.execute(
                f"SELECT r.pos, r.record_id, l.row, l.links, r.data FROM collections c"
                f" JOIN records r ON r.snapshot = c.{column}"
                f" JOIN rows l ON l.snapshot = r.snapshot AND l.pos = r.pos"
                f" WHERE c.name = ? ORDER BY r.pos",
                (kind.value,),
            )
            for pos, record_id, row, links, data in cursor:
                yield Entry(pos, record_id, row, links, bytes(data))
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"the cache {self.path} is damaged: {exc}") from None

    def snapshot_info(self, kind: Kind) -> dict[str, Any]:
        """Problems, changes and decode statistics of the current snapshot."""
        rows = self._query(
            "SELECT s.problem_count, s.problems, s.changes, s.stats, s.created_at FROM snapshots s"
            " JOIN collections c ON s.id = c.snapshot WHERE c.name = ?",
            (kind.value,),
        )
        if not rows:
            return {"problem_count": 0, "problems": [], "changes": None, "stats": None}
        count, problems, changes, stats, created = rows[0]
        return {
            "problem_count": count,
            "problems": json.loads(problems),
            "changes": json.loads(changes) if changes else None,
            "stats": json.loads(stats) if stats else None,
            "created_at": created,
        }

    # -- writing -----------------------------------------------------------------------------

    def replace_snapshot(
        self,
        kind: Kind,
        entries: Iterable[Entry],
        *,
        etag: str | None,
        last_modified: str | None,
        checked_at: str,
        rejected: int = 0,
        problems: list[dict[str, Any]] | None = None,
        changes: dict[str, Any] | None = None,
        stats: dict[str, Any] | None = None,
    ) -> int:
        """Store a new current snapshot in one transaction; the old one becomes ``previous``."""
        problems = problems or []
        status = "partial" if rejected else "updated"
        with self._transaction():
            cur = self._db.execute(
                "INSERT INTO snapshots (collection, created_at, record_count, rejected_count,"
                " problem_count, problems, changes, stats) VALUES (?, ?, 0, ?, ?, ?, ?, ?)",
                (
                    kind.value, checked_at, rejected, len(problems),
                    json.dumps(problems[:_MAX_PROBLEMS]),
                    None if changes is None else json.dumps(changes),
                    None if stats is None else json.dumps(stats),
                ),
            )
            new = cur.lastrowid
            count = pages = 0

            # Two tables, one pass over ``entries`` (it may be a generator): batches of rows.
            batch: list[Entry] = []

            def flush() -> None:
                nonlocal pages
                self._db.executemany(
                    "INSERT INTO records (snapshot, pos, record_id, data) VALUES (?, ?, ?, ?)",
                    [(new, e.pos, e.record_id, e.data) for e in batch],
                )
                self._db.executemany(
                    "INSERT INTO rows (snapshot, pos, row, links) VALUES (?, ?, ?, ?)",
                    [(new, e.pos, e.row, e.links) for e in batch],
                )
                _write_page(self._db, new, pages, [(e.pos, e.row, e.links) for e in batch])
                pages += 1
                batch.clear()

            for e in entries:
                count += 1
                batch.append(e)
                if len(batch) >= PAGE_ROWS:
                    flush()
            if batch:
                flush()
            self._db.execute("UPDATE snapshots SET record_count = ? WHERE id = ?", (count, new))
            old = self._db.execute(
                "SELECT snapshot, previous FROM collections WHERE name = ?", (kind.value,)
            ).fetchone()
            current, previous = old if old else (None, None)
            if previous is not None:
                self._db.execute("DELETE FROM records WHERE snapshot = ?", (previous,))
                self._db.execute("DELETE FROM rows WHERE snapshot = ?", (previous,))
                self._db.execute("DELETE FROM snapshots WHERE id = ?", (previous,))
            if current is not None:  # only the current snapshot is read page-wise
                self._db.execute("DELETE FROM row_pages WHERE snapshot = ?", (current,))
            self._db.execute(
                "INSERT INTO collections (name, snapshot, previous, etag, last_modified,"
                " fetched_at, checked_at, last_status, last_error, last_error_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, NULL) ON CONFLICT(name) DO UPDATE SET"
                " snapshot=excluded.snapshot, previous=excluded.previous, etag=excluded.etag,"
                " last_modified=excluded.last_modified, fetched_at=excluded.fetched_at,"
                " checked_at=excluded.checked_at, last_status=excluded.last_status,"
                " last_error=NULL, last_error_at=NULL",
                (kind.value, new, current, etag, last_modified, checked_at, checked_at, status),
            )
        assert new is not None
        return new

    def mark_unchanged(
        self, kind: Kind, *, etag: str | None, last_modified: str | None, checked_at: str
    ) -> None:
        """The service said 304 (or sent the same data): only the contact time moves."""
        self._upsert(
            kind,
            "etag = coalesce(?, etag), last_modified = coalesce(?, last_modified), checked_at = ?,"
            " last_status = 'unchanged', last_error = NULL, last_error_at = NULL",
            (etag, last_modified, checked_at),
        )

    def mark_failed(self, kind: Kind, error: str, at: str) -> None:
        """A refresh failed: the snapshot stays as it was, the reason is kept."""
        self._upsert(
            kind, "last_status = 'failed', last_error = ?, last_error_at = ?", (error, at)
        )

    def _upsert(self, kind: Kind, assignments: str, params: tuple[Any, ...]) -> None:
        with self._transaction():
            self._db.execute("INSERT OR IGNORE INTO collections (name) VALUES (?)", (kind.value,))
            self._db.execute(
                f"UPDATE collections SET {assignments} WHERE name = ?", (*params, kind.value)
            )

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction: committed whole, or rolled back whole (also on a crash)."""
        try:
            with _immediate(self._db):
                yield
        except sqlite3.Error as exc:
            if type(exc) is sqlite3.DatabaseError:  # "malformed": a damaged page met on the way
                raise StoreError(f"the cache {self.path} is damaged: {exc}") from None
            raise StoreError(f"cannot write the cache {self.path}: {exc}") from None


@contextmanager
def _immediate(db: sqlite3.Connection) -> Iterator[None]:
    """``BEGIN IMMEDIATE`` ... ``COMMIT``, or ``ROLLBACK`` on any exception (re-raised as is)."""
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def _json_array(texts: list[str]) -> list[Any]:
    """JSON values stored as text, decoded in one ``json.loads`` of the array they make."""
    return json.loads("[" + ",".join(texts) + "]")


def _write_page(db: sqlite3.Connection, snapshot: int, page: int,
                listing: list[tuple[int, str, str]]) -> None:
    """Pack ``(pos, row JSON, links JSON)`` items as page ``page`` of ``snapshot``: positions and
    rows, and the links packed again on their own (see ``PackedLinks``)."""
    data = marshal.dumps((
        [pos for pos, _row, _links in listing],
        _json_array([row for _pos, row, _links in listing]),
        marshal.dumps(_json_array([links for _pos, _row, links in listing])),
    ))
    db.execute("INSERT INTO row_pages (snapshot, page, format, crc, data) VALUES (?, ?, ?, ?, ?)",
               (snapshot, page, PAGE_FORMAT, zlib.crc32(data), data))


class PackedLinks:
    """One page's link lists, still packed (``marshal``); ``unpack()`` gives them as lists."""

    __slots__ = ("count", "data")

    def __init__(self, data: bytes, count: int) -> None:
        self.data = data
        self.count = count

    def __len__(self) -> int:
        return self.count

    def unpack(self) -> list[list[list[int]]]:
        try:
            links = marshal.loads(self.data)
        except (EOFError, ValueError, TypeError):
            links = None
        if type(links) is not list or len(links) != self.count:
            # cannot happen to a page whose CRC matched; never let it shift links between rows
            raise StoreError("a packed page of the cache holds links that do not fit its rows")
        return links


def _unpack(fmt: bytes, crc: int, data: bytes
            ) -> tuple[list[int], list[list[Any]], PackedLinks] | None:
    """A page's (positions, rows, links), or None if it is not one this app wrote intact."""
    if fmt != _PAGE_FORMAT_BYTES or not isinstance(data, bytes) or zlib.crc32(data) != crc:
        return None
    try:
        value = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return None
    if (type(value) is not tuple or len(value) != 3 or type(value[0]) is not list
            or type(value[1]) is not list or type(value[2]) is not bytes
            or not 0 < len(value[0]) == len(value[1])):
        return None
    return value[0], value[1], PackedLinks(value[2], len(value[0]))


def _migrate(db: sqlite3.Connection) -> None:
    """Upgrade a version-2 store: add ``row_pages`` (``_repack`` fills it)."""
    with _immediate(db):
        db.execute(_ROW_PAGES)
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))


def _repack(db: sqlite3.Connection, busy_timeout: float) -> None:
    """Pack the current snapshots that have rows but no pages this app reads: after an upgrade
    from version 2, or pages of another format (a Python whose ``marshal`` differs). Reading
    falls back to ``rows`` without them, so a failure here (a damaged file, or another process
    writing: this does not wait for it) changes nothing: the next open tries again."""
    db.execute("PRAGMA busy_timeout = 0")
    try:
        stale = [snapshot for (snapshot,) in db.execute(
            "SELECT c.snapshot FROM collections c JOIN snapshots s ON s.id = c.snapshot"
            " WHERE s.record_count > 0 AND NOT EXISTS (SELECT 1 FROM row_pages p"
            " WHERE p.snapshot = c.snapshot AND p.page = 0 AND p.format = ?)", (PAGE_FORMAT,))]
        if not stale:
            return
        with _immediate(db):
            for snapshot in stale:
                db.execute("DELETE FROM row_pages WHERE snapshot = ?", (snapshot,))
                listing = db.execute(
                    "SELECT pos, row, links FROM rows WHERE snapshot = ? ORDER BY pos", (snapshot,)
                ).fetchall()
                for page, start in enumerate(range(0, len(listing), PAGE_ROWS)):
                    _write_page(db, snapshot, page, listing[start:start + PAGE_ROWS])
    except (sqlite3.Error, ValueError):  # ValueError: a row that is not JSON (damaged text)
        pass
    finally:
        db.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")


class _Unusable(Exception):
    """The file is not a usable store of this app (corrupt, foreign, other schema version)."""
