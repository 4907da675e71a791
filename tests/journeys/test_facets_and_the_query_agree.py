"""A value typed in the query and the same value in its facet are one entry, ticked; a click on a
facet of a field the query constrains replaces the clause; "+N more" shows the other values."""

from __future__ import annotations

from typing import Any

from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import (
    choose_facet,
    click_facet,
    click_tab,
    facet_rows,
    open_facets,
    settle_facets,
    show_facets,
    type_query,
)


def test_type_live_typed_is_the_type_facet_s_live_ticked_once(start: Any, qtbot: Any) -> None:
    session = start()
    window = session.window
    open_facets(qtbot, session, Kind.WEBINARS, "type:live")
    types = facet_rows(window)["Type"]
    live = [t for t in types if "live" in t.lower()]
    assert len(live) == 1 and live[0].startswith("✓ Live"), types
    click_facet(window, "Type", "Live")  # taken back
    assert window.query_box.text() == ""


def test_state_illinois_is_the_ticked_il_and_a_click_on_il_takes_it_back(start: Any, qtbot: Any) -> None:
    session = start()
    window = session.window
    open_facets(qtbot, session, OCCASIONS, "state:illinois")
    rows = window.current_tab().model.rowCount()
    assert rows > 0
    states = facet_rows(window)["State"]
    assert [s for s in states if s.startswith("✓")] == [f"✓ IL  {rows:,}"], states
    click_facet(window, "State", "IL")
    assert window.query_box.text() == ""
    assert window.current_tab().model.rowCount() > rows


def test_a_value_clicked_replaces_the_field_s_typed_clause(start: Any, qtbot: Any) -> None:
    session = start()
    window = session.window
    open_facets(qtbot, session, OCCASIONS, "city:dal")
    assert "City: contains “dal”" in facet_rows(window)
    other = next(v for v in facet_rows(window)["City: contains “dal”"] if not v.startswith("Dallas"))
    city, count = other.rsplit("  ", 1)
    click_facet(window, "City", city)
    assert window.query_box.text() == f'city:="{city}"' or window.query_box.text() == f"city:={city}"
    assert window.current_tab().model.rowCount() == int(count.replace(",", ""))


def test_more_values_shows_the_facet_s_other_values(start: Any, qtbot: Any) -> None:
    session = start()
    window = session.window
    click_tab(window, Kind.WEBINARS)
    show_facets(qtbot, window)
    model = window.facet_panel.model
    row = next(r for r, f in enumerate(model.facets) if f.more)
    facet = model.facets[row]
    before, more = len(facet.values), facet.more
    assert model.index(row, 1).data() == f"+{more} more"
    click_facet(window, facet.title, None, column=1)
    widened = next(f for f in model.facets if f.field == facet.field)
    assert widened.more == 0 and len(widened.values) == before + more


def test_only_a_chosen_value_is_highlighted_after_the_facets_change(start: Any, qtbot: Any) -> None:
    """A value clicked, then other words typed: the facets are drawn again for them, and no row
    stays highlighted that is not what is chosen (the row at the clicked value's old place was:
    "IL" highlighted while "✓ TX" was the choice)."""
    session = start()
    window = session.window
    open_facets(qtbot, session, OCCASIONS, "")
    choose_facet(qtbot, session, "State", "IL")
    type_query(window, "texas courses under 1500")
    settle_facets(qtbot, session)
    tree = window.facet_panel.tree
    highlighted = [str(i.data()) for i in tree.selectionModel().selectedIndexes() if i.column() == 0]
    assert all(text.startswith("✓") for text in highlighted), (highlighted, facet_rows(window))
    assert any(text.startswith("✓ TX") for text in facet_rows(window)["State"])


def test_a_value_clicked_after_plain_words_takes_their_glue_with_them(start: Any, qtbot: Any) -> None:
    """Plain words, then a facet value of the field they named: the words are written as the
    field's clause and replaced, with the glue before them ("courses in chicago in december",
    then City "Washington" clicked, was "courses in in december city:=Washington")."""
    session = start()
    window = session.window
    open_facets(qtbot, session, Kind.COURSES, "courses in chicago in december")
    assert window.query_box.reading is not None and window.query_box.reading.conditions
    cities = facet_rows(window)["City"]
    other = next(v.rsplit("  ", 1)[0] for v in cities if "Chicago" not in v)
    click_facet(window, "City", other)
    text = window.query_box.text()
    assert text.split()[:3] == ["courses", "in", "december"], text
    assert text.count(" in ") == 1 and other.replace(" ", "") in text.replace('"', "").replace(" ", ""), text


def test_words_naming_the_dates_tab_are_no_value_of_its_kind_facet(start: Any, qtbot: Any) -> None:
    """On Dates, "what's on next week" is read as ``kind:dates starts:next-week``: the Kind facet
    listed "✓ dates" as a chosen kind beside Course and Webinar (a fresh-eyes user met it). The
    words name the tab, every date; the facet lists the kinds of the dates shown."""
    session = start()
    window = session.window
    open_facets(qtbot, session, OCCASIONS, "what's on next week")
    assert "kind:dates" in window.query_box.reading.query
    kinds = facet_rows(window)["Kind"]
    assert not any(k.startswith("✓") for k in kinds) and all("dates" not in k for k in kinds), kinds


def test_a_typed_month_range_is_listed_in_the_start_month_facet_as_months(start: Any, qtbot: Any) -> None:
    """ "in the spring" is ``starts:2027-03..2027-05``: the Start month facet listed it as typed,
    cut to "✓ 2027-03..20…" (a fresh-eyes user met it); it says the months, as the facet does."""
    session = start()
    window = session.window
    open_facets(qtbot, session, OCCASIONS, "courses in the spring")
    months = facet_rows(window)["Start month"]
    chosen = [m for m in months if m.startswith("✓")]
    assert [m.rsplit("  ", 1)[0] for m in chosen] == ["✓ Mar 2027 – May 2027"], months
