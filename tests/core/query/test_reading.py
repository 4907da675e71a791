"""The reading of plain words (``core.query.reading``): what each rule reads, on the demo
catalogue's own vocabulary, and the properties every reading keeps."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from catalogue_desktop.core.query.lexicon import Lexicon
from catalogue_desktop.core.query.reading import Reading, read
from catalogue_desktop.core.query.syntax import parse
from tests.core.query.catalogues import demo_facts, finder_of
from tests.core.query.reference import Reference

NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)


@cache
def lexicon() -> Lexicon:
    return Lexicon.from_finder(finder_of(demo_facts()))


def reading(text: str, table: str | None = None) -> Reading:
    return read(text, lexicon(), NOW, table=table)


@pytest.mark.parametrize(
    ("typed", "table", "query", "shown", "order"),
    [
        # the examples (names and cities from resources/demo)
        # on Dates, a kind of date is a filter: the tab where offers are made stays (issue 39)
        ("texas courses under 1500", "offerings", "state:TX kind:course fee:<1500", None, None),
        ("texas courses under 1500", None, "state:TX kind:courses fee:<1500", "courses", None),
        (
            "cle webinars next 30 days under $300",
            "offerings",
            "cle:yes kind:webinar starts:next30d fee:<300",
            None,
            None,
        ),
        (
            "chicgo courses in spring",
            "offerings",
            "city:Chicago kind:course starts:2027-03..2027-05",
            None,
            None,
        ),
        ("series sessions in march", "offerings", "kind:session starts:2027-03", None, None),
        ("chicago december", "offerings", "city:Chicago starts:2026-12", None, None),
        ("cle webinars by margaret okafor", None, "cle:yes kind:webinars expert:okafor", "webinars", None),
        (
            "courses in new york in april 2027",
            None,
            'kind:courses city:"New York" starts:2027-04',
            "courses",
            None,
        ),
        ("live webinars this week", None, "type:live kind:webinars starts:this-week", "webinars", None),
        ("tax webinars under $200", None, "topic:tax kind:webinars fee:<200", "webinars", None),
        ("ethics cle in washington dc", "offerings", "topic:ethics cle:yes state:DC", None, None),
        (
            "what's on in boston next month",
            "courses",
            "kind:dates city:Boston starts:next-month",
            "offerings",
            None,
        ),
        (
            "on demand webinars about privacy",
            None,
            "ondemand:yes kind:webinars topic:privacy",
            "webinars",
            None,
        ),
        ("experts with more than 3 courses", None, "kind:experts courses:>3", "experts", None),
        ("series about generative ai", None, 'kind:series title:"generative ai"', "series", None),
        (
            "cheapest cpe course in dallas",
            None,
            "sort:fee cpe:yes kind:courses city:Dallas",
            "courses",
            "fee",
        ),
        (
            "recorded webinars on litigation",
            None,
            "ondemand:yes kind:webinars topic:litigation",
            "webinars",
            None,
        ),
        ("atlanta mar 2027", "offerings", "city:Atlanta starts:2027-03", None, None),
        ("webinars without experts", None, "kind:webinars no:expert", "webinars", None),
        # the first attempts
        ("illinois cpe", "offerings", "state:IL cpe:yes", None, None),
        ("february 2027", "offerings", "starts:2027-02", None, None),
        ("2027", "offerings", "starts:2027", None, None),
        ("california next quarter", "offerings", "state:CA starts:next-quarter", None, None),
        ("webinars with no access link", None, "kind:webinars no:access", "webinars", None),
        ("topics used by more than 9 webinars", None, "kind:topics webinars:>9", "topics", None),
        ("patrick o'donnell", "offerings", "expert:o'donnell", None, None),
        ("Patrick O’Donnell live", "offerings", "expert:o'donnell type:live", None, None),
        ('"san francisco" march 2027', "offerings", 'city:"San Francisco" starts:2027-03', None, None),
        # places
        ("in TX", "offerings", "state:TX", None, None),
        ("anything in OH?", "offerings", "state:OH", None, None),
        ("on demand", "offerings", "ondemand:yes", None, None),
        ("in MA or CT", "offerings", "state:MA or state:CT", None, None),
        ("courses in ontario", None, "kind:courses state:ON", "courses", None),
        ("online cle", "offerings", "no:location cle:yes", None, None),
        ("Q2 2027 in person", "offerings", "starts:2027-Q2 has:location", None, None),
        # when
        ("between march and may", "offerings", "starts:2027-03..2027-05", None, None),
        ("from november to february", "offerings", "starts:2026-11..2027-02", None, None),
        ("Dec?", "offerings", "starts:2026-12", None, None),
        ("q1", "offerings", "starts:2027-Q1", None, None),
        ("first quarter of 2027", "offerings", "starts:2027-Q1", None, None),
        ("next 2 weeks", "offerings", "starts:next2w", None, None),
        ("next thirty days", "offerings", "starts:next30d", None, None),
        ("upcoming", "offerings", "future", None, None),
        ("summer 2027", "offerings", "starts:2027-06..2027-08", None, None),
        ("2027-03", "offerings", "2027-03", None, None),
        ("after march", "offerings", "starts:2027-04..", None, None),
        ("since september", "offerings", "starts:2026-09..", None, None),
        ("before june", "offerings", "starts:..2027-05", None, None),
        ("this fall", "offerings", "starts:2026-09..2026-11", None, None),
        ("next summer", "offerings", "starts:2027-06..2027-08", None, None),
        ("tomorrow's webinars", None, "starts:tomorrow kind:webinars", "webinars", None),
        ("chicago and dallas", "offerings", "city:Chicago OR city:Dallas", None, None),
        ("okafor's webinars", None, "expert:okafor kind:webinars", "webinars", None),
        ("courses in san fran", None, 'kind:courses city:"San Francisco"', "courses", None),
        ("dates in NYC", None, 'kind:dates city:"New York"', "offerings", None),
        ("series starting in february", None, "kind:series starts:2027-02", "series", None),
        ("IP webinars", None, 'topic:"intellectual property" kind:webinars', "webinars", None),
        ("mar '27", "offerings", "starts:2027-03", None, None),
        ("cpe and cle", "offerings", "cpe:yes cle:yes", None, None),
        # money
        ("under $1,300", "offerings", "fee:<1300", None, None),
        ("less than 300", "offerings", "fee:<300", None, None),
        ("$149 or less", "offerings", "fee:<=149", None, None),
        ("up to 149", "offerings", "fee:<=149", None, None),
        ("at most 149", "offerings", "fee:<=149", None, None),
        ("more than $500", "offerings", "fee:>500", None, None),
        ("between 500 and 1,000", "offerings", "fee:500..1000", None, None),
        ("$500-$1,000", "offerings", "fee:500..1000", None, None),
        ("cheaper than 200", "offerings", "fee:<200", None, None),
        ("99 dollars", "offerings", "fee:99", None, None),
        ("under 300", "experts", "under 300", None, None),  # experts have no fee
        # credits, types, order
        ("cpe credits", "offerings", "cpe:yes", None, None),
        ("cle not cpe", "offerings", "cle:yes cpe:no", None, None),
        ("non-cpe", "offerings", "cpe:no", None, None),
        ("most expensive", "courses", "sort:-fee", None, "-fee"),
        ("soonest first", "webinars", "sort:starts", None, "starts"),
        ("latest", "webinars", "sort:-starts", None, "-starts"),
        ("cheapest", "experts", "cheapest", None, None),  # no fee to sort by
        # people and titles
        ("by okafor", "offerings", "expert:okafor", None, None),
        ("obrien", "offerings", "obrien", None, None),  # no such expert: a free word
        ("stone hartley", "offerings", "expert:stone-hartley", None, None),
        ("Carmen Ortíz", "offerings", "expert:ortiz", None, None),
        ("experts named chen", None, "kind:experts name:chen", "experts", None),
        ("cle webinars not by okafor", None, "cle:yes kind:webinars -expert:okafor", "webinars", None),
        ("for paralegals", "webinars", "role:paralegal", None, None),
        ("year end close", "offerings", 'situation:"year-end close"', None, None),
        ("M&A webinars", None, "topic:mergers kind:webinars", "webinars", None),
        ("tax topics", None, "title:tax kind:topics", "topics", None),
        # counts and absences
        ("experts with no courses", None, "kind:experts courses:0", "experts", None),
        ("experts with 2+ webinars", None, "kind:experts webinars:>=2", "experts", None),
        ("certificates with one level", None, "kind:certificates levels:1", "certificates", None),
        ("courses not in any certificate", None, "kind:courses no:certificate", "courses", None),
        ("webinars with no date", None, "kind:webinars no:starts", "webinars", None),
        # free words stay, the language reads as itself
        ("hipaa", "offerings", "hipaa", None, None),
        ("partners", "experts", "partner", None, None),  # a plain plural: its singular, found in both
        ("business", "experts", "business", None, None),
        ("experts in dallas", None, "kind:experts dallas", "experts", None),  # a city's word, as typed
        ("rogers", "webinars", "roger", None, None),  # no one of that name: a plain plural
        (
            "state:IL cpe:yes kind:courses sort:fee",
            "offerings",
            "state:IL cpe:yes kind:courses sort:fee",
            "courses",
            "fee",
        ),
        ("city:(chicago OR dallas) -tax", "offerings", "city:(chicago OR dallas) -topic:tax", None, None),
        ("(chicago OR dallas) cpe", "offerings", "(city:Chicago OR city:Dallas) cpe:yes", None, None),
        ("-chicago", "offerings", "-city:Chicago", None, None),
    ],
)
def test_words_read_as_the_query_language(
    typed: str, table: str | None, query: str, shown: str | None, order: str | None
) -> None:
    found = reading(typed, table)
    assert (found.query, found.table, found.sort) == (query, shown, order)
    assert parse(found.query).ok


def test_conditions_say_in_words_what_was_read_and_where() -> None:
    found = reading("illinois cpe courses cheapest first", "offerings")
    assert found.query == "state:IL cpe:yes kind:course sort:fee"
    assert [c.label for c in found.conditions] == ["Illinois", "CPE credit", "Courses", "cheapest first"]
    assert [found.text[slice(*c.span)] for c in found.conditions] == [
        "illinois",
        "cpe",
        "courses",
        "cheapest first",
    ]
    assert found.text_without(1) == "illinois courses cheapest first"
    placed = reading("courses in chicago in december", None)  # the glue before them goes too
    assert [placed.text_without(i) for i in range(3)] == [
        "in chicago in december",
        "courses in december",
        "courses in chicago",
    ]
    assert [placed.glued_span(i) for i in range(3)] == [(0, 7), (8, 18), (19, 30)]  # "in chicago"
    assert reading(found.text_without(1), "offerings").query == "state:IL kind:course sort:fee"
    assert found.understood and not found.words


def test_a_word_both_ways_takes_the_reading_the_data_has_and_offers_the_other() -> None:
    washington = reading("washington", "offerings")  # a city in DC, and a state
    assert washington.query == "city:Washington"
    assert washington.conditions[0].other == "state:WA"
    tax = reading("tax", "webinars")
    assert tax.query == "topic:tax" and tax.conditions[0].other == "tax"


def test_the_other_reading_of_a_place_or_a_series_is_offered_in_words() -> None:
    washington = reading("anything in washington", "offerings")
    assert washington.offered_other() == (0, "Washington (state)")
    assert washington.with_other(0) == "anything in state:WA"
    assert reading("washington state", "offerings").conditions[0].label == "Washington (state)"
    assert reading("boot camp", "offerings").offered_other() == (0, "the series “boot camp”")
    assert reading("tax", "webinars").offered_other() is None  # a topic's word: "these words instead"


def test_a_typo_one_edit_from_a_known_value_is_read_as_it_and_said() -> None:
    found = reading("chicgo cpe", "offerings")
    assert found.query == "city:Chicago cpe:yes"
    assert found.suggestion == "Did you mean Chicago?"
    assert found.conditions[0].other == "chicgo"
    assert reading("okafr webinars").query == "expert:okafor kind:webinars"
    assert reading("hipaa").suggestion is None
    assert (reading("illinios").query, reading("illinios").suggestion) == (
        "state:IL",
        "Did you mean Illinois?",
    )
    webinars = reading("webinrs next week", "offerings")  # a kind word corrected: that kind's dates
    assert (webinars.query, webinars.table) == ("kind:webinar starts:next-week", None)
    webinars = reading("webinrs next week", "courses")  # (elsewhere it names the tab)
    assert (webinars.query, webinars.table) == ("kind:webinars starts:next-week", "webinars")
    assert reading("febuary", "offerings").query == "starts:2027-02"


def test_literal_reads_nothing() -> None:
    found = read("illinois cpe", lexicon(), NOW, literal=True)
    assert (found.query, found.literal, found.conditions, found.words) == (
        "illinois cpe",
        True,
        (),
        ("illinois", "cpe"),
    )


def test_an_empty_lexicon_still_reads_what_needs_no_data() -> None:
    found = read("illinois cpe courses in march under $1,500 cheapest first", Lexicon(), NOW)
    assert found.query == "state:IL cpe:yes kind:courses starts:2027-03 fee:<1500 sort:fee"
    assert read("chicago", Lexicon(), NOW).query == "chicago"


def test_what_does_not_parse_is_kept_as_typed() -> None:
    for text in ('"unclosed', "fee:abc", "a OR", "-"):
        found = reading(text)
        assert found.query == text and not found.conditions


def test_the_lexicon_is_built_from_the_finders_tables() -> None:
    lex = lexicon()
    assert {"Chicago", "San Francisco", "Washington"} <= lex.cities
    assert lex.states["IL"] == 5 and "Patrick O'Donnell" in lex.experts
    assert ("topic", "Privacy and Data Protection") in lex.titles
    assert ("role", "Paralegal") in lex.titles and ("venue", "The Drake Conference Center") in lex.titles


# -- properties ------------------------------------------------------------------------------------

PHRASES = [  # "|" between the parts glue may go between
    "texas|courses|under 1500",
    "chicago|december",
    "cle|webinars|by margaret okafor",
    "courses|new york|april 2027",
    "live|webinars|this week",
    "tax|webinars|under $200",
    "ethics|cle|washington dc",
    "on demand|webinars|about privacy",
    "experts|with more than 3 courses",
    "cheapest|cpe|course|dallas",
    "atlanta|mar 2027",
    "webinars|without experts",
    "illinois|cpe|next month",
    "between march and may|cle",
    "patrick o'donnell|live",
    "year end close|webinars",
    "paralegals|under 200",
    "topics|used by more than 9 webinars",
    "courses|not in any certificate",
    "stone hartley|cle",
]
GLUE = ["show me", "any", "the", "in", "for", "with", "on", "what's on", "please"]
TABLES = [None, "offerings", "courses", "webinars", "series", "experts", "topics", "certificates"]


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(PHRASES),
    st.sampled_from(TABLES),
    st.lists(st.tuples(st.integers(0, 12), st.sampled_from(GLUE)), max_size=2),
    st.sampled_from(["", "?", " ?", "!"]),
    st.sampled_from([str.lower, str.title, str, "upper"]),
)
@example("courses|not in any certificate", "experts", [(0, "with")], "", str)  # (Hypothesis found it)
@example("courses|new york|april 2027", "experts", [(0, "with")], "", str)  # (and these two)
@example("live|webinars|this week", "experts", [(1, "with")], "", str.lower)
def test_glue_case_and_punctuation_never_change_a_reading(
    phrase: str, table: str | None, glue: list[tuple[int, str]], end: str, case: object
) -> None:
    words = phrase.split("|")
    for at, word in sorted(glue, reverse=True):
        if "what's" in word and table not in (None, "offerings"):
            continue  # "what's on" names the Dates tab
        words.insert(min(at, len(words)), word)
    typed = " ".join(words)
    # in capitals, a postal code that is also a word is the state ("in OH", "IN") and NOT the
    # language's operator: all else may be in capitals
    if case == "upper":
        typed = " ".join(w.upper() if len(w) > 2 and w != "not" else w for w in typed.split())
    else:
        typed = case(typed)  # type: ignore[operator]
    typed += end
    assert _meaning(reading(typed, table)) == _meaning(reading(phrase.replace("|", " "), table)), typed


def _meaning(found: Reading) -> tuple[object, ...]:
    """A reading's query (free words in any case: the language ignores it), tab and order."""
    query = " ".join(w for w in found.query.lower().split() if w != "kind:dates")
    return (query, found.table if found.table != "offerings" else None, found.sort)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(PHRASES), st.sampled_from(TABLES))
