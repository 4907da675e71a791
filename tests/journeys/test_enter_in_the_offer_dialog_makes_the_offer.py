"""A seller offers a date, types the customer's name into the "Offer for …" dialog and presses
Enter, as in any dialog: the offer is made (the spreadsheet saved, the status line says so),
not cancelled; the next offer's dialog opens with the name given, as the README says."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from catalogue_desktop.core.records.kinds import OCCASIONS
from catalogue_desktop.ui.offers.sheet_dialog import SheetDialog
from tests.journeys.hands import answer_dialogs, click_row, click_tab, press_continue, status_text
from tests.journeys.test_offers_speak_with_one_voice import _row


def test_enter_saves_the_offer_and_the_name_is_there_next_time(
    start: Any, qtbot: Any, saved: list[Path]
) -> None:
    window = start(currency="USD").window
    tab = click_tab(window, OCCASIONS)
    click_row(tab, _row(tab, "Federal Tax Institute", "Chicago", "12/14/26"))
    titles: list[str] = []

    def person(dialog: Any) -> None:
        if press_continue(dialog):  # old data: go on
            return
        assert isinstance(dialog, SheetDialog), dialog
        titles.append(dialog.title.text())
        if not titles[-1].endswith("Acme"):
            QTest.keyClicks(dialog.title, "Acme")
        QTest.keyClick(dialog.title, Qt.Key.Key_Return)  # Enter, in the name's field

    answer_dialogs(person)
    QTest.mouseClick(tab.offer_buttons["xlsx"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: status_text(window).startswith(("Wrote", "No offer")), timeout=20000)
    assert status_text(window).startswith("Wrote the spreadsheet"), status_text(window)
    (path,) = saved
    assert path.name.startswith("Offer for Acme (Dec 2026)") and path.with_suffix(".xlsx").exists()

    before = status_text(window)
    QTest.mouseClick(tab.offer_buttons["ics"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: status_text(window) != before, timeout=20000)
    assert titles == ["Offer for ", "Offer for Acme"]  # the name remembered for the next offer
    assert status_text(window).startswith("Wrote 2 events"), status_text(window)
