"""Time clauses (``added:``, ``changed:``, ``changed:FIELD@WINDOW``, ``removed:``) over real syncs:
the demo service over loopback through several versions of the catalogue, into a real store; the
finder loaded from it as ``find`` and ``export --query`` load it."""

from __future__ import annotations

import io
import json
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.cli.find import find
from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.query.syntax import parse
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.searches.stored import load, select
from catalogue_desktop.demo.server import DemoServer
from tests.core.cache.test_history import serve, sync


def _ids(store: Store, query: str, kind: Kind = Kind.COURSES, now: datetime | None = None) -> list[int]:
    catalogue = load(store, [kind])
    outcome = catalogue.finder.evaluate(query, kind.value, now or datetime.now(UTC))
    assert outcome.missing is None, outcome.why
    return sorted(catalogue.table(kind.value).ids[r] for r in outcome.rows)


def _age_history(store_file: Path, days: int) -> None:
    """Make every history entry written so far ``days`` older (a sync long ago)."""
    db = sqlite3.connect(store_file)
    with db:
        for rowid, at in db.execute("SELECT rowid, at FROM history").fetchall():
            moment = datetime.fromisoformat(at.replace("Z", "+00:00")) - timedelta(days=days)
            stamp = moment.isoformat(timespec="seconds").replace("+00:00", "Z")
            db.execute("UPDATE history SET at = ? WHERE rowid = ?", (stamp, rowid))
    db.close()


@pytest.fixture
def versions(demo_server: DemoServer, sample: dict[Kind, bytes], tmp_path: Path) -> dict[str, Any]:
    """v1 the sample; v2 (aged 40 days): course A's first location dearer, course B's location
    moved to Austin, course C withdrawn, course N added; v3 (today): course D gets a new
    location, course A's fee changes again, course E is rejected (broken), webinar W added."""
    store_file = tmp_path / "cache" / "catalogue.sqlite3"
    assert sync(demo_server.base_url, store_file).ok
    courses = json.loads(sample[Kind.COURSES])
    a, b, c, d, e = (courses[i]["courseId"] for i in range(5))
    v2 = json.loads(json.dumps(courses))
    v2[0]["locations"][0]["fee"] += 100
    v2[1]["locations"][0]["city"] = "Austin"
    withdrawn = v2.pop(2)
    v2.append(dict(json.loads(json.dumps(courses[5])), courseId=99500, title="Brand-new course"))
    serve(demo_server, Kind.COURSES, v2)
    assert sync(demo_server.base_url, store_file).collections[Kind.COURSES].status == "updated"
    _age_history(store_file, 40)

    v3 = json.loads(json.dumps(v2))
    v3[0]["locations"][0]["fee"] += 50
    d_row = next(r for r in v3 if r["courseId"] == d)
    d_row["locations"].append(dict(d_row["locations"][0], locationId=99001, city="Denver"))
    e_row = next(r for r in v3 if r["courseId"] == e)
    e_row["fee"], e_row["locations"] = "not a number", "broken"
    serve(demo_server, Kind.COURSES, v3)
    webinars = json.loads(sample[Kind.WEBINARS])
    webinars.append(dict(json.loads(json.dumps(webinars[0])), webinarId=99777, title="Fresh webinar"))
    serve(demo_server, Kind.WEBINARS, webinars)
    report = sync(demo_server.base_url, store_file)
    assert report.collections[Kind.COURSES].status == "partial"
    return {
        "store": store_file,
        "A": a,
        "B": b,
        "C": c,
        "D": d,
        "E": e,
        "N": 99500,
        "W": 99777,
        "withdrawn": withdrawn,
    }


def test_time_clauses_say_what_the_versions_say(versions: dict[str, Any]) -> None:
    v = versions
    with Store(v["store"]) as store:
        assert _ids(store, "added:last7d") == []  # N was added 40 days ago
        assert _ids(store, "added:last60d") == [v["N"]]
        assert _ids(store, "added:last7d", Kind.WEBINARS) == [v["W"]]
        assert _ids(store, "changed:last7d") == sorted([v["A"], v["D"]])  # E rejected: not changed
        assert _ids(store, "changed:last60d") == sorted([v["A"], v["B"], v["D"]])
        assert _ids(store, "changed:fee") == sorted([v["A"], v["D"]])  # D's new location has a fee
        assert _ids(store, "changed:fee@last7d") == sorted([v["A"], v["D"]])
        assert _ids(store, "changed:city") == sorted([v["B"], v["D"]])
        assert _ids(store, "changed:city@last7d") == [v["D"]]
        assert _ids(store, "changed:locations") == [v["D"]]
        assert _ids(store, "changed:title") == []
        assert _ids(store, "changed:fee@last60d -changed:city") == [v["A"]]
        month_ago = (datetime.now(UTC) - timedelta(days=40)).strftime("%Y-%m-%d")
        assert _ids(store, f"changed:{month_ago}") == sorted([v["A"], v["B"]])
        assert _ids(store, "changed:last60d..last7d") == sorted([v["A"], v["B"], v["D"]])
        assert _ids(store, "city:austin changed:city") == [v["B"]]
        # removed: the withdrawn course is not among the listed records ...
        assert _ids(store, "removed:last60d") == []
        assert v["C"] not in _ids(store, "")
        # ... but in the withdrawn table, which only removed: asks
        catalogue = load(store, [Kind.COURSES])
        assert catalogue.withdrawn is not None
        now = datetime.now(UTC)
        gone = catalogue.withdrawn.evaluate(parse("removed:last60d"), "courses", now)
        assert gone is not None
        table = catalogue.withdrawn.get("courses")
        assert table is not None
        assert [table.table.ids[r] for r in gone.rows] == [v["C"]]
        assert table.day_of(gone.rows[0]) == (now - timedelta(days=40)).strftime("%Y-%m-%d")
        recent = catalogue.withdrawn.evaluate(parse("removed:last7d"), "courses", now)
        assert recent is not None and recent.rows == []
        assert catalogue.withdrawn.evaluate(parse("changed:fee"), "courses", now) is None
        title_word = v["withdrawn"]["title"].split()[0]
        both = catalogue.withdrawn.evaluate(parse(f"removed:last60d {title_word}"), "courses", now)
        assert both is not None and both.count == 1


