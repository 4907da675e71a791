"""The reading of plain words made general (issue 36, after the phrasing suite): what a hurried
sales person types on any tab, in words the suite never had: a state named with "state", parts of
a year or month, filler words, joined words, title phrases, what a certificate or series holds,
the absence of any field by its words, vague price words, and more (shorthands, countries, days,
weekends, deadlines). Each phrase is checked twice: its equivalent query, and that the query
finds on the demo catalogue what the meant query finds (the reference evaluator)."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import cache

import pytest

from catalogue_desktop.core.query.lexicon import Lexicon
from catalogue_desktop.core.query.reading import Reading, read
from catalogue_desktop.core.query.syntax import parse
from tests.core.query.catalogues import demo_facts, finder_of
from tests.core.query.reference import Reference

NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)  # a Saturday


@cache
def lexicon() -> Lexicon:
    return Lexicon.from_finder(finder_of(demo_facts()))


@cache
def reference() -> Reference:
    return Reference(demo_facts(), NOW)


def reading(text: str, table: str | None) -> Reading:
    return read(text, lexicon(), NOW, table=table)


# (on Dates, "courses" and "webinars" are the dates of that kind: the tab stays, issue 39)
CASES = [
    # 1. a state named with "state"; a name that is a city and a state: the data decides
    ("washington state", "offerings", "state:WA", None),
    ("new york state", "offerings", "state:NY", None),
    ("the state of texas", "offerings", "state:TX", None),
    ("courses in the state of new york", "offerings", "kind:course state:NY", None),
    ("all courses in new york state", "courses", "kind:courses state:NY", None),
    ("washington dc courses", "offerings", "state:DC kind:course", None),
    ("d.c.", "offerings", "state:DC", None),
    # 2. parts of a year, a month, a season
    ("early 2027", "offerings", "starts:2027-01..2027-06", None),
    ("mid 2027", "offerings", "starts:2027-04..2027-09", None),
    ("late 2027", "offerings", "starts:2027-07..2027-12", None),
    ("end of 2027", "offerings", "starts:2027-07..2027-12", None),
    ("first half of 2027", "offerings", "starts:2027-01..2027-06", None),
    ("second half of 2027", "offerings", "starts:2027-07..2027-12", None),
    ("beginning of march", "offerings", "starts:2027-03-01..2027-03-15", None),
    ("end of january", "offerings", "starts:2027-01-16..2027-01-31", None),
    ("mid march", "offerings", "starts:2027-03-08..2027-03-22", None),
    ("late spring", "offerings", "starts:2027-05..2027-05", None),
    ("early next year", "offerings", "starts:2027-01..2027-06", None),
    # 3. filler words
    ("everything in texas", "courses", "state:TX", None),
    ("courses available in texas", "courses", "kind:courses state:TX", None),
    ("do you have anything in chicago", "offerings", "city:Chicago", None),
    ("i need cle courses pls", "offerings", "cle:yes kind:course", None),
    ("looking for stuff in boston thanks", "offerings", "city:Boston", None),
    ("can you find me webinars on ethics", "offerings", "kind:webinar topic:ethics", None),
    ("list all live webinars", "webinars", "type:live kind:webinars", None),
    ("any options in denver?", "offerings", "city:Denver", None),
    # 4. joined words
    ("cle+cpe", "webinars", "cle:yes cpe:yes", None),
    ("cle/cpe webinars", "offerings", "cle:yes cpe:yes kind:webinar", None),
    ("cpe&cle", "webinars", "cpe:yes cle:yes", None),
    ("cle-cpe", "webinars", "cle:yes cpe:yes", None),
    ("ca/ny", "offerings", "(state:CA OR state:NY)", None),
    ("chicago/boston courses", "offerings", "(city:Chicago OR city:Boston) kind:course", None),
    ("$500-$1000", "offerings", "fee:500..1000", None),
    ("500-1000", "courses", "fee:500..1000", None),
    ("ethics & cle", "offerings", "topic:ethics cle:yes", None),
    # 5. title phrases
    ("lease accounting", "offerings", '"lease accounting"', None),
    ("boot camp", "offerings", '"boot camp"', None),
    ("generative ai", "webinars", '"generative ai"', None),
    ("webinars on lease accounting", "offerings", 'kind:webinar "lease accounting"', None),
    ("series about generative ai", None, 'kind:series title:"generative ai"', "series"),
    ("year end close", "offerings", 'situation:"year-end close"', None),
    # 6. what a certificate or series holds
    ("in the forensic accounting certificate", "courses", 'certificate:"forensic accounting"', None),
    (
        "courses part of the forensic accounting certificate",
        "courses",
        'kind:courses certificate:"forensic accounting"',
        None,
    ),
    (
        "forensic accounting certificate courses",
        "courses",
        'certificate:"forensic accounting" kind:courses',
        None,
    ),
    ("in the audit quality boot camp series", "offerings", 'series:"audit quality boot camp"', None),
    ("sessions of estate planning intensive", "offerings", 'series:"estate planning intensive"', None),
    ("multistate series", "offerings", "title:multistate kind:series", "series"),
    # 7. absences by the field's words
    ("without a session id", "webinars", "no:session", None),
    ("no session id", "webinars", "no:session", None),
    ("missing description", "courses", "no:description", None),
    ("description missing", "courses", "no:description", None),
    ("no image", "certificates", "no:image", None),
    ("experts with no headshot", "experts", "kind:experts no:image", None),
    ("without a detail page", "webinars", "no:url", None),
    ("no end date", "courses", "no:ends", None),
    ("webinars w/o access link", "webinars", "kind:webinars no:access", None),
    ("no production date", "webinars", "no:produced", None),
    ("courses with no zip code", "courses", "kind:courses no:zip", None),
    # 8. vague price words: an order; free: no fee
    ("cheap courses", "courses", "sort:fee kind:courses", None),
    ("courses texas cheap", "courses", "kind:courses state:TX sort:fee", None),
    ("inexpensive cpe", "offerings", "sort:fee cpe:yes", None),
    ("affordable webinars", "webinars", "sort:fee kind:webinars", None),
    # (a seminar is any date, a course's or a webinar's: a fresh-eyes sales user missed the tax
    # webinar under "tax seminars", stop 51; the dates tab shows them)
    ("low cost seminars in chicago", "courses", "sort:fee kind:dates city:Chicago", "offerings"),
    ("premium courses", "courses", "sort:-fee kind:courses", None),
    ("expensive", "courses", "sort:-fee", None),
    ("free webinars", "webinars", "fee:0 kind:webinars", None),
    ("cheap experts", "experts", "kind:experts", None),  # no fee: the word cannot narrow
    # 9. more of the same kinds
    ("nyc courses", "offerings", 'city:"New York" kind:course', None),
    ("courses in mar.", "offerings", "kind:course starts:2027-03", None),
    ("Mar. 2027", "offerings", "starts:2027-03", None),
    ("march 3rd", "offerings", "starts:2027-03-03", None),
    ("the 3rd of march", "offerings", "starts:2027-03-03", None),
    ("dec 9", "offerings", "starts:2026-12-09", None),
    ("this weekend", "offerings", "starts:2026-11-28..2026-11-29", None),
    ("next weekend", "offerings", "starts:2026-12-05..2026-12-06", None),
    ("in two weeks", "offerings", "starts:next2w", None),
    ("within 60 days", "offerings", "starts:next60d", None),
    ("cle before christmas", "offerings", "cle:yes starts:2026-11-28..2026-12-24", None),
    ("courses by year end", "offerings", "kind:course starts:2026-11-28..2026-12-31", None),
    ("in tx", "offerings", "state:TX", None),
    ("courses in il", "offerings", "kind:course state:IL", None),
    (
        "courses in canada",
        "offerings",
        "kind:course state:(AB OR BC OR MB OR NB OR NL OR NS OR NT OR NU OR ON OR PE OR QC OR SK OR YT)",
        None,
    ),
    ("courses in the us", "offerings", "kind:course", None),
    ("webinars w/ cpe", "webinars", "kind:webinars cpe:yes", None),
    ("okafor's courses", "offerings", "expert:okafor kind:course", None),
    ("tax and ethics", "webinars", "topic:tax OR topic:ethics", None),
    ("topics with webinars", "topics", "kind:topics webinars:>0", None),
    ("popular webinars", "webinars", "kind:webinars", None),
    ("cle ethics credits", "offerings", "cle:yes topic:ethics", None),
    ("12/2026", "offerings", "starts:2026-12", None),
    ("winter", "offerings", "starts:2026-12..2027-02", None),
    ("next couple of weeks", "offerings", "starts:next2w", None),
    ("early next month", "offerings", "starts:2026-12-01..2026-12-15", None),
    ("rest of the year", "offerings", "starts:2026-11-28..2026-12-31", None),
    ("this coming week", "offerings", "starts:next-week", None),
    ("jan-mar", "offerings", "starts:2027-01..2027-03", None),
    ("Q1-Q2", "offerings", "starts:2027-Q1..2027-Q2", None),
    ("webinars around $200", "webinars", "kind:webinars fee:160..240", None),
    ("multistate", "offerings", "multistate", None),  # a series' word that titles of dates have
    ("lifecycle", "offerings", "series:lifecycle", None),  # one they lack: the series
    ("course fees under 1200", "courses", "kind:courses fee:<1200", None),
    ("courses priced below 900", "courses", "kind:courses fee:<900", None),
    ("webinars costing under 150", "webinars", "kind:webinars fee:<150", None),
    ("outside of texas", "offerings", "-state:TX", None),
    ("no recordings", "webinars", "ondemand:no", None),
    ("courses offered in multiple cities", "courses", "kind:courses locations:>1", None),
    ("experts that have bios", "experts", "kind:experts has:bio", None),
    ("webinars with access links", "webinars", "kind:webinars has:access", None),
    ("courses ending in march", "courses", "kind:courses ends:2027-03", None),
    ("march 1 to march 15", "offerings", "starts:2027-03-01..2027-03-15", None),
    ("from 3/1 to 3/15", "offerings", "starts:2027-03-01..2027-03-15", None),
    ("after march 15", "offerings", "starts:2027-03-15..", None),
    ("before 2027", "offerings", "starts:..2026", None),
    ("monday", "offerings", "starts:2026-11-30", None),
    ("webinars next tuesday", "webinars", "kind:webinars starts:2026-12-01", None),
    (
        "certificates that include trial advocacy",
        "certificates",
        'kind:certificates course:"trial advocacy"',
        None,
    ),
    ("topics with the most webinars", "topics", "kind:topics sort:-webinars", None),
    ("margaret's webinars", "webinars", "margaret kind:webinars", None),  # a possessive, not a plural
]


@pytest.mark.parametrize(("typed", "table", "query", "shown"), CASES)
def test_a_hurried_sales_persons_words_are_read_right(
    typed: str, table: str | None, query: str, shown: str | None
) -> None:
    found = reading(typed, table)
    assert (found.query, found.table or table) == (query, shown or table), typed
    assert parse(found.query).ok
    again = reading(found.query, table)  # the reading of the equivalent query is itself
    assert (again.query, again.table) == (found.query, found.table)


def test_there_are_sixty_new_phrasings_and_more() -> None:
    assert len(CASES) >= 60


@pytest.mark.parametrize(
    ("typed", "table", "meant"),
    [
        ("washington state", "offerings", "state:WA"),
        ("lease accounting", "offerings", "title:lease title:accounting"),
        ("boot camp", "offerings", 'title:"boot camp" OR series:"boot camp"'),
        ("in the forensic accounting certificate", "courses", 'certificate:"forensic accounting"'),
        ("early 2027", "offerings", "starts:2027-01..2027-06"),
        ("cle/cpe", "webinars", "cle:yes cpe:yes"),
        ("ca/ny", "offerings", "state:CA OR state:NY"),
        ("webinars without a session id", "webinars", "no:session"),
        # a fresh-eyes sales user's questions (stop 51) and what they meant
        ("tax seminars this quarter", "offerings", "topic:tax starts:this-quarter"),
        ("tax seminars", "courses", "topic:tax"),
        ("online ethics training in december", "offerings", "no:location topic:ethics starts:2026-12"),
    ],
)
def test_what_the_reading_finds_is_what_was_meant(typed: str, table: str, meant: str) -> None:
    found = reading(typed, table)
    got = reference().ids(found.query, found.table or table)
    want = reference().ids(meant, found.table or table)
    assert got == want and got, (typed, found.query, got, want)


def test_a_name_both_a_city_and_a_state_takes_the_city_the_data_has_and_offers_the_state() -> None:
    found = reading("courses in washington", "offerings")
    assert found.query == "kind:course city:Washington"
    assert found.conditions[-1].other == "state:WA"


def test_a_title_phrase_offers_the_series_reading() -> None:
    found = reading("boot camp", "offerings")
    assert found.conditions[0].other == 'series:"boot camp"'


def test_a_vague_price_word_is_an_order_said_in_words() -> None:
    found = reading("cheap cpe courses", "offerings")
    assert found.sort == "fee" and "cheapest first" in [c.label for c in found.conditions]
    assert not found.words


def test_a_filler_word_the_catalogue_uses_is_never_dropped() -> None:
    from catalogue_desktop.core.query.lexicon import STOP
    from catalogue_desktop.core.query.rules import FILLER

    titles = lexicon().index.at_word
    used = [w for w in FILLER if len(w) == 1 and w[0] in titles and w[0] not in STOP]
    assert used  # ("all", "current" ... are in the demo's titles)
    alone = reading("chicago", "offerings").query
    for (word,) in used:  # a word a title has is read as a title's, or stays a word to find
        assert reading(f"{word} chicago", "offerings").query != alone, word


def test_the_lexicon_keeps_the_titles_phrases() -> None:
    phrases = lexicon().phrases
    assert phrases["offerings"][("lease", "accounting")] == "lease accounting"
    assert phrases["webinars"][("year", "end", "close")] == "year-end close"
    assert ("boot", "camp") in phrases["series"]


@pytest.mark.parametrize(
    "typed",
    [
        "courses with more than 2 days in new york",  # a fresh-eyes sales user's question (stop 51)
        "webinars with 2 cpe credits",
        "under 3 hours",
        "between 2 and 3 days",
        "over 20 attendees",
    ],
)
def test_a_number_that_counts_something_else_is_not_a_fee(typed: str) -> None:
    found = reading(typed, "offerings")
    assert "fee:" not in found.query and not any("$" in c.label for c in found.conditions), found.query
