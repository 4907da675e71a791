"""Issue 40: after a refresh the offer check compares only the open offers quoting a record the
refresh changed (from the cache's history), and stamps the rest. Each case holds the check to the
same check made whole (the log's copy without what the last check was made against: every offer
compared, as before) over real syncs on loopback into real SQLite files, and asserts what a
shortcut taken wrongly would miss: a pruned history, an offer never checked, an occasion over
since the last check, a series' change reaching its sessions, series reordered."""

from __future__ import annotations

import json
import shutil
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.cache.offer_log import AGAINST_KEY
from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.offers import checking, logged, quoted_now
from catalogue_desktop.core.offers.logged import Written
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.demo.server import DemoServer
from tests.core.cache.test_history import serve, sync

NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
CHICAGO = "course:6107@7114"  # Federal Tax Institute, Chicago, 14-15 Dec 2026, 1,095
WASHINGTON = "course:6104@7108"  # Legal Ethics Roundtable, Washington, 11 Dec 2026, 595
SESSION = "session:801@50007"  # series 801's session of 9 Dec 2026, 249
WEBINAR = "webinar:50035"  # no series' session, 20 Jan 2027, 199


@pytest.fixture
def store_file(tmp_path: Path) -> Path:
    return tmp_path / "cache" / "catalogue.sqlite3"


def offer(store: Store, ids: list[str], title: str, now: datetime = NOW) -> int:
    found = checking.now_occasions(store, now)
    made = logged.remember(
        store, title=title, items=[found[i] for i in ids], written=[Written("pdf", "x.pdf")]
    )
    assert made is not None
    return made.id


def synced_with_both_and_washington(demo_server: DemoServer, store_file: Path) -> tuple[int, int]:
    """The sample synced, two offers made and checked: "Both" (Chicago and Washington) and
    "Washington" alone; their ids."""
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        both = offer(s, [CHICAGO, WASHINGTON], "Both")
        washington = offer(s, [WASHINGTON], "Washington")
        checking.check(s, NOW)
    return both, washington


def log_of(store_file: Path) -> list[tuple[Any, ...]]:
    db = sqlite3.connect(store_file)
    try:
        return db.execute("SELECT id, status, found, quoted FROM offers ORDER BY id").fetchall()
    finally:
        db.close()


def check_both(store_file: Path, now: datetime = NOW) -> tuple[checking.Checked, list[int]]:
    """The check as the window makes it, and the same check made whole on a copy of the file
    (nothing kept of the last check: every offer compared); both logs must end alike. Returns
    the check and how many occasions it read from the catalogue."""
    whole = store_file.with_name("whole.sqlite3")
    shutil.copy(store_file, whole)
    db = sqlite3.connect(whole)
    db.execute("DELETE FROM meta WHERE key = ?", (AGAINST_KEY,))
    db.execute("UPDATE collections SET fetched_at = '2099-01-01T00:00:00Z'")  # (every offer stale)
    db.commit()
    db.close()
    with Store(whole) as s:
        checking.check(s, now)
    read: list[int] = []
    real = quoted_now.quotes_now

    def counted(store: Store, wanted: Any) -> Any:
        read.append(len(wanted))
        return real(store, wanted)

    quoted_now.quotes_now = counted  # type: ignore[assignment]
    try:
        with Store(store_file) as s:
            checked = checking.check(s, now)
    finally:
        quoted_now.quotes_now = real  # type: ignore[assignment]
    assert log_of(store_file) == log_of(whole)
    return checked, read


def status(checked: checking.Checked, offer_id: int) -> str:
    return next(o.status for o in checked.offers if o.id == offer_id)


