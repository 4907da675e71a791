"""Issue 40: after a refresh (F5) the open offers are checked against the catalogue, and never on
the GUI thread: a seller with an offer in the log presses F5 while the service has raised its
fee; the offer is flagged, and every check of the log ran on the offer checks' own thread, as
did making the flagged offer from the log's row (the window only shows it)."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from PySide6.QtCore import Qt

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.offers import checking, logged
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.searches.stored import local_now
from tests.journeys.hands import click_tab, key
from tests.ui.conftest import wait_rows_loaded

COURSE, LOCATION = 6103, 7107  # Trial Advocacy Intensive, Chicago, 13 Sep 2027, 1,995


def test_the_offers_are_checked_after_a_refresh_off_the_gui_thread(
    make_session: Any, demo_server: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[threading.Thread] = []
    real = checking.check

    def watched(*args: Any, **kw: Any) -> checking.Checked:
        threads.append(threading.current_thread())
        return real(*args, **kw)

    monkeypatch.setattr(checking, "check", watched)
    readers: list[threading.Thread] = []  # (the offers made from the log's rows: the flagged ones)
    read = logged.read

    def read_where(row: Any, findings: bool = True) -> logged.LoggedOffer:
        readers.append(threading.current_thread())
        return read(row, findings)

    monkeypatch.setattr(logged, "read", read_where)
    session = make_session(base_url=demo_server.base_url)
    window = session.window
    wait_rows_loaded(qtbot, session)
    with Store(session.store_file) as store:
        occasion = checking.now_occasions(store, local_now())[f"course:{COURSE}@{LOCATION}"]
        assert logged.remember(store, title="Offer for Acme", items=[occasion], written=[], currency="USD")
    readers.clear()

    courses = json.loads(demo_server.payload(Kind.COURSES))
    (course,) = [c for c in courses if c["courseId"] == COURSE]
    (place,) = [loc for loc in course["locations"] if loc["locationId"] == LOCATION]
    place["fee"] += 100
    demo_server.set_payload(Kind.COURSES, json.dumps(courses).encode())
    tab = click_tab(window, Kind.COURSES)
    with qtbot.waitSignal(session.offer_log.checks.flagged, timeout=30000) as flagged:
        key(tab.view, Qt.Key.Key_F5)
    wait_rows_loaded(qtbot, session)

    (offer,) = flagged.args[0].flagged
    assert offer.title == "Offer for Acme" and offer.status == "changed"
    assert offer.changes and "fee 1,995 → 2,095" in offer.changes[0]
    assert threads and threading.main_thread() not in threads
    assert {t.name.split("_")[0] for t in threads} == {"offer-checks"}
    assert readers and {t.name.split("_")[0] for t in readers} == {"offer-checks"}
