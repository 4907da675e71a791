"""A seller offers a whole series from the Series tab: a click on its tab and on its row, then
Ctrl+K "Copy for email" (File ▸ Offer's command), and the e-mail text on the clipboard lists
every upcoming session of that series, read back against the demo sample's JSON."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.finder.palette import Palette
from catalogue_desktop.ui.offers.sheet_dialog import SheetDialog
from tests.journeys.hands import (
    answer_dialogs,
    click_row,
    click_tab,
    key,
    press_continue,
    selected_ids,
    status_text,
)


def test_a_series_selected_on_its_tab_is_copied_for_an_email_with_every_upcoming_session(
    start: Any, qtbot: Any, sample: dict[Kind, bytes]
) -> None:
    window = start().window
    window.formatter.set_currency("USD")  # (as Preferences would have it: no currency question)
    tab = click_tab(window, Kind.SERIES)
    series = json.loads(sample[Kind.SERIES])[1]
    click_row(tab, tab.model.view_row_of(series["seriesId"]))
    assert selected_ids(tab) == [series["seriesId"]]

    window.activateWindow()
    key(tab.view, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    palette = QApplication.activeModalWidget()
    assert isinstance(palette, Palette) and palette.windowTitle() == "Quick open", palette
    QTest.keyClicks(palette.line, "copy for email")
    palette.update_hits()  # (the palette looks after 15 ms of no typing)
    downs = next(i for i, item in enumerate(palette.model.items) if item.title == "Copy for email")
    for _ in range(downs):
        key(palette.line, Qt.Key.Key_Down)
    answer_dialogs(_continue)  # the demo data's age is asked about, then the offer's dialog
    key(palette.line, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: status_text(window).startswith("Copied"), timeout=10000)

    webinars = {w["webinarId"]: w for w in json.loads(sample[Kind.WEBINARS])}
    now = datetime.now(UTC)
    upcoming = [
        webinars[s["webinarId"]]
        for s in series["sessions"]
        if webinars[s["webinarId"]]["type"] == 1
        or datetime.fromisoformat(webinars[s["webinarId"]]["endDate"]) >= now
    ]
    lines = QApplication.clipboard().text().splitlines()[:-2]
    assert len(lines) == len(upcoming) > 1
    for webinar in upcoming:
        assert any(line.startswith(webinar["title"]) for line in lines), (webinar["title"], lines)
    assert window.current_kind() is Kind.SERIES
    assert status_text(window) == (
        f"Copied {len(upcoming)} upcoming dates of the 1 selected series for an e-mail (text and table)"
    )


def _continue(box: Any) -> None:
    """The stale-data warning: Continue, clicked; the offer's dialog: its action."""
    if isinstance(box, SheetDialog):
        QTest.mouseClick(box.go, Qt.MouseButton.LeftButton)
        return
    assert press_continue(box), box
