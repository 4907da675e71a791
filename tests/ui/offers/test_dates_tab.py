"""The sales desk's Dates tab: one row per bookable occasion, sorted by start, past ones hidden
unless asked, the finder's query applied; a row opens its course, webinar or series."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.cache.store import FILE_NAME
from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.ui.shared_window import *  # noqa: F403 (the shared window's fixtures)
from tests.ui.shared_window import assert_as_started, offline_ready, put_back, window_state

START = column_index(OCCASIONS, "start")
KIND = column_index(OCCASIONS, "kind")
RECORD = column_index(OCCASIONS, "record")
PAST_WEBINAR = 50035  # moved into 2025 below: over, live


@pytest.fixture(scope="module")
def dated_cache(module_folder: Path, sample: dict[Kind, bytes]) -> Path:
    """The demo sample with one live webinar (no series' session) moved into the past."""
    from catalogue_desktop.core.sync.ingest import ingest

    cache_dir = module_folder / "cache"
    cache_dir.mkdir()
    webinars = json.loads(sample[Kind.WEBINARS])
    in_series = {w["webinarId"] for s in json.loads(sample[Kind.SERIES]) for w in s["sessions"]}
    assert PAST_WEBINAR not in in_series
    for w in webinars:
        if w["webinarId"] == PAST_WEBINAR:
            assert w["type"] == 2
            w["startDate"], w["endDate"] = "2025-05-06T13:00:00.000-05:00", "2025-05-06T14:30:00.000-05:00"
    payloads = {**sample, Kind.WEBINARS: json.dumps(webinars).encode()}
    for kind, payload in payloads.items():
        assert (
            ingest(str(cache_dir / FILE_NAME), kind.value, payload, None, None, "2026-11-01T00:00:00Z").status
            == "updated"
        )
    return cache_dir


@pytest.fixture(scope="module")
def shared_window(request: pytest.FixtureRequest, dated_cache: Path) -> Iterator[tuple[Any, dict[str, Any]]]:
    """The window the tests here share (``tests/ui/shared_window.py``): offline on
    ``dated_cache``, its finder ready, every tab made; and its state then (``window_state``)."""
    with offline_ready(request, dated_cache) as shared:
        yield shared


@pytest.fixture
def window(shared_window: tuple[Any, dict[str, Any]], qloop: Any) -> Any:
    """The shared window as its start showed it (``put_back``, past dates hidden again),
    asserted equal to the window's state after its start."""
    session, fresh = shared_window
    session.window.tab(OCCASIONS).show_past.setChecked(False)
    put_back(session, fresh)
    assert_as_started(session, fresh)
    return session.window


def test_the_window_is_put_back_between_tests(shared_window: tuple[Any, dict[str, Any]], window: Any) -> None:
    """What the tests here leave is put back before the next: past dates shown, a query, a row
    of the Dates selected. Each differs from the start's state (the check can fail)."""
    session, fresh = shared_window
    tab = window.show_tab(OCCASIONS)
    tab.show_past.setChecked(True)
    assert window_state(session)["tabs"][OCCASIONS]["rows"] != fresh["tabs"][OCCASIONS]["rows"]
    window.query_box.set_text("kind:session")
    tab.view.selectRow(0)
    left = window_state(session)
    assert left["query"] != fresh["query"] and left["tabs"][OCCASIONS]["details"] is not None
    assert left["tab"] != fresh["tab"]
    tab.show_past.setChecked(False)
    put_back(session, fresh)
    assert_as_started(session, fresh)


def _rows(tab: Any) -> list[list[Any]]:
    return [tab.model.rowset.rows[tab.model.source_row(r)] for r in range(tab.model.rowCount())]


def test_one_row_per_location_session_and_other_webinar(window: Any, sample: dict[Kind, bytes]) -> None:
    tab = window.show_tab(OCCASIONS)
    courses = json.loads(sample[Kind.COURSES])
    series = json.loads(sample[Kind.SERIES])
    in_series = {w["webinarId"] for s in series for w in s["sessions"]}
    others = [w for w in json.loads(sample[Kind.WEBINARS]) if w["webinarId"] not in in_series]
    rows = _rows(tab)
    by_kind = {k: sum(1 for r in rows if r[KIND] == k) for k in ("Course", "Session", "Webinar")}
    assert by_kind["Course"] == sum(len(c["locations"]) for c in courses)
    assert by_kind["Session"] == len(in_series)  # a session of several series: one row
    series_column = column_index(OCCASIONS, "series")
    shared = [r for r in rows if r[RECORD] == 50420]  # a session of three series
    assert len(shared) == 1 and shared[0][series_column].count("; ") == 2
    assert by_kind["Webinar"] == len(others) - 1  # the past one is hidden
    assert window.tab_bar.full_title(8) == f"Dates {len(rows)}"  # (of 1 more: the tooltip)


def test_sorted_by_start_with_on_demand_last_and_said_in_words(window: Any) -> None:
    tab = window.show_tab(OCCASIONS)
    starts = [r[START] for r in _rows(tab)]
    dated = [s for s in starts if s is not None]
    assert starts[: len(dated)] == dated == sorted(dated)
    assert len(dated) < len(starts)  # on-demand webinars: no date, bookable
    last = tab.model.rowCount() - 1
    assert tab.model.index(last, START).data() == "On demand"
    first = tab.model.index(0, START).data()
    assert "UTC" in first  # as the service wrote it, with its offset


def test_past_occasions_appear_when_asked(window: Any) -> None:
    tab = window.show_tab(OCCASIONS)
    shown = len(_rows(tab))
    assert PAST_WEBINAR not in {r[RECORD] for r in _rows(tab)}
    tab.show_past.setChecked(True)
    assert len(_rows(tab)) == shown + 1 and PAST_WEBINAR in {r[RECORD] for r in _rows(tab)}
    tab.show_past.setChecked(False)
    window.query_box.set_text("past")
    assert [r[RECORD] for r in _rows(tab)] == [PAST_WEBINAR]
    window.query_box.set_text("starts:2025")  # a date clause asks for those dates, past or not
    assert [r[RECORD] for r in _rows(tab)] == [PAST_WEBINAR]


def test_the_query_picks_occasions_and_a_row_opens_its_record(window: Any, sample: dict[Kind, bytes]) -> None:
    tab = window.show_tab(OCCASIONS)
    window.query_box.set_text("city:dallas")
    courses = json.loads(sample[Kind.COURSES])
    dallas = sum(1 for c in courses for loc in c["locations"] if loc["city"] == "Dallas")
    rows = _rows(tab)
    assert len(rows) == dallas and all(r[KIND] == "Course" for r in rows)
    tab.view.selectRow(0)
    assert tab.detail.current == (Kind.COURSES, rows[0][RECORD])
    window.query_box.set_text("kind:session")
    tab.view.selectRow(0)
    assert tab.detail.current[0] is Kind.SERIES


def test_a_course_time_off_its_zone_is_marked_and_explained(window: Any) -> None:
    from catalogue_desktop.qt_compat.item_models import TOOLTIP

    tab = window.show_tab(OCCASIONS)
    window.query_box.set_text('city:"san francisco" starts:2027-03')
    city = column_index(OCCASIONS, "city")
    found = [r for r in range(tab.model.rowCount()) if tab.model.index(r, city).data() == "San Francisco"]
    assert len(found) == 1
    start = tab.model.index(found[0], START)
    assert start.data().endswith(" ⚠")
    assert start.data(TOOLTIP) == (
        "Check the time at San Francisco, CA: written UTC−08:00, but PDT on that date is UTC−07:00: "
        "the time may be an hour off. The first offer asks which is right."
    )
    window.query_box.set_text("city:chicago starts:2027-02")
    found = [r for r in range(tab.model.rowCount()) if tab.model.index(r, city).data() == "Chicago"]
    assert found
    chicago = tab.model.index(found[0], START)
    assert (
        not chicago.data().endswith("⚠") and chicago.data(TOOLTIP) == "CST (America/Chicago) at Chicago, IL"
    )
