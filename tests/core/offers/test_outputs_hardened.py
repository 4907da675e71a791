"""Issue 25, one test per hole found by the hostile-service probe (the whole-catalogue property
test is ``tests/ui/offers/test_hostile_outputs.py``): outputs read back by real parsers."""

from __future__ import annotations

import csv
import html.parser
import io
import json
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import icalendar

from catalogue_desktop.core.cache.store import FILE_NAME, Store
from catalogue_desktop.core.export.records import export_collection
from catalogue_desktop.core.offers import calendar as offer_calendar
from catalogue_desktop.core.offers import mail
from catalogue_desktop.core.offers import occasions as offers
from catalogue_desktop.core.offers.customer_text import Style
from catalogue_desktop.core.offers.sheet import Sheet
from catalogue_desktop.core.records.decode import decode_collection
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.sync.ingest import ingest
from tests.records import webinar

AT = "2026-11-20T09:30:00Z"
NOW = datetime(2026, 11, 24, tzinfo=UTC)
START, END = "2027-03-09T08:30:00.000-05:00", "2027-03-09T16:30:00.000-05:00"
FORMULA = re.compile(r"[=+\-@\t\r]")
NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")


def _occasion(n: int, **fields: Any) -> offers.Occasion:
    base: dict[str, Any] = {"title": f"Course {n}", "start": START, "end": END, "location_id": n}
    base.update(fields)
    return offers.Occasion("course", n, **base)


def _store(tmp_path: Path, kind: Kind, records: list[Any]) -> Path:
    path = tmp_path / FILE_NAME
    ingest(str(path), kind.value, json.dumps(records).encode(), None, None, AT)
    return path


def _evaluated(cell: str) -> bool:
    """Whether a spreadsheet would take ``cell`` for a formula (a plain number it reads as one)."""
    return bool(FORMULA.match(cell)) and NUMBER.fullmatch(cell) is None


# 1. Calendar injection through a link ------------------------------------------------------------

INJECTED_LINKS = [
    "https://a.example/\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:evil@x\r\nDTSTART:20270101T090000Z\r\n"
    "SUMMARY:Injected\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:x",
    "https://a.example/\nATTACH:http://evil.example/x.exe",
    "https://a.example/\r\nEND:VCALENDAR",
    "https://a.example/a b",
]


def test_a_link_with_a_line_break_or_space_is_left_out_of_the_calendar_and_said() -> None:
    items = [_occasion(i, url=url, title=f"Course {i}") for i, url in enumerate(INJECTED_LINKS)]
    items.append(_occasion(9, url="https://a.example/fine"))
    calendar = offer_calendar.calendar_file(items, "as of", NOW)
    events = icalendar.Calendar.from_ical(calendar.text).walk("VEVENT")
    assert [str(e["SUMMARY"]) for e in events] == [o.title for o in items]  # one event each
    assert all("ATTACH" not in e for e in events)
    assert [str(e.get("URL")) for e in events] == ["None"] * 4 + ["https://a.example/fine"]
    assert "Injected" not in [str(e["SUMMARY"]) for e in events]
    assert calendar.links_left_out == 4 and "4 links left out" in calendar.notes[0]
    # the link is still in the description, as escaped text
    assert "ATTACH:http://evil.example/x.exe" in str(events[1]["DESCRIPTION"])


# 2. Spreadsheet formula injection ----------------------------------------------------------------

HOSTILE_TITLES = ["=1+1", "+SUM(A1)", "-2+3", "@cmd", "\tx", "\r=cmd", "ok\r=cmd|' /C calc'!A0", "a\nb"]


def test_every_csv_has_one_row_per_record_and_no_cell_a_spreadsheet_evaluates(tmp_path: Path) -> None:
    records = [webinar(i + 1, title=t, detailUrl='=HYPERLINK("x")') for i, t in enumerate(HOSTILE_TITLES)]
    with Store(_store(tmp_path, Kind.WEBINARS, records)) as store:
        out = io.StringIO()
        assert export_collection(store, Kind.WEBINARS, "csv", out) == len(records)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert len(rows) == len(records) + 1
    title = rows[0].index("title")
    assert [r[title].removeprefix("'") for r in rows[1:]] == HOSTILE_TITLES  # the text, whole
    assert not [c for r in rows for c in r if _evaluated(c)]

    items = [_occasion(i, title=t, city="@x", fee=-5) for i, t in enumerate(HOSTILE_TITLES)]
    out = io.StringIO()
    offers.write_csv(items, out)
    rows = list(csv.reader(io.StringIO(out.getvalue())))
    assert len(rows) == len(items) + 1
    assert not [c for r in rows for c in r if _evaluated(c)]
    assert {r[12] for r in rows[1:]} == {"-5"}  # a negative fee stays a number


