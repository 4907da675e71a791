"""Offerings: one row per bookable occasion, checked against the catalogue itself."""

from __future__ import annotations

from collections import Counter
from collections.abc import Generator
from typing import Any, TypeVar

import pytest

from catalogue_desktop.core.query import dates_rows, offerings
from catalogue_desktop.core.query.engine import Vocabulary
from tests.core.query.catalogues import demo_facts, finder_of, synthetic_facts

T = TypeVar("T")


def _rows(catalogue: dict, vocabulary: Vocabulary | None = None) -> list[dict]:
    finder = finder_of({k: v for k, v in catalogue.items() if k != offerings.OFFERINGS}, vocabulary)
    return offerings.as_facts(offerings.columns(finder.tables, finder.vocabulary))


def _stepped(steps: Generator[None, None, T]) -> tuple[int, T]:
    """Run a job's steps to the end: how many it took, and what it made."""
    count = 0
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return count, done.value
        count += 1


def test_one_row_per_location_session_and_other_webinar() -> None:
    for catalogue in (demo_facts(), synthetic_facts()):
        rows = _rows(catalogue)
        kinds = Counter(r["kind"] for r in rows)
        assert kinds["course"] == sum(len(c.get("locations", ())) for c in catalogue["courses"])
        distinct = {k["id"] for s in catalogue["series"] for k in s.get("sessions", ())}
        assert kinds["session"] == len(distinct)  # a session of several series: one row
        in_series = {k["id"] for s in catalogue["series"] for k in s.get("sessions", ())}
        standalone = [w for w in catalogue["webinars"] if w["id"] not in in_series]
        assert kinds["webinar"] == len(standalone) and in_series, "the demo has series sessions"
        webinar_rows = {r["id"] for r in rows if r["kind"] == "webinar"}
        assert not webinar_rows & in_series  # a session is never also a webinar row


def test_rows_carry_the_location_or_session_and_its_record() -> None:
    catalogue = demo_facts()
    rows = _rows(catalogue)
    by_location = {r["locationId"]: r for r in rows if r["kind"] == "course"}
    for course in catalogue["courses"]:
        for loc in course["locations"]:
            row = by_location[loc["id"]]
            assert (row["id"], row["title"], row.get("city"), row.get("fee"), row.get("startDate")) == (
                course["id"],
                course["title"],
                loc.get("city"),
                loc.get("fee"),
                loc.get("startDate"),
            )
            assert row.get("experts") == course.get("experts")
    sessions = [r for r in rows if r["kind"] == "session"]
    titles = {s["id"]: s["title"] for s in catalogue["series"]}
    assert all(r["series"][0] == titles[r["seriesId"]] for r in sessions)


def test_a_session_of_several_series_is_one_row_naming_them_all() -> None:
    catalogue = demo_facts()
    rows = _rows(catalogue)
    of: dict[int, list[dict]] = {}
    for s in catalogue["series"]:
        for k in s.get("sessions", ()):
            of.setdefault(k["id"], []).append(s)
    shared = {wid: found for wid, found in of.items() if len(found) > 1}
    assert shared, "the demo has a webinar in several series"
    for wid, found in shared.items():
        mine = [r for r in rows if r["id"] == wid]
        assert len(mine) == 1, wid
        row = mine[0]
        assert row["series"] == [s["title"] for s in found]
        assert row["seriesIds"] == [s["id"] for s in found]
        assert row["seriesFees"] == [s.get("fee") for s in found]
        assert row["seriesSessions"] == [len(s["sessions"]) for s in found]
    for r in rows:
        if r["kind"] == "session" and r["id"] not in shared:
            assert len(r["series"]) == len(r["seriesIds"]) == len(r["seriesSessions"]) == 1


def test_on_demand_occasions_have_no_date_and_are_never_past() -> None:
    from datetime import UTC, datetime

    catalogue = demo_facts()
    rows = _rows(catalogue)
    on_demand = [r for r in rows if r.get("ondemand")]
    assert on_demand and all("startDate" not in r and "endDate" not in r for r in on_demand)
    assert all(str(r.get("type")) == "1" for r in on_demand)  # the default: code 1 is on demand
    finder = finder_of(catalogue)
    far = datetime(2030, 1, 1, tzinfo=UTC)
    past = finder.evaluate("past", offerings.OFFERINGS, far).rows
    assert past and not {i for i, r in enumerate(rows) if r.get("ondemand")} & set(past)
    # another convention: nothing on demand, every webinar dated
    dated = _rows(catalogue, Vocabulary({"1": "Recorded", "2": "Live"}, frozenset()))
    assert not any(r.get("ondemand") for r in dated)


