"""A seller makes one offer in four formats for Acme: the sheet (PDF) with "Valid until" ticked,
then the calendar file, the spreadsheet and the e-mail copy. Each next dialog opens with the
same validity, and "Acme" alone selected in "Offer for Acme"; every document says the same
validity (pypdf, icalendar, openpyxl, the clipboard), and Go ▸ Offers lists one offer whose
Customer is "Acme", what was offered and until when. Then a new customer's name typed keeps
"Offer for "; the title left without a name is said under it before the offer is made."""

from __future__ import annotations

from datetime import date, timedelta
from pathlib import Path
from typing import Any

import icalendar
import openpyxl
import pypdf
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.offers.customer_text import day
from catalogue_desktop.core.records.kinds import OCCASIONS
from catalogue_desktop.ui.offers.sheet_dialog import SheetDialog
from tests.journeys.hands import (
    answer_dialogs,
    answer_offer,
    click_tab,
    key,
    open_offers,
    status_text,
    type_query,
)


def test_one_offer_in_four_formats_says_one_validity_and_the_log_names_its_customer(
    start: Any, qtbot: Any, saved: list[Path]
) -> None:
    session = start(currency="USD", finder_ready=False)
    window = session.window
    dates = click_tab(window, OCCASIONS)
    type_query(window, "id:6107")  # Federal Tax Institute: Chicago and Minneapolis
    qtbot.waitUntil(lambda: dates.model.rowCount() == 2, timeout=10000)

    opened: list[dict[str, Any]] = []

    def seller(dialog: Any) -> None:
        if not isinstance(dialog, SheetDialog):
            answer_offer(dialog)
            return
        if len(opened) == 4:  # the next customer
            new_customer(dialog)
            return
        opened.append(
            {
                "valid": dialog.valid.isChecked(),
                "until": dialog.until.date().toPython(),
                "selected": dialog.title.selectedText(),
                "untitled": dialog.untitled.isVisible(),
            }
        )
        if len(opened) == 1:  # the first: the customer typed, valid until ticked (30 days on)
            QTest.keyClicks(dialog.title, "Acme")
            QTest.mouseClick(dialog.valid, Qt.MouseButton.LeftButton, pos=dialog.valid.rect().center())
        QTest.mouseClick(dialog.go, Qt.MouseButton.LeftButton)

    def new_customer(dialog: Any) -> None:
        QTest.keyClicks(dialog.title, "Beta Corp")  # over the selected "Acme"
        opened.append({"title": dialog.title.text()})
        for _ in "Beta Corp":  # then no name at all: said before the offer is made
            QTest.keyClick(dialog.title, Qt.Key.Key_Backspace)
        opened.append({"untitled": dialog.untitled.isVisible(), "text": dialog.untitled.text()})
        dialog.reject()

    answer_dialogs(seller)
    for what in ("pdf", "ics", "xlsx", "copy"):
        before = status_text(window)
        QTest.mouseClick(dates.offer_buttons[what], Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda before=before: status_text(window) != before, timeout=20000)
        assert status_text(window).startswith(("Wrote", "Copied")), status_text(window)

    until = date.today() + timedelta(days=30)
    assert [o["until"] for o in opened[1:]] == [until] * 3 and all(o["valid"] for o in opened[1:])
    assert [o["selected"] for o in opened] == ["", "Acme", "Acme", "Acme"]
    assert opened[0]["untitled"] and not any(o["untitled"] for o in opened[1:])
    valid = f"This offer is valid until {day(until)}"
    pdf, ics, xlsx = saved
    assert valid in " ".join(" ".join(p.extract_text() for p in pypdf.PdfReader(pdf).pages).split())
    events = icalendar.Calendar.from_ical(ics.read_bytes()).walk("VEVENT")
    assert events and all(valid in str(e["DESCRIPTION"]) for e in events)
    about = [row[0] for row in openpyxl.load_workbook(xlsx)["About"].iter_rows(values_only=True)]
    assert valid in about
    assert valid in QApplication.clipboard().text()

    offers = open_offers(qtbot, session, 1)  # one offer, four formats
    model = offers.offers
    row = {h: model.index(0, c).data() for c, h in enumerate(model.HEADERS)}
    assert row["Customer"] == "Acme" and row["Offered"] == "Federal Tax Institute"
    assert row["Valid until"] == window.formatter.day(until.isoformat()) and row["Total"] == "USD 995 – 1,095"
    key(offers, Qt.Key.Key_Escape)

    QTest.mouseClick(dates.offer_buttons["copy"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(opened) == 6, timeout=10000)
    assert opened[4] == {"title": "Offer for Beta Corp"}
    assert opened[5]["untitled"] and opened[5]["text"].startswith(
        "No customer named: the offer will be titled"
    )
