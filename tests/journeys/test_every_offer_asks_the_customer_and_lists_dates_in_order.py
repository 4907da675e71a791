"""A seller selects a July date, then an April one (the table's order), and makes the offer as a
PDF and as an e-mail copy: each asks the customer's name first ("Offer for …"), and each lists
the dates in date order, April first, the PDF as the e-mail text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from catalogue_desktop.core.records.kinds import OCCASIONS
from catalogue_desktop.ui.offers.sheet_dialog import SheetDialog
from tests.journeys.hands import answer_dialogs, click_row, click_tab, key, press, status_text
from tests.journeys.test_offers_speak_with_one_voice import _pdf_text, _row

JULY, APRIL = "Employment Litigation Update", "Advanced Lease Accounting Workshop (ASC 842)"


def test_the_pdf_and_the_e_mail_ask_the_name_and_agree_on_the_order(
    start: Any, qtbot: Any, saved: list[Path]
) -> None:
    window = start(currency="USD").window
    tab = click_tab(window, OCCASIONS)
    tab.view.sortByColumn(0, Qt.SortOrder.DescendingOrder)  # a table order that is not date order
    july = _row(tab, JULY, "Dallas", "7/16/27")
    april = _row(tab, APRIL, "Dallas", "4/12/27")
    click_row(tab, july)
    click_row(tab, april, Qt.KeyboardModifier.ControlModifier)
    names: list[str] = []

    def person(dialog: Any) -> None:
        if isinstance(dialog, SheetDialog):
            names.append(dialog.windowTitle())
            dialog.title.selectAll()
            QTest.keyClicks(dialog.title, f"Offer for Customer {len(names)}")
            QTest.keyClick(dialog.title, Qt.Key.Key_Return)
            return
        assert isinstance(dialog, QMessageBox), dialog  # old data: go on; doubtful times: the clock's
        if dialog.objectName() == "offer-times":
            QTest.mouseClick(dialog.defaultButton(), Qt.MouseButton.LeftButton)
            return
        press(dialog, "Continue")

    answer_dialogs(person)
    QTest.mouseClick(tab.offer_buttons["pdf"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: status_text(window).startswith("Wrote"), timeout=20000)
    key(tab.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)  # copy for e-mail
    qtbot.waitUntil(lambda: status_text(window).startswith("Copied"), timeout=20000)

    assert len(names) == 2  # each asked
    sheet = _pdf_text(saved[0])
    assert sheet.startswith("Offer for Customer 1")
    assert sheet.index(APRIL) < sheet.index(JULY)
    text = QApplication.clipboard().mimeData().text()
    assert text.startswith("Offer for Customer 2\n")  # the name typed for this offer
    assert text.index(APRIL) < text.index(JULY)
