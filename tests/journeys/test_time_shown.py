"""Time is shown one way everywhere: every date and time the window shows carries its zone,
follows the one preference (the event's own offset, or local time) and the locale's clock; an
on-demand webinar says "On demand" and when it was recorded, never a start that looks missed."""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from typing import Any

from PySide6.QtWidgets import QLabel, QRadioButton, QTableWidget

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import Kind
from tests.journeys.hands import ZONE, answer_offer_dialogs, click_row, click_tab, when_dialog_opens


def _label(window: Any, name: str) -> str:
    label = window.current_tab().detail.current_page().findChild(QLabel, name)
    assert label is not None, name
    return label.text()


def test_a_series_sessions_show_their_zone_as_its_first_session_does(start: Any) -> None:
    from PySide6.QtWidgets import QApplication

    window = start(finder_ready=False).window
    window.show()
    window.resize(1024, 700)
    tab = click_tab(window, Kind.SERIES)
    click_row(tab, 0)
    first = _label(window, "value_first")
    sessions = window.current_tab().detail.current_page().findChild(QTableWidget, "sessions")
    QApplication.processEvents()
    assert sessions.columnWidth(1) >= 60  # the session's title is readable beside its start
    starts = [sessions.item(r, 0).text() for r in range(sessions.rowCount())]
    assert starts and all(ZONE.search(s) or s.startswith("On demand") for s in starts), starts
    found = ZONE.search(first)
    assert found is not None, first
    zone = found.group(1)  # the first session's zone, as the form above says it
    dated = [s for s in starts if not s.startswith("On demand")]
    assert dated[0].endswith(zone), (dated[0], first)


def test_local_time_is_labelled_in_tables_and_details(start: Any) -> None:
    window = start(finder_ready=False).window
    when_dialog_opens(lambda d: (d.findChild(QRadioButton, "local-zone").click(), d.accept()))
    window.menu_actions.preferences_action.trigger()
    tab = click_tab(window, Kind.WEBINARS)
    start = column_index(Kind.WEBINARS, "start")
    texts = [tab.model.index(r, start).data() for r in range(tab.model.rowCount())]
    dated = [t for t in texts if t and not t.startswith("On demand")]
    assert dated and all(ZONE.search(t) for t in dated), dated[:3]
    row = texts.index(dated[0])
    click_row(tab, row)
    assert ZONE.search(_label(window, "value_start")), _label(window, "value_start")


def test_on_demand_webinars_say_on_demand_and_recorded_never_a_past_start(start: Any) -> None:
    window = start(finder_ready=False).window
    tab = click_tab(window, Kind.WEBINARS)
    type_column, start = column_index(Kind.WEBINARS, "type"), column_index(Kind.WEBINARS, "start")
    rows = range(tab.model.rowCount())
    on_demand = [r for r in rows if tab.model.index(r, type_column).data() == "On demand"]
    assert on_demand
    for r in on_demand:
        text = tab.model.index(r, start).data()
        assert text.startswith("On demand · recorded "), text
        assert not ZONE.search(text)  # a day, not a start time
    click_row(tab, on_demand[0])
    assert _label(window, "value_start") == "On demand"
    assert _label(window, "key_production") == "Recorded"
    assert ZONE.search(_label(window, "value_production"))
    page = window.current_tab().detail.current_page()
    assert page.findChild(QLabel, "value_end") is None or not page.findChild(QLabel, "value_end").isVisible()


def test_an_offer_for_email_writes_times_as_the_window_does(start: Any) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from catalogue_desktop.core.records.kinds import OCCASIONS

    window = start(currency="USD").window  # (no currency question before the offer)
    tab = click_tab(window, OCCASIONS)
    start = column_index(OCCASIONS, "start")
    row = next(r for r in range(tab.model.rowCount()) if ZONE.search(tab.model.index(r, start).data() or ""))
    click_row(tab, row)
    shown = tab.model.index(row, start).data()  # "3/9/27 8:30 AM UTC−05:00"

    answer_offer_dialogs()  # the data's age ("Continue"), then the offer's own dialog
    QTest.mouseClick(tab.offer_buttons["copy"], Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    line = next(t for t in QGuiApplication.clipboard().text().splitlines() if " — " in t)  # a date
    # The same instant, in the locale's 12-hour clock, with a zone: a course at its location's,
    # an online event in the zone picked for the customer (the seller's own by default: issue 27)
    found = re.search(r"(\d+):(\d\d)\s(AM|PM) UTC([+−])(\d\d):(\d\d)$", shown.replace("\u202f", " "))
    assert found, shown
    hour, minute, half, sign, oh, om = found.groups()
    offset = (int(oh) * 60 + int(om)) * (-1 if sign == "−" else 1)
    day = datetime.strptime(shown.split(" ")[0], "%m/%d/%y")
    hour24 = int(hour) % 12 + (12 if half == "PM" else 0)
    instant = day.replace(hour=hour24, minute=int(minute), tzinfo=timezone(timedelta(minutes=offset)))
    local = instant.astimezone()  # the customer's zone by default: the seller's own
    if "Online" in line:
        assert f"{local.hour % 12 or 12}:{local.minute:02d} {'PM' if local.hour >= 12 else 'AM'}" in line, (
            line
        )
    else:
        assert f"{hour}:{minute} {half}" in line, (line, shown)
    assert re.search(r"\b(UTC|[A-Z]{2,4}T)\b", line), line  # a zone beside the time
