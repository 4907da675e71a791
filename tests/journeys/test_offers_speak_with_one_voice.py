"""A seller's offers speak with one voice (issue 38), made in the real window as a person makes
them — rows clicked on the Dates tab, the offer's buttons, the dialogs answered — and every
output read back by its parser (pypdf, icalendar, openpyxl, the clipboard's text and HTML):

* with Preferences set to local time, a course's times on the sheet are still at its venue;
* a course time written in an offset that is not its venue's zone's is the seller's doubt: asked
  once, naming the occasion, and then the sheet, calendar, e-mail and spreadsheet all agree;
* three rows selected: the Dates tab's Export writes those three to the spreadsheet.
"""

from __future__ import annotations

from datetime import UTC, datetime
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import icalendar
import openpyxl
import pypdf
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QInputDialog, QMessageBox, QRadioButton

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import OCCASIONS
from catalogue_desktop.ui.offers.offer_settings import OfferSettings
from catalogue_desktop.ui.offers.preferences_page import OffersPage
from catalogue_desktop.ui.offers.sheet_dialog import SheetDialog
from tests.journeys.hands import (
    answer_dialogs,
    click_row,
    click_tab,
    key,
    press,
    status_text,
    when_dialog_opens,
)

TITLE, CITY, START = (
    column_index(OCCASIONS, "title"),
    column_index(OCCASIONS, "city"),
    column_index(OCCASIONS, "start"),
)


class Seller:
    """Answers the offers' dialogs as a seller does: goes on with old data, types the customer
    into the offer's dialog, chooses ``times`` when asked about doubtful times (noting what
    the question said)."""

    def __init__(self, times: str = "the instant is right") -> None:
        self.times = times
        self.asked: list[str] = []
        self.buttons: list[list[str]] = []

    def __call__(self, dialog: Any) -> None:
        if isinstance(dialog, QInputDialog):  # the fees' currency, asked once
            dialog.setTextValue("USD")
            dialog.accept()
            return
        if isinstance(dialog, SheetDialog):
            if dialog.title.text() == "Offer for ":
                QTest.keyClicks(dialog.title, "Acme")
            QTest.mouseClick(dialog.go, Qt.MouseButton.LeftButton)
            return
        assert isinstance(dialog, QMessageBox), dialog
        wanted = "Continue"
        self.buttons.append([b.text().replace("&", "") for b in dialog.buttons()])
        if dialog.objectName() == "offer-times":  # "9:30 AM Boston time (the instant is right)"
            self.asked.append(dialog.text())
            (choice,) = [b for b in dialog.buttons() if b.text().replace("&", "").endswith(f"({self.times})")]
            QTest.mouseClick(choice, Qt.MouseButton.LeftButton)
            return
        press(dialog, wanted, start=True)


def _row(tab: Any, title: str, city: str, start: str) -> int:
    """The Dates tab's row of the occasion of ``title`` at ``city`` on ``start`` ("12/14/26")."""
    model = tab.model
    for r in range(model.rowCount()):
        values = [model.index(r, c).data() for c in (TITLE, CITY, START)]
        if values[0] == title and values[1] == city and str(values[2]).startswith(start):
            return r
    raise AssertionError(f"no row of {title} at {city} on {start}")


def _offer(qtbot: Any, window: Any, tab: Any, what: str, seller: Seller) -> None:
    answer_dialogs(seller)
    before = status_text(window)
    QTest.mouseClick(tab.offer_buttons[what], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: status_text(window) != before, timeout=20000)
    assert status_text(window).startswith(("Wrote", "Copied")), status_text(window)


def _pdf_text(path: Path) -> str:
    return " ".join(" ".join(p.extract_text() for p in pypdf.PdfReader(path).pages).split())


