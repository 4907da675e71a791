"""A record's history in words and its fee over time."""

from __future__ import annotations

from decimal import Decimal

from catalogue_desktop.core.cache.record_history import Event
from catalogue_desktop.core.records.history_words import as_text, describe, fee_points

COURSE = {
    "courseId": 6101,
    "title": "Lease Accounting",
    "locations": [
        {"locationId": 7114, "city": "Chicago", "startDate": "2026-12-14T08:30:00-06:00", "fee": 1195},
        {"locationId": 7120, "city": "Dallas", "startDate": "2027-03-09T08:30:00-06:00", "fee": 995},
    ],
}


def test_changes_in_words_name_the_location_they_concern() -> None:
    events = [
        Event("2026-11-14T10:00:00Z", "changed", {"locations/7114/fee": [1095, 1195]}),
        Event("2026-11-20T10:00:00Z", "changed", {"locations/7120": [None, "Dallas, 2027-03-09"]}),
        Event(
            "2026-11-21T10:00:00Z",
            "changed",
            {"title": ["Lease", "Lease Accounting"], "cpeAccreditation": [False, True]},
        ),
        Event(
            "2026-11-22T10:00:00Z",
            "changed",
            {"locations/7114/startDate": ["2026-12-14T08:30:00-06:00", "2026-12-15T09:00:00-06:00"]},
        ),
    ]
    assert as_text(describe(events, COURSE)) == [
        "14 Nov 2026: fee 1,095 → 1,195 (Chicago, 14 Dec 2026)",
        "20 Nov 2026: location added: Dallas, 9 Mar 2027",
        "21 Nov 2026: title Lease → Lease Accounting",
        "21 Nov 2026: CPE no → yes",
        "22 Nov 2026: start 14 Dec 2026 8:30 → 15 Dec 2026 9:00 (Chicago, 14 Dec 2026)",
    ]


def test_added_and_withdrawn_and_hostile_text_cut_to_a_line() -> None:
    long = "x" * 500 + "\n<b>"
    events = [
        Event("2026-01-02T00:00:00Z", "added"),
        Event("2026-02-03T00:00:00Z", "changed", {"title": ["a", long]}),
        Event("2026-03-04T00:00:00Z", "removed"),
    ]
    lines = as_text(describe(events, None))
    assert lines[0] == "2 Jan 2026: added to the catalogue"
    assert len(lines[1]) < 120 and "\n" not in lines[1] and lines[1].endswith("…")
    assert lines[2] == "4 Mar 2026: withdrawn: no longer listed by the service"


def test_fee_points_only_for_fees_that_changed() -> None:
    events = [
        Event("2026-10-01T00:00:00Z", "changed", {"fee": [199, 219]}),
        Event("2026-11-01T00:00:00Z", "changed", {"fee": [219, 249], "title": ["a", "b"]}),
        Event("2026-11-02T00:00:00Z", "changed", {"locations/7114/fee": [1095, "n/a"]}),
    ]
    points = fee_points(events)
    assert points == {
        "": [
            ("", Decimal(199)),
            ("2026-10-01T00:00:00Z", Decimal(219)),
            ("2026-11-01T00:00:00Z", Decimal(249)),
        ]
    }


def test_a_day_is_written_without_glibc_only_directives() -> None:
    """``%-d`` is glibc's: Windows' strftime raises on it. Days are written by ``day_text``."""
    import re
    from pathlib import Path

    import catalogue_desktop
    from catalogue_desktop.core.records.history_words import iso_day_text

    assert iso_day_text("2026-11-04T09:30:00Z") == "4 Nov 2026"
    assert iso_day_text("2027-03-09") == "9 Mar 2027"
    assert iso_day_text("not a day") == "not a day"
    root = Path(catalogue_desktop.__file__).parent
    found = [
        f"{path.relative_to(root)}:{number}"
        for path in sorted(root.rglob("*.py"))
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if re.search(r"%[-#][a-zA-Z]", line)
    ]
    assert found == []
