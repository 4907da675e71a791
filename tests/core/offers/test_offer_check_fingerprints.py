"""The offer check reads each offer as its fingerprint and the quoted occasions by their ids (issue
40), over real syncs on loopback into real SQLite files: what it reads of the catalogue is what an
offer quotes of the whole catalogue's occasions, occasion by occasion (sessions listed under their
first series only, webinars that are sessions not listed as webinars, dates on demand dropped); and
an offer logged before the fingerprints existed (a schema-7 log) is checked as before, its
fingerprint kept by that check."""

from __future__ import annotations

import json
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.offers import checking, logged
from catalogue_desktop.core.offers.quoted_now import quotes_now
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.demo.server import DemoServer
from catalogue_desktop.demo.synthetic import generate
from tests.core.cache.test_history import serve, sync

NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


def test_the_quoted_occasions_read_by_id_are_the_whole_catalogues(
    demo_server: DemoServer, tmp_path: Path
) -> None:
    payloads = generate(300, 1)
    series = json.loads(payloads[Kind.SERIES])
    twice = series[0]["sessions"][0]["webinarId"]  # a webinar that is a session of two series
    series[-1]["sessions"].append(dict(series[0]["sessions"][0]))
    series[1]["sessions"][0]["type"] = 1  # a session on demand: listed without dates
    payloads[Kind.SERIES] = json.dumps(series).encode()
    for kind, body in payloads.items():
        demo_server.set_payload(kind, body)
    store_file = tmp_path / "cache" / "catalogue.sqlite3"
    report = sync(demo_server.base_url, store_file)
    assert report.ok, {k: o.error for k, o in report.collections.items() if o.error}
    with Store(store_file) as s:
        every = checking.now_occasions(s, NOW)
        kinds = {o.kind for o in every.values()}
        in_series = {w for x in series for w in (p["webinarId"] for p in x["sessions"])}
        not_listed = {
            f"session:{series[-1]['seriesId']}@{twice}",  # (listed under its first series only)
            f"webinar:{twice}",  # (a session, never a webinar beside it)
            f"webinar:{min(in_series)}",
            "course:1@2",
            "session:x@y",
            "webinar:",
        }
        assert kinds == {"course", "session", "webinar"} and not not_listed & every.keys()
        assert f"session:{series[0]['seriesId']}@{twice}" in every
        on_demand = every[f"session:{series[1]['seriesId']}@{series[1]['sessions'][0]['webinarId']}"]
        assert on_demand.start is None and on_demand.end is None
        found = quotes_now(s, set(every) | not_listed)
        assert found == {k: logged.quoted(o, None) for k, o in every.items()}
        some = sorted(every)[::7]
        assert quotes_now(s, some) == {k: logged.quoted(every[k], None) for k in some}
        # one location of a course of several, one session of a series of several (SQLite reads
        # only the quoted ones), and the session of two series (its first series' only)
        courses = {o.id: [] for o in every.values() if o.kind == "course"}
        for key, o in every.items():
            if o.kind == "course":
                courses[o.id].append(key)
        sessions = [
            k for k, o in every.items() if o.kind == "session" and o.series_id == series[2]["seriesId"]
        ]
        assert len(sessions) > 1 and max(len(keys) for keys in courses.values()) > 1
        last = {max(courses.values(), key=len)[-1], sessions[-1], f"session:{series[0]['seriesId']}@{twice}"}
        assert quotes_now(s, last | not_listed) == {k: logged.quoted(every[k], None) for k in last}


