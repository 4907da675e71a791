"""A seller answers the phone with the Dates tab open: the Chicago date of 21 June 2027 is written
"8:30 AM UTC−06:00" by the service, but Chicago is on CDT (UTC−05:00) then. Before any choice the
row shows the service's time, marked ⚠, and so do the details. The first offer asks, in plain
words, which is right; whichever the seller answers, the Dates row, the details and the offer
(the PDF read back by pypdf, the calendar file by icalendar) then give one time, still marked ⚠
in the window with a note saying what the service wrote and what was chosen (issue 39)."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import icalendar
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from catalogue_desktop.core.records.kinds import OCCASIONS
from tests.journeys.hands import click_row, click_tab, pane_text
from tests.journeys.test_offers_speak_with_one_voice import START, Seller, _offer, _pdf_text, _row


def _detail(tab: Any, name: str) -> str:
    """The text of the details' row value named ``name`` ("" when there is none)."""
    label = tab.detail.current_page().findChild(QLabel, name)
    return "" if label is None else " ".join(label.text().split())


@pytest.mark.parametrize(
    ("answer", "clock", "moment"),
    [
        ("the clock time is right", "8:30 AM", datetime(2027, 6, 21, 13, 30, tzinfo=UTC)),
        ("the instant is right", "9:30 AM", datetime(2027, 6, 21, 14, 30, tzinfo=UTC)),
    ],
)
def test_whichever_reading_is_chosen_the_window_says_what_the_offer_says(
    start: Any, qtbot: Any, saved: list[Path], answer: str, clock: str, moment: datetime
) -> None:
    window = start(currency="USD").window
    tab = click_tab(window, OCCASIONS)
    chicago = _row(tab, "Commercial Real Estate Transactions", "Chicago", "6/21/27")
    cell = tab.model.index(chicago, START)
    assert cell.data() == "6/21/27 8:30 AM UTC−06:00 ⚠"  # before a choice: as the service wrote it
    click_row(tab, chicago)
    assert "8:30 AM" in _detail(tab, "value_this_date") and "⚠" in _detail(tab, "value_this_date")
    assert "Check the time at Chicago, IL" in pane_text(tab)  # the details say why, too

    seller = Seller(answer)
    _offer(qtbot, window, tab, "pdf", seller)
    (question,) = seller.asked  # in plain words: what was given, and what Chicago's clock is then
    assert "the service gives 8:30 AM at UTC−06:00, but Chicago is on CDT (UTC−05:00) then" in question
    assert "UTC offset" not in question and "instant written" not in question
    assert "8:30 AM Chicago time (the clock time is right)" in seller.buttons[-1]
    assert "9:30 AM Chicago time (the instant is right)" in seller.buttons[-1]
    _offer(qtbot, window, tab, "ics", seller)
    assert len(seller.asked) == 1  # asked once
    pdf, ics = saved

    # the offer
    assert f"{clock} – " in _pdf_text(pdf) and "CDT" in _pdf_text(pdf)
    events = icalendar.Calendar.from_ical(ics.read_bytes()).walk("VEVENT")  # (a day each)
    assert min(e.decoded("DTSTART").astimezone(UTC) for e in events) == moment
    # the Dates row: the same time, still marked, its tooltip saying what was written and chosen
    cell = tab.model.index(chicago, START)
    assert cell.data() == f"6/21/27 {clock} CDT ⚠"
    tip = cell.data(Qt.ItemDataRole.ToolTipRole)
    assert tip.startswith("The service wrote 8:30 AM at UTC−06:00, but Chicago, IL is on CDT (UTC−05:00)")
    assert f"Shown as chosen: {clock} CDT, {answer}" in tip
    # the details: the same time, the ⚠, and the note said (not only in a tooltip)
    qtbot.waitUntil(lambda: f"{clock} " in _detail(tab, "value_this_date"), timeout=5000)
    this_date = _detail(tab, "value_this_date")
    assert this_date.startswith("Monday, June 21, 2027") and f"{clock} " in this_date and "CDT" in this_date
    assert this_date.endswith("⚠")
    assert _detail(tab, "value_this_date_note") == " ".join(tip.split())
    assert "UTC−06:00" not in this_date