def test_a_reading_of_its_equivalent_query_is_itself(phrase: str, table: str | None) -> None:
    first = reading(phrase.replace("|", " "), table)
    again = reading(first.query, table)
    assert (again.query, again.table, again.sort) == (first.query, first.table, first.sort)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(PHRASES), st.sampled_from(TABLES[1:]))
def test_the_engine_and_the_reference_agree_on_every_reading(phrase: str, table: str) -> None:
    query = reading(phrase.replace("|", " "), table).query
    outcome = _finder().evaluate(query, table, NOW)
    got = None if outcome.missing else outcome.rows
    assert got == Reference(demo_facts(), NOW).ids(query, table), (phrase, query, table)


@cache
def _finder() -> object:
    return finder_of(demo_facts())


WORDS = [
    *" ".join(PHRASES).replace("|", " ").split(),
    "OR",
    "AND",
    "NOT",
    "-",
    "(",
    ")",
    '"',
    "fee:<300",
    "?",
]


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=40),
        st.lists(st.sampled_from(WORDS), max_size=10).map(" ".join),
    ),
    st.sampled_from(TABLES),
)
def test_reading_never_raises_and_its_query_parses_or_is_the_text(text: str, table: str | None) -> None:
    found = reading(text, table)
    assert found.query == text or parse(found.query).ok, (text, found.query)
    for condition in found.conditions:
        start, end = condition.span
        assert 0 <= start < end <= len(text)


