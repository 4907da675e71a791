"""Back (Alt+Left) from a link followed on the Dates tab returns to the Dates tab, the same date
row selected and its offer buttons at hand (issue 39, second pass: it went to the Courses tab
showing the date's course, and Alt+Left again to an older course). Forward goes to the link
again."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel

from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import click_row, click_tab, key, screen_sized, selected_ids, until


def _expert_link(tab: Any) -> QLabel:
    page = tab.detail.current_page()
    return next(label for label in page.findChildren(QLabel, "expert_name") if label.isVisibleTo(page))


def test_back_returns_to_the_date_row_the_link_was_followed_from(start: Any) -> None:
    window = start().window
    screen_sized(window, 1366, 768)
    dates = click_tab(window, OCCASIONS)
    first = 0  # a course's date (its page names its experts)
    while dates.target(dates.model.record_id(first))[0] is not Kind.COURSES:
        first += 1
    click_row(dates, first + 1)  # an older date seen first
    older = selected_ids(dates)
    click_row(dates, first)
    row = selected_ids(dates)
    assert row != older
    course = dates.detail.current
    assert course is not None and course[0] is Kind.COURSES

    name = _expert_link(dates)
    dates.detail.current_page().parentWidget().parentWidget().ensureWidgetVisible(name)
    QApplication.processEvents()
    QTest.mouseClick(name, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(6, 8))
    until(lambda: window.current_kind() is Kind.EXPERTS)
    expert = window.current_tab().detail.current

    key(window, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert window.current_kind() is OCCASIONS  # the page the link was followed from
    assert selected_ids(dates) == row  # the same date row
    assert dates.detail.current == course
    assert dates.offer_buttons["pdf"].isVisible() and dates.offer_buttons["pdf"].isEnabled()

    key(window, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)
    assert (window.current_kind(), window.current_tab().detail.current) == (Kind.EXPERTS, expert)
    key(window, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    key(window, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert window.current_kind() is OCCASIONS  # then the date row seen before it, on Dates
    assert selected_ids(dates) == older
