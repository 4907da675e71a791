"""A course's calendar events: one per day, the schedule's times at the location, never one event
across nights; read back by icalendar once written (see test_offers' .ics tests)."""

from __future__ import annotations

import json
from datetime import date, datetime, time, timedelta, timezone
from pathlib import Path
from zoneinfo import ZoneInfo

from catalogue_desktop.core.cache.store import FILE_NAME, Store
from catalogue_desktop.core.offers import days as offer_days
from catalogue_desktop.core.offers.occasions import Occasion
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.sync.ingest import ingest
from catalogue_desktop.demo.server import load_sample

CHICAGO = Occasion(
    "course", 6101, "Lease", start="2027-02-08T08:30:00.000-06:00", end="2027-02-09T16:30:00.000-06:00",
    location_id=7101, city="Chicago", state="IL",
)  # fmt: skip


def test_a_scheduled_course_is_one_event_per_day_at_the_schedules_times() -> None:
    schedule = offer_days.parse_schedule(
        [
            {"day": 1, "startTime": "08:30", "endTime": "10:15"},
            {"day": 1, "startTime": "13:00", "endTime": "17:00"},
            {"day": 2, "startTime": "09:00", "endTime": "12:00"},
        ]
    )
    found = offer_days.days(CHICAGO, schedule)
    chicago = ZoneInfo("America/Chicago")
    assert [(d.start, d.end) for d in found] == [
        (datetime(2027, 2, 8, 8, 30, tzinfo=chicago), datetime(2027, 2, 8, 17, 0, tzinfo=chicago)),
        (datetime(2027, 2, 9, 9, 0, tzinfo=chicago), datetime(2027, 2, 9, 12, 0, tzinfo=chicago)),
    ]
    assert [d.number for d in found] == [1, 2] and all(d.of == 2 for d in found)
    assert len({d.uid for d in found}) == 2 and all(d.uid.endswith("@catalogue-desktop") for d in found)
    assert [d.uid for d in offer_days.days(CHICAGO, schedule)] == [d.uid for d in found]  # stable


def test_without_a_schedule_the_written_hours_each_day_or_all_day_events() -> None:
    found = offer_days.days(CHICAGO)
    assert [(d.start.isoformat(), d.end.isoformat()) for d in found] == [
        ("2027-02-08T08:30:00-06:00", "2027-02-08T16:30:00-06:00"),
        ("2027-02-09T08:30:00-06:00", "2027-02-09T16:30:00-06:00"),
    ]
    overnight = Occasion(
        "course", 1, "Retreat", start="2027-05-01T18:00:00+02:00", end="2027-05-03T10:00:00+02:00"
    )
    all_day = offer_days.days(overnight)
    assert [(d.on, d.start) for d in all_day] == [(date(2027, 5, n), None) for n in (1, 2, 3)]


def test_one_day_occasions_are_one_event_with_the_occasions_uid() -> None:
    webinar = Occasion(
        "webinar", 50007, "Ethics", start="2026-12-09T13:00:00-05:00", end="2026-12-09T14:30:00-05:00"
    )
    (only,) = offer_days.days(webinar)
    assert only.uid == webinar.uid and only.number == 0
    assert only.end - only.start == timedelta(minutes=90)
    assert offer_days.days(Occasion("webinar", 1, "On demand", on_demand=True)) == []


def test_a_course_off_its_zone_keeps_the_written_offset() -> None:
    sf = Occasion(
        "course", 6112, "Patents", start="2027-03-29T08:30:00.000-08:00", end="2027-03-30T16:30:00.000-08:00",
        state="CA",
    )  # fmt: skip
    found = offer_days.days(sf, {1: (time(8, 30), time(16, 30)), 2: (time(9, 0), time(12, 0))})
    assert all(d.start.utcoffset() == timedelta(hours=-8) for d in found)
    assert found[1].start == datetime(2027, 3, 30, 9, 0, tzinfo=timezone(timedelta(hours=-8)))


def test_hostile_schedules_are_skipped() -> None:
    assert offer_days.parse_schedule("08:30") == {}
    assert offer_days.parse_schedule(
        [
            {"day": True, "startTime": "08:30", "endTime": "10:00"},
            {"day": 0, "startTime": "08:30"},
            {"day": 1, "startTime": "25:00", "endTime": "26:00"},
            {"day": 2, "startTime": "09:00", "endTime": "08:00"},
            "x",
        ]
    ) == {2: (time(9, 0), time(9, 0))}


def test_schedules_are_read_from_the_stored_courses(tmp_path: Path) -> None:
    sample = load_sample()
    ingest(str(tmp_path / FILE_NAME), "courses", sample[Kind.COURSES], None, None, "2026-11-20T09:30:00Z")
    raw = {c["courseId"]: c for c in json.loads(sample[Kind.COURSES])}
    with Store(tmp_path / FILE_NAME) as store:
        found = offer_days.schedules(store, [6101, 6103, 999999, "x"])
    assert set(found) == {6101, 6103}
    assert sorted(found[6103]) == sorted({s["day"] for s in raw[6103]["schedule"]}) == [1, 2, 3]
    day1 = [s for s in raw[6101]["schedule"] if s["day"] == 1]
    assert found[6101][1] == (
        time.fromisoformat(min(s["startTime"] for s in day1)),
        time.fromisoformat(max(s["endTime"] for s in day1)),
    )


def test_a_webinar_or_an_evening_into_the_night_is_one_event() -> None:
    late = Occasion("webinar", 9, "Late", start="2027-05-01T23:00:00+00:00", end="2027-05-02T01:00:00+00:00")
    assert [(d.number, d.end - d.start) for d in offer_days.days(late)] == [(0, timedelta(hours=2))]
    evening = Occasion(
        "course", 9, "Gala", start="2027-05-01T18:00:00+02:00", end="2027-05-02T02:00:00+02:00"
    )
    assert len(offer_days.days(evening)) == 1
