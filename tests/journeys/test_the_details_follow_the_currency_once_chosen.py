"""A seller with no currency set opens a date's details (the fee a plain number), and makes the
first offer: asked the fees' currency, they answer USD. The table and the details already open
show the fee with it at once, without picking another row."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QInputDialog

from catalogue_desktop.core.records.kinds import OCCASIONS
from catalogue_desktop.ui.offers.sheet_dialog import SheetDialog
from tests.journeys.hands import answer_dialogs, click_row, click_tab, pane_text, press_continue
from tests.journeys.test_offers_speak_with_one_voice import _row


def test_the_open_details_show_the_currency_chosen_at_the_first_offer(start: Any, qtbot: Any) -> None:
    window = start().window
    tab = click_tab(window, OCCASIONS)
    click_row(tab, _row(tab, "Federal Tax Institute", "Chicago", "12/14/26"))
    qtbot.waitUntil(lambda: "1,095" in pane_text(tab))
    assert "USD" not in pane_text(tab)

    def person(dialog: Any) -> None:
        if isinstance(dialog, QInputDialog):  # the fees' currency
            dialog.setTextValue("USD")
            dialog.accept()
        elif isinstance(dialog, SheetDialog):
            dialog.reject()  # (the offer itself not wanted now)
        else:  # old data: go on
            assert press_continue(dialog), dialog

    answer_dialogs(person)
    QTest.mouseClick(tab.offer_buttons["xlsx"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.settings.currency == "USD", timeout=20000)
    qtbot.waitUntil(lambda: "Fee\nUSD\xa01,095" in pane_text(tab), timeout=5000)