def test_the_e_mail_text_and_table_hold_no_formula_and_no_tag_from_the_data() -> None:
    items = [_occasion(i, title=t + "<b>x</b>", city="=c") for i, t in enumerate(HOSTILE_TITLES)]
    lines = mail.plain(items, "as of", Style()).splitlines()
    assert len(lines) == len(items) + 2
    assert not [p for line in lines[:-2] for p in line.split(" — ") if _evaluated(p)]

    class Cells(html.parser.HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.tags: list[str] = []
            self.cells: list[str] = []

        def handle_starttag(self, tag: str, attrs: Any) -> None:
            self.tags.append(tag)
            if tag == "td":
                self.cells.append("")

        def handle_data(self, data: str) -> None:
            if self.cells:
                self.cells[-1] += data

    parser = Cells()
    parser.feed(mail.table(items, "as of", Style()))
    assert "b" not in parser.tags and parser.tags.count("tr") == len(items) + 1
    assert not [c for c in parser.cells if _evaluated(c)]


# 3. Dates outside years 1-9999 -------------------------------------------------------------------

EXTREME = ["9999-12-31T20:00:00.000-12:00", "0001-01-01T01:00:00.000+14:00"]


def test_an_instant_outside_years_1_to_9999_is_rejected_at_decode_with_its_field(tmp_path: Path) -> None:
    payload = [webinar(1, startDate=EXTREME[0]), webinar(2, endDate=EXTREME[1]), webinar(3)]
    decoded = decode_collection(Kind.WEBINARS, json.dumps(payload).encode())
    assert [i for i, _ in decoded.records] == [2]
    assert [(p.field, "outside years 1-9999" in p.message) for p in decoded.problems] == [
        ("startDate", True),
        ("endDate", True),
    ]
    with Store(_store(tmp_path, Kind.WEBINARS, payload)) as store:
        out = io.StringIO()
        assert export_collection(store, Kind.WEBINARS, "csv", out) == 1


def test_an_extreme_date_already_in_a_cache_is_shown_as_written_never_raised() -> None:
    items = [_occasion(1, start=EXTREME[0], end=EXTREME[0]), _occasion(2, start=EXTREME[1], end=None)]
    assert offers.when(EXTREME[0]) == EXTREME[0]
    for local in (False, True):
        assert len(mail.plain(items, "as of", Style(local=local)).splitlines()) == 4
        Sheet(items, "as of", style=Style(local=local)).html()
    assert icalendar.Calendar.from_ical(offer_calendar.ics(items, "as of", NOW)).walk("VEVENT") == []
    out = io.StringIO()
    offers.write_csv(items, out)
    assert len(list(csv.reader(io.StringIO(out.getvalue())))) == 3
    # the edges themselves are fine: exactly one event
    edge = [_occasion(3, start="9999-12-31T23:59:59Z", end="0001-01-01T00:00:00Z")]
    assert len(icalendar.Calendar.from_ical(offer_calendar.ics(edge, "as of", NOW)).walk("VEVENT")) == 1


# 4. Bounded drawing (the PDF itself: tests/ui/offers/test_sheet_bounds.py) -----------------------


def test_the_sheet_draws_at_most_2000_characters_of_a_title_and_names_its_length() -> None:
    title = "word " * 200_000
    page = Sheet([_occasion(1, title=title, venue="v" * 100_000)], "as of").html()
    assert len(page) < 10_000
    assert "… (1,000,000 characters in all)" in page and "(100,000 characters in all)" in page


# 6. Repeated ids, bidi, fees ---------------------------------------------------------------------


def test_repeated_course_location_and_session_ids_get_distinct_uids_and_are_reported() -> None:
    twice = [_occasion(1, location_id=5), _occasion(1, location_id=5), _occasion(1, location_id=5)]
    events = icalendar.Calendar.from_ical(offer_calendar.ics(twice, "as of", NOW)).walk("VEVENT")
    uids = [str(e["UID"]) for e in events]
    assert len(set(uids)) == 3 and uids[0] == twice[0].uid
    assert uids == [
        str(e["UID"])
        for e in icalendar.Calendar.from_ical(offer_calendar.ics(twice, "x", NOW)).walk("VEVENT")
    ]
    assert "suffixed UID" in offer_calendar.calendar_file(twice, "as of", NOW).notes[0]
    course = {"courseId": 1, "title": "C", "locations": [{"locationId": 5}, {"locationId": 5}]}
    problems = decode_collection(Kind.COURSES, json.dumps([course]).encode()).problems
    assert [p.field for p in problems] == ["locations[1].locationId"]
    assert "distinct UIDs" in problems[0].message
    series = {"seriesId": 2, "sessions": [webinar(7), webinar(7)]}
    problems = decode_collection(Kind.SERIES, json.dumps([series]).encode()).problems
    assert [p.field for p in problems] == ["sessions[1].webinarId"]


def test_bidi_controls_are_shown_not_obeyed_in_the_sheet_and_the_e_mail() -> None:
    items = [_occasion(1, title="\u202eexe.live", city="\u2067x\u2069")]
    page = Sheet(items, "as of").html()
    assert "[U+202E]exe.live" in page and "\u202e" not in page and "\u2067" not in page
    assert "[U+202E]" in mail.plain(items, "x", Style()) and "\u202e" not in mail.table(items, "x", Style())


def test_a_fee_of_1e14_is_written_as_a_plain_number_everywhere(tmp_path: Path) -> None:
    """The largest power of ten within reason (core.formats.numbers; 1e308 is refused at decode)."""
    digits = "1" + "0" * 14
    path = tmp_path / FILE_NAME
    ingest(str(path), "certificates", b'[{"certificateId": 1, "title": "C", "fee": 1e14}]', None, None, AT)
    with Store(path) as store:
        out = io.StringIO()
        export_collection(store, Kind.CERTIFICATES, "csv", out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert rows[0]["fee"] == digits
    from decimal import Decimal

    items = [_occasion(1, fee=Decimal("1E+14"))]
    assert offers.json_rows(items)[0]["fee"] == digits
    out = io.StringIO()
    offers.write_csv(items, out)
    assert digits in out.getvalue() and "E+" not in out.getvalue()
    assert digits in mail.plain(items, "x", Style()) and f"Fee: {digits}" in offer_calendar.ics(
        items, "x", NOW
    ).replace("\r\n ", "")
