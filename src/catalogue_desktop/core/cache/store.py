"""The offline store: one SQLite file holding the last good snapshot of every collection.

Per collection: the current snapshot (rows for lists, also packed a page at a time for the window's
start-up read; full records for details), the previous one (for change tracking), the HTTP validators,
``fetched_at`` (last change) and ``checked_at`` (last successful contact), the last error. A snapshot is
replaced in ONE transaction, so a crash or a ``kill -9`` at any moment leaves either the old or the new
snapshot, never a mix. WAL mode lets the window read while a sync process writes. A corrupt, foreign or
tampered file is moved aside and a fresh store created, with a message saying where the old file went;
every statement is bounded (``guarded``), and ``reclaim`` gives free space back after a sync. Pydantic
is not imported here. This module reads and writes snapshots; the schema, opening, upgrading and moving
a bad file aside are ``schema``; the packed pages of the start-up read are ``pages``."""

from __future__ import annotations

import functools
import itertools
import json
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from catalogue_desktop.core.cache import occasion_values, space
from catalogue_desktop.core.cache import pages as store_pages
from catalogue_desktop.core.cache.guarded import BoundedConnection, Unusable
from catalogue_desktop.core.cache.offer_log import OfferLog
from catalogue_desktop.core.cache.read_ahead import FACT_PAGE_SQL, Pending, fact_pages
from catalogue_desktop.core.cache.record_history import History, record_sync
from catalogue_desktop.core.cache.saved_searches import SavedSearches
from catalogue_desktop.core.cache.schema import immediate, move_aside, open_db, open_read_only
from catalogue_desktop.core.records.errors import StoreError
from catalogue_desktop.core.records.kinds import Kind

FILE_NAME = "catalogue.sqlite3"
ENV_CACHE_DIR = "CATALOGUE_DESKTOP_CACHE_DIR"
_MAX_PROBLEMS = 1000  # problems kept per snapshot (the count is always kept)


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
    """One record of a snapshot as stored: position, id, row, links, JSON, facts (None: an older listing)."""

    pos: int
    record_id: int | None
    row: str
    links: str
    data: bytes
    facts: str | None = None
    values: tuple[list[Any], list[Any], Any] | None = None  # row, links, facts as values: pages from them


def _links(text: str) -> Any:
    """A record's links from their JSON (a value that is not JSON: none)."""
    try:
        return json.loads(text)
    except ValueError:
        return None


class SnapshotInfo(NamedTuple):
    """What a collection's current snapshot recorded beyond its records (``Store.snapshot_info``):
    its problems (the first ``_MAX_PROBLEMS`` of ``problem_count``), its changes against the one
    before, the decode's statistics and when it was made; blank when there is no snapshot.
    (A named tuple, not a dataclass: a dataclass is compiled at every start, docs/decisions.md.)"""

    problem_count: int
    problems: list[dict[str, Any]]
    changes: dict[str, Any] | None = None
    stats: dict[str, Any] | None = None
    created_at: str | None = None