def test_an_offer_logged_before_fingerprints_is_checked_as_before(
    demo_server: DemoServer, tmp_path: Path
) -> None:
    store_file = tmp_path / "cache" / "catalogue.sqlite3"
    assert sync(demo_server.base_url, store_file).ok
    chicago, washington = "course:6107@7114", "course:6104@7108"  # 1,095 and 595
    with Store(store_file) as s:
        every = checking.now_occasions(s, NOW)
        for n in range(3):
            made = logged.remember(
                s, title=f"Offer {n}", items=[every[chicago], every[washington]], written=[]
            )
            assert made is not None
        assert checking.check(s, NOW).counts() == {"current": 3}
    db = sqlite3.connect(store_file)  # the log as schema 7 kept it: no fingerprints
    db.execute("ALTER TABLE offers DROP COLUMN quoted")
    db.execute("UPDATE meta SET value = '7' WHERE key = 'schema_version'")
    db.commit()
    db.close()
    courses = json.loads(demo_server.payload(Kind.COURSES))
    for course in courses:
        for place in course["locations"]:
            if place["locationId"] == 7114:
                place["fee"] = 1195
    serve(demo_server, Kind.COURSES, courses)
    assert sync(demo_server.base_url, store_file).ok  # (the store upgraded to schema 8 first)
    with Store(store_file) as s:
        assert {r.quoted for r in s.offers.rows()} == {None}
        checked = checking.check(s, NOW)
        assert checked.counts() == {"changed": 3}
        assert {line for o in checked.flagged for line in o.changes} == {
            "Federal Tax Institute, Chicago 14 Dec: fee 1,095 → 1,195"
        }
        rows = s.offers.rows()
        assert all(logged.read_fingerprint(r.quoted) for r in rows)  # kept by the check
        assert [r.quoted for r in rows] == [logged.fingerprint(logged.read(r).items) for r in rows]
    db = sqlite3.connect(store_file)  # one fingerprint damaged, every offer to be checked again
    db.execute("DELETE FROM offer_checks")
    db.execute("UPDATE offers SET quoted = CASE id WHEN ? THEN '[x' ELSE quoted END", (rows[0].id,))
    db.commit()
    db.close()
    with Store(store_file) as s:
        again = checking.check(s, NOW)
        assert logged.read_fingerprint(s.offers.row(rows[0].id).quoted) == logged.read_fingerprint(
            rows[0].quoted
        )
    assert [o.status for o in again.offers] == ["changed"] * 3
    assert [o.findings for o in again.offers] == [o.findings for o in checked.offers]


def test_a_findings_text_is_json_dumps_own() -> None:
    """A check tells findings found as before by their JSON text (``Finding.json_text``, written
    out): it is exactly what ``json.dumps`` writes, whatever the service's text holds."""
    odd = ['Tax "Law" \\ Ethics', "Zürich 東京 \u2028 \x00 \U0001f600", "\ud800", "", "x" * 300]
    fees: list[int | str | None] = [1095, 10**30, "1,095.50", None, -0]
    for n, text in enumerate(odd):
        now = logged.Quoted(f"course:{n}@{text}", text, text, None, text, text or None, fees[n], "€")
        for finding in (
            logged.Finding(now.occasion, now),
            logged.Finding(now.occasion, None, (f"{text}: withdrawn",)),
            logged.Finding(now.occasion, now, (), True),
        ):
            assert finding.json_text() == json.dumps(finding.to_json(), ensure_ascii=False)


def test_an_offer_whose_every_occasion_was_withdrawn_is_withdrawn(
    demo_server: DemoServer, tmp_path: Path
) -> None:
    """Every quoted occasion withdrawn is not "nothing synced to check against" (the check read
    nothing then, and kept the last findings)."""
    store_file = tmp_path / "cache" / "catalogue.sqlite3"
    assert sync(demo_server.base_url, store_file).ok
    washington = "course:6104@7108"  # Legal Ethics Roundtable, Washington, 11 Dec 2026
    with Store(store_file) as s:
        made = logged.remember(
            s, title="Offer", items=[checking.now_occasions(s, NOW)[washington]], written=[]
        )
        assert made is not None and checking.check(s, NOW).counts() == {"current": 1}
    courses = json.loads(demo_server.payload(Kind.COURSES))
    for course in courses:
        course["locations"] = [p for p in course["locations"] if p["locationId"] != 7108]
    serve(demo_server, Kind.COURSES, courses)
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        (offer,) = checking.check(s, NOW).flagged
    assert offer.status == "withdrawn"
    assert offer.changes == [
        "Legal Ethics Roundtable, Washington 11 Dec: withdrawn, no longer listed by the service"
    ]