@pytest.mark.parametrize(
    "text",
    [
        "illinois cpe",
        '"san francisco" march',
        "chicago OR dallas fee:<300",
        "city:(chicago OR dallas) -tax",
        "what's on?",
    ],
)
def test_a_literal_query_keeps_its_words_from_being_read(text: str) -> None:
    from catalogue_desktop.core.query.reading import literal_query
    from catalogue_desktop.core.query.syntax import walk

    query = literal_query(text)
    assert reading(query).query == query  # nothing in it is read
    assert [str(t.value) for t in walk(parse(query).root)] == [str(t.value) for t in walk(parse(text).root)]
    assert "word:" in query and parse("word:chicago").root == parse("chicago").root.__class__(
        None, "word", "chicago", 0, 12
    )


@pytest.mark.parametrize(
    "formal",
    [
        'cle:yes topic:="Ethics and Professional Responsibility"',  # a facet's click writes this
        'title:="Boot Camp"',
        'city:"san francisco" fee:<= 900',
        'expert:"o\'donnell" -topic:="Tax"',
        'series:("estate planning" OR "employment law")',
    ],
)
def test_a_quoted_value_of_a_field_is_the_fields_whatever_its_operator(formal: str) -> None:
    """``field:="…"`` is read as written, as ``field:"…"`` is (it was read again as a topic)."""
    for table in TABLES:
        assert read(formal, lexicon(), NOW, table=table).query == formal


@pytest.mark.parametrize(
    ("typed", "query"),
    [
        ("ethics webinars for CPAs", "topic:ethics kind:webinar cpe:yes"),
        ("courses for attorneys in texas", "kind:course cle:yes state:TX"),
        ("webinars with both cle and cpe", "kind:webinar cle:yes cpe:yes"),
    ],
)
def test_who_needs_a_credit_names_it_and_both_is_glue(typed: str, query: str) -> None:
    assert read(typed, lexicon(), NOW, table="offerings").query == query


def test_a_course_title_word_for_every_kind_stays_a_word() -> None:
    """``find lease`` (no kind): the word, found in the course's title and everywhere else; read
    as ``course:lease`` it kept only the certificates naming such a course."""
    for table in (None, "offerings"):
        found = read("lease", lexicon(), NOW, table=table)
        assert found.query == "lease" and not found.conditions, (table, found.query)
