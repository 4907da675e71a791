"""The query reads what people write: states and provinces by name or code, months by name,
quarters, and free words that reach a course's topics as they reach a webinar's."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from catalogue_desktop.core.query import literals, region_codes
from catalogue_desktop.core.query.syntax import parse
from catalogue_desktop.core.records.regions import CODES
from tests.core.query.catalogues import demo_facts, finder_of

NOW = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


@pytest.fixture(scope="module")
def finder() -> object:
    return finder_of(demo_facts())


def _rows(finder: object, query: str, table: str) -> list[int]:
    parsed = parse(query)
    assert parsed.ok, parsed.error
    outcome = finder.evaluate(parsed, table, NOW)  # type: ignore[attr-defined]
    assert outcome.missing is None
    return list(outcome.rows)


@pytest.mark.parametrize(
    ("written", "same_as"),
    [
        ("state:illinois", "state:=IL"),
        ("state:Illinois", "state:IL"),
        ("state:il", "state:=IL"),
        ('state:"new york"', "state:=NY"),
        ("state:tennessee", "state:TN"),
        ("starts:march", "starts:2027-03"),
        ('starts:"march 2027"', "starts:2027-03"),
        ("starts:mar-2027", "starts:2027-03"),
        ("mar-2027", "starts:2027-03"),
        ("starts:2027-march", "starts:2027-03"),
        ("starts:november", "starts:2026-11"),  # the current month while it lasts
        ("2027-Q1", "starts:2027-01..2027-03"),
        ("q1-2027", "starts:2027-01..2027-03"),
        ("this-quarter", "starts:2026-10..2026-12"),
        ("next-quarter", "starts:2027-01..2027-03"),
        ("last-quarter", "starts:2026-07..2026-09"),
        ("starts:jan..mar", "starts:2027-01..2027-03"),
    ],
)
@pytest.mark.parametrize("table", ["courses", "offerings"])
def test_a_value_written_in_words_finds_what_its_code_finds(
    finder: object, written: str, same_as: str, table: str
) -> None:
    assert _rows(finder, written, table) == _rows(finder, same_as, table)


def test_the_demo_has_rows_for_the_words_tested(finder: object) -> None:
    for query in ("state:illinois", "starts:march", "2027-Q1", "next-quarter"):
        assert _rows(finder, query, "offerings"), query


def test_free_words_reach_course_topics_as_they_reach_webinar_topics(finder: object) -> None:
    ids = finder.tables["courses"].column("id")  # type: ignore[attr-defined]
    assert 6118 in [ids[row] for row in _rows(finder, "feldman ethics", "courses")]
    assert _rows(finder, "ethics", "courses") == _rows(finder, "topic:ethics OR ethics", "courses")


def test_every_state_and_province_is_known_by_name_and_code() -> None:
    assert len(CODES) == 51 + 5 + 13
    for code, name in CODES.items():
        assert region_codes.region_code(name) == code == region_codes.region_code(code.lower())
    assert region_codes.region_code("Québec") == region_codes.region_code("quebec") == "QC"
    assert region_codes.region_code("Springfield") is None


@pytest.mark.parametrize(
    ("bad", "says"),
    [("2027-Q5", "is not a date"), ("marchy", "is not a date"), ("starts:2027-13", "month must be 1-12")],
)
def test_what_is_not_a_date_is_explained(bad: str, says: str) -> None:
    if ":" in bad:
        assert says in str(parse(bad).error)
        return
    with pytest.raises(literals.LiteralError, match=says):
        literals.date_spec(bad)


def test_completion_offers_the_words(finder: object) -> None:
    from catalogue_desktop.core.query.complete import completions

    assert "starts:march" in completions(finder, "courses", "starts:mar")
    assert completions(finder, "courses", "state:illi") == ["state:Illinois"]
    assert completions(finder, "offerings", "next-q") == ["next-quarter"]


def test_help_and_the_query_guide_list_the_words() -> None:
    from pathlib import Path

    from catalogue_desktop.core.query.manual import syntax_markdown

    guide = (Path(__file__).parents[3] / "docs" / "query-language.md").read_text(encoding="utf-8")
    for text in (syntax_markdown(), guide):
        for word in ("starts:march", 'starts:"march 2027"', "mar-2027", "2027-Q1", "this-quarter"):
            assert word in text, word
        assert "state:illinois" in text and "state:IL" in text
