"""Facts in the store (written with each snapshot, read a page at a time) and the listing of an
older version's snapshots made again from their records, offline."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.cache.schema import SCHEMA_VERSION
from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.listing import rows as listing
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.sync.ingest import ingest
from catalogue_desktop.core.sync.relist import relist, relist_stale

AT = "2026-11-24T12:00:00Z"


@pytest.fixture
def filled(tmp_path: Path, sample: dict[Kind, bytes]) -> Path:
    path = tmp_path / "catalogue.sqlite3"
    for kind in Kind:
        report = ingest(str(path), kind.value, sample[kind], f'"{kind.value}"', None, AT)
        assert report.status == "updated", report
    return path


def _facts(store: Store, kind: Kind) -> list[tuple[int, Any]]:
    return [
        item for positions, facts in store.iter_facts(kind) for item in zip(positions, facts, strict=True)
    ]


def test_each_record_is_stored_with_its_facts(filled: Path, sample: dict[Kind, bytes]) -> None:
    with Store(filled) as store:
        assert store.stale_listings(listing.LISTING_VERSION) == []
        for kind in Kind:
            records = json.loads(sample[kind])
            found = _facts(store, kind)
            assert [pos for pos, _ in found] == list(range(len(records)))
            for (_pos, facts), record in zip(found, records, strict=True):
                assert facts["id"] == record[kind.id_field]
                assert facts.get("title", facts.get("name")) == record.get("title", record.get("name"))
        courses = dict(_facts(store, Kind.COURSES))
        first = json.loads(sample[Kind.COURSES])[0]
        assert [loc["city"] for loc in courses[0]["locations"]] == [loc["city"] for loc in first["locations"]]
        assert courses[0]["locations"][0]["startDate"].startswith(first["locations"][0]["startDate"][:19])
        assert courses[0]["locations"][0]["startDate"][-6:] == first["locations"][0]["startDate"][-6:]


def test_facts_are_read_from_rows_when_their_pages_are_gone_or_damaged(filled: Path) -> None:
    with Store(filled) as store:
        want = _facts(store, Kind.WEBINARS)
    db = sqlite3.connect(filled)
    db.execute("UPDATE fact_pages SET data = CAST('damaged' AS BLOB)")
    db.commit()
    db.close()
    with Store(filled) as store:
        assert _facts(store, Kind.WEBINARS) == want


def test_rows_keep_the_offsets_the_dates_were_written_with(filled: Path, sample: dict[Kind, bytes]) -> None:
    record = json.loads(sample[Kind.WEBINARS])[0]
    with Store(filled) as store:
        row = next(iter(store.iter_rows(Kind.WEBINARS)))[0][1]
    start = listing.column_index(Kind.WEBINARS, "start")
    hours, minutes = int(record["startDate"][-6:-3]), int(record["startDate"][-2:])
    assert listing.zone(Kind.WEBINARS, row, start) == hours * 60 + (minutes if hours >= 0 else -minutes)


def _downgrade_to_version_3(path: Path) -> None:
    """What version 3 wrote: no facts column, no fact pages, no listing version, rows without
    their dates' offsets."""
    db = sqlite3.connect(path)
    rows = db.execute("SELECT snapshot, pos, row FROM rows").fetchall()
    for snapshot, pos, row in rows:
        values = json.loads(row)
        db.execute(
            "UPDATE rows SET row = ? WHERE snapshot = ? AND pos = ?", (json.dumps(values[:-1]), snapshot, pos)
        )
    db.execute("DROP TABLE fact_pages")
    db.execute("ALTER TABLE rows DROP COLUMN facts")
    db.execute("ALTER TABLE snapshots DROP COLUMN listing")
    db.execute("DELETE FROM row_pages")
    db.execute("UPDATE meta SET value = '3' WHERE key = 'schema_version'")
    db.commit()
    db.close()


def test_a_version_3_cache_is_upgraded_and_listed_again_from_its_records(filled: Path) -> None:
    with Store(filled) as store:
        want_rows = {k: [r for part in store.iter_rows(k) for r in part] for k in Kind}
        want_facts = {k: _facts(store, k) for k in Kind}
    _downgrade_to_version_3(filled)
    with Store(filled) as store:
        assert store.recovered is None
        stale = store.stale_listings(listing.LISTING_VERSION)
        assert sorted(k.value for k in stale) == sorted(k.value for k in Kind)
        assert all(f is None for _pos, f in _facts(store, Kind.WEBINARS))  # not yet
        old = [r for part in store.iter_rows(Kind.WEBINARS) for r in part]
        assert all(len(r[1]) == len(listing.COLUMNS[Kind.WEBINARS]) for r in old)  # still shown
    reports = relist_stale(str(filled))
    assert {r["kind"] for r in reports} == {k.value for k in Kind}
    assert all(r["error"] is None for r in reports)
    with Store(filled) as store:
        assert store.stale_listings(listing.LISTING_VERSION) == []
        for kind in Kind:
            assert _facts(store, kind) == want_facts[kind]
            rows = [r for part in store.iter_rows(kind) for r in part]
            # the "next date" of a course depends on the day it was listed: the rest is equal
            assert [r[0] for r in rows] == [r[0] for r in want_rows[kind]]
            if kind is not Kind.COURSES:
                assert rows == want_rows[kind]
    db = sqlite3.connect(filled)
    version = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0]
    assert version == str(SCHEMA_VERSION)
    db.close()


