"""Facet counts (each value: rows matching the query without the facet's own clauses, with the
value's clause), selections written into the query, and quick-open."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from catalogue_desktop.core.query.facets import available, facets, toggle
from catalogue_desktop.core.query.quick import search
from catalogue_desktop.core.query.syntax import parse, top_clauses
from tests.core.query.catalogues import demo_facts, finder_of, synthetic_facts
from tests.core.query.reference import Reference

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("table", "query"),
    [
        ("webinars", ""),
        ("webinars", "cle:yes fee:<300"),
        ("webinars", 'cle:yes topic:(="Estate Planning and Trusts" OR ="Tax") -type:2'),
        ("courses", "city:dallas starts:2027-04"),
        ("courses", "cpe:yes fee:1000..1499"),
        ("series", "type:live"),
        ("offerings", "cle:yes"),
    ],
)
def test_each_count_is_what_selecting_that_value_would_show(table: str, query: str) -> None:
    catalogue = demo_facts()
    finder = finder_of(catalogue)
    reference = Reference(catalogue, NOW)
    found = facets(finder, query, table, NOW, limit=50)
    assert found, "every table here has facets"
    text = parse(query).text
    for facet in found:
        others = [text[c.start : c.end] for c in top_clauses(parse(query).root) if not _on(c, facet.field)]
        for value in facet.values:
            composed = " ".join([*others, f"{facet.field}:{value.clause}"])
            want = reference.ids(composed, table)
            assert want is not None
            assert value.count == len(want), (facet.field, value, composed)


def _on(node: object, name: str) -> bool:
    from catalogue_desktop.core.query.syntax import Not, Or, Term

    if isinstance(node, Term):
        return node.field == name and node.op != "has"
    if isinstance(node, Not):
        return _on(node.child, name)
    assert isinstance(node, Or) or hasattr(node, "children")
    return all(_on(c, name) for c in node.children)  # type: ignore[attr-defined]


def test_facets_per_table_are_the_fields_it_has() -> None:
    finder = finder_of(demo_facts())
    assert [f for f, _ in available(finder, "courses")] == [
        "topic",
        "expert",
        "cle",
        "cpe",
        "level",
        "city",
        "state",
        "starts",
        "fee",
    ]
    assert [f for f, _ in available(finder, "roles")] == []
    assert facets(finder, "city:x", "webinars", NOW) == []  # webinars lack city: no counts
    assert facets(finder, "(broken", "webinars", NOW) == []


def test_selecting_excluding_and_taking_back_edit_the_query_text() -> None:
    q = "cle:yes tax"
    q = toggle(q, "topic", '="Estate Planning and Trusts"')
    assert q == 'cle:yes tax topic:="Estate Planning and Trusts"'
    assert toggle(q, "topic", "=Tax") == "cle:yes tax topic:=Tax"  # chosen instead: its count shows
    q = toggle(q, "topic", "=Tax", add=True)  # Shift+click: beside it
    assert q == 'cle:yes tax topic:(="Estate Planning and Trusts" OR =Tax)'
    q = toggle(q, "type", "2", exclude=True)
    assert q == 'cle:yes tax topic:(="Estate Planning and Trusts" OR =Tax) -type:2'
    q = toggle(q, "type", "2")  # selecting what was excluded
    assert q == 'cle:yes tax topic:(="Estate Planning and Trusts" OR =Tax) type:2'
    q = toggle(q, "topic", '="Estate Planning and Trusts"')
    assert q == "cle:yes tax type:2 topic:=Tax"
    q = toggle(toggle(q, "topic", "=Tax"), "type", "2")
    assert q == "cle:yes tax"
    assert toggle("(broken", "cle", "yes") is None
    # the selection shows in the facet
    finder = finder_of(demo_facts())
    topic = facets(finder, '-cle:yes topic:="Federal Taxation"', "webinars", NOW, only=["topic", "cle"])
    assert [v.state for v in topic[1].values] == ["excluded", None]
    assert [v.state for v in topic[0].values if v.label == "Federal Taxation"] == ["included"]


def test_facets_keep_to_a_limit_but_show_selected_values() -> None:
    finder = finder_of(synthetic_facts())
    expert = facets(finder, "", "webinars", NOW, limit=5, only=["expert"])[0]
    assert len(expert.values) == 5 and expert.more > 0
    counts = [v.count for v in expert.values]
    assert counts == sorted(counts, reverse=True)
    months = facets(finder, "", "webinars", NOW, limit=5, only=["starts"])[0]
    assert len(months.values) > 5  # dates: every month, in order
    assert [v.clause for v in months.values] == sorted(v.clause for v in months.values)


def test_quick_open_finds_records_of_every_kind_by_title_name_or_id() -> None:
    finder = finder_of(demo_facts())
    hits = search(finder, "ethics", 10)
    assert {h.table for h in hits} >= {"webinars", "topics", "courses"}
    assert all("ethics" in h.title.lower() for h in hits)
    assert hits[0].score >= hits[-1].score
    assert next((h.table, h.record_id) for h in search(finder, "50007", 3)) == ("webinars", 50007)
    assert search(finder, "reyes")[0].table == "experts"
    typo = search(finder, "estat planing", 5)
    assert typo and all("estate planning" in h.title.lower() for h in typo[:3])
    assert all(h.score < 60 for h in typo)
    assert search(finder, "   ") == []


@pytest.mark.parametrize("query", ["", "tax", "-tax", "fee:<300", "NOT cle:yes", "zzzz"])
def test_names_counts_by_rows_or_bitsets_are_the_rows_holding_each_name(query: str) -> None:
    """Every path of the names facets' counting (every row, row by row over the matched rows or
    over the others, per bitset) against the reference's rows and the facts' names."""
    catalogue = synthetic_facts()
    finder = finder_of(catalogue)
    rows = Reference(catalogue, NOW).ids(query, "webinars")
    assert rows is not None
    for field, key in (
        ("topic", "topics"),
        ("expert", "experts"),
        ("role", "roles"),
        ("situation", "situations"),
    ):
        (facet,) = facets(finder, query, "webinars", NOW, limit=10_000, only=[field])
        want: dict[str, int] = {}
        for row in rows:
            for name in set(catalogue["webinars"][row].get(key) or ()):
                want[name] = want.get(name, 0) + 1
        assert {v.label: v.count for v in facet.values} == want, (field, query)


def test_a_facet_shows_the_top_values_and_every_selected_one() -> None:
    finder = finder_of(synthetic_facts())
    full = facets(finder, "fee:<300", "webinars", NOW, limit=10_000, only=["expert"])[0].values
    ranked = sorted(full, key=lambda v: (-v.count, v.label.casefold()))
    low, high = ranked[-1], ranked[2]
    query = f'fee:<300 expert:(="{low.label}" OR ="{high.label}" OR ="Nobody Atall")'
    shown = facets(finder, query, "webinars", NOW, limit=4, only=["expert"])[0]
    base = {v.label: v.count for v in full}
    labels = [v.label for v in shown.values]
    assert {low.label, high.label, "Nobody Atall"} <= set(labels)
    assert [v.state for v in shown.values if v.label in (low.label, high.label)] == ["included"] * 2
    # in rank order: a selected value always, another with rows while fewer than 4 are shown
    want: list[str] = []
    selected = {low.label, high.label}
    for v in ranked:
        if v.label in selected or (v.count and len(want) < 4):
            want.append(v.label)
    assert labels == [*want, "Nobody Atall"]  # typed, no rows: last
    assert all(v.count == base.get(v.label, 0) for v in shown.values)
    assert shown.more == len([v for v in full if v.count > 0]) - len(want)


@pytest.mark.parametrize(
    ("table", "field", "typed", "ticked"),
    [
        ("webinars", "type", "type:live", "Live"),
        ("webinars", "type", 'type:"on demand"', "On demand"),
        ("offerings", "state", "state:illinois", "IL"),
        ("offerings", "state", "state:il", "IL"),
        ("offerings", "starts", "starts:march", "Mar 2027"),
        ("offerings", "starts", "starts:mar-2027", "Mar 2027"),
    ],
)
def test_a_typed_value_is_its_facet_value_ticked_once(
    table: str, field: str, typed: str, ticked: str
) -> None:
    from catalogue_desktop.core.query.facet_keys import ValueKeys

    finder = finder_of(demo_facts())
    facet = next(f for f in facets(finder, typed, table, NOW, limit=50) if f.field == field)
    assert [v.label for v in facet.values if v.state] == [ticked]
    value = next(v for v in facet.values if v.label == ticked)
    keys = ValueKeys(finder, table, NOW)
    assert toggle(typed, field, value.clause, keys=keys) == ""  # a click takes it back


def test_a_value_chosen_replaces_the_field_s_typed_clauses_and_says_them() -> None:
    finder = finder_of(demo_facts())
    assert toggle("cle:yes city:dal tax", "city", '="Houston"') == 'cle:yes tax city:="Houston"'
    assert toggle("fee:<300 cle:yes", "fee", "300..499") == "cle:yes fee:300..499"
    assert toggle("city:dal", "city", '="Houston"', exclude=True) == 'city:dal -city:="Houston"'
    city = next(f for f in facets(finder, "city:dal", "offerings", NOW) if f.field == "city")
    assert city.chosen == "city:dal"


def test_a_whole_value_typed_is_the_facet_value_and_a_part_is_not() -> None:
    from catalogue_desktop.core.query.facet_keys import ValueKeys

    finder = finder_of(demo_facts())
    city = next(f for f in facets(finder, "city:dallas", "offerings", NOW) if f.field == "city")
    assert [v.label for v in city.values if v.state] == ["Dallas"] and city.chosen == ""
    keys = ValueKeys(finder, "offerings", NOW)
    assert toggle("city:dallas cle:yes", "city", '="Dallas"', keys=keys) == "cle:yes"
    assert toggle("city:dallas", "city", '="Houston"', keys=keys) == 'city:="Houston"'
    assert toggle("city:dallas", "city", '="Houston"', add=True, keys=keys) == 'city:(dallas OR ="Houston")'
    assert toggle("-city:dal cle:yes", "city", '="Houston"', keys=keys) == 'cle:yes city:="Houston"'
    part = next(f for f in facets(finder, "city:dal", "offerings", NOW) if f.field == "city")
    assert not any(v.state for v in part.values) and part.chosen == "city:dal"


def test_a_date_facet_s_months_gather_the_rows_days_a_slice_a_step() -> None:
    """Counted, not timed (issue 40): the months of a date facet are found from its rows' days a
    slice of rows a step (every row's day in one step: ~30 ms of CPU at 100,000 rows, loaded), so
    their steps grow with the rows; the months and their rows are the same."""
    from catalogue_desktop.core.query import facets as facets_module
    from catalogue_desktop.core.query.table import DateIndex

    def months(n: int) -> tuple[int, list[tuple[str, str, int]]]:
        dates = DateIndex(
            [f"2027-{1 + i % 3:02d}-{1 + i % 28:02d}T10:00:00Z" if i % 7 else None for i in range(n)]
        )
        dates.ensure()
        found = facets_module._Months(dates)
        steps = sum(1 for _ in found.build())
        return steps, found.options

    few_steps, few = months(300)
    many_steps, many = months(100_000)
    assert [(label, clause) for label, clause, _rows in many] == [
        ("Jan 2027", "2027-01"),
        ("Feb 2027", "2027-02"),
        ("Mar 2027", "2027-03"),
    ]
    assert [(label, clause) for label, clause, _rows in few] == [
        (label, clause) for label, clause, _rows in many
    ]
    assert many_steps - few_steps >= 5, (few_steps, many_steps)  # (a step per 16,384 rows)
    jan = many[0][2]
    assert jan.bit_count() == sum(1 for i in range(100_000) if i % 7 and i % 3 == 0)