def test_the_dates_rows_made_column_wise_are_the_offerings_row_by_row() -> None:
    """``dates_rows.rows_steps`` (column-wise: the dates in steps, each chunk of rows when first
    read) against a plain reading of each offering: with the dates parsed from the offerings'
    columns, and read from the sources' date indexes once idle time has built them."""
    from datetime import UTC, datetime

    from catalogue_desktop.core.listing.rows import COLUMNS
    from catalogue_desktop.core.records.kinds import OCCASIONS

    def moment(text: Any) -> tuple[Any, Any]:
        if not text:
            return None, None
        m = datetime.fromisoformat(text)
        m = m if m.tzinfo else m.replace(tzinfo=UTC)
        return int(m.timestamp() * 1000), int(m.utcoffset().total_seconds()) // 60

    cases = [(c, built) for c in (synthetic_facts(), demo_facts()) for built in (False, True)]
    for catalogue, built in cases:
        finder = finder_of({k: v for k, v in catalogue.items() if k != offerings.OFFERINGS})
        if built:  # the sources' indexes, as idle time builds them
            for t in finder.tables.values():
                for _ in t.build():
                    pass
        found = offerings.lazy_columns(finder.tables, finder.vocabulary)
        assert found.has("@startMs") is built
        found["experts"][0] = ["A", "", None, "B"]  # names the service left blank are skipped
        count, rows = _stepped(dates_rows.rows_steps(found))
        assert count >= 2  # in slices
        for i, row in enumerate(rows):
            (b, bz), (e, ez) = moment(found["startDate"][i]), moment(found["endDate"][i])
            names = [n for n in found["experts"][i] or () if n]
            want = (
                found["title"][i],
                found["kind"][i].capitalize(),
                b,
                e,
                found["city"][i],
                found["state"][i],
                found["venue"][i],
                found["fee"][i],
                found["cleAccreditation"][i],
                found["cpeAccreditation"][i],
                "; ".join(names) or None,
                "; ".join(found["topics"][i] or ()) or None,
                "; ".join(found["series"][i] or ()) or None,
                found["type"][i],
                bool(found["ondemand"][i]),
                found["id"][i],
                found["seriesId"][i],
                found["locationId"][i],
                i,
                (bz, ez),
            )
            assert tuple(row) == want, i
            assert len(row) == len(COLUMNS[OCCASIONS]) + 1
        assert rows.ended == [r[3] if r[3] is not None else r[2] for r in rows]


@pytest.mark.parametrize("built", [False, True], ids=["parsed", "from-the-sources-indexes"])
def test_the_dates_rows_read_in_any_order_before_their_columns_are_made(
    monkeypatch: Any, built: bool
) -> None:
    """Rows read one by one, in slices and backwards, across chunk and source boundaries, from
    columns not made yet, are the rows of the columns made whole; the columns made meanwhile
    are only those the rows show."""
    import random

    monkeypatch.setattr(dates_rows, "CHUNK", 7)
    catalogue = {k: v for k, v in demo_facts().items() if k != offerings.OFFERINGS}
    finder = finder_of(catalogue)
    if built:
        for t in finder.tables.values():
            for _ in t.build():
                pass

    def rows_of(found: Any) -> Any:
        steps = dates_rows.rows_steps(found)
        while True:
            try:
                next(steps)
            except StopIteration as done:
                return done.value

    whole = list(rows_of(offerings.columns(finder.tables, finder.vocabulary)))
    lazy = offerings.lazy_columns(finder.tables, finder.vocabulary)
    rows = rows_of(lazy)
    n = len(whole)
    assert len(rows) == n > 3 * 7 and {r[1] for r in whole} == {"Course", "Session", "Webinar"}
    picks = random.Random(3).sample(range(n), 40)
    assert [rows[i] for i in picks] == [whole[i] for i in picks]
    assert rows[-1] == whole[-1] and rows[5:30] == whole[5:30] and rows[::-9] == whole[::-9]
    assert rows.ids == range(n) and rows.dated_column(2) == [r[2] for r in whole]
    assert not lazy.made("locationId") and not lazy.made("zip")  # not shown: not made
    assert list(rows) == whole
    with pytest.raises(IndexError):
        rows[n]


def test_the_index_of_when_occasions_ended_is_built_in_steps_with_its_dates(monkeypatch: Any) -> None:
    """``past_index_steps`` (the indexer's, after the Dates rows are shown) builds the dates'
    indexes it reads in steps of their own before it: made at once when first read, every
    offering's dates were parsed in one step (35 ms of CPU at 10,000 webinars: issue 40).
    Counted: the indexes built at once meanwhile (``ensure`` on one not built)."""
    from catalogue_desktop.core.query.index import BuiltIndex, RangeIndex
    from catalogue_desktop.core.query.table import Table

    finder = finder_of({k: v for k, v in synthetic_facts().items() if k != offerings.OFFERINGS})
    found = offerings.lazy_columns(finder.tables, finder.vocabulary)
    for _ in found.fill_steps():
        pass
    table = Table(offerings.OFFERINGS, "record", found, found.n)
    at_once: list[str] = []
    real = BuiltIndex.ensure

    def ensure(index: BuiltIndex) -> None:
        if not index.ready:
            at_once.append(type(index).__name__)
        real(index)

    monkeypatch.setattr(BuiltIndex, "ensure", ensure)
    steps = sum(1 for _ in finder.past_index_steps(table))
    assert at_once == []
    assert steps > 2
    assert table.extra_index("@ended", RangeIndex, lambda: RangeIndex([])).n == found.n


def test_the_offerings_columns_are_made_in_steps_of_a_slice_of_ids(monkeypatch: Any) -> None:
    """``lazy_columns_steps`` (the indexer's Dates job) scans the sessions' and webinars' ids a
    slice a step: in one step, 54-76 ms of a 100,000 refresh's GUI thread (issue 40). Counted:
    the steps at a small slice; the columns are ``lazy_columns``' own."""
    finder = finder_of({k: v for k, v in synthetic_facts().items() if k != offerings.OFFERINGS})
    tables = finder.tables
    sessions, webinars = tables["series"].child, tables["webinars"]
    assert sessions is not None and sessions.n > 0 and webinars.n > 0
    whole = offerings.lazy_columns(tables, finder.vocabulary)
    monkeypatch.setattr(offerings, "_SCAN_ROWS", 7)
    count, stepped = _stepped(offerings.lazy_columns_steps(tables, finder.vocabulary))
    shared = len(set(sessions.ids)) < sessions.n  # (a webinar in several series: grouped too)
    assert shared
    slices = -(-sessions.n // 7) * 2 + -(-webinars.n // 7)
    assert count >= slices, (count, slices)
    assert stepped.n == whole.n
    assert stepped["id"] == whole["id"] and stepped["title"] == whole["title"]
