"""Back (Alt+Left) returns to the page the person came from, across tabs, and Forward goes to the
link again (issue 39, fresh eyes point 9): a record chosen on Dates, then the Courses tab clicked
(it shows its own course), an expert's link followed from that course, and Alt+Left went back to
the Dates record, not to the course the link was followed from: only selections were remembered,
never what a clicked tab showed."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel

from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import click_row, click_tab, key, screen_sized, until


def _shown(window: Any) -> tuple[Any, Any]:
    """The tab in front and the record its details show."""
    return window.current_kind(), window.current_tab().detail.current


def test_back_returns_to_the_course_the_expert_link_was_followed_from(start: Any) -> None:
    window = start().window
    screen_sized(window, 1366, 768)
    courses = click_tab(window, Kind.COURSES)
    row = next(r for r in range(courses.model.rowCount()) if r > 0)
    click_row(courses, row)
    course = courses.detail.current
    assert course is not None and course[0] is Kind.COURSES
    dates = click_tab(window, OCCASIONS)
    for other in range(dates.model.rowCount()):  # a date of another record
        click_row(dates, other)
        if dates.detail.current != course:
            break
    older = dates.detail.current
    assert older not in (None, course)

    click_tab(window, Kind.COURSES)  # the course it showed before: on screen again
    assert _shown(window) == (Kind.COURSES, course)
    page = courses.detail.current_page()
    name = next(label for label in page.findChildren(QLabel, "expert_name") if label.isVisibleTo(page))
    courses.detail.current_page().parentWidget().parentWidget().ensureWidgetVisible(name)
    QApplication.processEvents()
    QTest.mouseClick(name, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(6, 8))
    until(lambda: window.current_kind() is Kind.EXPERTS)
    expert = window.current_tab().detail.current
    assert expert is not None and expert[0] is Kind.EXPERTS

    key(window, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert _shown(window) == (Kind.COURSES, course)  # where the link was followed from
    key(window, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)
    assert _shown(window) == (Kind.EXPERTS, expert)
    key(window, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    key(window, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert window.current_tab().detail.current == older  # then what was shown before it, in order
