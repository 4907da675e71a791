"""Each record's history: real syncs over loopback (the demo service) through several versions of
the catalogue, into real SQLite files; the upgrade from a schema-4 store."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.cache import record_history
from catalogue_desktop.core.cache.schema import SCHEMA_VERSION
from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.service.client import CatalogueClient
from catalogue_desktop.core.sync.runner import SyncReport, sync_catalogue
from catalogue_desktop.demo.server import DemoServer


def sync(base_url: str, store_file: Path) -> SyncReport:
    async def main() -> SyncReport:
        async with CatalogueClient(base_url, retries=0, read_timeout=20) as client:
            return await sync_catalogue(client, store_file)

    return asyncio.run(main())


def courses_of(sample: dict[Kind, bytes]) -> list[dict[str, Any]]:
    return json.loads(sample[Kind.COURSES])


def serve(server: DemoServer, kind: Kind, records: list[dict[str, Any]]) -> None:
    server.set_payload(kind, json.dumps(records).encode())


@pytest.fixture
def store_file(tmp_path: Path) -> Path:
    return tmp_path / "cache" / "catalogue.sqlite3"


def test_syncs_record_what_changed_per_record_nested_fields_by_path(
    demo_server: DemoServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    assert sync(demo_server.base_url, store_file).ok
    courses = courses_of(sample)
    first, second, third = courses[0], courses[1], courses[2]
    with Store(store_file) as s:
        assert s.history.events(Kind.COURSES, first["courseId"]) == []  # the first sync is no change

    # v2: a location's fee changes, a location is added, a course is withdrawn, one is added
    v2 = json.loads(json.dumps(courses))
    loc = v2[0]["locations"][0]
    old_fee, loc["fee"] = loc["fee"], loc["fee"] + 100
    added_location = dict(
        v2[0]["locations"][1], locationId=99001, city="Denver", startDate="2027-03-09T08:30:00.000-07:00"
    )
    v2[0]["locations"].append(added_location)
    withdrawn = v2.pop(2)
    newcomer = dict(json.loads(json.dumps(courses[3])), courseId=99500, title="Brand-new course")
    v2.append(newcomer)
    serve(demo_server, Kind.COURSES, v2)
    report = sync(demo_server.base_url, store_file)
    assert report.collections[Kind.COURSES].status == "updated"

    with Store(store_file) as s:
        events = s.history.events(Kind.COURSES, first["courseId"])
        assert [e.change for e in events] == ["changed"]
        fields = events[0].fields
        assert fields[f"locations/{loc['locationId']}/fee"] == [old_fee, old_fee + 100]
        assert fields["locations/99001"][0] is None and fields["locations/99001"][1]
        assert [e.change for e in s.history.events(Kind.COURSES, withdrawn["courseId"])] == ["removed"]
        assert [e.change for e in s.history.events(Kind.COURSES, 99500)] == ["added"]
        assert s.history.events(Kind.COURSES, second["courseId"]) == []  # untouched
        gone = s.history.withdrawn(Kind.COURSES)
        assert [w.record_id for w in gone] == [third["courseId"]]
        assert json.loads(gone[0].data)["title"] == third["title"]  # still findable as it was

    # v3: the withdrawn course comes back; another record is rejected (a string id): a partial
    # sync must not record the rejected record as removed
    v3 = json.loads(json.dumps(v2))
    v3.append(withdrawn)
    v3[1]["fee"] = "not a number"
    v3[1]["locations"] = "broken"
    serve(demo_server, Kind.COURSES, v3)
    report = sync(demo_server.base_url, store_file)
    assert report.collections[Kind.COURSES].status == "partial"
    with Store(store_file) as s:
        assert [e.change for e in s.history.events(Kind.COURSES, withdrawn["courseId"])] == [
            "removed",
            "added",
        ]
        assert s.history.withdrawn(Kind.COURSES) == []
        assert s.history.events(Kind.COURSES, second["courseId"]) == []  # rejected, kept: no "removed"

    # a failed sync (every record rejected) records nothing
    with Store(store_file) as s:
        before = len(s.history.since(Kind.COURSES, "2000-01-01T00:00:00Z"))
    serve(demo_server, Kind.COURSES, [{"courseId": "x"}])
    assert sync(demo_server.base_url, store_file).collections[Kind.COURSES].status == "failed"
    with Store(store_file) as s:
        assert len(s.history.since(Kind.COURSES, "2000-01-01T00:00:00Z")) == before


def test_series_sessions_are_named_by_their_webinar_id(
    demo_server: DemoServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    sync(demo_server.base_url, store_file)
    series = json.loads(sample[Kind.SERIES])
    session = series[0]["sessions"][0]
    session["startDate"] = "2026-12-10T13:00:00.000-05:00"
    serve(demo_server, Kind.SERIES, series)
    sync(demo_server.base_url, store_file)
    with Store(store_file) as s:
        (event,) = s.history.events(Kind.SERIES, series[0]["seriesId"])
    assert event.fields == {
        f"sessions/{session['webinarId']}/startDate": [
            "2026-12-09T13:00:00-05:00",
            "2026-12-10T13:00:00-05:00",
        ]
    }


def test_history_older_than_the_span_is_pruned(store_file: Path) -> None:
    def write(record_id: int, at: str) -> None:
        db.execute("BEGIN")
        record_history.record(db, "courses", {"added": [record_id], "removed": [], "changed": []}, at, {})
        db.execute("COMMIT")

    def kept() -> list[int]:
        return [r for r, _ in record_history.since(db, "courses", "2000-01-01T00:00:00Z")]

    with Store(store_file) as s:
        db = s._db
        assert s.history.span_days == record_history.DEFAULT_SPAN_DAYS == 400
        write(1, "2025-01-01T00:00:00Z")
        write(2, "2025-06-01T00:00:00Z")  # 151 days later: both within the span
        assert kept() == [1, 2]
        write(3, "2026-03-01T00:00:00Z")  # 424 days after the first: it goes
        assert kept() == [2, 3]
        s.history.set_span_days(
            30, "2026-11-26T00:00:00Z"
        )  # prunes at once, from now (all three are older than 30 days)
        assert s.history.span_days == 30
        assert kept() == []
    with Store(store_file) as s:
        assert s.history.span_days == 30  # kept in the file: the window and the command line agree
        with pytest.raises(ValueError):
            s.history.set_span_days(0, "2026-11-26T00:00:00Z")


def test_an_upgrade_from_schema_4_keeps_the_data_and_begins_history_with_the_last_change(
    demo_server: DemoServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    sync(demo_server.base_url, store_file)
    courses = courses_of(sample)
    courses[0]["title"] = "Renamed"
    serve(demo_server, Kind.COURSES, courses)
    sync(demo_server.base_url, store_file)
    # make it the store today's release writes: schema 4, no history table
    db = sqlite3.connect(store_file)
    db.execute("DROP TABLE history")
    db.execute("DROP TABLE bodies")
    db.execute("UPDATE meta SET value = '4' WHERE key = 'schema_version'")
    db.commit()
    db.close()
    with Store(store_file) as s:
        assert s.state(Kind.COURSES).records == len(courses)
        (event,) = s.history.events(Kind.COURSES, courses[0]["courseId"])
        assert event.change == "changed" and event.fields["title"][1] == "Renamed"
        assert event.at == s.state(Kind.COURSES).fetched_at
        version = s._db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
    assert version == str(SCHEMA_VERSION) == "12"


def test_slash_paths() -> None:
    assert record_history.slash_path("locations[7114].fee") == "locations/7114/fee"
    assert record_history.slash_path("sessions[50406].startDate") == "sessions/50406/startDate"
    assert record_history.slash_path("title") == "title"
