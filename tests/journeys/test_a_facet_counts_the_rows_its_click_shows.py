"""A facet's count is the rows that would show if its value were chosen, given the rest of the
query, and a click shows exactly that many: a second value of a facet chosen instead of the
first ("No" under cpe:yes), a month under words read as a month ("march"), a state under
another facet's choice. Shift+click adds a value beside the chosen one. Headings read as words
("City: contains “san”"), values are written as the rows write them ("Session", not "session"),
and at 1024 wide a topic's name is not cut to ten characters."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt

from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import (
    choose_facet,
    facet_count,
    facet_rows,
    open_facets,
    settle_facets,
    type_query,
)


def _rows(window: Any) -> int:
    return int(window.current_tab().model.rowCount())


def test_no_under_cpe_yes_shows_its_count_and_shift_adds_it(start: Any, qtbot: Any) -> None:
    session = start()
    window = session.window
    open_facets(qtbot, session, OCCASIONS, "cpe:yes")
    yes, no = facet_count(window, "CPE", "Yes"), facet_count(window, "CPE", "No")
    assert _rows(window) == yes
    choose_facet(qtbot, session, "CPE", "No")
    assert _rows(window) == no, facet_rows(window)["CPE"]
    assert facet_rows(window)["CPE"] == [f"Yes  {yes:,}", f"✓ No  {no:,}"]
    choose_facet(qtbot, session, "CPE", "Yes", Qt.KeyboardModifier.ShiftModifier)  # beside it
    assert _rows(window) == yes + no
    assert sorted(facet_rows(window)["CPE"]) == [f"✓ No  {no:,}", f"✓ Yes  {yes:,}"]


def test_a_month_under_words_read_as_a_month_shows_its_count(start: Any, qtbot: Any) -> None:
    session = start()
    window = session.window
    open_facets(qtbot, session, OCCASIONS, "march")
    months = facet_rows(window)["Start month"]
    assert any(m.startswith("✓ Mar") for m in months), months
    other = next(m for m in reversed(months) if not m.startswith("✓"))
    label, count = other.rsplit("  ", 1)
    choose_facet(qtbot, session, "Start month", label)
    assert window.current_kind() is OCCASIONS
    assert _rows(window) == int(count.replace(",", "")), (label, window.query_box.text())
    assert [m for m in facet_rows(window)["Start month"] if m.startswith("✓")] == [f"✓ {other}"]


def test_a_state_under_another_facet_s_choice_shows_its_count(start: Any, qtbot: Any) -> None:
    session = start()
    window = session.window
    open_facets(qtbot, session, Kind.COURSES, "cpe:yes state:CA")
    states = [s for s in facet_rows(window)["State"] if not s.startswith("✓")]
    for shown in states[:3]:
        type_query(window, "cpe:yes state:CA")
        settle_facets(qtbot, session)
        label, count = shown.rsplit("  ", 1)
        choose_facet(qtbot, session, "State", label)
        assert _rows(window) == int(count), (shown, window.query_box.text())


def test_headings_read_as_words_and_values_as_the_rows_write_them(start: Any, qtbot: Any) -> None:
    session = start()
    window = session.window
    window.resize(1024, 700)
    open_facets(qtbot, session, OCCASIONS, "city:san")
    titles = list(facet_rows(window))
    assert "City: contains “san”" in titles, titles
    assert not any("city:" in t for t in titles), titles
    type_query(window, "")
    settle_facets(qtbot, session)
    kinds = [k.rsplit("  ", 1)[0] for k in facet_rows(window)["Kind"]]
    assert sorted(kinds) == ["Course", "Session", "Webinar"], kinds
    tree = window.facet_panel.tree  # each topic's name has the room to be read whole (on more lines)
    metrics = tree.fontMetrics()
    model = window.facet_panel.model
    topics = model.index(next(r for r, f in enumerate(model.facets) if f.title == "Topics"), 0)
    for row in range(model.rowCount(topics)):
        index = model.index(row, 0, topics)
        rect = tree.visualRect(index)
        lines = rect.height() // metrics.lineSpacing()
        name = str(index.data())
        assert lines * (rect.width() - 6) >= metrics.horizontalAdvance(name), (name, rect, lines)
