# ruff: noqa: F811  (pytest fixtures imported from the window tests, then asked for by name)
"""Time is shown one way everywhere: every date and time the window shows carries its zone,
follows the one preference (the event's own offset, or local time) and the locale's clock; an
on-demand webinar says "On demand" and when it was recorded, never a start that looks missed."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QLabel, QRadioButton, QTableWidget

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import Kind
from tests.journeys.h31b_window import (  # noqa: F401  (fixtures)
    NOISE,
    ZONE,
    _no_keys_held,
    _private_settings_and_cache,
    cache_dir,
    click_row,
    click_tab,
    filled_cache,
    filled_store_template,
    make_session,
    open_window,
    qloop,
    when_dialog_opens,
)

pytestmark = NOISE


def _label(window: Any, name: str) -> str:
    label = window.current_tab().detail.current_page().findChild(QLabel, name)
    assert label is not None, name
    return label.text()


def test_a_series_sessions_show_their_zone_as_its_first_session_does(open_window: Any) -> None:
    from PySide6.QtWidgets import QApplication

    window = open_window().window
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
    zone = ZONE.search(first).group(1)  # the first session's zone, as the form above says it
    dated = [s for s in starts if not s.startswith("On demand")]
    assert dated[0].endswith(zone), (dated[0], first)


def test_local_time_is_labelled_in_tables_and_details(open_window: Any) -> None:
    window = open_window().window
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


def test_on_demand_webinars_say_on_demand_and_recorded_never_a_past_start(open_window: Any) -> None:
    window = open_window().window
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


def test_an_offer_for_email_writes_times_as_the_window_does(open_window: Any) -> None:
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QAbstractButton, QApplication

    from catalogue_desktop.core.listing.rows import DATES

    window = open_window().window
    tab = click_tab(window, DATES)
    start = column_index(DATES, "start")
    row = next(r for r in range(tab.model.rowCount()) if ZONE.search(tab.model.index(r, start).data() or ""))
    click_row(tab, row)
    shown = tab.model.index(row, start).data()  # "3/9/27 8:30 AM UTC−05:00"

    def go_on(box: Any) -> None:  # the demo data is old: "make the offer from this data?"
        next(b for b in box.findChildren(QAbstractButton) if b.text() == "Continue").click()

    when_dialog_opens(go_on)
    QTest.mouseClick(tab.offer_buttons["copy"], Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    line = QGuiApplication.clipboard().text().splitlines()[0]
    clock, zone = shown.split(" ", 1)[1].rsplit(" ", 1)  # "8:30 AM", "UTC−05:00"
    assert f"{clock} {zone}" in line, (line, shown)  # the locale's clock, the same zone label
