"""Typed into the query box as people write: state names, month names, quarters, free words that
reach a course's topics."""

from __future__ import annotations

from typing import Any

import pytest

from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import click_tab, type_query


def _ids(tab: Any) -> list[int]:
    return [tab.model.record_id(r) for r in range(tab.model.rowCount())]


@pytest.mark.parametrize(
    ("written", "same_as"),
    [
        ("state:illinois", "state:IL"),
        ('starts:"march 2027"', "starts:2027-03"),
        ("mar-2027", "starts:2027-03"),
        ("2027-Q1", "starts:2027-01..2027-03"),
    ],
)
def test_a_value_in_words_shows_the_rows_of_its_code_on_dates(
    start: Any, qtbot: Any, written: str, same_as: str
) -> None:
    window = start().window
    click_tab(window, OCCASIONS)
    tab = window.current_tab()
    type_query(window, same_as)
    wanted = _ids(tab)
    assert wanted and len(wanted) < tab.model.total_count()
    type_query(window, written)
    assert not window.query_box.error.isVisibleTo(window)
    assert _ids(tab) == wanted


def test_feldman_ethics_finds_the_course_whose_topic_is_ethics(start: Any, qtbot: Any) -> None:
    window = start().window
    click_tab(window, Kind.COURSES)
    type_query(window, "feldman ethics")
    assert 6118 in _ids(window.current_tab())
