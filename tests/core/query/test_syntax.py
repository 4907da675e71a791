"""The query language's parser: the tree it makes, and errors a person can act on."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from catalogue_desktop.core.query.syntax import And, Not, Or, Term, parse, quote, top_clauses


def terms(text: str) -> list[tuple[str | None, str, object]]:
    root = parse(text).root
    found = []

    def walk(node: object) -> None:
        if isinstance(node, Term):
            found.append((node.field, node.op, node.value))
        elif isinstance(node, Not):
            walk(node.child)
        elif isinstance(node, And | Or):
            for child in node.children:
                walk(child)

    walk(root)
    return found


def test_clauses_side_by_side_are_anded_and_or_binds_tighter() -> None:
    root = parse("cle:yes fee:<300 OR fee:>400 tax").root
    assert isinstance(root, And)
    assert [type(c).__name__ for c in root.children] == ["Term", "Or", "Term"]
    assert terms("a | b") == terms("a OR b") == terms("a or b")
    assert isinstance(parse("a | b").root, Or) and isinstance(parse("a or b").root, Or)


def test_negation_by_dash_or_not_and_groups() -> None:
    root = parse("-expert:nakamura NOT (a OR b)").root
    assert isinstance(root, And)
    first, second = root.children
    assert isinstance(first, Not) and first.child.field == "expert"
    assert isinstance(second, Not) and isinstance(second.child, Or)
    # a lower-case "not" and a dash inside a word are plain text
    assert terms("not non-compete") == [(None, "word", "not"), (None, "word", "non-compete")]


def test_field_names_are_case_insensitive_with_spec_names_and_aliases() -> None:
    assert terms("startDate:2027") == terms("STARTS:2027") == terms("start:2027")
    assert terms("cleAccreditation:yes") == terms("CLE:true") == [("cle", "eq", True)]
    assert terms("experts:x")[0][0] == "expert"


def test_values_by_type() -> None:
    assert terms("fee:<300 fee:>=1,300 fee:$99.50 fee:200..400 fee:..400 fee:200..") == [
        ("fee", "lt", 300),
        ("fee", "ge", 1300),
        ("fee", "eq", __import__("decimal").Decimal("99.50")),
        ("fee", "range", (200, 400)),
        ("fee", "range", (None, 400)),
        ("fee", "range", (200, None)),
    ]
    assert terms('title:=tax title:"estate tax" title:="Estate Tax"') == [
        ("title", "exact", "tax"),
        ("title", "contains", "estate tax"),
        ("title", "exact", "Estate Tax"),
    ]
    assert terms("cle:no has:accessUrl")[0] == ("cle", "eq", False)
    assert terms("fee<300") == [("fee", "lt", 300)]


def test_field_groups_hold_values_of_that_field() -> None:
    root = parse('topic:(tax OR "estate planning") x').root
    group = top_clauses(root)[0]
    assert isinstance(group, Or) and (group.start, group.end) == (0, 32)
    assert [c.value for c in group.children] == ["tax", "estate planning"]
    assert terms("fee:(<200 OR >400)") == [("fee", "lt", 200), ("fee", "gt", 400)]


def test_bare_dates_and_windows() -> None:
    assert [t[1] for t in terms("2027-03 today next30d past 2027")] == ["date"] * 4 + ["word"]


@pytest.mark.parametrize(
    ("query", "message", "position"),
    [
        ("fees:<300", "unknown field 'fees' — did you mean 'fee'?", 0),
        ("cle:yes startz:2027", "unknown field 'startz' — did you mean 'starts'?", 8),
        ("2027-13", "'2027-13': month must be 1-12", 0),
        ("starts:2027-02-29", "starts: '2027-02-29': day must be 1-28 in February 2027", 7),
        ("(a OR b", "')' missing: this '(' is not closed", 0),
        ("a) b", "')' has no '(' before it", 1),
        ('title:"estate', 'closing quote (") missing', 6),
        ("fee:", "'fee:' needs a value, e.g. fee:<300", 0),
        ("fee:abc", "fee: 'abc' is not a number", 4),
        ("cle:maybe", "cle: 'maybe': write yes or no", 4),
        ("title:>3", "title: is text: comparisons (<, >) work on numbers and dates; write title:word", 6),
        ("fee:400..300", "fee: '400..300': the range's start is after its end", 4),
        ("a OR", "nothing after OR: write a OR b", 2),
        ("OR a", "nothing before OR: write a OR b", 0),
        ("a -", "nothing after '-': write -word to leave out what matches", 2),
        ("()", "empty parentheses", 0),
        ("has:acessUrl", "unknown field 'acessUrl' — did you mean 'access'?", 4),
        ("asc:842", "unknown field 'asc' — to search for text with ':' in it, put it in quotes", 0),
        ("description:tax", None, None),
    ],
)
def test_errors_name_position_and_fix(query: str, message: str | None, position: int | None) -> None:
    parsed = parse(query)
    if message is None:
        assert parsed.ok
        return
    assert parsed.error is not None
    assert parsed.error.message == message
    assert parsed.error.position == position
    assert f"(at character {position + 1})" in parsed.error.describe()


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet=st.sampled_from(list('ab:()"|-<>=.,$ \t12éxORANDTfe')), max_size=40))
def test_any_text_parses_or_explains_without_raising(text: str) -> None:
    parsed = parse(text)
    assert (parsed.error is None) or (0 <= parsed.error.position <= len(text))


@given(st.text(max_size=20))
def test_quoted_values_read_back(value: str) -> None:
    if not value.strip():
        return
    parsed = parse(f"title:{quote(value)}")
    assert parsed.ok, (value, parsed.error)
    assert terms(f"title:{quote(value)}") == [("title", "contains", value)]
