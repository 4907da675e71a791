"""The status line says what is true now: "No dates match; the words are found on Courses…" goes
as soon as the Dates tab shows rows for the same words (its "Show past" ticked: the only dates of
the course the words find are past), rather than standing beside the rows."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import click_tab, status_text, type_query

COURSE = 6101  # Advanced Lease Accounting Workshop (ASC 842): its dates moved into the past here


def test_no_dates_match_goes_once_show_past_lists_them(
    make_session: Any, demo_server: Any, qtbot: Any
) -> None:
    courses = json.loads(demo_server.payload(Kind.COURSES))
    (course,) = [c for c in courses if c["courseId"] == COURSE]
    course["title"] = "Lease Accounting for Zoologists"
    for year, location in enumerate(course["locations"], start=2020):
        location["startDate"] = location["startDate"].replace("2027-", f"{year}-", 1)
        location["endDate"] = location["endDate"].replace("2027-", f"{year}-", 1)
    demo_server.set_payload(Kind.COURSES, json.dumps(courses).encode())
    session = make_session(base_url=demo_server.base_url)
    window = session.window
    qtbot.waitUntil(lambda: not session.finder.indexer.busy, timeout=10000)
    tab = click_tab(window, OCCASIONS)
    type_query(window, "zoologists")
    qtbot.waitUntil(lambda: status_text(window).startswith("No dates match"), timeout=5000)
    assert window.current_kind() is OCCASIONS and tab.model.rowCount() == 0
    QTest.mouseClick(tab.show_past, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: tab.model.rowCount() == len(course["locations"]), timeout=5000)
    QApplication.processEvents()
    assert not status_text(window).startswith("No dates match"), status_text(window)
