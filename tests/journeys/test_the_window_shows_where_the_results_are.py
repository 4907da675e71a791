"""After a query, the window shows where its results are: from a tab that shows nothing (its kind
lacks a field the query names, or nothing matches) to a tab with matches, saying how to go back;
tabs without matches are dimmed."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from catalogue_desktop.core.records.kinds import Kind
from tests.journeys.hands import click_tab, key, status_text, type_query


def _colour(window: Any, kind: Any) -> QColor:
    bar = window.tab_widget.tabBar()
    return bar.tabTextColor(window.tab_kinds().index(kind))


def test_city_on_webinars_moves_to_courses_and_the_user_can_go_back(start: Any, qtbot: Any) -> None:
    window = start().window
    click_tab(window, Kind.WEBINARS)
    type_query(window, "city:dallas")
    assert window.current_kind() is Kind.COURSES
    assert window.current_tab().model.rowCount() > 0
    said = status_text(window)
    assert said.startswith("No webinars match: webinars have no field 'city'; showing Courses."), said
    assert said.endswith("Ctrl+1 goes back to Webinars."), said
    # tabs without matches are dimmed, tabs with matches are not
    assert _colour(window, Kind.WEBINARS).isValid()
    assert not _colour(window, Kind.COURSES).isValid()
    assert window.tab_bar.full_title(0) == "Webinars 0"
    # back to Webinars (the user's choice stays while the query is refined)
    key(window.query_box.edit, Qt.Key.Key_1, Qt.KeyboardModifier.ControlModifier)
    if window.current_kind() is not Kind.WEBINARS:  # (offscreen: the shortcut needs an active window)
        click_tab(window, Kind.WEBINARS)
    type_query(window, "city:dallas fee:<2000")
    assert window.current_kind() is Kind.WEBINARS
    # a query every tab answers: nothing dimmed
    type_query(window, "")
    assert not any(_colour(window, k).isValid() for k in window.tab_kinds())


def test_no_match_on_this_tab_moves_to_a_tab_with_matches(start: Any, qtbot: Any) -> None:
    window = start().window
    click_tab(window, Kind.WEBINARS)
    type_query(window, "id:6118")  # no webinar has it; a course does
    assert window.current_kind() is Kind.COURSES
    assert [window.current_tab().model.record_id(0)] == [6118]
    assert status_text(window).startswith("No webinars match; showing Courses.")
    click_tab(window, Kind.COURSES)
    type_query(window, "zzqqxx")  # nothing anywhere: the tab stays
    assert window.current_kind() is Kind.COURSES


def test_a_query_given_at_start_shows_the_tab_with_its_results(start: Any, qtbot: Any) -> None:
    window = start(query="city:dallas").window
    qtbot.waitUntil(lambda: window.current_kind() is Kind.COURSES, timeout=5000)
    assert window.current_tab().model.rowCount() > 0


def test_a_query_given_at_a_first_start_shows_its_results_once_the_catalogue_came(
    make_session: Any, demo_server: Any, qtbot: Any
) -> None:
    """A first start: the cache is empty, the rows come with the refresh (the tables are built
    twice): the tab with the results is shown once they are known."""
    window = make_session(base_url=demo_server.base_url, wait="synced", query="city:dallas").window
    qtbot.waitUntil(lambda: window.current_kind() is Kind.COURSES, timeout=10000)
    assert window.current_tab().model.rowCount() > 0


def test_a_query_given_at_a_first_start_stays_on_a_tab_that_has_results(
    make_session: Any, demo_server: Any, qtbot: Any
) -> None:
    """A first start with a query Webinars answers (``cpe:yes``): the window stays on Webinars.
    A tab with no rows yet (its collection on its way) is not a tab without matches: it moved
    to Courses when the courses came first."""
    session = make_session(base_url=demo_server.base_url, wait="synced", query="cpe:yes")
    window = session.window
    tab = window.tab(Kind.WEBINARS)
    qtbot.waitUntil(lambda: tab.model.rowCount() > 0, timeout=10000)
    qtbot.waitUntil(lambda: not session.finder.indexer.busy, timeout=10000)  # the finder's tables built
    assert window.current_kind() is Kind.WEBINARS
    assert "showing" not in window.statusBar().currentMessage()
