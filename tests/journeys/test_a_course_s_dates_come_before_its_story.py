"""A sales person opens a course, a webinar, a series or a certificate at 1024x700 and reads where
and when it is held (or what it takes) first: a course's locations and dates are in view without
scrolling, before its description, curriculum, topics and the experts' biographies (issue 39,
fresh eyes point 6: they came after every expert's biography, screens of scrolling below). The
same order for every kind that is sold: the form, then when/where, then what, then who."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint
from PySide6.QtWidgets import QLabel, QScrollArea, QWidget

from catalogue_desktop.core.records.kinds import Kind
from tests.journeys.hands import each_row_shown

# each kind's sections as read from the top: the when/where one first, then what, then who
ORDER = {
    Kind.COURSES: ["locations", "schedule", "description", "curriculum", "topics", "experts"],
    Kind.WEBINARS: ["series", "description", "topics", "roles", "situations", "experts"],
    Kind.SERIES: ["sessions", "description"],
    Kind.CERTIFICATES: ["levels", "description"],
}


def _sections(page: QWidget) -> list[tuple[int, str]]:
    """The page's section headings a person sees, top to bottom: (y on the page, slug)."""
    found = []
    for label in page.findChildren(QLabel):
        name = label.objectName()
        if name.startswith("section_") and label.isVisibleTo(page):
            found.append((label.mapTo(page, QPoint(0, 0)).y(), name.removeprefix("section_")))
    return sorted(found)


def test_a_course_s_locations_are_in_view_before_its_story(start: Any) -> None:
    window = start(finder_ready=False).window
    seen = 0
    for where, tab in each_row_shown(window, Kind.COURSES, [(1024, 700)]):
        page = tab.detail.current_page()
        slugs = [slug for _, slug in _sections(page)]
        if "locations" not in slugs:
            continue
        seen += 1
        assert slugs[0] == "locations", (where, slugs)
        # at the top of the pane, unscrolled, the first place and its dates are in view
        area = page.parentWidget().parentWidget()
        assert isinstance(area, QScrollArea)
        assert area.verticalScrollBar().value() == 0
        heading = page.findChild(QLabel, "section_locations")
        top = heading.mapTo(area.viewport(), QPoint(0, 0)).y()
        assert 0 <= top + heading.height() <= area.viewport().height(), (where, top, area.viewport().height())
    assert seen >= 3


def test_every_sold_kind_reads_when_and_where_before_what_and_who(start: Any) -> None:
    window = start(finder_ready=False).window
    for kind, order in ORDER.items():
        for where, tab in each_row_shown(window, kind, [(1024, 700)]):
            slugs = [slug for _, slug in _sections(tab.detail.current_page()) if slug in order]
            assert slugs == sorted(slugs, key=order.index), (where, slugs)