def test_only_the_offers_quoting_what_a_refresh_changed_are_compared_the_rest_stamped(
    demo_server: DemoServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        chicago = offer(s, [CHICAGO], "Chicago")
        others = [offer(s, [WASHINGTON, WEBINAR], "Washington"), offer(s, [SESSION], "Session")]
        checking.check(s, NOW)
    db = sqlite3.connect(store_file)  # (checked a while ago: told apart from the next check)
    db.execute("UPDATE offer_checks SET checked_at = '2026-11-01T00:00:00Z'")
    db.commit()
    db.close()
    courses = json.loads(sample[Kind.COURSES])
    for loc in (loc for c in courses for loc in c["locations"] if loc["locationId"] == 7114):
        loc["fee"] += 100
    serve(demo_server, Kind.COURSES, courses)
    assert sync(demo_server.base_url, store_file).ok
    checked, read = check_both(store_file)
    assert read == [1]  # Chicago's occasion alone
    assert status(checked, chicago) == "changed"
    assert {status(checked, i) for i in others} == {"current"}
    when = {o.id: o.checked_at for o in checked.offers}
    assert when[chicago] == when[others[0]] == checked.at  # quoting a course: checked now
    assert when[others[1]] == "2026-11-01T00:00:00Z"  # no course: as before
    with Store(store_file) as s:
        assert {o.id: o.checked_at for o in logged.offers(s)} == when


def test_an_occasion_no_refresh_touched_is_as_the_last_check_found_it(
    demo_server: DemoServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    """An offer quoting a record a refresh changed is compared whole, but of its other occasions
    (no record synced since touched them) what the last check found is taken, not read from the
    catalogue again: a value as found, one withdrawn still withdrawn; read again when the offer's
    findings do not say (damaged)."""
    both, washington = synced_with_both_and_washington(demo_server, store_file)
    courses = json.loads(sample[Kind.COURSES])
    for course in (c for c in courses if c["courseId"] == 6104):  # Washington withdrawn
        course["locations"] = [loc for loc in course["locations"] if loc["locationId"] != 7108]
    serve(demo_server, Kind.COURSES, courses)
    assert sync(demo_server.base_url, store_file).ok
    checked, read = check_both(store_file)
    assert read == [1]  # Washington's alone: Chicago as the last check found it
    assert status(checked, both) == status(checked, washington) == "withdrawn"
    chicago = [loc for c in courses for loc in c["locations"] if loc["locationId"] == 7114]
    for n, fee in enumerate((1195, 1295)):
        for loc in chicago:
            loc["fee"] = fee
        serve(demo_server, Kind.COURSES, courses)
        assert sync(demo_server.base_url, store_file).ok
        if n == 1:  # (the offer's findings damaged: Washington read from the catalogue again)
            db = sqlite3.connect(store_file)
            db.execute("UPDATE offers SET found = '[{\"occasion\": [1]}, 2' WHERE id = ?", (both,))
            db.commit()
            db.close()
        checked, read = check_both(store_file)
        assert read == [[1], [2]][n]  # Chicago's (and Washington's when the findings do not say)
        changes = next(o.changes for o in checked.offers if o.id == both)
        assert changes == [
            f"Federal Tax Institute, Chicago 14 Dec: fee 1,095 → {fee:,}",
            "Legal Ethics Roundtable, Washington 11 Dec: withdrawn, no longer listed by the service",
        ]
        assert status(checked, both) == "withdrawn" and status(checked, washington) == "withdrawn"


def test_a_series_change_reaches_its_sessions(
    demo_server: DemoServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        session = offer(s, [SESSION], "Session")
        webinar = offer(s, [WEBINAR], "Webinar")
        checking.check(s, NOW)
    series = json.loads(sample[Kind.SERIES])
    series[0]["sessions"][0]["fee"] = 299  # series 801's session of webinar 50007
    serve(demo_server, Kind.SERIES, series)
    assert sync(demo_server.base_url, store_file).ok
    checked, read = check_both(store_file)
    assert status(checked, session) == "changed" and status(checked, webinar) == "current"
    assert read == [1]
    (found,) = next(o for o in checked.offers if o.id == session).changes
    assert "fee 249 → 299" in found


def test_series_reordered_move_a_webinar_to_another_series(
    demo_server: DemoServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    """Webinar 50336 is a session of series 802 and 808, listed under the first: with 808 listed
    before 802 (no record changed: the history has nothing) the offer's session is no longer
    listed as quoted."""
    early = datetime(2026, 7, 1, tzinfo=UTC)
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        moved = offer(s, ["session:802@50336"], "Moved", early)
        checking.check(s, early)
    series = json.loads(sample[Kind.SERIES])
    order = [x["seriesId"] for x in series]
    series.insert(order.index(802), series.pop(order.index(808)))
    serve(demo_server, Kind.SERIES, series)
    assert sync(demo_server.base_url, store_file).ok
    checked, _read = check_both(store_file, early)
    assert status(checked, moved) == "withdrawn"


def test_a_pruned_history_compares_every_offer(
    demo_server: DemoServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        chicago = offer(s, [CHICAGO], "Chicago")
        checking.check(s, NOW)
    courses = json.loads(sample[Kind.COURSES])
    for loc in (loc for c in courses for loc in c["locations"] if loc["locationId"] == 7114):
        loc["fee"] += 100
    serve(demo_server, Kind.COURSES, courses)
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:  # the history's span cut to a day, years later: every row forgotten
        s.history.set_span_days(1, "2099-01-01T00:00:00Z")
        assert s.history.since(Kind.COURSES, "2000-01-01T00:00:00Z") == []
    checked, read = check_both(store_file)
    assert status(checked, chicago) == "changed" and read == [1]


def test_an_offer_never_checked_is_compared_though_nothing_changed(
    demo_server: DemoServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    """An offer logged after the last check quotes a fee the catalogue changed before it: no
    record changed since, yet it no longer matches."""
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        before = checking.now_occasions(s, NOW)[CHICAGO]
        offer(s, [WASHINGTON], "Washington")
    courses = json.loads(sample[Kind.COURSES])
    for loc in (loc for c in courses for loc in c["locations"] if loc["locationId"] == 7114):
        loc["fee"] += 100
    serve(demo_server, Kind.COURSES, courses)
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        checking.check(s, NOW)
        late = logged.remember(s, title="Late", items=[before], written=[Written("pdf", "x.pdf")])
        assert late is not None
    checked, read = check_both(store_file)
    assert status(checked, late.id) == "changed" and read == [1]


def test_an_occasion_over_since_the_last_check_is_found_over(
    demo_server: DemoServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    """Washington (11 Dec) is over by 12 Dec; Chicago (14-15 Dec) is not: the offer quoting both
    stays open with one item over, though the refresh changed neither."""
    both, alone = synced_with_both_and_washington(demo_server, store_file)
    courses = json.loads(sample[Kind.COURSES])
    courses[-1]["title"] += " (new edition)"  # courses synced; neither quoted course changed
    serve(demo_server, Kind.COURSES, courses)
    assert sync(demo_server.base_url, store_file).ok
    later = datetime(2026, 12, 12, tzinfo=UTC)
    checked, _read = check_both(store_file, later)
    found = next(o for o in checked.offers if o.id == both)
    assert found.status == "current" and [f.over for f in found.findings] == [False, True]
    assert status(checked, alone) == "past"


def test_the_history_says_whether_all_it_wrote_after_a_mark_is_kept(store_file: Path) -> None:
    """Pruning notes the newest row it forgot: rows after a mark are all there while it is below
    the mark; forgetting the mark's own row (the table emptied: rows numbered again) says no."""
    with Store(store_file):
        pass
    db = sqlite3.connect(store_file)
    db.executemany(
        "INSERT INTO history (collection, record_id, at, change, fields)"
        " VALUES ('courses', ?, ?, 'changed', '{}')",
        [(1, "2026-01-01T00:00:00Z"), (2, "2026-06-01T00:00:00Z"), (3, "2026-11-01T00:00:00Z")],
    )
    db.commit()
    db.close()
    with Store(store_file) as s:
        assert s.history.whole_after(0) and s.history.whole_after(1) and s.history.mark() == 3
        s.history.set_span_days(200, "2026-11-28T00:00:00Z")  # January's row forgotten
        assert not s.history.whole_after(0) and not s.history.whole_after(1) and s.history.whole_after(2)
        s.history.set_span_days(1, "2027-06-01T00:00:00Z")  # every row forgotten
        assert s.history.mark() == 0 and not s.history.whole_after(3)
