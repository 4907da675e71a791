"""The offer check reads only the records the open offers quoted (issue 40): over a real sync on
loopback of a synthetic catalogue (courses, series with sessions, webinars) into a real SQLite
file, a change to one quoted occasion among hundreds of unchanged ones is still found, in the
same words as before, and a change to an occasion no offer quoted is never reported."""

from __future__ import annotations

import json
import random
from dataclasses import fields, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.offers import checking, logged
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.demo.server import DemoServer
from catalogue_desktop.demo.synthetic import generate
from tests.core.cache.test_history import serve, sync

NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


def _fee_up(records: list[dict[str, Any]], key: str, record_id: int, by: int) -> int:
    """Raise the fee of the record (or series session) with ``key`` == ``record_id``; its old fee."""
    for record in records:
        for one in [record, *(record.get("sessions") or [])]:
            if one.get(key) == record_id and isinstance(one.get("fee"), int):
                old: int = one["fee"]
                one["fee"] = old + by
                return old
    raise AssertionError(f"no {key} {record_id} with a whole fee")


def test_a_changed_quoted_occasion_among_many_is_found_and_an_unquoted_change_is_not(
    demo_server: DemoServer, tmp_path: Path
) -> None:
    payloads = generate(300, 1)
    for kind, body in payloads.items():
        demo_server.set_payload(kind, body)
    store_file = tmp_path / "cache" / "catalogue.sqlite3"
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        every = checking.now_occasions(s, NOW)

        def upcoming(kind: str) -> list[str]:
            """The dated occasions of ``kind`` still to come, with a whole fee."""
            live = (k for k, o in every.items() if o.kind == kind and o.start and isinstance(o.fee, int))
            return sorted(k for k in live if not logged.quoted(every[k], None).over(NOW))

        webinars, sessions = upcoming("webinar"), upcoming("session")
        assert len(webinars) > 20 and len(sessions) > 20 and len(upcoming("course")) > 20
        changed_webinar, changed_session = webinars[0], sessions[0]
        unquoted = {webinars[-1], sessions[-1]}  # changed too, quoted by no offer
        pool = sorted({k for kind in ("course", "session", "webinar") for k in upcoming(kind)} - unquoted)
        rng = random.Random(40)
        for n in range(300):
            picked = rng.sample(pool, 3)
            if n in (7, 150):
                picked[1] = changed_webinar if n == 7 else changed_session
            picked = list(dict.fromkeys(picked))
            assert logged.remember(s, title=f"Offer {n}", items=[every[k] for k in picked], written=[])
        first = checking.check(s, NOW)
    assert len(first.offers) == 300 and {o.status for o in first.offers} == {"current"}

    webinar_id = every[changed_webinar].id
    series_id, session_webinar = every[changed_session].series_id, every[changed_session].id
    web = json.loads(payloads[Kind.WEBINARS])
    old_webinar_fee = _fee_up(web, "webinarId", webinar_id, 100)
    _fee_up(web, "webinarId", every[webinars[-1]].id, 100)
    series = json.loads(payloads[Kind.SERIES])
    own = next(x for x in series if x["seriesId"] == series_id)
    old_session_fee = _fee_up([own], "webinarId", session_webinar, 50)
    _fee_up(series, "webinarId", every[sessions[-1]].id, 50)
    serve(demo_server, Kind.WEBINARS, web)
    serve(demo_server, Kind.SERIES, series)
    assert sync(demo_server.base_url, store_file).ok
    with Store(store_file) as s:
        result = checking.check(s, NOW)

    flagged = {o.title: o for o in result.flagged}
    quoting = {
        o.title for o in result.offers if {changed_webinar, changed_session} & {i.occasion for i in o.items}
    }
    assert set(flagged) == quoting and {"Offer 7", "Offer 150"} <= quoting
    assert {o.status for o in result.offers if o.title not in quoting} == {"current"}
    assert all(not o.changes for o in result.offers if o.title not in quoting)
    lines = {line for o in flagged.values() for line in o.changes}
    webinar_item = next(i for i in flagged["Offer 7"].items if i.occasion == changed_webinar)
    session_item = next(i for i in flagged["Offer 150"].items if i.occasion == changed_session)
    assert lines == {
        f"{checking.label(webinar_item)}: fee {old_webinar_fee:,} → {old_webinar_fee + 100:,}",
        f"{checking.label(session_item)}: fee {old_session_fee:,} → {old_session_fee + 50:,}",
    }
    found_now = {f.occasion: f.now for o in flagged.values() for f in o.findings}
    assert found_now[changed_webinar] is not None and found_now[changed_webinar].fee == old_webinar_fee + 100
    assert not unquoted & {f.occasion for o in result.offers for f in o.findings}


def test_a_checked_offer_keeps_everything_else_of_the_offer() -> None:
    """The check makes each checked offer field by field (``dataclasses.replace`` was a tenth of
    its time): a field added to ``LoggedOffer`` must be added there too."""
    offer = logged.LoggedOffer(
        id=7,
        made="2026-11-20T09:30:00Z",
        title="Offer for Acme",
        note="the spring dates",
        currency="USD",
        written=(logged.Written("pdf", "/x.pdf"),),
        items=(logged.Quoted("webinar:1", "Ethics", fee=100),),
        version=2,
        version_of=3,
        superseded_by=None,
        status="changed",
        findings=(logged.Finding("webinar:1", None),),
        checked_at="2026-11-21T09:30:00Z",
        terms_text='{"price": null, "validUntil": "2026-12-29"}',
    )
    assert len(fields(logged.LoggedOffer)) == 14  # (each one set above)
    found = (logged.Finding("webinar:1", logged.Quoted("webinar:1", "Ethics", fee=100)),)
    assert checking._checked(offer, "current", found, "2026-11-28T12:00:00Z") == replace(
        offer, status="current", findings=found, checked_at="2026-11-28T12:00:00Z"
    )
