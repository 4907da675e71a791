"""Time is written one way (issue 39, point 7): the locale's clock in a course's schedule as in the
tables, a series' first session never an on-demand recording's past date, the file dialog's Date
Modified column whole, an offer's days in the details' long form, and the offer log's times with
their zone, as the tables write them."""

from __future__ import annotations

import re
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QFileDialog,
    QLabel,
    QTableWidget,
    QTreeView,
)

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from catalogue_desktop.ui.offers.offer_settings import OfferSettings
from tests.journeys.hands import (
    ZONE,
    answer_dialogs,
    answer_offer_dialogs,
    click_row,
    click_tab,
    open_offers,
    quick_open,
    status_text,
    until,
    when_dialog_opens,
)
from tests.journeys.test_offers_are_checked_after_a_refresh import seller

CLOCK = re.compile(r"^\d{1,2}:\d\d[ \u00a0\u202f](AM|PM)$")  # the US English locale's clock: "8:30 AM"


def _page_label(window: Any, name: str) -> QLabel | None:
    found = window.current_tab().detail.current_page().findChild(QLabel, name)
    return found if isinstance(found, QLabel) else None


def test_a_course_schedule_writes_its_times_in_the_tables_clock(start: Any) -> None:
    window = start(finder_ready=False).window
    window.show()
    tab = click_tab(window, Kind.COURSES)
    click_row(tab, 0)
    page = window.current_tab().detail.current_page()
    times = [label.text() for label in page.findChildren(QLabel, "schedule_time")]
    assert times, "the course shows no schedule"
    for text in times:  # "8:30 AM – 10:15 AM", never the 24-hour "08:30–10:15"
        parts = [p.strip() for p in text.replace("\u200b", "").split("–")]
        assert all(CLOCK.match(p) for p in parts), text
    starts = tab.model.index(0, column_index(Kind.COURSES, "next")).data()
    assert re.search(r"\d{1,2}:\d\d[ \u202f](AM|PM)", starts), starts  # the table's clock is the same


def test_a_series_first_session_is_never_an_on_demand_recording(start: Any) -> None:
    window = start(finder_ready=False).window
    window.show()
    tab = click_tab(window, Kind.SERIES)
    for row in range(tab.model.rowCount()):
        click_row(tab, row)
        sessions = window.current_tab().detail.current_page().findChild(QTableWidget, "sessions")
        starts = [sessions.item(r, 0).text() for r in range(sessions.rowCount())]
        if starts and starts[0].startswith("On demand"):
            break
    else:
        pytest.fail("no series begins with an on-demand session in the demo")
    first = _page_label(window, "value_first")
    assert first is not None
    dated = [s for s in starts if not s.startswith("On demand")]
    assert dated, starts
    # the first session people can attend: the first dated one's day, in the details' long form
    day = datetime.strptime(dated[0].split(" ")[0], "%m/%d/%y")
    assert f"{day:%B} {day.day}, {day.year}" in first.text(), (first.text(), starts)
    recorded = datetime.strptime(starts[0].rsplit(" ", 1)[-1], "%m/%d/%y")
    assert f"{recorded:%B} {recorded.day}, {recorded.year}" not in first.text(), (first.text(), starts)


def test_the_file_dialog_shows_whole_dates_sizes_and_types(start: Any, tmp_path: Path) -> None:
    window = start(finder_ready=False).window
    window.show()
    (tmp_path / "README.md").write_text("x" * 44_000)  # "43.0 KiB", "Markdown document"
    OfferSettings(window.settings).folder = str(tmp_path)  # (where Export proposes to save)
    seen: dict[str, Any] = {}

    def look(dialog: Any) -> None:
        assert isinstance(dialog, QFileDialog), dialog
        view = dialog.findChild(QTreeView, "treeView")
        assert isinstance(view, QTreeView), "no detail view in the file dialog"
        model = view.model()
        until(lambda: model.rowCount(view.rootIndex()) > 0, 5000)
        QApplication.processEvents()
        header = view.header()
        for column in (1, 2, 3):  # Size, Type, Date Modified: each as wide as what it shows
            index = model.index(0, column, view.rootIndex())
            seen[str(header.model().headerData(column, Qt.Orientation.Horizontal))] = (
                str(index.data()),
                view.sizeHintForColumn(column),
                header.sectionSize(column),
            )
        dialog.reject()

    done = when_dialog_opens(look)
    window.menu_actions.export_action.trigger()  # File ▸ Export visible rows…
    until(lambda: bool(done) and len(seen) == 3)
    cut = {name: shown for name, shown in seen.items() if shown[1] > shown[2]}
    assert not cut, cut  # "28 11 2…6", "43.…KiB", "Mar…ent" on main


def test_an_offer_writes_days_as_the_details_do(start: Any) -> None:
    window = start(currency="USD").window
    tab = click_tab(window, OCCASIONS)
    starts = column_index(OCCASIONS, "start")
    row = next(r for r in range(tab.model.rowCount()) if ZONE.search(tab.model.index(r, starts).data() or ""))
    click_row(tab, row)

    answer_offer_dialogs()  # the data's age ("Continue"), then the offer's own dialog
    QTest.mouseClick(tab.offer_buttons["copy"], Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    text = QGuiApplication.clipboard().text()
    shown = tab.model.index(row, starts).data()  # "12/2/26 12:00 PM UTC−06:00"
    day = datetime.strptime(shown.split(" ")[0], "%m/%d/%y")
    long_day = f"{day:%A}, {day:%B} {day.day}, {day.year}"  # as the details write it
    assert long_day in window.formatter.date_long(f"{day:%Y-%m-%d}T12:00:00+00:00")
    assert long_day in text, (long_day, text.splitlines()[:3])
    assert not re.search(r"\b(Mon|Tue|Wed|Thu|Fri|Sat|Sun) \d{1,2} ", text), text.splitlines()[0]


def test_the_offer_log_writes_times_with_their_zone(
    start: Any, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def save(_parent: Any, _caption: str, name: str, _filters: str) -> tuple[str, str]:
        return str(tmp_path / Path(name).name), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    session = start(currency="USD")
    window = session.window
    tab = click_tab(window, Kind.COURSES)
    click_row(tab, 0)
    answer_dialogs(seller)
    chosen = quick_open(qtbot, window, "calendar file")  # Ctrl+K: File ▸ Offer ▸ Calendar file (.ics)…
    assert chosen.title == "Calendar file (.ics)…"
    qtbot.waitUntil(lambda: status_text(window).startswith("Wrote "), timeout=10000)
    offers = open_offers(qtbot, session, 1)
    offers.table.selectRow(0)
    qtbot.waitUntil(lambda: offers.items.rowCount() > 0, timeout=10000)
    quoted = str(offers.items.index(0, 1).data())  # "12/11/26 8:30 AM UTC−05:00 · USD 595"
    when = quoted.split(" · ")[0]
    assert ZONE.search(when), quoted  # never a bare "08:30"
    assert re.match(r"^\d{1,2}/\d{1,2}/\d\d \d{1,2}:\d\d (AM|PM) UTC", when), when  # as the tables
    assert offers.items.headerData(0, Qt.Orientation.Horizontal) == "Date"