def test_find_lists_withdrawn_ids_apart_and_export_selects_by_time(versions: dict[str, Any]) -> None:
    v = versions
    out, err = io.StringIO(), io.StringIO()
    with Store(v["store"]) as store:
        code = find(
            store,
            ["removed:last60d", "changed:fee@last7d", "added:last7d"],
            ["courses", "webinars", "offerings"],
            as_json=True,
            out=out,
            err=err,
        )
        assert code == 0, err.getvalue()
        removed, fee, added = (json.loads(line) for line in out.getvalue().splitlines())
        assert removed["withdrawn"] == {"courses": [v["C"]], "webinars": []}
        assert removed["ids"]["courses"] == [] and removed["counts"]["offerings"] is None
        assert "withdrawn" not in fee and sorted(fee["ids"]["courses"]) == sorted([v["A"], v["D"]])
        assert fee["counts"]["webinars"] == 0
        assert added["ids"]["webinars"] == [v["W"]]

        text = io.StringIO()
        find(store, ["removed:last60d"], ["courses"], as_json=False, out=text, err=err)
        assert f"{v['C']}  {v['withdrawn']['title']}  (withdrawn " in text.getvalue()

        notes: list[str] = []
        positions = select(store, Kind.COURSES, parse("changed:city"), notes.append)
        by_pos = {e.pos: e.record_id for e in store.entries(Kind.COURSES)}
        ids = [by_pos[p] for p in positions]
        assert sorted(ids) == sorted([v["B"], v["D"]])
        select(store, Kind.COURSES, parse("removed:last60d"), notes.append)
        assert any("not exported" in n for n in notes)


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("added:fee", "is not a date"),
        ("changed:feee", "neither a field nor a date"),
        ("changed:fee@", "needs a window after '@'"),
        ("removed:past", "not a window of time"),
        ("added:", "needs a window"),
        ("removed:fee@last7d", "takes a window only"),
    ],
)
def test_time_clauses_that_do_not_parse_say_why(query: str, message: str) -> None:
    parsed = parse(query)
    assert parsed.error is not None and message in parsed.error.message


def test_a_large_history_answers_windows_as_a_plain_scan_does() -> None:
    """Timelines long enough to be cut in blocks (their rows' bitsets ORed for whole blocks):
    every window agrees with a plain look at each event."""
    import random

    from catalogue_desktop.core.query import bits, timeline
    from catalogue_desktop.core.query.fields import SCHEMA

    rng = random.Random(29)
    n = 3000
    base = int(datetime(2026, 1, 1, tzinfo=UTC).timestamp() * 1000)
    events = [
        timeline.TimedEvent(
            rng.randrange(n), base + rng.randrange(300) * 86_400_000, "changed", frozenset({"fee"})
        )
        for _ in range(20_000)
    ]
    index = timeline.HistoryIndex(list(range(n)), events)
    steps = sum(1 for _ in index.build())
    assert steps >= 2 and index._fields["fee"].blocks  # cut in blocks
    now = datetime(2026, 11, 1, tzinfo=UTC)
    for lo_day, hi_day in [(0, 299), (5, 6), (100, 180), (17, 17), (250, 400), (-5, 3)]:
        window_lo = base + lo_day * 86_400_000
        window_hi = base + hi_day * 86_400_000 + 86_399_999
        want = sorted({e.record_id for e in events if window_lo <= e.ms <= window_hi})
        got = index._fields["fee"].select(window_lo, window_hi)
        assert bits.to_rows(got, n) == want, (lo_day, hi_day)
        assert bits.to_rows(index._changes["changed"].select(window_lo, window_hi), n) == want
    spec = timeline.parse_value("changed", "last30d", SCHEMA)
    cutoff = int(now.timestamp() * 1000) - 30 * 86_400_000
    assert bits.to_rows(index.select(spec, now), n) == sorted(
        {e.record_id for e in events if cutoff <= e.ms <= int(now.timestamp() * 1000)}
    )
