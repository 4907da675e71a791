"""What the ingest computes once per record, and where the refresh's process does not wait: packed
pages made from the values read as the pages made from their JSON; the diff reads the cached
records' JSON; new store files have their own page size; the sync's process imports no pydantic;
the workers start with the first big download. Real stores, real HTTP on loopback."""

from __future__ import annotations

import asyncio
import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

from catalogue_desktop.core.cache.schema import PAGE_SIZE
from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.service.client import CatalogueClient
from catalogue_desktop.core.sync.ingest import _entries, ingest
from catalogue_desktop.core.sync.runner import Ingestor, sync_catalogue
from catalogue_desktop.demo.server import DemoServer
from catalogue_desktop.demo.synthetic import generate


def _read_back(path: Path, kind: Kind) -> tuple[list[Any], list[Any]]:
    with Store(path) as s:
        columns = [(p, r, links) for c in s.iter_columns(kind) for p, r, links in zip(*c, strict=True)]
        facts = [(p, f) for c in s.iter_facts(kind) for p, f in zip(*c, strict=True)]
    return columns, facts


def test_pages_made_from_values_read_as_pages_made_from_json(tmp_path: Path) -> None:
    from catalogue_desktop.core.records.decode import decode_collection

    payloads = generate(300, seed=3)
    for kind in (Kind.WEBINARS, Kind.SERIES, Kind.COURSES, Kind.CERTIFICATES):
        entries = _entries(kind, decode_collection(kind, payloads[kind]).records)
        assert entries and all(e.values is not None for e in entries)
        read = []
        for name, given in (("values", entries), ("json", [e._replace(values=None) for e in entries])):
            path = tmp_path / f"{kind.value}-{name}.sqlite3"
            with Store(path) as s:
                s.replace_snapshot(
                    kind, given, etag=None, last_modified=None, checked_at="2026-01-01T00:00:00Z"
                )
            read.append(_read_back(path, kind))
        assert read[0] == read[1]
        columns, facts = read[0]
        assert [r for _p, r, _l in columns] == [json.loads(e.row) for e in entries]
        assert [f for _p, f in facts] == [json.loads(e.facts or "null") for e in entries]


def test_a_refresh_diffs_against_the_first_copy_of_a_repeated_id(tmp_path: Path) -> None:
    path = str(tmp_path / "catalogue.sqlite3")
    first = [{"topicId": 1, "title": "One"}, {"topicId": 2, "title": "Two"}, {"topicId": 1, "title": "Again"}]
    assert ingest(path, "topics", json.dumps(first).encode(), None, None, "2026-01-01T00:00:00Z").status
    with Store(path) as s:
        assert {k: json.loads(v)["title"] for k, v in s.data_by_id(Kind.TOPICS).items()} == {
            1: "One",
            2: "Two",
        }
    second = [
        {"topicId": 1, "title": "One"},
        {"topicId": 2, "title": "Deux"},
        {"topicId": 3, "title": "Three"},
    ]
    report = ingest(path, "topics", json.dumps(second).encode(), None, None, "2026-01-02T00:00:00Z")
    assert report.changes is not None
    assert report.changes["added"] == [3] and report.changes["removed"] == []
    assert [c["id"] for c in report.changes["changed"]] == [2]


def test_a_new_store_file_has_its_page_size_and_an_older_one_keeps_its_own(tmp_path: Path) -> None:
    new = tmp_path / "new" / "catalogue.sqlite3"
    Store(new).close()
    older = tmp_path / "older" / "catalogue.sqlite3"
    older.parent.mkdir()
    with sqlite3.connect(older) as db:  # a store file made at SQLite's default page size
        db.execute("PRAGMA page_size = 4096")
        db.execute("VACUUM")
    Store(older).close()
    payload = generate(50, seed=1)[Kind.WEBINARS]
    for path in (new, older):
        assert ingest(str(path), "webinars", payload, None, None, "2026-01-01T00:00:00Z").status == "updated"
    sizes = {}
    for path in (new, older):
        with sqlite3.connect(path) as db:
            sizes[path] = db.execute("PRAGMA page_size").fetchone()[0]
            assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok"
    assert sizes == {new: PAGE_SIZE, older: 4096}
    with Store(older) as s:
        assert len(list(s.entries(Kind.WEBINARS))) == len(json.loads(payload))


def test_the_sync_process_imports_no_pydantic() -> None:
    code = (
        "import sys, catalogue_desktop.cli.sync, catalogue_desktop.core.sync.runner;"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'pydantic'"
        " or m == 'catalogue_desktop.core.sync.ingest'))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"


def test_the_workers_start_with_the_first_big_download(tmp_path: Path) -> None:
    """An empty store (nothing says the catalogue is big): the pool is started while the bodies
    are still coming, before any ingest asks for it."""
    payloads = generate(500, seed=7)
    ingestor = Ingestor(workers=1, threshold=64 * 1024)
    started: list[bool] = []
    original = ingestor.prewarm

    async def prewarm() -> None:
        started.append(True)
        await original()

    ingestor.prewarm = prewarm  # type: ignore[method-assign]

    async def main(base_url: str) -> Any:
        async with CatalogueClient(base_url, retries=0, read_timeout=20) as client:
            return await sync_catalogue(client, tmp_path / "catalogue.sqlite3", ingestor=ingestor)

    try:
        with DemoServer(payloads) as server:
            report = asyncio.run(main(server.base_url))
        assert started == [True]
        assert ingestor._pool is not None
    finally:
        ingestor.close()
    assert report.ok


WORKER_MODULES = """
import json
import sys

def modules():
    return sorted(m for m in sys.modules if m.startswith(("httpx", "catalogue_desktop.core.sync")))

if __name__ == "__main__":
    from catalogue_desktop.core.sync.runner import Ingestor

    ingestor = Ingestor(workers=1)
    try:
        print(json.dumps(ingestor._executor().submit(modules).result(timeout=60)))
    finally:
        ingestor.close()
"""


def test_a_worker_imports_the_ingest_and_not_the_client(tmp_path: Path) -> None:
    script = tmp_path / "worker_modules.py"
    script.write_text(WORKER_MODULES)
    out = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, check=True, timeout=120
    )
    found = json.loads(out.stdout.strip().splitlines()[-1])
    assert "catalogue_desktop.core.sync.ingest" in found
    assert not [m for m in found if m.startswith("httpx") or m.endswith(".runner")], found
