"""The offer check reads the quoted occasions' values kept at ingest (schema 11,
``occasion_values``; issue 40), over real syncs on loopback into real SQLite files: what it reads
is what the facts say (the whole catalogue's occasions, occasion by occasion), without decoding
any record's facts; a change to a quoted occasion, one to an unquoted one and a removed occasion
are told as a check reading the facts tells them; a damaged or missing row, or a snapshot that
keeps none, falls back to the facts, never to a wrong result; and a schema-10 store is upgraded
in place, every offer and check's time kept, its values made by its next check."""

from __future__ import annotations

import json
import shutil
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.cache.schema import SCHEMA_VERSION
from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.offers import checking, logged
from catalogue_desktop.core.offers.quoted_now import quotes_now
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.demo.server import DemoServer
from catalogue_desktop.demo.synthetic import generate
from tests.core.cache.test_history import serve, sync

NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """Each read of records' facts or links by id (the check's read without kept values)."""
    made: list[str] = []
    for name in ("children_of", "facts_of", "first_linking"):
        real = getattr(Store, name)

        def counted(self: Store, *args: Any, _real: Any = real, _name: str = name, **kwargs: Any) -> Any:
            made.append(_name)
            return _real(self, *args, **kwargs)

        monkeypatch.setattr(Store, name, counted)
    yield made


def _crafted() -> dict[Kind, bytes]:
    """A synthetic catalogue with a webinar that is a session of two series, a session on
    demand and a course repeated (its last copy listed)."""
    payloads = generate(300, 1)
    series = json.loads(payloads[Kind.SERIES])
    series[-1]["sessions"].append(dict(series[0]["sessions"][0]))
    series[1]["sessions"][0]["type"] = 1
    payloads[Kind.SERIES] = json.dumps(series).encode()
    courses = json.loads(payloads[Kind.COURSES])
    again = json.loads(json.dumps(courses[0]))
    again["title"] = "Repeated, its last copy"
    courses.append(again)
    payloads[Kind.COURSES] = json.dumps(courses).encode()
    return payloads


def _synced(demo_server: DemoServer, store_file: Path, payloads: dict[Kind, bytes]) -> None:
    for kind, body in payloads.items():
        demo_server.set_payload(kind, body)
    report = sync(demo_server.base_url, store_file)
    assert report.ok, {k: o.error for k, o in report.collections.items() if o.error}


@pytest.fixture
def crafted(demo_server: DemoServer, tmp_path: Path) -> Path:
    """The crafted catalogue synced into a new store; the store's file."""
    store_file = tmp_path / "cache" / "catalogue.sqlite3"
    _synced(demo_server, store_file, _crafted())
    return store_file


def _whole(s: Store) -> dict[str, logged.Quoted]:
    return {k: logged.quoted(o, None) for k, o in checking.now_occasions(s, NOW).items()}


NOT_LISTED = {"course:1@2", "session:x@y", "webinar:", "linked:1", "webinar:99999"}


def test_the_kept_values_are_the_whole_catalogues_and_no_facts_are_read(
    crafted: Path, reads: list[str]
) -> None:
    with Store(crafted) as s:
        whole = _whole(s)
        assert any(q.title == "Repeated, its last copy" for q in whole.values())
        reads.clear()
        assert quotes_now(s, set(whole) | NOT_LISTED) == whole
        some = sorted(whole)[::5]
        assert quotes_now(s, some) == {k: whole[k] for k in some}
        assert reads == []  # (no record's facts decoded, no links read)
        kept = dict(s._db.execute("SELECT collection, occasions FROM snapshots WHERE occasions IS NOT NULL"))
        assert set(kept) == {"courses", "series", "webinars"} and min(kept.values()) > 0


def _offers(s: Store, whole: dict[str, logged.Quoted], keys: list[str]) -> None:
    occasions = checking.now_occasions(s, NOW)
    for n in range(0, len(keys), 2):
        items = [occasions[k] for k in keys[n : n + 2]]
        assert logged.remember(s, title=f"Offer {n}", items=items, written=[], currency="USD")


def _dated(whole: dict[str, logged.Quoted], kind: str) -> list[str]:
    return sorted(k for k, q in whole.items() if k.startswith(kind) and q.start and not q.over(NOW))


def _results(s: Store, **kwargs: Any) -> list[tuple[str, str, Any]]:
    return [(o.title, o.status, o.findings) for o in checking.check(s, NOW, **kwargs).offers]


