"""History with a budget (issue 35): a churning service synced over loopback into a real SQLite
file keeps the cache within a small budget; a record removed, listed again and removed again keeps
its JSON once; a schema-5 store (the removed records' JSON inline in each row) upgrades in place,
its history kept, and gives its free space back after the next sync."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import zlib
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.cache.schema import SCHEMA_VERSION
from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.service.client import CatalogueClient
from catalogue_desktop.core.sync.runner import Ingestor, SyncReport, sync_catalogue
from catalogue_desktop.demo.server import DemoServer
from catalogue_desktop.demo.synthetic import generate

MB = 1024 * 1024
HISTORY_OBJECTS = (
    "history",
    "bodies",
    "history_by_record",
    "history_by_time",
    "history_by_body",
    "sqlite_autoindex_bodies_1",
)


def sync(base_url: str, store_file: Path) -> SyncReport:
    async def main() -> SyncReport:
        async with CatalogueClient(base_url, retries=0, read_timeout=20) as client:
            # (ingested in a thread, whatever the size: no worker processes to start at each sync)
            return await sync_catalogue(client, store_file, ingestor=Ingestor(threshold=64 * MB))

    return asyncio.run(main())


def on_disk(store_file: Path) -> int:
    wal = Path(str(store_file) + "-wal")
    return store_file.stat().st_size + (wal.stat().st_size if wal.exists() else 0)


def history_pages(store_file: Path) -> int:
    """The bytes of the pages the history's tables and indexes take (SQLite's own count)."""
    db = sqlite3.connect(store_file)
    try:
        marks = ",".join("?" * len(HISTORY_OBJECTS))
        found = db.execute(f"SELECT sum(pgsize) FROM dbstat WHERE name IN ({marks})", HISTORY_OBJECTS)
        return int(found.fetchone()[0] or 0)
    finally:
        db.close()


@pytest.fixture
def store_file(tmp_path: Path) -> Path:
    return tmp_path / "cache" / "catalogue.sqlite3"


def test_a_churning_service_keeps_the_cache_within_its_budget(
    demo_server: DemoServer, store_file: Path
) -> None:
    webinars = json.loads(generate(400, 1)[Kind.WEBINARS])  # ~2 MB of JSON, all of it replaced each time
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        assert s.history.budget_megabytes == 200  # the default
        s.history.set_budget_megabytes(1, "2026-11-28T00:00:00Z")
    sizes = []
    for n in range(1, 9):
        moved = [dict(w, webinarId=w["webinarId"] + 1_000_000 * n) for w in webinars]
        demo_server.set_payload(Kind.WEBINARS, json.dumps(moved).encode())
        report = sync(demo_server.base_url, store_file)
        assert report.collections[Kind.WEBINARS].status == "updated"
        assert len(report.collections[Kind.WEBINARS].changes["removed"]) == (60 if n == 1 else 400)
        assert history_pages(store_file) <= 1.5 * MB  # its 1 MB of rows and bodies, in pages
        sizes.append(on_disk(store_file))
    # Without a budget each sync added 2 MB of history (0.7 MB compressed); the file stops growing.
    assert max(sizes[3:]) <= sizes[2] + MB // 2, [round(size / MB, 2) for size in sizes]
    with Store(store_file) as s:
        last = {w.record_id for w in s.history.withdrawn(Kind.WEBINARS)}
        assert {w["webinarId"] + 7_000_000 for w in webinars} <= last  # the latest sync's are kept
        assert not {w["webinarId"] + 1_000_000 * n for w in webinars for n in range(1, 6)} & last
        first = webinars[0]["webinarId"] + 1_000_000
        assert s.history.events(Kind.WEBINARS, first) == []  # the oldest went first
        assert s.history.budget_megabytes == 1  # kept in the file


def test_a_record_removed_listed_again_and_removed_again_keeps_its_json_once(
    demo_server: DemoServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    courses: list[dict[str, Any]] = json.loads(sample[Kind.COURSES])
    gone = courses[2]
    without = [c for c in courses if c is not gone]
    sync(demo_server.base_url, store_file)
    for version in (without, courses, without, courses, without):
        demo_server.set_payload(Kind.COURSES, json.dumps(version).encode())
        assert sync(demo_server.base_url, store_file).collections[Kind.COURSES].status == "updated"
    with Store(store_file) as s:
        changes = [e.change for e in s.history.events(Kind.COURSES, gone["courseId"])]
        assert changes == ["removed", "added", "removed", "added", "removed"]
        (withdrawn,) = s.history.withdrawn(Kind.COURSES)
        shown = json.loads(withdrawn.data)  # (as the store keeps records: the model's JSON)
        assert (shown["courseId"], shown["title"]) == (gone["courseId"], gone["title"])
    db = sqlite3.connect(store_file)
    try:
        rows = db.execute(
            "SELECT body, data FROM history WHERE collection = 'courses' AND record_id = ?"
            " AND change = 'removed'",
            (gone["courseId"],),
        ).fetchall()
        assert len(rows) == 3 and {data for _, data in rows} == {None}
        assert len({body for body, _ in rows}) == 1  # three rows, one body
        ((size, stored),) = db.execute("SELECT size, length(data) FROM bodies").fetchall()
        assert size == len(withdrawn.data) and stored < size / 2  # compressed
    finally:
        db.close()


# The history as schema 5 (the release before issue 35) made it, word for word.
SCHEMA_5_HISTORY = """
CREATE TABLE history_5 (
    collection TEXT NOT NULL,
    record_id INTEGER NOT NULL,
    at TEXT NOT NULL,      -- the sync's time, ISO 8601 UTC
    change TEXT NOT NULL,  -- added | removed | changed
    fields TEXT,           -- changed: JSON {path: [old, new]}
    data BLOB              -- removed: the record's last JSON (a withdrawn record stays findable)
);
"""


def _as_schema_5(store_file: Path) -> None:
    """Make the file what schema 5 wrote: each removed record's JSON inline in its history row,
    no ``bodies``, no ``body`` column, no auto-vacuum."""
    db = sqlite3.connect(store_file, isolation_level=None)
    try:
        db.execute("BEGIN")
        db.execute(SCHEMA_5_HISTORY)
        inline = {
            rowid: zlib.decompress(data)
            for rowid, data in db.execute(
                "SELECT h.rowid, b.data FROM history h JOIN bodies b ON b.id = h.body"
            )
        }
        for row in db.execute(
            "SELECT rowid, collection, record_id, at, change, fields FROM history"
        ).fetchall():
            db.execute(
                "INSERT INTO history_5 (rowid, collection, record_id, at, change, fields, data)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (*row, inline.get(row[0])),
            )
        db.execute("DROP TABLE history")
        db.execute("DROP TABLE bodies")
        db.execute("ALTER TABLE history_5 RENAME TO history")
        db.execute("CREATE INDEX history_by_record ON history (collection, record_id, at)")
        db.execute("CREATE INDEX history_by_time ON history (collection, at)")
        db.execute("UPDATE meta SET value = '5' WHERE key = 'schema_version'")
        db.execute("COMMIT")
        db.execute("PRAGMA auto_vacuum = NONE")
        db.execute("VACUUM")
        assert db.execute("PRAGMA auto_vacuum").fetchone()[0] == 0
    finally:
        db.close()


def test_a_schema_5_store_upgrades_in_place_and_gives_its_space_back_after_a_sync(
    demo_server: DemoServer, store_file: Path
) -> None:
    webinars = json.loads(generate(300, 1)[Kind.WEBINARS])
    sync(demo_server.base_url, store_file)
    for n in (1, 2, 3):
        moved = [dict(w, webinarId=w["webinarId"] + 1_000_000 * n) for w in webinars]
        demo_server.set_payload(Kind.WEBINARS, json.dumps(moved).encode())
        sync(demo_server.base_url, store_file)
    with Store(store_file) as s:
        withdrawn = {w.record_id: w.data for w in s.history.withdrawn(Kind.WEBINARS)}
        events = s.history.since(Kind.WEBINARS, "2000-01-01T00:00:00Z")
    assert len(withdrawn) == 60 + 600
    _as_schema_5(store_file)

    with Store(store_file) as s:  # upgraded in place: the same history, read from the rows
        assert s.recovered is None
        assert {w.record_id: w.data for w in s.history.withdrawn(Kind.WEBINARS)} == withdrawn
        assert s.history.since(Kind.WEBINARS, "2000-01-01T00:00:00Z") == events
        assert s._db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == "12"
    assert SCHEMA_VERSION == 12
    before = on_disk(store_file)

    # the next sync compacts the history (its JSON once, compressed) and gives the space back
    demo_server.set_payload(Kind.WEBINARS, json.dumps(webinars).encode())
    sync(demo_server.base_url, store_file)
    db = sqlite3.connect(store_file)
    try:
        assert db.execute("SELECT count(*) FROM history WHERE data IS NOT NULL").fetchone()[0] == 0
        assert db.execute("PRAGMA auto_vacuum").fetchone()[0] == 2  # incremental from now on
        pages, free = (db.execute(f"PRAGMA {p}").fetchone()[0] for p in ("page_count", "freelist_count"))
        assert free <= pages / 4
    finally:
        db.close()
    assert on_disk(store_file) < before
    with Store(store_file) as s:
        kept = {w.record_id: w.data for w in s.history.withdrawn(Kind.WEBINARS)}
    assert kept and all(withdrawn.get(rid, data) == data for rid, data in kept.items())
