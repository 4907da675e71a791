"""A seller offers the Dallas date of 16 July 2027, written UTC−06:00 by the service: Central time
is CDT (UTC−05:00) on that date, so the time is as doubtful as a Chicago one written the same
way. The Dates tab marks it ⚠ like Chicago's, the seller is asked at the offer (Preferences
says "Ask at the next offer"), and no output calls the time "MDT", a zone the app would only
have guessed from the offset. The seller keeps the time as written: 8:30 AM at the venue, in
Dallas's own zone (CDT), the same in the sheet, the e-mail text, the calendar and the
spreadsheet read back."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import icalendar
import openpyxl
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.records.kinds import OCCASIONS
from tests.journeys.hands import click_row, click_tab, key, status_text
from tests.journeys.test_offers_speak_with_one_voice import START, Seller, _offer, _pdf_text, _row


def test_dallas_in_july_is_flagged_asked_and_written_with_its_offset(
    start: Any, qtbot: Any, saved: list[Path]
) -> None:
    window = start(currency="USD").window
    tab = click_tab(window, OCCASIONS)
    dallas = _row(tab, "Employment Litigation Update", "Dallas", "7/16/27")
    chicago = _row(tab, "Commercial Real Estate Transactions", "Chicago", "6/21/27")
    assert tab.model.index(chicago, START).data().endswith("⚠")
    assert tab.model.index(dallas, START).data().endswith("⚠")  # one rule for every place
    tip = tab.model.index(dallas, START).data(Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("Check the time at Dallas, TX: written UTC−06:00 (MDT in part of the state)")
    click_row(tab, dallas)
    seller = Seller("the clock time is right")

    _offer(qtbot, window, tab, "pdf", seller)
    (question,) = seller.asked  # asked, as Preferences' "Ask at the next offer" says
    assert "Employment Litigation Update, Dallas, TX, Friday, July 16, 2027" in question
    _offer(qtbot, window, tab, "ics", seller)
    _offer(qtbot, window, tab, "xlsx", seller)
    key(tab.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)  # copy for e-mail
    qtbot.waitUntil(lambda: status_text(window).startswith("Copied"), timeout=10000)
    assert len(seller.asked) == 1

    pdf, ics, xlsx = saved
    sheet = _pdf_text(pdf)
    assert "8:30 AM – 4:30 PM CDT" in sheet and "MDT" not in sheet
    mail = QApplication.clipboard().mimeData()
    assert "8:30 AM – 4:30 PM CDT" in mail.text() and "MDT" not in mail.text() + mail.html()
    (event,) = icalendar.Calendar.from_ical(ics.read_bytes()).walk("VEVENT")
    kept = datetime(2027, 7, 16, 13, 30, tzinfo=UTC)  # 8:30 AM CDT
    assert event.decoded("DTSTART").astimezone(UTC) == kept
    assert "MDT" not in str(event["DESCRIPTION"]) and "CDT" in str(event["DESCRIPTION"])
    ws = openpyxl.load_workbook(xlsx)["Dates"]
    heads = [c.value for c in ws[1]]
    (row,) = list(ws.iter_rows(min_row=2))
    assert dict(zip(heads, row, strict=True))["Zone"].value == "CDT"