def test_with_local_time_preferred_the_sheet_gives_courses_at_their_venues(
    start: Any, qtbot: Any, saved: list[Path]
) -> None:
    window = start(currency="USD").window
    when_dialog_opens(lambda d: (d.findChild(QRadioButton, "local-zone").click(), d.accept()))
    window.menu_actions.preferences_action.trigger()
    assert not window.settings.event_zones  # the window shows local time now
    tab = click_tab(window, OCCASIONS)
    chicago = _row(tab, "Federal Tax Institute", "Chicago", "12/14/26")
    san_francisco = _row(tab, "Revenue Recognition Boot Camp", "San Francisco", "1/25/27")
    assert "UTC" in tab.model.index(chicago, START).data()  # (the seller's zone: this test's UTC)
    click_row(tab, chicago)
    click_row(tab, san_francisco, Qt.KeyboardModifier.ControlModifier)

    _offer(qtbot, window, tab, "pdf", Seller())
    (pdf,) = saved
    assert pdf.name.startswith("Offer for Acme (")
    text = _pdf_text(pdf)
    assert (
        "Monday, December 14, 2026 – Tuesday, December 15, 2026 (2 days) 8:30 AM – 4:30 PM CST each day"
        in text
    )
    assert (
        "Monday, January 25, 2027 – Tuesday, January 26, 2027 (2 days) 8:30 AM – 4:30 PM PST each day" in text
    )
    assert "2:30 PM" not in text and "4:30 PM – " not in text  # not the seller's clock
    assert "Experts: Samuel Oyelaran, CPA; Jennifer Aldridge" in text


