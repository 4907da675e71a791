"""A seller offers a whole series from its tab (File ▸ Offer ▸ Offer sheet, by Ctrl+K), then a
course in two cities from the Dates tab; Go ▸ Offers (Ctrl+Shift+O) prices each as its sheet
does: the series at its price ("USD 699", the PDF's "for the whole series", read back by pypdf),
never the sum of its sessions' own fees (856), and a course's two dates as alternatives
("USD 995 – 1,095", never 2,090)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pypdf
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from catalogue_desktop.ui.finder.palette import Palette
from catalogue_desktop.ui.offers.sheet_dialog import SheetDialog
from tests.journeys.hands import (
    answer_dialogs,
    click_row,
    click_tab,
    key,
    open_offers,
    press_continue,
    quick_open,
    status_text,
    type_query,
)

GENERATIVE_AI = 801  # 4 sessions: 249 + 199 + 229 + 179 = 856; the series: 699


def customer(names: list[str]) -> Any:
    """Answers the offers' dialogs: the data's age (Continue), the offer's (the next customer of
    ``names`` typed over the title proposed)."""

    def answer(dialog: Any) -> None:
        if isinstance(dialog, Palette):  # (the person's own typing: left alone)
            return
        if isinstance(dialog, SheetDialog):
            dialog.title.selectAll()
            QTest.keyClicks(dialog.title, f"Offer for {names.pop(0)}")
            QTest.mouseClick(dialog.go, Qt.MouseButton.LeftButton)
            return
        assert press_continue(dialog), dialog

    return answer


def test_the_offers_window_prices_a_series_and_a_courses_dates_as_their_sheets_do(
    start: Any, qtbot: Any, saved: list[Path]
) -> None:
    session = start(currency="USD")
    window = session.window
    tab = click_tab(window, Kind.SERIES)
    click_row(tab, tab.model.view_row_of(GENERATIVE_AI))
    answer_dialogs(customer(["Gamma", "Acme"]))
    assert quick_open(qtbot, window, "offer sheet pdf").title == "Offer sheet (PDF)…"
    qtbot.waitUntil(lambda: status_text(window).startswith("Wrote "), timeout=20000)
    pdf = " ".join(" ".join(p.extract_text() for p in pypdf.PdfReader(saved[-1]).pages).split())
    assert "USD 699 for the whole series" in pdf and pdf.count("Included") == 4, pdf

    dates = click_tab(window, OCCASIONS)
    type_query(window, "id:6107")  # Federal Tax Institute: Chicago 1,095, Minneapolis 995
    qtbot.waitUntil(lambda: dates.model.rowCount() == 2, timeout=5000)
    before = status_text(window)
    QTest.mouseClick(dates.offer_buttons["copy"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: status_text(window) != before, timeout=20000)
    assert status_text(window).startswith("Copied"), status_text(window)

    offers = open_offers(qtbot, session, 2)
    model = offers.offers
    shown = {
        model.index(r, 0).data(): model.index(r, model.HEADERS.index("Total")).data()
        for r in range(model.rowCount())
    }
    assert shown == {"Acme": "USD 995 – 1,095", "Gamma": "USD 699"}
    key(offers, Qt.Key.Key_Escape)
