"""The offer log over real syncs on loopback (the demo service serving changed data), into real
SQLite files: an offer remembered, a fee changed and an occasion withdrawn by the service, the
statuses and words after the next sync's check; re-issue from today's data; past offers; the
span; the upgrade of a schema-6 store."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.cache import record_history as history
from catalogue_desktop.core.cache.schema import SCHEMA_VERSION
from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.offers import checking, logged
from catalogue_desktop.core.offers.logged import Written
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.demo.server import DemoServer
from tests.core.cache.test_history import serve, sync

NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)
CHICAGO = "course:6107@7114"  # Federal Tax Institute, Chicago, 14-15 Dec 2026, 1,095
WASHINGTON = "course:6104@7108"  # Legal Ethics Roundtable, Washington, 11 Dec 2026, 595
MINNEAPOLIS = "course:6107@7115"  # Federal Tax Institute, Minneapolis, 11 Jan 2027, 995


@pytest.fixture
def store_file(tmp_path: Path) -> Path:
    return tmp_path / "cache" / "catalogue.sqlite3"


def offer_of(store: Store, ids: list[str], title: str, **kw: Any) -> logged.LoggedOffer:
    found = checking.now_occasions(store, NOW)
    made = logged.remember(
        store,
        title=title,
        items=[found[i] for i in ids],
        written=[Written("pdf", "/tmp/offer.pdf"), Written("email", "clipboard")],
        currency="USD",
        **kw,
    )
    assert made is not None
    return made


def synced_long_ago(store_file: Path) -> None:
    """The catalogue as synced well before the first check (a check in the sync's second would
    count it as not checked since: times are kept to the second)."""
    db = sqlite3.connect(store_file)
    db.execute("UPDATE collections SET fetched_at = '2026-11-01T00:00:00Z'")
    db.commit()
    db.close()


def courses_changed(sample: dict[Kind, bytes]) -> list[dict[str, Any]]:
    """The service's next courses: Chicago's fee 1,095 -> 1,195, Washington withdrawn."""
    courses = json.loads(sample[Kind.COURSES])
    for course in courses:
        for loc in course["locations"]:
            if loc["locationId"] == 7114:
                assert loc["fee"] == 1095
                loc["fee"] = 1195
        course["locations"] = [loc for loc in course["locations"] if loc["locationId"] != 7108]
    return courses


def test_an_offer_is_flagged_after_the_sync_that_changed_its_fee_and_withdrew_an_occasion(
    demo_server: DemoServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        acme = offer_of(s, [CHICAGO, WASHINGTON], "Offer for Acme", note="Two seats")
        globex = offer_of(s, [CHICAGO, MINNEAPOLIS], "Offer for Globex")
        initech = offer_of(s, [MINNEAPOLIS], "Offer for Initech")
        assert [i.occasion for i in acme.items] == [CHICAGO, WASHINGTON]
        chicago = acme.items[0]
        assert (chicago.title, chicago.city, chicago.fee, chicago.currency) == (
            "Federal Tax Institute",
            "Chicago",
            1095,
            "USD",
        )
        assert (
            chicago.start == "2026-12-14T08:30:00.000-06:00"
            and chicago.end == "2026-12-15T16:30:00.000-06:00"
        )
        assert "Chicago" in chicago.place and acme.total == "USD 1,690" and acme.note == "Two seats"
        before = checking.check(s, NOW)
        assert {o.title: o.status for o in before.offers} == dict.fromkeys(
            ("Offer for Acme", "Offer for Globex", "Offer for Initech"), "current"
        )
        assert before.flagged == []

    serve(demo_server, Kind.COURSES, courses_changed(sample))
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        after = checking.check(s, NOW)
        status = {o.title: o.status for o in after.offers}
        assert status == {
            "Offer for Acme": "withdrawn",
            "Offer for Globex": "changed",
            "Offer for Initech": "current",
        }
        assert [o.title for o in after.offers] == ["Offer for Initech", "Offer for Globex", "Offer for Acme"]
        assert {o.id for o in after.flagged} == {acme.id, globex.id}
        kept = logged.offer(s, acme.id)  # the check is kept in the cache
        assert kept is not None and kept.status == "withdrawn" and kept.checked_at == after.at
        assert kept.changes == [
            "Federal Tax Institute, Chicago 14 Dec: fee 1,095 → 1,195",
            "Legal Ethics Roundtable, Washington 11 Dec: withdrawn, no longer listed by the service",
        ]
        finding = kept.finding(CHICAGO)
        assert finding is not None and finding.now is not None and finding.now.fee == 1195
        assert kept.items[0].fee == 1095  # what was promised stays as it was
        gone = kept.finding(WASHINGTON)
        assert gone is not None and gone.withdrawn and gone.now is None
        untouched = logged.offer(s, initech.id)
        assert untouched is not None and untouched.changes == []


def test_reissue_gives_todays_fee_and_supersedes_the_old_version(
    demo_server: DemoServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        acme = offer_of(s, [CHICAGO, WASHINGTON], "Offer for Acme", note="Two seats")
    serve(demo_server, Kind.COURSES, courses_changed(sample))
    assert sync(demo_server.base_url, store_file).ok
    made: list[tuple[list[str], str]] = []

    def write(items: list[Any], old: Written) -> Written:
        made.append(([logged.occasion_id(o) for o in items], old.format))
        return Written(old.format, old.where.replace(".pdf", " v2.pdf"))

    with Store(store_file) as s:
        checking.check(s, NOW)
        new, left_out = checking.reissue(s, acme.id, NOW, write)
        assert left_out == ["Legal Ethics Roundtable, Washington 11 Dec: withdrawn"]
        assert made == [([CHICAGO], "pdf"), ([CHICAGO], "email")]
        assert (new.title, new.note, new.currency, new.version, new.version_of) == (
            "Offer for Acme",
            "Two seats",
            "USD",
            2,
            acme.id,
        )
        assert [w.to_json() for w in new.written] == [
            {"format": "pdf", "where": "/tmp/offer v2.pdf"},
            {"format": "email", "where": "clipboard"},
        ]
        assert [(i.occasion, i.fee) for i in new.items] == [(CHICAGO, 1195)]
        old = logged.offer(s, acme.id)
        assert old is not None and old.status == "superseded" and old.superseded_by == new.id
        assert old.items[0].fee == 1095 and not old.open
        again = checking.check(s, NOW)
        assert {o.id: o.status for o in again.offers} == {new.id: "current", acme.id: "superseded"}
        with pytest.raises(checking.NothingLeft, match="re-issued already"):
            checking.reissue(s, acme.id, NOW, write)


def test_offers_over_are_past_and_offers_older_than_the_span_are_forgotten(
    demo_server: DemoServer, store_file: Path
) -> None:
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        december = offer_of(s, [CHICAGO, WASHINGTON], "December")
        both = offer_of(s, [CHICAGO, MINNEAPOLIS], "Both")
        in_january = datetime(2027, 1, 5, tzinfo=UTC)
        found = {o.id: o.status for o in checking.check(s, in_january).offers}
        assert found == {december.id: "past", both.id: "current"}
        with pytest.raises(checking.NothingLeft, match="none of its dates is still offered"):
            checking.reissue(s, december.id, in_january, lambda _items, w: w)
        old = offer_of(s, [MINNEAPOLIS], "Long ago", made="2024-01-01T09:00:00Z")
        assert logged.offer(s, old.id) is not None  # (the span is counted from the latest write)
        checking.check(s, NOW)
        assert logged.offer(s, old.id) is None
        s.history.set_span_days(1, "2026-12-30T00:00:00Z")
        offer_of(s, [MINNEAPOLIS], "Today", made="2026-12-30T00:00:00Z")
        assert [o.title for o in logged.offers(s)] == ["Today"]
        orphans = "SELECT count(*) FROM offer_checks WHERE offer NOT IN (SELECT id FROM offers)"
        assert s._db.execute(orphans).fetchone()[0] == 0  # (their checks' times forgotten too)


# What schema 9 wrote of the offer log: each offer's check's time in its row.
SCHEMA_9 = (
    "ALTER TABLE offers ADD COLUMN checked_at TEXT",
    "UPDATE offers SET checked_at = (SELECT c.checked_at FROM offer_checks c WHERE c.offer = offers.id)",
    "DROP TABLE offer_checks",
)


def as_schema(store_file: Path, version: int, *statements: str) -> None:
    """Make the synced store at ``store_file`` what schema ``version`` wrote (``statements``)."""
    db = sqlite3.connect(store_file)
    for statement in statements:
        db.execute(statement)
    db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(version),))
    db.commit()
    db.close()


def assert_upgraded(s: Store) -> None:
    """Opened, ``s`` was upgraded in place to this schema, its catalogue kept."""
    assert s.recovered is None and s.state(Kind.COURSES).records > 0
    assert s._db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0] == str(
        SCHEMA_VERSION
    )


def test_a_schema_6_store_gets_the_offer_log_and_keeps_its_data(
    demo_server: DemoServer, store_file: Path
) -> None:
    assert sync(demo_server.base_url, store_file).ok
    as_schema(store_file, 6, "DROP TABLE offers", "DROP TABLE offer_checks")
    with Store(store_file) as s:
        assert_upgraded(s)
        assert SCHEMA_VERSION == 12 and logged.offers(s) == []
        offer_of(s, [CHICAGO], "After the upgrade")
        assert [o.title for o in logged.offers(s)] == ["After the upgrade"]


def test_a_schema_8_store_finds_records_by_id_off_the_index_and_keeps_its_offer_log(
    demo_server: DemoServer, store_file: Path
) -> None:
    """Schema 9: ``records_by_id`` holds each record's position, so the offer check's reads by id
    never read a page of ``records`` (kilobytes of JSON) for it; a schema-8 store is upgraded
    in place, its offers and their checks kept, and checked as before."""
    assert sync(demo_server.base_url, store_file).ok
    synced_long_ago(store_file)
    with Store(store_file) as s:
        offer_of(s, [CHICAGO, WASHINGTON], "December")
        offer_of(s, [MINNEAPOLIS], "January")
        before = checking.check(s, NOW).offers
    as_schema(  # what schema 8 wrote: the index without the positions
        store_file,
        8,
        *SCHEMA_9,
        "DROP INDEX records_by_id",
        "CREATE INDEX records_by_id ON records (snapshot, record_id)",
    )
    with Store(store_file) as s:
        assert_upgraded(s)
        columns = [r[2] for r in s._db.execute("PRAGMA index_info(records_by_id)")]
        assert columns == ["snapshot", "record_id", "pos"]
        plan = " ".join(
            str(r[3])
            for r in s._db.execute(
                "EXPLAIN QUERY PLAN SELECT r.pos FROM records r INDEXED BY records_by_id"
                " WHERE r.snapshot = 1 AND r.record_id = 6107"
            )
        )
        assert "COVERING INDEX records_by_id" in plan
        assert logged.offers(s) == before  # (kept as the last check left them)
        again = checking.check(s, NOW, catalogue=lambda: checking.now_occasions(s, NOW))
        assert [(o.title, o.status, o.findings) for o in again.offers] == [
            (o.title, o.status, o.findings) for o in before
        ]
        assert checking.check(s, NOW).counts() == {"current": 2}


def test_a_schema_9_store_moves_each_offers_check_time_apart_and_keeps_its_offer_log(
    demo_server: DemoServer, store_file: Path
) -> None:
    """Schema 10: each offer's last check's time is kept in ``offer_checks``, apart from the
    offer's row; a schema-9 log (the time in each row) is upgraded in place, every time kept,
    and checked as before."""
    assert sync(demo_server.base_url, store_file).ok
    synced_long_ago(store_file)
    with Store(store_file) as s:
        december = offer_of(s, [CHICAGO, WASHINGTON], "December")
        checking.check(s, NOW)
        january = offer_of(s, [MINNEAPOLIS], "January")  # (never checked)
        before = logged.offers(s)
    assert {o.id: o.checked_at is not None for o in before} == {december.id: True, january.id: False}
    as_schema(store_file, 9, *SCHEMA_9)
    with Store(store_file) as s:
        assert_upgraded(s)
        assert "checked_at" not in {r[1] for r in s._db.execute("PRAGMA table_info(offers)")}
        assert logged.offers(s) == before  # (every time kept: none made up)
        again = checking.check(s, NOW)
        assert {o.id: o.status for o in again.offers} == {december.id: "current", january.id: "current"}
        assert [o.findings for o in again.offers if o.id == december.id] == [
            o.findings for o in before if o.id == december.id
        ]
        stamped = {o.id: o.checked_at for o in logged.offers(s)}  # (nothing synced: December as it was)
        assert stamped == {
            december.id: next(o.checked_at for o in before if o.id == december.id),
            january.id: again.at,
        }


def test_a_check_that_finds_every_offer_as_before_writes_no_offers_row(
    demo_server: DemoServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    """A check after a refresh that changed nothing an offer quotes stamps each offer's check's
    time and writes nothing else: every row of ``offers`` (its ~2 KB of JSON) stays as it was
    (SQLite writes a whole row again on any change to it)."""
    assert sync(demo_server.base_url, store_file).ok
    synced_long_ago(store_file)
    with Store(store_file) as s:
        offer_of(s, [CHICAGO, WASHINGTON], "December")
        offer_of(s, [MINNEAPOLIS], "January")
        ids = [o.id for o in checking.check(s, NOW).offers]
        s.offers.set_checked([], "2026-11-01T00:00:00Z", ids)  # (checked a while ago)
        rows = s._db.execute("SELECT * FROM offers ORDER BY id").fetchall()
    courses = json.loads(sample[Kind.COURSES])
    courses[0]["title"] += " (renamed)"  # (no course an offer quotes)
    assert courses[0]["courseId"] not in (6104, 6107)
    serve(demo_server, Kind.COURSES, courses)
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        again = checking.check(s, NOW)
        assert again.counts() == {"current": 2}
        assert s._db.execute("SELECT * FROM offers ORDER BY id").fetchall() == rows
        assert {o.checked_at for o in logged.offers(s)} == {again.at}


def test_damaged_rows_are_read_without_raising(store_file: Path) -> None:
    with Store(store_file) as s:
        s.offers.add(
            made="2026-11-28T10:00:00Z", title="Bad", note=None, currency=None, written="{", items="[1, {}]"
        )
        (bad,) = logged.offers(s)
        assert bad.written == () and [i.occasion for i in bad.items] == ["?", "?"] and bad.status == "current"
        assert history.span_days(s._db) == 400


def test_checking_a_thousand_offers_reads_the_catalogue_once(
    demo_server: DemoServer, store_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert sync(demo_server.base_url, store_file).ok
    synced_long_ago(store_file)
    from catalogue_desktop.core.offers import quoted_now

    reads = []
    real = quoted_now.quotes_now

    def counted(store: Store, wanted: Any) -> Any:
        reads.append(wanted)
        return real(store, wanted)

    monkeypatch.setattr(quoted_now, "quotes_now", counted)
    with Store(store_file) as s:
        found = checking.now_occasions(s, NOW)
        for n in range(1000):
            logged.remember(s, title=f"Offer {n}", items=[found[CHICAGO], found[MINNEAPOLIS]], written=[])
        result = checking.check(s, NOW)
    assert len(result.offers) == 1000 and len(reads) == 1
    assert all(o.status == "current" for o in result.offers)
    with Store(store_file) as s:  # checked since the catalogue last changed: not read again
        again = checking.check(s, NOW)
        assert len(reads) == 1 and [o.status for o in again.offers] == [o.status for o in result.offers]
        later = checking.check(s, datetime(2027, 6, 1, tzinfo=UTC))  # only past-ness moves with time
        assert len(reads) == 1 and {o.status for o in later.offers} == {"past"}
        assert all(f.over for o in later.offers for f in o.findings)
    courses = json.loads(demo_server.payload(Kind.COURSES))
    courses[0]["title"] += " (new edition)"
    serve(demo_server, Kind.COURSES, courses)
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:  # new data: read once more (the past ones are not checked again)
        checking.check(s, NOW)
        assert len(reads) == 1


def test_a_check_makes_only_the_quoted_occasions_and_finds_them_as_the_whole_catalogue_does(
    demo_server: DemoServer, store_file: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 40: a check of 1,000 offers made every occasion of the catalogue (30,000+ at 10,000
    webinars) to look ~3,000 up; now only the quoted ones, read by their ids (counted, not timed)."""
    from catalogue_desktop.core.cache.offer_log import OfferLog
    from catalogue_desktop.core.offers import quoted_now

    assert sync(demo_server.base_url, store_file).ok
    synced_long_ago(store_file)
    with Store(store_file) as s:
        every = checking.now_occasions(s, NOW)
        assert len(every) > 10 and list(every) == [logged.occasion_id(o) for o in every.values()]
        for n in range(100):
            logged.remember(s, title=f"Offer {n}", items=[every[CHICAGO], every[WASHINGTON]], written=[])
        wanted = {CHICAGO, WASHINGTON, "webinar:no-such"}
        assert quoted_now.quotes_now(s, wanted) == {
            k: logged.quoted(every[k], None) for k in (CHICAGO, WASHINGTON)
        }
        made: list[int] = []
        real = quoted_now.quotes_now

        def counted(store: Store, wanted: Any) -> Any:
            out = real(store, wanted)
            made.append(len(out or ()))
            return out

        monkeypatch.setattr(quoted_now, "quotes_now", counted)
        result = checking.check(s, NOW)
    assert made == [2] and len(result.offers) == 100
    assert {o.status for o in result.offers} == {"current"}
    assert {f.now for o in result.offers for f in o.findings} == {
        logged.quoted(every[k], None) for k in (CHICAGO, WASHINGTON)
    }
    webinars = json.loads(demo_server.payload(Kind.WEBINARS))
    webinars[0]["title"] += " (moved)"  # new webinars: no offer quotes one, none is read again
    serve(demo_server, Kind.WEBINARS, webinars)
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        assert checking.check(s, NOW).at and made == [2]
    courses = json.loads(demo_server.payload(Kind.COURSES))
    courses[-1]["title"] += " (new edition)"  # new courses, none of the quoted changed: found as they were
    serve(demo_server, Kind.COURSES, courses)
    assert sync(demo_server.base_url, store_file).ok
    written: list[tuple[list[Any], list[int]]] = []
    real_set = OfferLog.set_checked

    def set_checked(
        log: OfferLog, findings: Any, at: str, same: Any = (), quoted: Any = (), against: Any = None
    ) -> None:
        written.append((list(findings), list(same)))
        real_set(log, findings, at, same, quoted, against)

    monkeypatch.setattr(OfferLog, "set_checked", set_checked)
    with Store(store_file) as s:
        before = {o.id: o.findings for o in logged.offers(s)}
        again = checking.check(s, NOW)
        assert made == [2]  # none of the records quoted changed: not read again, only the time written
        assert written == [([], sorted(before, reverse=True))]
        assert [o.findings for o in again.offers] == [o.findings for o in result.offers]
        assert {o.id: o.findings for o in logged.offers(s)} == before
        assert {o.checked_at for o in logged.offers(s)} == {again.at}


