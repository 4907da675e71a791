"""Offers checked against the catalogue: the .ics parsed by a real iCalendar parser, e-mail text
and HTML, JSON/CSV rows, the offer sheet's HTML (escaped server text, the data's age)."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime, time, timedelta

import icalendar
import pytest

from catalogue_desktop.core.offers import calendar as offer_calendar
from catalogue_desktop.core.offers import mail
from catalogue_desktop.core.offers import occasions as offers
from catalogue_desktop.core.offers import sheet as offer_sheet
from catalogue_desktop.core.offers.customer_text import Style
from catalogue_desktop.core.query import offerings
from catalogue_desktop.core.records.kinds import Kind
from tests.core.query.catalogues import demo_facts, finder_of

AS_OF = "2026-11-24 12:00 UTC"


@pytest.fixture(scope="module")
def found() -> dict:
    finder = finder_of({k: v for k, v in demo_facts().items() if k != offerings.OFFERINGS})
    return offerings.columns(finder.tables, finder.vocabulary)


def _all(found: dict) -> list[offers.Occasion]:
    return offers.occasions(found, range(len(found["id"])))


def test_ics_has_an_event_per_day_of_each_dated_occasion_never_one_across_nights(found: dict) -> None:
    """Without schedules: a course of several days is an event a day, from its written start time
    to its written end time; an occasion within a day is one event, its exact instants."""
    items = _all(found)
    text = offer_calendar.ics(items, AS_OF, now=datetime(2026, 11, 24, tzinfo=UTC))
    assert all(len(line.encode()) <= 75 for line in text.split("\r\n"))  # folded
    events = list(icalendar.Calendar.from_ical(text).walk("VEVENT"))
    by_uid = {str(e["UID"]): e for e in events}
    assert len(by_uid) == len(events)  # unique
    dated = [o for o in items if o.start]
    assert len(dated) < len(items)  # on-demand ones: no event
    made = several = 0
    for o in dated:
        start, end = datetime.fromisoformat(o.start), datetime.fromisoformat(o.end or o.start)
        span = (end.date() - start.date()).days + 1
        days = [(o.uid, start, end, o.title)] if span == 1 else [
            (
                o.uid.replace("@", f"-day{n}@"),
                datetime.combine(start.date() + timedelta(days=n - 1), start.timetz()),
                datetime.combine(start.date() + timedelta(days=n - 1), end.timetz()),
                f"{o.title} (day {n} of {span})",
            )
            for n in range(1, span + 1)
        ]  # fmt: skip
        several += span > 1
        for uid, begin, finish, summary in days:
            event = by_uid[uid]
            assert str(event["SUMMARY"]) == summary
            assert event.decoded("DTSTART") == begin and event.decoded("DTEND") == finish  # the instants
            assert finish - begin < timedelta(hours=24)  # never across nights
            description = str(event["DESCRIPTION"])
            assert "Prices and dates as of " + AS_OF in description
            if o.fee is not None:
                assert f"Fee: {o.fee:,}" in description
            if o.kind == "course":
                location = str(event["LOCATION"])
                assert o.city in location and (o.venue or "") in location
            made += 1
    assert several and len(events) == made


def test_a_scheduled_course_is_an_event_per_day_at_the_schedules_hours(found: dict) -> None:
    from zoneinfo import ZoneInfo

    from catalogue_desktop.core.offers.days import parse_schedule
    from catalogue_desktop.demo.server import load_sample

    course = next(c for c in json.loads(load_sample()[Kind.COURSES]) if c["courseId"] == 6101)
    chicago = next(o for o in _all(found) if o.kind == "course" and o.id == 6101 and o.city == "Chicago")
    text = offer_calendar.ics([chicago], AS_OF, schedules={6101: parse_schedule(course["schedule"])})
    events = list(icalendar.Calendar.from_ical(text).walk("VEVENT"))
    zone = ZoneInfo("America/Chicago")
    for n, event in enumerate(events, 1):
        day = [s for s in course["schedule"] if s["day"] == n]
        on = datetime.fromisoformat(chicago.start).date() + timedelta(days=n - 1)
        first = min(datetime.combine(on, time.fromisoformat(s["startTime"]), zone) for s in day)
        last = max(datetime.combine(on, time.fromisoformat(s["endTime"]), zone) for s in day)
        assert (event.decoded("DTSTART"), event.decoded("DTEND")) == (first, last)
        assert str(event["DESCRIPTION"]).startswith(f"Day {n} of 2: ")
    assert len(events) == len({s["day"] for s in course["schedule"]}) == 2
    # the same file again: the same UIDs (importing it updates the days)
    again = icalendar.Calendar.from_ical(offer_calendar.ics([chicago], "later", schedules={}))
    assert [str(e["UID"]) for e in again.walk("VEVENT")] == [str(e["UID"]) for e in events]


def test_a_webinar_in_several_series_is_one_event() -> None:
    from catalogue_desktop.core.query.engine import Vocabulary

    nothing_on_demand = Vocabulary({"1": "Recorded", "2": "Live"}, frozenset())
    finder = finder_of({k: v for k, v in demo_facts().items() if k != offerings.OFFERINGS}, nothing_on_demand)
    found = offerings.columns(finder.tables, finder.vocabulary)
    items = [o for o in offers.occasions(found, range(found.n)) if o.id == 50420]
    assert len(items) == 1 and len(items[0].all_series) == 3 and items[0].start  # three series, one row
    (event,) = icalendar.Calendar.from_ical(offer_calendar.ics(items, AS_OF)).walk("VEVENT")
    assert str(event["UID"]) == items[0].uid
    description = str(event["DESCRIPTION"])
    assert all(f"Part of {title}" in description for title in items[0].all_series)


def test_uids_are_stable_across_exports_and_distinct_per_occasion(found: dict) -> None:
    first = [o.uid for o in _all(found)]
    again = [o.uid for o in offers.occasions(found, range(len(found["id"])))]
    assert first == again and len(set(first)) == len(first)


def test_ics_escapes_text_and_survives_hostile_titles() -> None:
    o = offers.Occasion(
        "webinar",
        1,
        'Tax; law, "cases"\nand \\ more ' + "é" * 60,
        start="2027-03-09T08:30:00.000-05:00",
        end="2027-03-09T10:00:00.000-05:00",
        url="javascript:alert(1)",
    )
    parsed = icalendar.Calendar.from_ical(offer_calendar.ics([o], AS_OF))
    (event,) = parsed.walk("VEVENT")
    assert str(event["SUMMARY"]) == o.title
    assert "URL" not in event  # only web links
    assert event.decoded("DTSTART") == datetime(2027, 3, 9, 13, 30, tzinfo=UTC)


def test_email_text_and_html_name_every_occasion_and_the_data_s_age(found: dict) -> None:
    items = _all(found)[:5]
    text = mail.plain(items, AS_OF, Style(currency="USD"))
    lines = text.strip().splitlines()
    assert len(lines) == len(items) + 2 and lines[-1].startswith("Prices and dates as of " + AS_OF)
    for o, line in zip(items, lines, strict=False):
        assert line.startswith(o.title + " — ") and (o.url or "") in line
        if o.fee is not None:
            assert f"USD\u00a0{o.fee:,}" in line  # with its currency, unbroken
    html = mail.table(items, AS_OF, Style())
    assert html.count("<tr>") == len(items) + 1 and "Prices and dates as of" in html


def test_when_keeps_the_date_and_offset_as_written() -> None:
    assert offers.when("2027-03-09T08:30:00.000-05:00") == "Tuesday, March 9, 2027 8:30 AM UTC−05:00"
    assert offers.when("2027-03-09T08:30:00+05:30") == "Tuesday, March 9, 2027 8:30 AM UTC+05:30"
    assert offers.when(None) == "on demand"


def test_json_and_csv_rows_carry_the_required_fields(found: dict) -> None:
    items = _all(found)
    rows = offers.json_rows(items)
    assert set(offers.JSON_KEYS) <= set(rows[0])
    courses = {c["id"]: c for c in demo_facts()["courses"]}
    for row in rows:
        if row["kind"] == "course":
            loc = next(x for x in courses[row["id"]]["locations"] if x["id"] == row["locationId"])
            assert (row["city"], row["fee"], row["start"]) == (loc["city"], loc["fee"], loc["startDate"])
        if row["onDemand"]:
            assert row["start"] is None and row["end"] is None
    json.dumps(rows)  # JSON-able
    out = io.StringIO()
    offers.write_csv(items, out)
    read = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert len(read) == len(rows)
    assert [r["title"] for r in read] == [r["title"] for r in rows]
    for r, j in zip(read, rows, strict=True):
        assert r["fee"] == ("" if j["fee"] is None else str(j["fee"]))


def test_the_sheet_escapes_server_text_and_groups() -> None:
    title = "<b>Tax</b> & <script>x</script>"
    items = [
        offers.Occasion(
            "course",
            1,
            title,
            start="2027-03-09T08:30:00-05:00",
            city="Dallas",
            fee=1295,
            cle=True,
            url="https://x.example/a?b=1&c=<2>",
        ),
        offers.Occasion("course", 1, title, start="2027-04-09T08:30:00-05:00", city="Austin", fee=1195),
        offers.Occasion("webinar", 2, "Ethics", on_demand=True),
    ]
    html = offer_sheet.sheet_html(items, AS_OF, title="Offer for ACME")
    assert "<script>" not in html and "&lt;script&gt;" in html
    assert html.count("<h2>") == 2  # by course (or webinar)
    assert AS_OF not in html  # the data's age is in every page's footer, drawn by the renderer
    by_month = offer_sheet.sheet_html(items, AS_OF, group="month")
    assert [m in by_month for m in ("March 2027", "April 2027", "On demand")] == [True] * 3


def test_the_datas_age_is_the_oldest_last_contact_of_the_occasions_sources() -> None:
    from catalogue_desktop.core.cache.store import CollectionState
    from catalogue_desktop.core.records.kinds import Kind

    states = {
        Kind.COURSES: CollectionState(
            Kind.COURSES, 1, fetched_at="2026-10-01T00:00:00Z", checked_at="2026-11-20T09:30:00Z"
        ),  # a 304 since: current
        Kind.SERIES: CollectionState(Kind.SERIES, 2, fetched_at="2026-11-18T12:00:00+01:00"),
        Kind.WEBINARS: CollectionState(Kind.WEBINARS),  # never synced: no part of it
        Kind.EXPERTS: CollectionState(Kind.EXPERTS, 3, checked_at="2020-01-01T00:00:00Z"),  # no source
    }
    assert offers.data_as_of(states) == "2026-11-18T12:00:00+01:00"
    assert offers.age("2026-11-18T12:00:00+01:00", datetime(2026, 11, 25, 11, 0, tzinfo=UTC)).days == 7
    assert offers.data_as_of({Kind.WEBINARS: CollectionState(Kind.WEBINARS)}) is None
    assert offers.age_line(None).startswith("Prices and dates of unknown age")


def test_when_in_local_time_is_the_same_instant(monkeypatch: pytest.MonkeyPatch) -> None:
    import time

    monkeypatch.setenv("TZ", "UTC-1")  # POSIX: one hour east
    time.tzset()
    try:
        assert (
            offers.when("2027-03-09T08:30:00-05:00", local=True) == "Tuesday, March 9, 2027 2:30 PM UTC+01:00"
        )
    finally:
        monkeypatch.undo()
        time.tzset()


def test_a_page_break_before_a_row_continues_its_group_under_its_heading() -> None:
    items = [
        offers.Occasion("course", 1, "Tax", start=f"2027-0{m}-09T08:30:00-05:00", city="Dallas", fee=1)
        for m in range(1, 5)
    ] + [offers.Occasion("webinar", 2, "Ethics", start="2027-05-01T12:00:00Z")]
    sheet = offer_sheet.Sheet(items, AS_OF)
    assert sheet.rows == 5 and sheet.group_starts == {0, 4}
    plain = sheet.html()
    assert "page-break" not in plain and plain.count("<table") == 2
    broken = sheet.html({2, 4})
    assert broken.count("<table") == 3 and "Tax (continued)</h2>" in broken
    assert '<h2 style="page-break-before: always">Ethics</h2>' in broken  # a group's first row


def test_offerings_upcoming_adds_future_unless_the_query_speaks_of_dates() -> None:
    from catalogue_desktop.core.query.offerings import upcoming
    from catalogue_desktop.core.query.syntax import parse, walk

    def has_future(q: str) -> bool:
        return any(
            t.op == "date" and t.field is None and str(t.value).find("future") >= 0
            for t in walk(upcoming(parse(q)).root)
        )

    assert has_future("") and has_future("tax cle:yes") and has_future("a OR b")
    assert not has_future("starts:2027-03") and not has_future("past") and not has_future("next30d tax")


def test_the_occasions_of_whole_records_are_their_upcoming_ones() -> None:
    from datetime import UTC, datetime

    from catalogue_desktop.core.offers.of_records import rows_of

    found = {
        "kind": ["course", "course", "session", "session", "webinar", "session"],
        "id": [1, 1, 10, 11, 12, 13],
        "seriesIds": [(), (), (7,), (7, 8), (), (8,)],
        "startDate": ["2026-01-05T09:00:00-05:00", "2027-01-05T09:00:00-05:00", "2026-01-01T12:00:00Z",
                      "2027-02-01T12:00:00Z", "2027-03-01T12:00:00Z", None],
        "endDate": ["2026-01-06T17:00:00-05:00", "2027-01-06T17:00:00-05:00", "2026-01-01T13:00:00Z",
                    "2027-02-01T13:00:00Z", "2027-03-01T13:00:00Z", None],
        "ondemand": [False, False, False, False, False, True],
    }  # fmt: skip
    now = datetime(2026, 11, 26, tzinfo=UTC)
    assert rows_of(found, "courses", [1], now) == [1]  # the past location left out
    assert rows_of(found, "series", [7], now) == [3]  # a session of two series counts for each
    assert rows_of(found, "series", [8], now) == [3, 5]  # on demand: never over
    assert rows_of(found, "webinars", [11, 12], now) == [3, 4]
    assert rows_of(found, "series", [7], datetime(2030, 1, 1, tzinfo=UTC)) == []
    assert rows_of(found, "experts", [1], now) == [] and rows_of(found, "series", [], now) == []
