"""Nothing in the details pane is cut or leaves a gap, at 1024x700 and in a narrow window
(820x560): a course's location cards show their whole "Dates" (the end time too) and every
Travel line, and a Dates row's "This date" reads whole (issue 39, fresh eyes point 5: the form's
rows kept the height of one wide line, so "Friday, May 14," lost its time, "Reagan National" was
sliced through, and the card's spare height sat as empty gaps). Each row is clicked as a person
does; every text the page shows is read at the size it is drawn."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QLabel, QScrollArea

from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import each_row_shown

SIZES = ((1024, 700), (820, 560))


def _cut_or_gapped(tab: Any, where: str) -> list[str]:
    """The page's wrapped texts drawn shorter than their lines (cut), taller (a gap below), or
    past the pane's right edge."""
    page = tab.detail.current_page()
    area = page.parentWidget().parentWidget()
    assert isinstance(area, QScrollArea)
    problems = []
    for label in page.findChildren(QLabel):
        if not label.isVisibleTo(page) or not label.wordWrap() or not label.text():
            continue
        needs = label.heightForWidth(label.width())
        right = label.mapTo(area.viewport(), QPoint(label.width(), 0)).x()
        what = f"{where}: {label.objectName()} {label.text()[:40]!r}"
        if label.height() < needs:
            problems.append(f"{what} is cut: {label.height()} px of its {needs}")
        elif label.height() > needs + label.fontMetrics().lineSpacing() // 2:
            problems.append(f"{what} has a gap: {label.height()} px for {needs}")
        if right > area.viewport().width():
            problems.append(f"{what} ends at {right}, past the pane's {area.viewport().width()}")
    return problems


def test_a_course_s_location_cards_read_whole(start: Any) -> None:
    window = start(finder_ready=False).window
    problems: list[str] = []
    cards = 0
    for where, tab in each_row_shown(window, Kind.COURSES, SIZES):
        page = tab.detail.current_page()
        cards += len([w for w in page.findChildren(QLabel, "travel_info") if w.isVisibleTo(page)])
        problems += _cut_or_gapped(tab, where)
    assert cards >= 10  # (the journey saw the Travel lines it is about)
    assert not problems, problems


def test_a_date_s_this_date_reads_whole(start: Any) -> None:
    window = start().window
    problems: list[str] = []
    seen = 0
    for where, tab in each_row_shown(window, OCCASIONS, SIZES, most=12):
        page = tab.detail.current_page()
        seen += page.findChild(QLabel, "value_this_date") is not None  # (a course's or a session's)
        problems += _cut_or_gapped(tab, where)
    assert seen >= 4
    assert not problems, problems
