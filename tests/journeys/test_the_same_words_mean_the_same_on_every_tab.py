"""A newcomer types the README's own questions from whichever tab is shown (the window opens on
Webinars): the words are read the same way on every tab, as ``find`` reads them, and the window
shows where the results are. "chicago december" on Webinars was read as the free word "chicago"
(webinars have no city): every tab 0, nothing under the box to say why."""

from __future__ import annotations

import io
import json
import re
from typing import Any

import pytest
from PySide6.QtWidgets import QToolButton

from catalogue_desktop.cli.find import find
from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import click_tab, type_query
from tests.ui.shared_window import *  # noqa: F403 (the shared window's fixtures)
from tests.ui.shared_window import as_started, assert_as_started, put_back, window_state

README_QUESTIONS = (
    "chicago december",
    "illinois cpe next month",
    "cle webinars by okafor",
    "courses under 1500",
    "texas courses under 1500",
    "tax this quarter",
)
_COUNT = re.compile(r"^([\d,]+) of ")


@pytest.fixture
def session(demo_shown: tuple[Any, dict[str, Any]], qloop: Any) -> Any:
    """The shared window as its start showed it (``put_back``), asserted equal to the window's
    state after its start."""
    return as_started(demo_shown)


def test_a_question_typed_on_every_tab_is_put_back(
    session: Any, demo_shown: tuple[Any, dict[str, Any]]
) -> None:
    """What a case leaves (the question in the box, the tab its words named, the status line
    saying so) differs from the start's state, and ``put_back`` undoes it."""
    fresh = demo_shown[1]
    window = session.window
    click_tab(window, Kind.EXPERTS)
    type_query(window, "chicago december")  # shows Courses and says so
    left = window_state(session)
    for fact in ("tab", "query", "status line"):
        assert left[fact] != fresh[fact], fact
    put_back(session, fresh)
    assert_as_started(session, fresh)


def _found_by_find(session: Any, text: str) -> tuple[str, dict[str, int]]:
    """What ``find --json`` says of ``text``: the query understood, and each kind's count (a kind
    lacking a field the query names: 0, as its tab shows)."""
    out = io.StringIO()
    kinds = [k.value for k in Kind]
    with Store(session.store_file) as store:
        find(store, [text], kinds, as_json=True, out=out, err=io.StringIO())
    line = json.loads(out.getvalue())
    return line["understood"], {k: n or 0 for k, n in line["counts"].items()}


def _shown_counts(window: Any) -> dict[str, int]:
    """Each kind's matches as its tab's tooltip says them ("3 of 60 webinars match the query")."""
    bar = window.tab_widget.tabBar()
    counts = {}
    for index, kind in enumerate(window.tab_kinds()):
        if kind is OCCASIONS:
            continue
        tip = bar.tabToolTip(index)
        found = _COUNT.match(tip)
        counts[kind.value] = int(found.group(1).replace(",", "")) if found else 0
    return counts


def _chips(window: Any) -> list[str]:
    return [c.text() for c in window.findChildren(QToolButton, "reading-chip") if c.isVisible()]


def test_chicago_december_from_the_first_screen_shows_the_chicago_course(session: Any) -> None:
    window = session.window
    window.show()
    assert window.current_kind() is Kind.WEBINARS  # where the app opens
    understood, counts = _found_by_find(session, "chicago december")
    assert "city:" in understood and counts["courses"] >= 1 and not counts["webinars"], (understood, counts)
    type_query(window, "chicago december")
    assert any("Chicago" in chip for chip in _chips(window)), _chips(window)  # said under the box
    assert window.query_box.reading.query == understood
    assert _shown_counts(window) == counts
    # the results are on Courses: shown, and the status line says how to go back
    assert window.current_kind() is Kind.COURSES
    assert window.current_tab().model.rowCount() == counts["courses"]
    assert "Ctrl+1" in window.statusBar().currentMessage()


@pytest.mark.parametrize("text", README_QUESTIONS)
def test_the_readme_questions_read_the_same_from_every_tab(session: Any, text: str) -> None:
    window = session.window
    window.show()
    understood, counts = _found_by_find(session, text)
    for kind in window.tab_kinds():
        type_query(window, "")
        click_tab(window, kind)
        type_query(window, text)
        reading = window.query_box.reading
        assert reading.query == understood or (kind is OCCASIONS and reading.table is None), (kind, reading)
        if kind is not OCCASIONS:  # (on Dates, a kind word is the date's own kind: the tab stays)
            assert _shown_counts(window) == counts, kind
            assert reading.words == (), (kind, reading.words)