def test_a_check_on_kept_values_tells_changes_as_the_facts_do(
    demo_server: DemoServer, tmp_path: Path, reads: list[str]
) -> None:
    store_file = tmp_path / "cache" / "catalogue.sqlite3"
    payloads = _crafted()
    _synced(demo_server, store_file, payloads)
    with Store(store_file) as s:
        whole = _whole(s)
        webinars, sessions, courses = (_dated(whole, k) for k in ("webinar:", "session:", "course:"))
        keys = webinars[:6] + sessions[:6] + courses[:6]
        _offers(s, whole, keys)
        assert {o.status for o in checking.check(s, NOW).offers} == {"current"}
    web = json.loads(payloads[Kind.WEBINARS])
    quoted_webinar, unquoted_webinar = int(webinars[0][8:]), int(webinars[-1][8:])
    for record in web:
        if record["webinarId"] in (quoted_webinar, unquoted_webinar):
            record["fee"] = (record.get("fee") or 0) + 100
    gone = int(webinars[2][8:])
    web = [r for r in web if r["webinarId"] != gone]  # (a quoted webinar no longer listed)
    serve(demo_server, Kind.WEBINARS, web)
    course_id, location_id = (int(x) for x in courses[0][7:].split("@"))
    listed = json.loads(payloads[Kind.COURSES])
    for record in listed:
        for location in record.get("locations") or []:
            if record["courseId"] == course_id and location["locationId"] == location_id:
                location["city"] = "Elsewhere"
    serve(demo_server, Kind.COURSES, listed)
    assert sync(demo_server.base_url, store_file).ok
    copy = tmp_path / "copy.sqlite3"
    shutil.copy(store_file, copy)
    reads.clear()
    with Store(store_file) as s:
        kept = _results(s)
    assert reads == []
    with Store(copy) as s:  # the same check reading the whole catalogue's occasions
        assert kept == _results(s, catalogue=lambda: checking.now_occasions(s, NOW))
    statuses = sorted(status for _t, status, _f in kept)
    assert statuses.count("withdrawn") == 1 and statuses.count("changed") == 2, statuses
    words = [line for _t, _s, found in kept for f in found for line in f.changes]
    assert any("fee" in w for w in words) and any("place" in w for w in words)
    assert not any(f"Webinar #{unquoted_webinar}" in w for w in words)


def _damage_fee(db: sqlite3.Connection, key: str) -> None:
    db.execute("UPDATE occasion_values SET fee = 'a lot' WHERE occasion = ?", (key,))


def _damage_start(db: sqlite3.Connection, key: str) -> None:
    db.execute("UPDATE occasion_values SET starts = 20261201 WHERE occasion = ?", (key,))


def _lose_row(db: sqlite3.Connection, key: str) -> None:
    db.execute("DELETE FROM occasion_values WHERE occasion = ?", (key,))


def _unsaid(db: sqlite3.Connection, _key: str) -> None:
    db.execute("UPDATE snapshots SET occasions = -1")


@pytest.mark.parametrize("damage", [_damage_fee, _damage_start, _lose_row, _unsaid])
def test_a_damaged_or_missing_row_falls_back_to_the_facts(
    crafted: Path, reads: list[str], damage: Any
) -> None:
    with Store(crafted) as s:
        whole = _whole(s)
        keys = _dated(whole, "session:")[:4] + _dated(whole, "webinar:")[:4]
        _offers(s, whole, keys)
    db = sqlite3.connect(crafted)
    damage(db, keys[0])
    damage(db, keys[-1])
    db.commit()
    db.close()
    reads.clear()
    with Store(crafted) as s:
        assert quotes_now(s, set(whole) | NOT_LISTED) == whole
        assert reads  # (the facts read: the kept values were not trusted)
        assert {status for _t, status, _f in _results(s)} == {"current"}


def test_a_schema_10_store_is_upgraded_and_its_values_made_by_its_next_check(
    crafted: Path, reads: list[str]
) -> None:
    with Store(crafted) as s:
        whole = _whole(s)
        _offers(s, whole, _dated(whole, "course:")[:3] + _dated(whole, "session:")[:3])
        checking.check(s, NOW)
        _offers(s, whole, _dated(whole, "webinar:")[:2])  # (never checked)
        before = logged.offers(s)
    assert [o.checked_at is None for o in before] == [True, False, False, False]
    db = sqlite3.connect(crafted)  # what schema 10 wrote
    db.execute("DROP TABLE occasion_values")
    db.execute("ALTER TABLE snapshots DROP COLUMN occasions")
    db.execute("UPDATE meta SET value = '10' WHERE key = 'schema_version'")
    db.commit()
    db.close()
    with Store(crafted) as s:
        assert s.recovered is None and SCHEMA_VERSION == 12
        assert s._db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == "12"
        assert s._db.execute("SELECT count(*) FROM occasion_values").fetchone()[0] == 0
        assert logged.offers(s) == before  # (every offer and check's time kept)
        reads.clear()
        assert quotes_now(s, set(whole) | NOT_LISTED) == whole  # (made now, from the facts)
        assert reads == []
        assert s._db.execute("SELECT count(*) FROM occasion_values").fetchone()[0] > len(whole) // 2
        assert {status for _t, status, _f in _results(s)} == {"current"}
