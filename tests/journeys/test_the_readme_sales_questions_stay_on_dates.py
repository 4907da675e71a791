"""A sales person follows the README: "Open the Dates tab and type what the customer asks —
``illinois cpe next month``, ``texas courses under 1500``, …", then offers what it shows. A kind
word ("courses", "webinars", "sessions") moved the window to Courses or Webinars, where there are
no offer buttons ("Ctrl+9 goes back to Dates"); on Dates it is the dates of that kind, and the tab
stays, with the rows ``find`` gives on the dates and the offer buttons ready (issue 39)."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from catalogue_desktop.cli.find import find
from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import click_tab, each_case, type_query

README = Path(__file__).parents[2] / "README.md"
# the README's sales examples (checked below to be there), and what a customer asks the same way
MORE = ("cle webinars next 30 days under $300", "chicgo courses in spring", "series sessions in march")
KIND_SHOWN = {"courses": {"Course"}, "webinars": {"Webinar", "Session"}, "sessions": {"Session"}}


def _sales_examples() -> list[str]:
    """The questions the README's sales paragraph gives, in words and in the query language."""
    text = README.read_text(encoding="utf-8")
    paragraph = text[text.index("**Sales, answering a customer.**") :].split("\n\n")[0]
    return re.findall(r"`([^`]+)`", paragraph)[:6]


EXAMPLES = _sales_examples()


def test_the_readme_still_gives_its_sales_examples() -> None:
    assert "texas courses under 1500" in EXAMPLES and "state:texas fee:<1500" in EXAMPLES, EXAMPLES


def _dates_found(session: Any, text: str) -> tuple[str, int]:
    """What ``find --json`` says of ``text`` on the dates: the query understood, how many."""
    out = io.StringIO()
    with Store(session.store_file) as store:
        find(store, [text], [OCCASIONS.value], as_json=True, out=out, err=io.StringIO())
    line = json.loads(out.getvalue())
    return line["understood"], line["counts"][OCCASIONS.value]


def _kinds_shown(tab: Any) -> set[str]:
    """The Kind column of the Dates rows as shown."""
    model = tab.model
    column = next(
        c for c in range(model.columnCount()) if model.headerData(c, Qt.Orientation.Horizontal) == "Kind"
    )
    return {model.index(r, column).data() for r in range(model.rowCount())}


def test_a_readme_sales_question_typed_on_dates_stays_on_dates(start: Any) -> None:
    """Each question in one window (``each_case``): the query box emptied, the Dates tab showing
    every date before each."""
    session = start()
    window = session.window
    window.show()
    tab = click_tab(window, OCCASIONS)
    every = tab.model.rowCount()

    def check(text: str) -> None:
        type_query(window, "")
        click_tab(window, OCCASIONS)
        assert window.query_box.text() == "" and tab.model.rowCount() == every  # as a fresh start
        understood, count = _dates_found(session, text)
        type_query(window, text)
        # the tab stays Dates, nothing says to go back to it
        assert window.current_kind() is OCCASIONS, (text, window.current_kind())
        assert "goes back to Dates" not in window.statusBar().currentMessage()
        reading = window.query_box.reading
        assert reading.query == understood and not reading.words, (text, reading)
        # the rows find gives on the dates, of the kind named
        assert count, (text, understood)
        assert tab.model.rowCount() == count, (text, understood)
        named = next((k for k in KIND_SHOWN if k in text), None)
        if named is not None:
            assert _kinds_shown(tab) <= KIND_SHOWN[named], (text, _kinds_shown(tab))
        # the offers are at hand: every offer button ready for all the dates the query shows
        assert tab.offer_buttons and all(b.isEnabled() for b in tab.offer_buttons.values())

    each_case([*EXAMPLES, *MORE], check)


def test_from_another_tab_a_kind_word_still_shows_its_tab(start: Any) -> None:
    window = start().window
    window.show()
    click_tab(window, Kind.EXPERTS)
    type_query(window, "texas courses under 1500")
    assert window.current_kind() is Kind.COURSES
