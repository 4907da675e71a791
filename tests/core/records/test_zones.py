"""Zones from a location's state or province, checked against the offset the service wrote."""

from __future__ import annotations

from datetime import datetime

import pytest

from catalogue_desktop.core.records import zones


def test_every_region_names_zones_that_exist() -> None:
    for code, names in zones.REGION_ZONES.items():
        assert names, code
        for name in names:
            assert zones.known_zone(name), (code, name)
    assert len([c for c in zones.REGION_ZONES if c not in ("PR", "VI", "GU", "AS", "MP")]) == 51 + 13


@pytest.mark.parametrize(
    ("text", "written", "expected"),
    [
        ("2027-02-08T08:30:00.000-06:00", "IL", "8:30 AM CST"),
        ("2027-06-21T08:30:00.000-05:00", "Illinois", "8:30 AM CDT"),
        ("2027-01-25T13:00:00.000-08:00", " ca ", "1:00 PM PST"),
        ("2027-03-15T08:30:00.000-04:00", "ON", "8:30 AM EDT"),
        ("2027-02-15T08:30:00.000-06:00", "TX", "8:30 AM CST"),  # Dallas in winter
        ("2027-03-15T08:30:00.000-05:00", "TN", "8:30 AM CDT"),
        ("2027-07-01T09:00:00.000-07:00", "AZ", "9:00 AM MST"),  # no daylight time
        ("2027-07-01T09:00:00.000-02:30", "NL", "9:00 AM NDT"),
    ],
)
def test_time_at_location_names_the_zone(text: str, written: str, expected: str) -> None:
    assert zones.at_location(datetime.fromisoformat(text), written) == expected


def test_the_demos_san_francisco_course_is_an_hour_off() -> None:
    moment = datetime.fromisoformat("2027-03-29T08:30:00.000-08:00")
    found = zones.check(moment, "CA")
    assert found is not None and not found.ok
    assert (found.zone, found.abbreviation, found.expected, found.written) == (
        "America/Los_Angeles",
        "PDT",
        -420,
        -480,
    )
    assert found.mismatch == (
        "written UTC−08:00, but PDT on that date is UTC−07:00: the time may be an hour off"
    )
    text = zones.at_location(moment, "CA")
    assert text.startswith("8:30 AM UTC−08:00 (written UTC−08:00") and "PDT" in text


def test_an_offset_only_part_of_the_state_uses_is_doubtful_like_any_other() -> None:
    # Dallas written UTC−06:00 in July: Central time is CDT (UTC−05:00) then; only Texas's
    # Mountain-time part uses UTC−06:00. Doubtful like Chicago at UTC−06:00, never called "MDT".
    for state in ("TX", "IL"):
        found = zones.check(datetime.fromisoformat("2027-07-16T08:30:00-06:00"), state)
        assert found is not None and not found.ok, state
        assert (found.zone, found.abbreviation) == ("America/Chicago", "CDT")
    dallas = zones.check(datetime.fromisoformat("2027-07-16T08:30:00-06:00"), "TX")
    assert dallas is not None and dallas.other == "MDT"
    assert dallas.mismatch == (
        "written UTC−06:00 (MDT in part of the state), but CDT on that date is UTC−05:00: "
        "the time may be an hour off"
    )
    text = zones.at_location(datetime.fromisoformat("2027-07-16T08:30:00-06:00"), "TX")
    assert text.startswith("8:30 AM UTC−06:00 (") and "MDT" not in text.split("(")[0]
    tennessee = zones.check(datetime.fromisoformat("2027-03-15T08:30:00-04:00"), "TN")
    assert tennessee is not None and not tennessee.ok and tennessee.other == "EDT"


def test_unknown_places_keep_the_written_offset() -> None:
    moment = datetime.fromisoformat("2027-03-29T16:30:00.000+01:00")
    assert zones.check(moment, "Bavaria") is None
    assert zones.check(moment, None) is None
    assert zones.at_location(moment, "Bavaria") == "4:30 PM UTC+01:00"
    assert zones.at_location(moment, "XX", hour12=False) == "16:30 UTC+01:00"