def utc_now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class Store:
    """One SQLite store file. Not shared between threads: open one per thread or process."""

    def __init__(self, path: str | Path, *, busy_timeout: float = 10.0, read_only: bool = False) -> None:
        self.path = Path(path)
        self.recovered: str | None = None  # set when a bad file was moved aside
        self.read_only = read_only  # opened with mode=ro: find and export on a cache they cannot write
        self._db = open_read_only(self.path) if read_only else self._open(busy_timeout)
        self.history = History(self._db, self._transaction)  # each record's changes
        self.searches = SavedSearches(self._db, self._transaction)  # saved (and watched) searches
        self.offers = OfferLog(self._db, self._transaction)  # the offers made, and their last check

    def _open(self, busy_timeout: float) -> BoundedConnection:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot create the cache directory {self.path.parent}: {exc}") from None
        try:
            return open_db(self.path, busy_timeout)
        except Unusable as exc:
            self.recovered = move_aside(self.path, str(exc))
            return open_db(self.path, busy_timeout)

    def close(self) -> None:
        self._db.close()

    def reclaim(self) -> str | None:
        """Give free space back to the disk (``space.reclaim``: how, or None): after a sync, off
        the window's thread (it may rewrite the whole file)."""
        try:
            return space.reclaim(self._db)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot give the cache {self.path}'s free space back: {exc}") from None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading -----------------------------------------------------------------------------

    def _query(self, sql: str, params: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        try:
            return self._db.execute(sql, tuple(params)).fetchall()
        except sqlite3.OperationalError as exc:
            if str(exc) == "interrupted":  # past its budget of steps (``guarded``): not a cache to trust
                raise StoreError(f"the cache {self.path} is damaged: a query on it never ended") from None
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

    def iter_columns(
        self, kind: Kind, chunk: int = 5000, *, packed_links: bool = False, snapshot: int | None = None
    ) -> Iterator[tuple[list[int], list[list[Any]], Any]]:
        """The current snapshot's rows (or those of ``snapshot``, the one the caller noted as current) in
        array order, ``chunk`` at a time, each chunk as three parallel lists (positions, rows, links): the
        window's loader reads them this way. With ``packed_links`` a chunk is a stored page as it is
        (``PAGE_ROWS`` rows, or ``chunk`` rows read from ``rows``), and its links may come as
        ``PackedLinks``, unpacked when needed: unpacking them is half the cost of reading a page."""
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
            links += page[2].unpack() if isinstance(page[2], store_pages.PackedLinks) else page[2]
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
            unpacked = store_pages.unpack_page(*found[0]) if found else None
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
                store_pages.json_array([row for _pos, row, _links in found]),
                store_pages.json_array([links for _pos, _row, links in found]),
            )
            last = found[-1][0]

    def iter_rows(self, kind: Kind, chunk: int = 5000) -> Iterator[list[list[Any]]]:
        """The same chunks as ``iter_columns``, as ``[pos, row, links]`` items."""
        for positions, rows, links in self.iter_columns(kind, chunk):
            yield [list(item) for item in zip(positions, rows, links, strict=True)]

    def iter_facts(
        self, kind: Kind, snapshot: int | None = None, *, read_ahead: bool = False
    ) -> Iterator[tuple[list[int], list[dict[str, Any] | None]]]:
        """The facts of the current snapshot (or of ``snapshot``) in array order, a page at a time as
        (positions, facts): from ``fact_pages`` while sound (``read_ahead``: read on a thread), then
        from ``rows``. A record listed before facts existed has None (see ``stale_listings``)."""
        for page in self._facts(kind, snapshot, read_ahead, None):
            assert page is not None  # (only a wait gives None)
            yield page

    def facts_ahead(
        self, kind: Kind, snapshot: int | None, *, wait: float
    ) -> Iterator[tuple[list[int], list[dict[str, Any] | None]] | None]:
        """As ``iter_facts(read_ahead=True)``, waiting at most ``wait`` seconds for the thread's next
        page: None when it is not read yet (ask again; the window's indexer then lets the event
        loop run, ``read_ahead``)."""
        return self._facts(kind, snapshot, True, wait)

    def _facts(
        self, kind: Kind, snapshot: int | None, read_ahead: bool, wait: float | None
    ) -> Iterator[tuple[list[int], list[dict[str, Any] | None]] | None]:
        at = self.state(kind).snapshot if snapshot is None else snapshot
        if at is None:
            return
        last, here = -1, (self._fact_page(at, page) for page in itertools.count())
        read_here = functools.partial(self._fact_page, at)
        pages = fact_pages(self.path, at, read_here, wait) if read_ahead else here
        try:
            for blob in pages:
                if isinstance(blob, Pending):
                    yield None
                    continue
                unpacked = store_pages.unpack_fact_page(*blob) if blob else None
                if unpacked is None or unpacked[0][0] <= last:
                    break
                yield unpacked
                last = unpacked[0][-1]
        finally:
            pages.close()  # (the thread reading ahead ends)
        while found := self._query(
            "SELECT pos, coalesce(facts, 'null') FROM rows WHERE snapshot = ? AND pos > ?"
            " ORDER BY pos LIMIT ?",
            (at, last, store_pages.PAGE_ROWS),
        ):
            yield [pos for pos, _f in found], store_pages.json_array([f for _pos, f in found])
            last = found[-1][0]

    def facts_of(
        self, kind: Kind, record_ids: Iterable[int], keys: Sequence[str] = ()
    ) -> list[dict[str, Any] | None]:
        """The facts of the current snapshot's records with these ids (every copy where ids
        repeat), in array order, in one query (by ``records_by_id``): what the offer check reads
        of the records its offers quoted, not the whole collection. With ``keys`` (two or more),
        only these top-level keys (picked by SQLite: a webinar's facts are ~1,300 bytes of JSON,
        and decoding them in Python was most of the read)."""
        at = self.state(kind).snapshot
        wanted = sorted({i for i in record_ids if type(i) is int})
        if at is None or not wanted:
            return []
        paths = ", ".join("'$.\"" + k.replace("'", "''").replace('"', "") + "\"'" for k in keys)
        picked = f"json_extract(l.facts, {paths})" if len(keys) > 1 else "l.facts"
        found = self._query(
            f"SELECT coalesce({picked}, 'null') FROM records r INDEXED BY records_by_id"
            " JOIN rows l ON l.snapshot = r.snapshot AND l.pos = r.pos"
            " WHERE r.snapshot = ? AND r.record_id IN (SELECT value FROM json_each(?)) ORDER BY r.pos",
            (at, "[" + ",".join(map(str, wanted)) + "]"),  # (whole numbers: a JSON array)
        )
        values = store_pages.json_array([f for (f,) in found])
        if len(keys) < 2:
            return values
        return [dict(zip(keys, v, strict=True)) if isinstance(v, list) else None for v in values]

    def occasion_values(self, occasions: Iterable[str]) -> dict[str, occasion_values.Row] | None:
        """The kept values (``occasion_values``) of each of ``occasions`` the current courses,
        series and webinars list (a webinar a series lists is left out, as a session); None
        when a current snapshot of theirs keeps none (written before, listed again) or what it
        keeps does not read as written (a row damaged, or missing): the facts say then."""
        kept = self._query(
            "SELECT c.name, c.snapshot, s.occasions FROM collections c JOIN snapshots s"
            " ON s.id = c.snapshot WHERE c.name IN (?, ?, ?)",
            [k.value for k in occasion_values.KINDS],
        )
        if any(count is None or count < 0 for _name, _at, count in kept):
            return None
        at = {name: snapshot for name, snapshot, _count in kept}
        wanted = set(occasions)
        courses, sessions, webinars = [], [], []  # (by source; lists, not a dict by ``Kind``: hashing
        for key in wanted:  # an enum is a Python call, and a check asks for ~3,000 occasions)
            if key.startswith("course:"):
                courses.append(key)
            elif key.startswith("session:"):
                sessions.append(key)
            elif key.startswith("webinar:"):
                webinars.append(key)
                sessions.append("linked:" + key[8:])
        sql = (
            "SELECT occasion, " + ", ".join(occasion_values.COLUMNS) + " FROM occasion_values"
            " WHERE snapshot = ? AND occasion IN (SELECT value FROM json_each(?))"
        )
        out: dict[str, occasion_values.Row] = {}
        linked = set()
        valid = occasion_values.valid
        for kind, keys in ((Kind.COURSES, courses), (Kind.SERIES, sessions), (Kind.WEBINARS, webinars)):
            snapshot = at.get(kind.value)
            if not keys or snapshot is None:
                continue
            for row in self._query(sql, (snapshot, json.dumps(keys))):
                if not valid(row):
                    return None
                key = row[0]
                if key[0] == "l":  # linked:
                    linked.add("webinar:" + key[7:])
                else:
                    out[key] = row
        for key in linked:
            out.pop(key, None)  # (a series' session: listed as such, not as a webinar)
        if len(out) + len(linked & wanted) < len(wanted) and not self._occasions_whole(kept):
            return None  # (an occasion not found: withdrawn, unless rows are missing)
        return out

    def keep_occasion_values(self) -> bool:
        """Make the ``occasion_values`` of each current snapshot of the courses, series and
        webinars that keeps none yet (one written before schema 11, or listed again) from its
        stored facts and links, in one transaction: the offer check, on its thread, once. False
        when there was none to make, or it cannot be written now (read-only, busy)."""
        missing_sql = (
            "SELECT c.name, c.snapshot FROM collections c JOIN snapshots s ON s.id = c.snapshot"
            " WHERE c.name IN (?, ?, ?) AND s.occasions IS NULL AND s.listing IS NOT NULL"
        )
        kinds = [k.value for k in occasion_values.KINDS]
        if self.read_only:
            return False
        try:
            if not self._db.execute(missing_sql, kinds).fetchall():
                return False  # (none to make: no write lock taken)
            with self._transaction():
                missing = self._db.execute(missing_sql, kinds).fetchall()
                for name, snapshot in missing:
                    ids = dict(
                        self._db.execute(
                            "SELECT pos, record_id FROM records INDEXED BY records_by_id WHERE snapshot = ?",
                            (snapshot,),
                        ).fetchall()
                    )
                    quoted = occasion_values.Collector(Kind(name))
                    for pos, links, facts in self._db.execute(
                        "SELECT pos, links, facts FROM rows WHERE snapshot = ? ORDER BY pos", (snapshot,)
                    ):
                        quoted.add(ids.get(pos), None, _links(links), facts)
                    occasion_values.write(self._db, snapshot, quoted.rows)
        except (sqlite3.Error, StoreError):
            return False
        return bool(missing)

    def _occasions_whole(self, kept: list[tuple[Any, ...]]) -> bool:
        """Whether each snapshot keeps the rows it wrote (none deleted since)."""
        for _name, snapshot, count in kept:
            (found,) = self._query("SELECT count(*) FROM occasion_values WHERE snapshot = ?", (snapshot,))[0]
            if found != count:
                return False
        return True

    def first_linking(self, kind: Kind, linked: Iterable[int]) -> dict[int, int]:
        """For each of the ``linked`` ids, the id of the first record of ``kind`` (in array order)
        whose first list of links holds it (a webinar: the first series it is a session of), read
        off the stored links in one query; an id no record links is left out. (The records' ids
        by position off ``records_by_id`` alone, for the rows found: not a page of ``records``,
        kilobytes of JSON, for every row.)"""
        at = self.state(kind).snapshot
        wanted = sorted({i for i in linked if type(i) is int})
        if at is None or not wanted:
            return {}
        found = self._query(
            "WITH found AS MATERIALIZED (SELECT l.pos, j.key, j.value FROM rows l,"
            " json_each(l.links, '$[0]') j WHERE l.snapshot = ? AND j.value IN"
            " (SELECT value FROM json_each(?)))"
            " SELECT f.value, r.record_id FROM found f JOIN records r INDEXED BY records_by_id"
            " ON r.snapshot = ? AND r.pos = f.pos ORDER BY f.pos, f.key",
            (at, "[" + ",".join(map(str, wanted)) + "]", at),
        )
        first: dict[int, int] = {}
        for link, record_id in found:
            first.setdefault(link, record_id)
        return first

    def children_of(
        self,
        kind: Kind,
        record_ids: Iterable[int],
        child: str,
        keys: Sequence[str],
        child_keys: Sequence[str],
    ) -> list[tuple[list[Any], list[Any]]]:
        """The children (the facts' list ``child``: a course's locations, a series' sessions) of
        the current snapshot's records with these ids, in array order, each as the values of its
        record's ``keys`` and its own ``child_keys`` (two or more each, picked by SQLite), in one
        query: what the offer check reads of the courses and series its offers quoted. (A row a
        record, its children's values gathered by SQLite: its own values picked once, not once
        a child.)"""
        at = self.state(kind).snapshot
        wanted = sorted({i for i in record_ids if type(i) is int})
        if at is None or not wanted:
            return []

        def paths(of: str, names: Sequence[str]) -> str:
            return ", ".join([of] + ["'$.\"" + k.replace("'", "''").replace('"', "") + "\"'" for k in names])

        array = "'$.\"" + child.replace("'", "''").replace('"', "") + "\"'"
        found = self._query(
            f"SELECT json_extract({paths('l.facts', keys)}), (SELECT json_group_array(json_extract("
            f"{paths('j.value', child_keys)})) FROM json_each(l.facts, {array}) j WHERE j.type = 'object')"
            f" FROM records r INDEXED BY records_by_id JOIN rows l ON l.snapshot = r.snapshot AND"
            f" l.pos = r.pos WHERE r.snapshot = ? AND r.record_id IN (SELECT value FROM json_each(?))"
            f" AND json_type(l.facts, {array}) = 'array' ORDER BY r.pos",
            (at, "[" + ",".join(map(str, wanted)) + "]"),  # (whole numbers: a JSON array)
        )
        values = store_pages.json_array([v for pair in found for v in pair])
        return [(of, one) for of, children in zip(values[::2], values[1::2], strict=True) for one in children]

    def _fact_page(self, snapshot: int, page: int) -> tuple[Any, ...] | None:
        try:
            found = self._query(FACT_PAGE_SQL, (snapshot, page))
        except StoreError:
            return None
        return found[0] if found else None

    def snapshot_marks(self, kinds: Iterable[Kind]) -> dict[Kind, tuple[int | None, int | None, str]]:
        """Each of ``kinds``' current snapshot, the listing version its rows and facts were made
        by, and the ids its records repeat (JSON, ``[]`` when none or unreadable): what an offer
        check was made against."""
        wanted = {k.value: k for k in kinds}
        found: dict[Kind, tuple[int | None, int | None, str]] = {
            k: (None, None, "[]") for k in wanted.values()
        }
        for name, snapshot, listing_version, repeated in self._query(
            "SELECT c.name, c.snapshot, s.listing, CASE WHEN json_valid(s.stats) THEN"
            " json_extract(s.stats, '$.duplicate_ids') END FROM collections c"
            " LEFT JOIN snapshots s ON s.id = c.snapshot"
        ):
            if name in wanted:
                found[wanted[name]] = (
                    snapshot,
                    listing_version,
                    repeated if isinstance(repeated, str) else "[]",
                )
        return found

    def record_order(self, snapshot: int) -> str:
        """The ids of ``snapshot``'s records in array order, as one text ("501,502,..."; the
        series' order decides which series a webinar is first a session of), made by SQLite."""
        found = self._query(
            "SELECT group_concat(coalesce(record_id, ''), ',') FROM"
            " (SELECT record_id FROM records INDEXED BY records_by_id WHERE snapshot = ? ORDER BY pos)",
            (snapshot,),
        )
        return str(found[0][0] or "") if found else ""

    def stale_listings(self, version: int) -> list[Kind]:
        """Kinds whose current snapshot was listed (rows, links, facts) by an older version."""
        found = self._query(
            "SELECT c.name FROM collections c JOIN snapshots s ON s.id = c.snapshot"
            " WHERE coalesce(s.listing, 0) < ?",
            (version,),
        )
        return [Kind(name) for (name,) in found if name in {k.value for k in Kind}]

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
                f"SELECT r.pos, r.record_id, l.row, l.links, r.data, l.facts FROM collections c"
                f" JOIN records r ON r.snapshot = c.{column}"
                f" JOIN rows l ON l.snapshot = r.snapshot AND l.pos = r.pos"
                f" WHERE c.name = ? ORDER BY r.pos",
                (kind.value,),
            )
            for pos, record_id, row, links, data, facts in cursor:
                yield Entry(pos, record_id, row, links, bytes(data), facts)
        except sqlite3.DatabaseError as exc:
            raise StoreError(f"the cache {self.path} is damaged: {exc}") from None

    def data_by_id(self, kind: Kind) -> dict[int, bytes]:
        """Id -> JSON of the current snapshot's records, the first copy where ids repeat (the diff's)."""
        found = self._query(  # (its rows walked as ``entries`` does: a damaged one fails the refresh)
            "SELECT r.record_id, r.data FROM collections c JOIN records r ON r.snapshot = c.snapshot"
            " JOIN rows l ON l.snapshot = r.snapshot AND l.pos = r.pos"
            " WHERE c.name = ? AND r.record_id IS NOT NULL ORDER BY r.pos DESC",  # (the first copy last)
            (kind.value,),
        )
        return {record_id: bytes(data) for record_id, data in found}

    def snapshot_info(self, kind: Kind) -> SnapshotInfo:
        """Problems, changes and decode statistics of the current snapshot (none: no snapshot)."""
        rows = self._query(
            "SELECT s.problem_count, s.problems, s.changes, s.stats, s.created_at FROM snapshots s"
            " JOIN collections c ON s.id = c.snapshot WHERE c.name = ?",
            (kind.value,),
        )
        if not rows:
            return SnapshotInfo(0, [])
        count, problems, changes, stats, created = rows[0]
        return SnapshotInfo(
            problem_count=count,
            problems=json.loads(problems),
            changes=json.loads(changes) if changes else None,
            stats=json.loads(stats) if stats else None,
            created_at=created,
        )

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
        listing: int | None = None,
    ) -> int:
        """Store a new current snapshot in one transaction; the old one becomes ``previous``.
        ``listing``: the ``listing.rows.LISTING_VERSION`` the entries' rows and facts were made by."""
        problems = problems or []
        status = "partial" if rejected else "updated"
        with self._transaction():
            cur = self._db.execute(
                "INSERT INTO snapshots (collection, created_at, record_count, rejected_count,"
                " problem_count, problems, changes, stats, listing) VALUES (?, ?, 0, ?, ?, ?, ?, ?, ?)",
                (
                    kind.value,
                    checked_at,
                    rejected,
                    len(problems),
                    json.dumps(problems[:_MAX_PROBLEMS]),
                    None if changes is None else json.dumps(changes),
                    None if stats is None else json.dumps(stats),
                    listing,
                ),
            )
            new = cur.lastrowid
            assert new is not None  # (an INSERT's row)
            count = pages = fact_pages = 0
            page_rows = store_pages.PAGE_ROWS  # (read here: tests write smaller pages)

            # Two tables, one pass over ``entries`` (it may be a generator): batches of rows.
            batch: list[Entry] = []

            def flush() -> None:
                nonlocal pages, fact_pages
                self._db.executemany(
                    "INSERT INTO records (snapshot, pos, record_id, data) VALUES (?, ?, ?, ?)",
                    [(new, e.pos, e.record_id, e.data) for e in batch],
                )
                self._db.executemany(
                    "INSERT INTO rows (snapshot, pos, row, links, facts) VALUES (?, ?, ?, ?, ?)",
                    [(new, e.pos, e.row, e.links, e.facts) for e in batch],
                )
                fact_pages += store_pages.write_batch(self._db, new, pages, fact_pages, batch)
                pages += 1
                batch.clear()

            quoted = occasion_values.Collector(kind) if kind in occasion_values.KINDS else None
            for e in entries:
                count += 1
                batch.append(e)
                if quoted is not None:  # (each occasion's values, from the facts written: issue 40)
                    values = e.values
                    if values is None:
                        quoted.add(e.record_id, None, _links(e.links), e.facts)
                    else:
                        quoted.add(e.record_id, values[2], values[1], None)
                if len(batch) >= page_rows:
                    flush()
            if batch:
                flush()
            self._db.execute("UPDATE snapshots SET record_count = ? WHERE id = ?", (count, new))
            old = self._db.execute(
                "SELECT snapshot, previous FROM collections WHERE name = ?", (kind.value,)
            ).fetchone()
            current, previous = old if old else (None, None)
            if changes is not None:  # each record's history, in this same transaction
                record_sync(self._db, kind.value, changes, checked_at, current)
            if previous is not None:
                self._db.execute("DELETE FROM records WHERE snapshot = ?", (previous,))
                self._db.execute("DELETE FROM rows WHERE snapshot = ?", (previous,))
                self._db.execute("DELETE FROM snapshots WHERE id = ?", (previous,))
            if current is not None:  # only the current snapshot is read page-wise
                self._db.execute("DELETE FROM row_pages WHERE snapshot = ?", (current,))
                self._db.execute("DELETE FROM fact_pages WHERE snapshot = ?", (current,))
                self._db.execute("DELETE FROM occasion_values WHERE snapshot = ?", (current,))
            if quoted is not None and listing is not None:
                occasion_values.write(self._db, new, quoted.rows)
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

    def relisted(
        self, kind: Kind, snapshot: int, items: Iterable[tuple[int, str, str, str | None]], listing: int
    ) -> bool:
        """Replace the rows, links and facts of ``snapshot`` (``(pos, row, links, facts)``, JSON,
        every position) and its pages, in one transaction; False if it is no longer current
        (a sync replaced it meanwhile: nothing is written)."""
        with self._transaction():
            current = self._db.execute(
                "SELECT snapshot FROM collections WHERE name = ?", (kind.value,)
            ).fetchone()
            if not current or current[0] != snapshot:
                return False
            self._db.executemany(
                "UPDATE rows SET row = ?, links = ?, facts = ? WHERE snapshot = ? AND pos = ?",
                [(row, links, facts, snapshot, pos) for pos, row, links, facts in items],
            )
            self._db.execute("DELETE FROM row_pages WHERE snapshot = ?", (snapshot,))
            found = self._db.execute(
                "SELECT pos, row, links FROM rows WHERE snapshot = ? ORDER BY pos", (snapshot,)
            ).fetchall()
            page_rows = store_pages.PAGE_ROWS
            for page, start in enumerate(range(0, len(found), page_rows)):
                store_pages.write_page(self._db, snapshot, page, found[start : start + page_rows])
            store_pages.write_fact_pages(self._db, snapshot)
            self._db.execute("UPDATE snapshots SET listing = ? WHERE id = ?", (listing, snapshot))
            occasion_values.forget(self._db, snapshot)  # (made of the facts before: none now)
        return True

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
        self._upsert(kind, "last_status = 'failed', last_error = ?, last_error_at = ?", (error, at))

    def _upsert(self, kind: Kind, assignments: str, params: tuple[Any, ...]) -> None:
        with self._transaction():
            self._db.execute("INSERT OR IGNORE INTO collections (name) VALUES (?)", (kind.value,))
            self._db.execute(f"UPDATE collections SET {assignments} WHERE name = ?", (*params, kind.value))

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction: committed whole, or rolled back whole (also on a crash)."""
        try:
            with immediate(self._db):
                yield
        except sqlite3.Error as exc:
            if type(exc) is sqlite3.DatabaseError:  # "malformed": a damaged page met on the way
                raise StoreError(f"the cache {self.path} is damaged: {exc}") from None
            raise StoreError(f"cannot write the cache {self.path}: {exc}") from None
