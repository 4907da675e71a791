"""A seller opens a one-day date's details and an offer's dialog: the details say the day once
("Friday, July 16, 2027 8:30 AM – 4:30 PM UTC−06:00", not the date twice), and the offer's
"Valid until" is written as the window and the sheet write a day ("Monday, December 28, 2026"),
not in a style of its own ("Mon 28 Dec 2026")."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from catalogue_desktop.core.records.kinds import OCCASIONS
from catalogue_desktop.ui.offers.sheet_dialog import SheetDialog
from tests.journeys.hands import answer_dialogs, click_row, click_tab, pane_text, press_continue, status_text
from tests.journeys.test_offers_speak_with_one_voice import _row

ONE_DAY = "Friday, July 16, 2027 8:30 AM – 4:30 PM UTC−06:00"


def test_a_one_day_date_says_its_day_once_and_valid_until_reads_like_every_date(
    start: Any, qtbot: Any
) -> None:
    window = start(currency="USD").window
    tab = click_tab(window, OCCASIONS)
    click_row(tab, _row(tab, "Employment Litigation Update", "Dallas", "7/16/27"))
    qtbot.waitUntil(lambda: "This date" in pane_text(tab))
    # (a Dallas July time written UTC−06:00 is doubtful: marked ⚠, as its row is)
    lines = [line.removesuffix(" ⚠") for line in pane_text(tab).splitlines()]
    assert lines[lines.index("This date") + 1] == ONE_DAY
    cards = [lines[i + 1] for i, line in enumerate(lines) if line == "Dates"]
    assert ONE_DAY in cards and not any(c.count("2027") > 1 and "July 16" in c for c in cards)  # cards alike
    click_row(tab, _row(tab, "Federal Tax Institute", "Chicago", "12/14/26"))  # two days: both whole
    qtbot.waitUntil(lambda: "December 14" in pane_text(tab))
    lines = pane_text(tab).splitlines()
    assert lines[lines.index("This date") + 1] == (
        "Monday, December 14, 2026 8:30 AM UTC−06:00 – Tuesday, December 15, 2026 4:30 PM UTC−06:00"
    )

    shown: list[tuple[str, str]] = []

    def person(dialog: Any) -> None:
        if press_continue(dialog):  # old data: go on
            return
        assert isinstance(dialog, SheetDialog), dialog
        QTest.mouseClick(dialog.valid, Qt.MouseButton.LeftButton)
        day = dialog.until.date().toPython()
        shown.append((dialog.until.text(), window.formatter.time_text.day(day, long=True)))
        dialog.reject()

    answer_dialogs(person)
    QTest.mouseClick(tab.offer_buttons["xlsx"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: bool(shown) and status_text(window) is not None, timeout=20000)
    ((text, as_the_sheet),) = shown
    assert text == as_the_sheet and text.count(",") == 2, text  # "Monday, December 28, 2026"