def test_a_catalogue_with_nothing_in_it_withdraws_nothing(demo_server: DemoServer, store_file: Path) -> None:
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        acme = offer_of(s, [CHICAGO], "Offer for Acme")
        assert checking.check(s, NOW).offers[0].status == "current"
        again = checking.check(s, NOW, catalogue=dict)  # (nothing synced to check against)
        assert [(o.id, o.status) for o in again.offers] == [(acme.id, "current")] and again.flagged == []


def test_the_same_offer_written_again_soon_after_in_another_format_is_one_offer(
    demo_server: DemoServer, store_file: Path
) -> None:
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        found = checking.now_occasions(s, NOW)

        def write(fmt: str, where: str, made: str | None, note: str = "Two seats") -> logged.LoggedOffer:
            offer = logged.remember(
                s,
                title="Offer for Acme",
                items=[found[CHICAGO], found[WASHINGTON]],
                written=[Written(fmt, where)],
                currency="USD",
                note=note,
                made=made,
            )
            assert offer is not None
            return offer

        pdf = write("pdf", "/tmp/acme.pdf", "2026-11-28T09:00:00Z")
        write("ics", "/tmp/acme.ics", "2026-11-28T09:05:00Z")
        write("xlsx", "/tmp/acme.xlsx", "2026-11-28T10:00:00Z")
        email = write("email", "clipboard", "2026-11-28T20:59:59Z")
        assert email.id == pdf.id and email.made == "2026-11-28T09:00:00Z"
        assert [(w.format, w.where) for w in email.written] == [
            ("pdf", "/tmp/acme.pdf"),
            ("ics", "/tmp/acme.ics"),
            ("xlsx", "/tmp/acme.xlsx"),
            ("email", "clipboard"),
        ]
        assert write("pdf", "/tmp/acme.pdf", "2026-11-28T09:10:00Z").written == email.written  # no twice
        other_note = write("pdf", "/tmp/acme 2.pdf", "2026-11-28T11:00:00Z", note="Ten seats")
        next_day = write("pdf", "/tmp/acme 3.pdf", "2026-11-29T09:00:01Z")
        assert len({pdf.id, other_note.id, next_day.id}) == 3
        fewer = logged.remember(
            s, title="Offer for Acme", items=[found[CHICAGO]], written=[Written("pdf", "x")], note="Two seats"
        )
        assert fewer is not None and fewer.id not in {pdf.id, next_day.id}
        reissued, _ = checking.reissue(s, next_day.id, NOW, lambda _items, w: w)  # (made now)
        again = write("ics", "/tmp/acme 3.ics", None)  # the same: its newest version, not the superseded
        assert again.id == reissued.id != next_day.id
        assert [w.format for w in again.written] == ["pdf", "ics"]
        assert [o.title for o in logged.offers(s)].count("Offer for Acme") == 5