class _Html(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_a_doubtful_time_is_asked_once_and_every_format_agrees(
    start: Any, qtbot: Any, saved: list[Path]
) -> None:
    window = start(currency="USD").window
    tab = click_tab(window, OCCASIONS)
    boston = _row(tab, "Revenue Recognition Boot Camp", "Boston", "3/22/27")
    click_row(tab, boston)
    assert tab.model.index(boston, START).data().endswith("⚠")  # the seller's window says so
    seller = Seller("the instant is right")

    _offer(qtbot, window, tab, "pdf", seller)
    (question,) = seller.asked
    assert "8:30 AM Boston time (the clock time is right)" in seller.buttons[-1]  # plainly, in its times
    assert "9:30 AM Boston time (the instant is right)" in seller.buttons[-1]
    assert "Revenue Recognition Boot Camp, Boston, MA, Monday, March 22, 2027" in question
    assert "the service gives 8:30 AM at UTC−05:00, but Boston is on EDT (UTC−04:00) then" in question
    assert OfferSettings(window.settings).times == "instant"  # remembered: Preferences ▸ Offers shows it
    page = OffersPage(window.settings)
    assert page.times.currentText() == "The instant is right"  # the question's words
    page.deleteLater()
    _offer(qtbot, window, tab, "ics", seller)
    _offer(qtbot, window, tab, "xlsx", seller)
    key(tab.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)  # copy for e-mail
    qtbot.waitUntil(lambda: status_text(window).startswith("Copied"), timeout=10000)
    assert len(seller.asked) == 1  # asked once

    pdf, ics, xlsx = saved
    assert [p.suffix for p in saved] == [".pdf", ".ics", ".xlsx"]
    assert all(p.name.startswith("Offer for Acme (Mar 2027)") for p in saved)
    when = "Monday, March 22, 2027 – Tuesday, March 23, 2027 (2 days) 9:30 AM – 5:30 PM EDT each day"
    sheet = _pdf_text(pdf)
    assert when in sheet and "Check the time" not in sheet and "UTC" not in sheet.split("Prices")[0]
    events = icalendar.Calendar.from_ical(ics.read_bytes()).walk("VEVENT")
    assert [(e.decoded("DTSTART"), e.decoded("DTEND")) for e in events] == [
        (datetime(2027, 3, 22, 13, 30, tzinfo=UTC), datetime(2027, 3, 22, 21, 30, tzinfo=UTC)),
        (datetime(2027, 3, 23, 13, 30, tzinfo=UTC), datetime(2027, 3, 23, 21, 30, tzinfo=UTC)),
    ]  # 9:30 AM to 5:30 PM EDT, the schedule's hours moved with the instant
    assert "9:30 AM – 5:30 PM EDT each day" in " ".join(str(events[0]["DESCRIPTION"]).split())
    mail = QApplication.clipboard().mimeData()
    assert mail.text().startswith("Offer for Acme\n\n")  # the offer dialog's last answers
    (line,) = [x for x in mail.text().splitlines() if x.startswith("Revenue Recognition")]
    assert (
        line.startswith("Revenue Recognition Boot Camp — ")
        and when.replace(" (2 days) ", " (2 days), ") in line
    )
    html = _Html()
    html.feed(mail.html())
    assert when.replace(" (2 days) ", " (2 days), ") in " ".join(html.text)
    assert "Check the time" not in mail.text() + mail.html()
    ws = openpyxl.load_workbook(xlsx)["Dates"]
    heads = [c.value for c in ws[1]]
    (row,) = list(ws.iter_rows(min_row=2))
    cells = dict(zip(heads, row, strict=True))
    assert cells["Start"].value == datetime(2027, 3, 22, 9, 30) and cells["Start"].is_date
    assert cells["End"].value == datetime(2027, 3, 23, 17, 30) and cells["Zone"].value == "EDT"
    assert cells["Date id"].value == "course:6102@7104"


def test_three_rows_selected_are_the_three_rows_of_the_exported_spreadsheet(
    start: Any, qtbot: Any, saved: list[Path]
) -> None:
    window = start(currency="USD").window
    tab = click_tab(window, OCCASIONS)
    assert "Spreadsheet (.xlsx)…" in [b.text() for b in tab.offer_buttons.values()]
    assert tab.model.rowCount() > 3
    click_row(tab, 0)
    click_row(tab, 2, Qt.KeyboardModifier.ShiftModifier)
    titles = [tab.model.index(r, TITLE).data() for r in range(3)]
    answer_dialogs(Seller())
    window.menu_actions.export_action.trigger()  # File ▸ Export visible rows…, as a workbook
    qtbot.waitUntil(lambda: status_text(window).startswith("Wrote"), timeout=20000)
    (asked,) = saved
    path = asked.with_suffix(".xlsx")  # (the workbook chosen: its suffix)
    book = openpyxl.load_workbook(path)
    ws = book["Dates"]
    assert [r[1].value for r in ws.iter_rows(min_row=2)] == titles  # the three selected, no more
    assert all(r[2].is_date for r in ws.iter_rows(min_row=2))
    about = [c.value for c in book["About"]["A"]]
    assert about[0] == "Offer for Acme" and any(a.startswith("Prices and dates as of ") for a in about)
    assert any(a.startswith("Catalogue: ") for a in about) and "Query: (all)" not in about
    assert "Offered: 3 selected dates" in about  # what was offered
    assert status_text(window) == f"Wrote the spreadsheet of 3 selected dates to {path}"


def test_the_doubtful_times_question_says_one_answer_is_for_all_the_courses_listed(
    start: Any, qtbot: Any, saved: list[Path]
) -> None:
    """Two courses with doubtful times: the question lists both and says its one answer is for
    all of them, its buttons showing the first one's times (a fresh-eyes seller read the buttons'
    "Boston time" as a question about Boston alone, with Atlanta listed too)."""
    window = start(currency="USD").window
    tab = click_tab(window, OCCASIONS)
    boston = _row(tab, "Revenue Recognition Boot Camp", "Boston", "3/22/27")
    atlanta = _row(tab, "Revenue Recognition Boot Camp", "Atlanta", "6/7/27")
    click_row(tab, boston)
    click_row(tab, atlanta, Qt.KeyboardModifier.ControlModifier)
    seller = Seller("the clock time is right")
    _offer(qtbot, window, tab, "pdf", seller)
    (question,) = seller.asked
    assert "Boston" in question and "Atlanta" in question, question
    assert "One answer for all 2: the buttons show the first one's, in Boston time." in question, question