def test_a_relisting_overtaken_by_a_sync_writes_nothing(filled: Path, sample: dict[Kind, bytes]) -> None:
    with Store(filled) as store:
        snapshot = store.state(Kind.TOPICS).snapshot
        assert snapshot is not None
        ingest(str(filled), Kind.TOPICS.value, sample[Kind.TOPICS], '"t2"', None, AT)
        assert store.relisted(Kind.TOPICS, snapshot, [], listing.LISTING_VERSION) is False
    assert relist(str(filled), Kind.TOPICS.value)["records"] == len(json.loads(sample[Kind.TOPICS]))


def test_facts_are_stored_in_pages_smaller_than_the_rows_pages(
    tmp_path: Path, sample: dict[Kind, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The finder reads a fact page per step on the window's thread: pages of ``FACT_PAGE_ROWS``
    records, within the rows' pages, every record once and in order (also when packed again)."""
    from catalogue_desktop.core.cache import pages as store_pages

    monkeypatch.setattr(store_pages, "PAGE_ROWS", 20)
    monkeypatch.setattr(store_pages, "FACT_PAGE_ROWS", 7)
    path = tmp_path / "catalogue.sqlite3"
    report = ingest(str(path), Kind.WEBINARS.value, sample[Kind.WEBINARS], '"w"', None, AT)
    assert report.status == "updated", report
    n = len(json.loads(sample[Kind.WEBINARS]))
    with Store(path) as store:
        pages = list(store.iter_facts(Kind.WEBINARS))
        assert [len(p) for p, _f in pages] == [
            min(i + 7, 20 * (i // 20 + 1), n) - i for i in _page_starts(n, 20, 7)
        ]
        assert [pos for p, _f in pages for pos in p] == list(range(n))
        snapshot = store.state(Kind.WEBINARS).snapshot
        want = _facts(store, Kind.WEBINARS)
    db = sqlite3.connect(path)
    store_pages.write_fact_pages(db, snapshot)  # packed again from the rows
    db.commit()
    db.close()
    with Store(path) as store:
        sizes = [len(p) for p, _f in store.iter_facts(Kind.WEBINARS)]
        assert sizes == [min(7, n - i) for i in range(0, n, 7)]
        assert _facts(store, Kind.WEBINARS) == want


def _page_starts(n: int, rows: int, facts: int) -> list[int]:
    """Where each fact page starts: every ``facts`` records within each page of ``rows``."""
    return [i for start in range(0, n, rows) for i in range(start, min(start + rows, n), facts)]


def test_fact_pages_read_ahead_on_a_thread_are_the_same_pages(
    tmp_path: Path, sample: dict[Kind, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``iter_facts(read_ahead=True)`` (the window's indexer: pages read by a thread of their own)
    gives the same pages as reading them on the caller's thread: every page while they are
    sound, then the rest from ``rows``; read here when the thread cannot open the file; and
    closing it early ends the thread."""
    import threading

    from catalogue_desktop.core.cache import pages as store_pages
    from catalogue_desktop.core.cache import read_ahead

    monkeypatch.setattr(store_pages, "PAGE_ROWS", 20)
    monkeypatch.setattr(store_pages, "FACT_PAGE_ROWS", 7)
    monkeypatch.setattr(read_ahead, "AHEAD", 2)
    path = tmp_path / "catalogue.sqlite3"
    assert ingest(str(path), Kind.WEBINARS.value, sample[Kind.WEBINARS], '"w"', None, AT).status == "updated"
    n = len(json.loads(sample[Kind.WEBINARS]))
    assert n > 3 * 7

    def pages(store: Store, **how: Any) -> list[tuple[list[int], list[Any]]]:
        return list(store.iter_facts(Kind.WEBINARS, **how))

    running: list[int] = []  # the reading threads not ended
    read = read_ahead._read

    def counted(*args: Any) -> None:
        running.append(1)
        try:
            read(*args)
        finally:
            running.pop()

    monkeypatch.setattr(read_ahead, "_read", counted)

    def readers() -> int:
        return len(running)

    with Store(path) as store:
        here = pages(store)
        assert len(here) > 3
        assert pages(store, read_ahead=True) == here
        snapshot = store.state(Kind.WEBINARS).snapshot
        early = store.iter_facts(Kind.WEBINARS, read_ahead=True)
        assert next(early) == here[0]
        early.close()
        for _ in range(50):
            if not readers():
                break
            threading.Event().wait(0.02)
        assert readers() == 0
    db = sqlite3.connect(path)  # the last pages damaged: those records' facts come from ``rows``
    db.execute("UPDATE fact_pages SET crc = crc + 1 WHERE snapshot = ? AND page >= 2", (snapshot,))
    db.commit()
    db.close()
    with Store(path) as store:
        assert [p for p, _f in pages(store, read_ahead=True)][:2] == [p for p, _f in here[:2]]
        assert [pos for p, _f in pages(store, read_ahead=True) for pos in p] == list(range(n))
        assert pages(store, read_ahead=True) == pages(store)

        def cannot_open(*_args: Any, **_kw: Any) -> Any:
            raise sqlite3.OperationalError("unable to open database file")

        monkeypatch.setattr(read_ahead.sqlite3, "connect", cannot_open)  # the thread reads nothing
        assert pages(store, read_ahead=True) == pages(store)


def test_a_listing_2_cache_gets_its_series_sessions_when_listed_again(filled: Path) -> None:
    """Version 2 wrote a series' row without its sessions' dates and types (``rows.SESSIONS_AT``):
    such a snapshot is stale, shows its rows meanwhile, and is listed again with them."""
    with Store(filled) as store:
        want = [r for part in store.iter_rows(Kind.SERIES) for r in part]
    assert all(len(r[1]) == listing.SESSIONS_AT + 1 and r[1][-1] for r in want)
    db = sqlite3.connect(filled)
    for snapshot, pos, row in db.execute("SELECT snapshot, pos, row FROM rows").fetchall():
        values = json.loads(row)
        if len(values) > listing.SESSIONS_AT:  # (a series' row: the others are shorter)
            db.execute(
                "UPDATE rows SET row = ? WHERE snapshot = ? AND pos = ?",
                (json.dumps(values[: listing.SESSIONS_AT]), snapshot, pos),
            )
    db.execute("UPDATE snapshots SET listing = 2")
    db.execute("DELETE FROM row_pages")
    db.commit()
    db.close()
    with Store(filled) as store:
        assert Kind.SERIES in store.stale_listings(listing.LISTING_VERSION)
        old = [r for part in store.iter_rows(Kind.SERIES) for r in part]
        assert all(len(r[1]) == listing.SESSIONS_AT for r in old)
    relist_stale(str(filled))
    with Store(filled) as store:
        assert store.stale_listings(listing.LISTING_VERSION) == []
        assert [r for part in store.iter_rows(Kind.SERIES) for r in part] == want


def test_the_window_never_waits_for_the_thread_reading_facts_ahead(
    tmp_path: Path, sample: dict[Kind, bytes], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``facts_ahead`` (the window's indexer) gives None while the thread has not read the next page,
    instead of waiting for it, and the pages once it has; the thread is started without waiting for
    it to run (``threading.Thread.start`` waits until it has: on a loaded machine the indexer's steps
    waited 50-90 ms there, with ~1 ms of CPU, during a refresh; issue 40)."""
    import threading

    from catalogue_desktop.core.cache import pages as store_pages
    from catalogue_desktop.core.cache import read_ahead

    monkeypatch.setattr(store_pages, "PAGE_ROWS", 20)
    monkeypatch.setattr(store_pages, "FACT_PAGE_ROWS", 7)
    path = tmp_path / "catalogue.sqlite3"
    assert ingest(str(path), Kind.WEBINARS.value, sample[Kind.WEBINARS], '"w"', None, AT).status == "updated"
    go = threading.Event()
    read = read_ahead._read

    def held(*args: Any) -> None:  # a thread not given a CPU yet
        go.wait()
        read(*args)

    monkeypatch.setattr(read_ahead, "_read", held)
    starts = 0
    start = threading.Thread.start

    def counted_start(thread: threading.Thread) -> None:
        nonlocal starts
        starts += 1
        start(thread)

    monkeypatch.setattr(threading.Thread, "start", counted_start)
    with Store(path) as store:
        want = list(store.iter_facts(Kind.WEBINARS))
        pages = store.facts_ahead(Kind.WEBINARS, None, wait=0.001)
        assert [next(pages) for _ in range(3)] == [None, None, None]  # (asked again, not waited for)
        assert starts == 0
        go.set()
        assert [p for p in pages if p is not None] == want
        assert len(want) > 3
