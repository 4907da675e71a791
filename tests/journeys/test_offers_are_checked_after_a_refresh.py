"""A seller saves a calendar file of a course's dates for a customer; the service raises one
fee and withdraws another date; after F5 the notice and What's new say an offer no longer
matches, Go ▸ Offers (Ctrl+Shift+O) shows the change in words, and Alt+R re-issues it from
today's data: a new calendar file with the new fee (read back by icalendar), the old offer kept
and marked superseded."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import icalendar
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QMessageBox

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.finder.palette import Palette
from catalogue_desktop.ui.offers.sheet_dialog import SheetDialog
from tests.journeys.hands import (
    answer_dialogs,
    click_row,
    click_tab,
    key,
    menu_items,
    open_offers,
    press,
    quick_open,
    status_text,
)
from tests.ui.conftest import wait_rows_loaded


def seller(dialog: Any) -> None:
    """Answers the offer's dialogs: the customer typed in, course times as written (the palette,
    modal too, is the person's own typing: left alone)."""
    if isinstance(dialog, Palette):
        return
    if isinstance(dialog, SheetDialog):
        QTest.keyClicks(dialog.title, "Acme")
        QTest.mouseClick(dialog.go, Qt.MouseButton.LeftButton)
        return
    assert isinstance(dialog, QMessageBox), dialog
    if dialog.objectName() == "offer-times":  # "8:30 AM Chicago time (the clock time is right)"
        QTest.mouseClick(dialog.defaultButton(), Qt.MouseButton.LeftButton)
        return
    press(dialog, "Continue")


COURSE = 6103  # Trial Advocacy Intensive: New York (7106, Mar 2027) and Chicago (7107, 13 Sep 2027), 1,995


def test_an_offer_is_flagged_after_a_refresh_and_reissued_from_todays_data(
    make_session: Any, demo_server: Any, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved: list[str] = []

    def save(_parent: Any, _caption: str, name: str, _filters: str) -> tuple[str, str]:
        saved.append(str(tmp_path / Path(name).name))
        return saved[-1], ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    session = make_session(base_url=demo_server.base_url)
    window = session.window
    window.formatter.set_currency("USD")  # (as Preferences would have it)
    qtbot.waitUntil(lambda: not session.finder.indexer.busy, timeout=10000)  # (the Dates are made)
    tab = click_tab(window, Kind.COURSES)
    click_row(tab, tab.model.view_row_of(COURSE))
    answer_dialogs(seller)
    chosen = quick_open(qtbot, window, "calendar file")  # Ctrl+K: File ▸ Offer ▸ Calendar file (.ics)…
    assert chosen.title == "Calendar file (.ics)…"
    qtbot.waitUntil(lambda: status_text(window).startswith("Wrote "), timeout=10000)
    assert len(saved) == 1 and Path(saved[0]).is_file()

    # the service's next version: Chicago dearer, New York withdrawn
    courses = json.loads(demo_server.payload(Kind.COURSES))
    (course,) = [c for c in courses if c["courseId"] == COURSE]
    for loc in course["locations"]:
        if loc["locationId"] == 7107:
            loc["fee"] = 2095
    course["locations"] = [loc for loc in course["locations"] if loc["locationId"] != 7106]
    demo_server.set_payload(Kind.COURSES, json.dumps(courses).encode())
    with qtbot.waitSignal(session.offer_log.checks.flagged, timeout=30000):
        key(tab.view, Qt.Key.Key_F5)
    wait_rows_loaded(qtbot, session)

    notice = session.notifier.notice
    assert notice.isVisibleTo(window) and "1 offer no longer matches the catalogue" in notice.text()
    notice.linkActivated.emit("whats-new")  # the notice opens What's new: the offer counted there
    dock = session.watcher.dock
    assert dock.isVisible()
    offers = next(
        dock.tree.topLevelItem(i)
        for i in range(dock.tree.topLevelItemCount())
        if dock.tree.topLevelItem(i).text(0).startswith("Offers — ")
    )
    assert offers.text(0) == "Offers — 1 offer no longer matches the catalogue"
    lines = sorted(offers.child(i).text(0) for i in range(offers.childCount()))
    assert lines == [
        "Offer for Acme: Trial Advocacy Intensive, Chicago 13 Sep: fee 1,995 → 2,095",
        "Offer for Acme: Trial Advocacy Intensive, New York 15 Mar: withdrawn, no longer listed by the "
        "service",
    ]

    assert "Offers" in menu_items(window, "Go")
    from catalogue_desktop.ui.finder.commands import menu_commands

    assert any(
        (c.path, c.text, c.keys) == ("Go", "Offers", "Ctrl+Shift+O") for c in menu_commands(window.menuBar())
    )
    offers_window = open_offers(qtbot, session, 1)
    qtbot.waitUntil(lambda: not session.offer_log.checks.busy, timeout=10000)
    model = offers_window.offers
    assert [model.index(0, c).data() for c in (0, 3, 4, 6)] == [
        "Acme",  # (the customer: "Offer for " left out)
        "2",
        "USD 1,995",  # New York or Chicago: one of the course's two dates
        "Withdrawn",
    ]
    assert "Trial Advocacy Intensive, Chicago 13 Sep: fee 1,995 → 2,095" in offers_window.changes.text()
    items = offers_window.items
    changes = sorted(items.index(r, 3).data() for r in range(items.rowCount()))
    assert changes == ["fee 1,995 → 2,095", "withdrawn, no longer listed by the service"]
    table = offers_window.table
    assert QApplication.focusWidget() is table  # the list has the keyboard

    key(offers_window.table, Qt.Key.Key_R, Qt.KeyboardModifier.AltModifier)  # Re-issue
    qtbot.waitUntil(lambda: model.rowCount() == 2 and not session.offer_log.checks.busy, timeout=15000)
    qtbot.waitUntil(lambda: model.index(1, 6).data() == "Superseded", timeout=10000)
    assert [model.index(0, c).data() for c in (0, 3, 4, 6)] == [
        "Acme (version 2)",
        "1",
        "USD 2,095",
        "Current",
    ]
    assert "Re-issued “Offer for Acme” as offer #2 (version 2)" in status_text(window)
    assert "left out: Trial Advocacy Intensive, New York 15 Mar: withdrawn" in status_text(window)
    reissued = sorted(tmp_path.glob("Offer for Acme v2 *.ics"))
    assert len(reissued) == 1 and Path(saved[0]).is_file()  # the old file stays as it was sent
    events = icalendar.Calendar.from_ical(reissued[0].read_bytes()).walk("VEVENT")
    assert events and all("Fee: USD 2,095" in str(e["DESCRIPTION"]).replace("\u00a0", " ") for e in events)
    assert all("Chicago" in str(e["LOCATION"]) for e in events)
