"""A seller types a query that does not parse (``fees:<100 (``) over a valid one: the box turns
red and the tables keep the last valid query. An offer made then (the Spreadsheet button) says
plainly, in its dialog and its status line, that its dates are those of the last valid query
("city:chicago"), named, and that the box's query is not used; the spreadsheet's About sheet
(read back by openpyxl) names that query, not the box's text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl
import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QLabel

from catalogue_desktop.core.records.kinds import OCCASIONS
from catalogue_desktop.ui.offers.sheet_dialog import SheetDialog
from tests.journeys.hands import answer_dialogs, answer_offer, click_tab, status_text, type_query


def test_an_offer_made_while_the_query_has_an_error_names_the_last_valid_query(
    start: Any, qtbot: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    saved: list[Path] = []

    def save(_parent: Any, _caption: str, name: str, _filters: str) -> tuple[str, str]:
        saved.append(tmp_path / "offer.xlsx")
        return str(saved[-1]), ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    window = start(currency="USD", finder_ready=False).window
    dates = click_tab(window, OCCASIONS)
    type_query(window, "city:chicago")
    qtbot.waitUntil(lambda: 0 < dates.model.rowCount() < dates.model.total_count(), timeout=10000)
    rows = dates.model.rowCount()
    type_query(window, "fees:<100 (")
    qtbot.waitUntil(lambda: window.query_box.has_error, timeout=3000)
    assert dates.model.rowCount() == rows  # the tables keep the last valid query

    said: list[str] = []

    def seller(dialog: Any) -> None:
        if isinstance(dialog, SheetDialog):
            what = dialog.findChild(QLabel, "offer-sheet-what")
            assert what is not None
            said.append(what.text())
            QTest.keyClicks(dialog.title, "Acme")
            QTest.mouseClick(dialog.go, Qt.MouseButton.LeftButton)
            return
        answer_offer(dialog)  # the data's age, a doubtful time: as a seller who goes on

    answer_dialogs(seller)
    QTest.mouseClick(dates.offer_buttons["xlsx"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: status_text(window).startswith("Wrote"), timeout=20000)
    words = (
        f"all {rows} dates of the last valid query, “city:chicago” "
        "(the query in the box has an error and is not used)"
    )
    assert said == [f"An offer of {words}."]
    assert status_text(window) == f"Wrote the spreadsheet of {words} to {saved[-1]}"
    about = [row[0] for row in openpyxl.load_workbook(saved[-1])["About"].iter_rows(values_only=True)]
    assert "Query: city:chicago" in about and not any("fees" in str(line) for line in about), about