def test_online_events_in_the_customers_zone() -> None:
    moment = datetime.fromisoformat("2026-12-09T13:00:00.000-05:00")
    assert zones.for_customer(moment, "America/New_York") == "1:00 PM ET (UTC−05:00)"
    assert zones.for_customer(moment, "America/Los_Angeles") == "10:00 AM PT (UTC−08:00)"
    assert zones.for_customer(moment, "Asia/Kolkata") == "11:30 PM IST (UTC+05:30)"
    assert zones.for_customer(moment, "Africa/Abidjan") == "6:00 PM Abidjan (UTC+00:00)"
    assert zones.for_customer(moment, None) == "1:00 PM UTC−05:00"
    assert zones.for_customer(moment, "Not/AZone") == "1:00 PM UTC−05:00"


def test_check_report_lists_the_demo_courses_off_their_zone() -> None:
    from catalogue_desktop.cli.check import format_report
    from catalogue_desktop.core.records.decode import decode_collection
    from catalogue_desktop.core.records.kinds import Kind
    from catalogue_desktop.core.sync.conformance import build_report
    from catalogue_desktop.paths import resource_path

    payload = resource_path("demo", "courses.json").read_bytes()
    report = build_report({Kind.COURSES: decode_collection(Kind.COURSES, payload)})
    found = {(z["course_id"], z["city"], z["field"]): z for z in report["off_zone"]}
    sf = found[(6112, "San Francisco", "startDate")]
    assert sf["value"] == "2027-03-29T08:30:00-08:00" and sf["zone"] == "America/Los_Angeles"
    assert "PDT on that date is UTC−07:00" in sf["message"]
    assert (6101, "Chicago", "startDate") not in found  # February in Chicago: CST, as written
    text = format_report(report)
    assert "Times off their location's zone" in text
    assert "course 6112 location" in text and "(San Francisco, CA) startDate" in text


def test_an_offers_file_name_is_its_title_and_months() -> None:
    from catalogue_desktop.core.offers.customer_text import file_name
    from catalogue_desktop.core.offers.occasions import Occasion

    dec = Occasion("webinar", 1, "A", start="2026-12-09T13:00:00-05:00")
    feb = Occasion("course", 2, "B", start="2027-02-08T08:30:00-06:00")
    ondemand = Occasion("webinar", 3, "C", on_demand=True)
    assert file_name("Offer for Acme", [dec, ondemand], ".pdf") == "Offer for Acme (Dec 2026).pdf"
    assert file_name("Offer", [feb, dec], ".ics") == "Offer (Dec 2026 – Feb 2027).ics"
    assert file_name('a/b:c*?"<>|\\\n', [ondemand], ".pdf") == "a b c.pdf"
    assert file_name(" .. ", [], ".xlsx") == "Offer.xlsx"


def test_the_zones_and_the_query_read_one_table_of_region_names() -> None:
    from catalogue_desktop.core.query import region_codes as query_regions
    from catalogue_desktop.core.records import zones
    from catalogue_desktop.core.records.regions import CODES, spellings

    assert set(zones.REGION_ZONES) == set(CODES)
    for written, code in spellings().items():
        assert zones.region_code(written) == code, written
        assert query_regions.region_code(written) == code, written
    assert zones.region_code("  u.s. virgin   islands ") == "VI"


@pytest.mark.parametrize(("times", "clock"), [(zones.CLOCK, "8:30 AM CDT"), (zones.INSTANT, "9:30 AM CDT")])
def test_a_doubtful_time_is_read_at_the_venue_as_chosen(times: str, clock: str) -> None:
    written = datetime.fromisoformat("2027-06-21T08:30:00-06:00")  # Chicago is on CDT (−05:00) then
    found = zones.check(written, "IL")
    assert found is not None and not found.ok
    read = zones.read_as(written, found, times)
    assert f"{zones.clock(read)} {read.tzname()}" == clock
    assert (read == written) is (times == zones.INSTANT)  # the instant kept, or the clock time
