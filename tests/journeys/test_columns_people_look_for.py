"""Columns people look for: the location id on Dates (off by default, from the header's column
menu), and how many webinars and courses name each topic, expert, role and situation (sortable
as numbers)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.listing.rows import LINK_KINDS
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import choose_in_next_popup_menu, click_tab


def _headers(tab: Any) -> list[str]:
    """The headers a person sees, left to right."""
    header, model = tab.view.horizontalHeader(), tab.model
    logical = [header.logicalIndex(v) for v in range(header.count())]
    return [
        str(model.headerData(i, Qt.Orientation.Horizontal)) for i in logical if not header.isSectionHidden(i)
    ]


def _column(tab: Any, heading: str) -> int:
    model = tab.model
    return next(
        i for i in range(model.columnCount()) if model.headerData(i, Qt.Orientation.Horizontal) == heading
    )


def _cells(tab: Any, column: int) -> list[str]:
    model = tab.model
    return [str(model.index(r, column).data() or "") for r in range(model.rowCount())]


def _click_header(tab: Any, column: int) -> None:
    header = tab.view.horizontalHeader()
    tab.view.scrollTo(tab.model.index(0, column))
    QApplication.processEvents()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    QTest.mouseClick(
        header.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(x, 5)
    )
    QApplication.processEvents()


def _naming(session: Any, source: Kind, target: Kind) -> Counter[int]:
    """How many ``source`` records name each ``target`` record (from the loaded links)."""
    slot = LINK_KINDS[source].index(target)
    return Counter(i for links in session.loader.rowsets[source].links for i in set(links[slot]))


def test_topics_experts_roles_situations_show_webinar_and_course_counts(start: Any, qtbot: Any) -> None:
    session = start(finder_ready=False)
    window = session.window
    for kind, sources in (
        (Kind.TOPICS, (Kind.WEBINARS, Kind.COURSES)),
        (Kind.EXPERTS, (Kind.WEBINARS, Kind.COURSES)),
        (Kind.ROLES, (Kind.WEBINARS,)),
        (Kind.SITUATIONS, (Kind.WEBINARS,)),
    ):
        tab = click_tab(window, kind) or window.current_tab()
        shown = _headers(tab)
        for source in sources:
            assert source.label in shown, (kind, shown)
            column = _column(tab, source.label)
            expected = _naming(session, source, kind)
            qtbot.waitUntil(lambda tab=tab, column=column: all(_cells(tab, column)), timeout=5000)
            ids = [tab.model.record_id(r) for r in range(tab.model.rowCount())]
            assert _cells(tab, column) == [str(expected.get(i, 0)) for i in ids], (kind, source)
        assert Kind.COURSES.label not in shown or Kind.COURSES in sources  # no course count on roles
    # sorted as numbers: a click on "Webinars" orders the topics by their count
    tab = click_tab(window, Kind.TOPICS) or window.current_tab()
    column = _column(tab, "Webinars")
    _click_header(tab, column)
    first = [int(c) for c in _cells(tab, column)]
    _click_header(tab, column)
    second = [int(c) for c in _cells(tab, column)]
    assert {tuple(first), tuple(second)} == {tuple(sorted(first)), tuple(sorted(first, reverse=True))}
    assert first != second and max(first) > 0


def test_the_location_id_on_dates_is_off_by_default_and_in_the_column_menu(start: Any, qtbot: Any) -> None:
    session = start()
    window = session.window
    click_tab(window, OCCASIONS)
    tab = window.current_tab()
    qtbot.waitUntil(lambda: tab.model.rowCount() > 0, timeout=5000)
    assert "Location ID" not in _headers(tab)
    header = tab.view.horizontalHeader()
    chosen = choose_in_next_popup_menu("Location ID")
    where = QPoint(10, header.height() // 2)
    QApplication.sendEvent(
        header.viewport(), QContextMenuEvent(QContextMenuEvent.Reason.Mouse, where, header.mapToGlobal(where))
    )
    assert chosen and "Location ID" in _headers(tab)
    kinds = _cells(tab, _column(tab, "Kind"))
    ids = _cells(tab, _column(tab, "Location ID"))
    courses = [i for k, i in zip(kinds, ids, strict=True) if k == "Course"]
    others = [i for k, i in zip(kinds, ids, strict=True) if k != "Course"]
    assert courses and all(i.isdigit() for i in courses)
    assert others and not any(others)  # webinars and sessions have no location
    # each course row's location id is one of its course's locations
    locations = {
        (c.course_id, loc.location_id)
        for row in range(session.loader.rowsets[Kind.COURSES].__len__())
        if (c := session.loader.record(Kind.COURSES, session.loader.rowsets[Kind.COURSES].record_id(row)))
        for loc in c.locations or ()
    }
    record = _column(tab, "ID")
    pairs = {
        (int(tab.model.index(r, record).data().replace(",", "")), int(i))
        for r, (k, i) in enumerate(zip(kinds, ids, strict=True))
        if k == "Course"
    }
    assert pairs <= locations
