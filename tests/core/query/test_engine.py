"""The finder's engine against a plain evaluation (``reference``), record by record, on the demo
catalogue and a synthetic one: hundreds of generated queries, every table, two clocks."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalogue_desktop.core.query import bits
from catalogue_desktop.core.query.engine import Vocabulary
from catalogue_desktop.core.query.fields import FIELDS, FieldType
from catalogue_desktop.core.query.folding import fold
from catalogue_desktop.core.query.syntax import parse, quote
from catalogue_desktop.core.query.timeline import HistoryIndex, TimedEvent
from tests.core.query.catalogues import Facts, demo_facts, finder_of, synthetic_facts, with_offerings
from tests.core.query.reference import CHILD_KEY, Reference

NOWS = (
    datetime(2026, 11, 24, 12, 0, tzinfo=UTC),
    datetime(2027, 3, 1, 23, 30, tzinfo=timezone(timedelta(hours=-8))),
)
DATES = (
    "2026",
    "2027",
    "2027-03",
    "2027-3",
    "2027-03-15",
    "2026-12-09",
    "today",
    "tomorrow",
    "this-week",
    "next-week",
    "this-month",
    "next-month",
    "last-month",
    "next7d",
    "next30d",
    "next3m",
    "last30d",
    "past",
    "future",
    "next1y",
    "this-year",
    "march",
    "sept",
    "mar-2027",
    "2027-february",
    "2027-Q1",
    "q4-2026",
    "this-quarter",
    "next-quarter",
    "last-quarter",
)
OPS = ("", "<", "<=", ">", ">=", "=")
TIME_CLAUSES = [
    "added:last7d",
    "added:this-month",
    "added:2026-11",
    "changed:last30d",
    "changed:last2w",
    "changed:yesterday",
    "changed:2026-10..2026-11",
    "changed:..2026-10-15",
    "changed:fee",
    "changed:fee@last30d",
    "changed:city@this-month",
    "changed:starts@2026-11",
    "changed:title@last3m",
    "changed:locations",
    "changed:expert@last7d",
    "removed:last30d",
    "removed:this-year",
]


@cache
def history_of(which: str, table: str) -> dict[Any, list[TimedEvent]]:
    """Made-up history for a catalogue's table: 0-3 events per record over the ~200 days around
    the tests' clocks, each change of a few of the table's fields."""
    catalogue = demo_facts() if which == "demo" else synthetic_facts()
    rng = random.Random(f"{which}/{table}")
    names = [f.name for f in FIELDS[table]]
    base = int(datetime(2026, 6, 1, tzinfo=UTC).timestamp() * 1000)
    found: dict[Any, list[TimedEvent]] = {}
    for rec in catalogue[table]:
        events = found.setdefault(rec.get("id"), [])
        for _ in range(rng.choice((0, 0, 1, 2, 3))):
            change = rng.choice(("added", "changed", "changed", "removed"))
            touched = frozenset(rng.sample(names, 2)) if change == "changed" else frozenset()
            events.append(TimedEvent(rec.get("id"), base + rng.randrange(300 * 86_400_000), change, touched))
    return found


def with_history(finder: Any, which: str) -> Any:
    for name, t in finder.tables.items():
        if name != "offerings":
            events = [e for evs in history_of(which, name).values() for e in evs]
            t.history = HistoryIndex(t.ids, events)
    return finder


def _values(catalogue: Facts, table: str, key: str, child: bool) -> list[Any]:
    out: list[Any] = []
    for rec in catalogue.get(table, ()):
        items = [k for k in rec.get(CHILD_KEY.get(table, ""), ())] if child else [rec]
        for item in items:
            value = item.get(key)
            out.extend(value if isinstance(value, list) else [value])
    return [v for v in out if v is not None]


@cache
def clause_pool(which: str) -> list[str]:
    """Clauses drawn from the catalogue's own values, for every table's every field."""
    catalogue = demo_facts() if which == "demo" else synthetic_facts()
    rng = random.Random(which)
    pool: list[str] = [
        "tax",
        "TAX",
        "muller",
        "zzz",
        "a",
        "e",
        "2027",
        "live",
        "dallas",
        "partner",
        '"estate planning"',
        "c.p.a",
        "&",
        "50007",
        "o'",
        "7001",
    ]
    for table, fields in FIELDS.items():
        for f in fields:
            if f.key.startswith("@"):
                values: list[Any] = ["a", "e", "tax", "0", "1", "3", "series", "course"]
            else:
                values = _values(catalogue, table, f.key, f.scope != "record")
            name = rng.choice(f.names)
            name = name.upper() if rng.random() < 0.2 else name
            pool += [f"has:{name}", f"no:{name}"]
            sample = rng.sample(values, min(6, len(values))) if values else []
            if f.type in (FieldType.TEXT, FieldType.NAMES):
                for v in sample:
                    text = str(v)
                    words = re.findall(r"\w+", text) or [text]
                    word = rng.choice(words)
                    piece = word[: rng.randint(1, max(1, len(word)))]
                    pool += [f"{name}:{quote(piece)}", f"{name}:={quote(text)}", quote(piece)]
                pool += [f"{name}:tax", f"{name}:(a OR e)"]
            elif f.type in (FieldType.ID, FieldType.NUMBER, FieldType.MONEY):
                digits = [str(v) for v in sample if str(v).replace(".", "").isdigit()]
                numbers = [int(Decimal(v)) for v in digits] or [0, 3]
                for v in numbers:
                    pool += [
                        f"{name}:{rng.choice(OPS)}{v}",
                        f"{name}:{v}..{v + rng.randint(0, 300)}",
                        f"{name}:..{v}",
                        f"{name}:{v}..",
                    ]
                if f.type is FieldType.MONEY:
                    pool += [f"{name}:<$1,300", f"{name}:(<200 OR >400)", f"{name}:99.50.."]
            elif f.type is FieldType.DATE:
                for spec in rng.sample(DATES, 6):
                    pool.append(f"{name}:{rng.choice(OPS[:5])}{spec}")
                pool += [f"{name}:2027-01..2027-03", f"{name}:today..next30d", f"{name}:..2026-12"]
            elif f.type is FieldType.BOOL:
                pool += [f"{name}:yes", f"{name}:no", f"{name}:TRUE"]
            elif f.type is FieldType.CODE:
                pool += [f"{name}:{v}" for v in sample[:3]] + [
                    f"{name}:live",
                    f'{name}:"on demand"',
                    f"{name}:>1",
                    f"{name}:1..2",
                    f"{name}:7",
                ]
    pool += [*list(DATES[:8]), "2027-04", "past", "future", "mar-2027", "2027-Q1", "next-quarter"]
    pool += ['starts:"march 2027"', "starts:jan..mar", "state:illinois", "state:IL", "state:il"]
    pool += ['state:"new york"', "state:tennessee", "state:ontario", "feldman ethics"]
    pool += ["kind:course", "kind:webinars", "kind:dates", "kind:session", "kind:expert", "kind:Series"]
    pool += [*TIME_CLAUSES, "changed:march", "added:2026-Q4", "changed:fee@this-quarter"]
    return sorted(set(pool))


def queries(which: str) -> st.SearchStrategy[str]:
    # (deferred: the pool, and the catalogue it is drawn from, are made when the test runs, not
    # when each xdist worker imports this module to collect it)
    clause = st.deferred(lambda: st.sampled_from(clause_pool(which)))

    def combine(children: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
        return st.one_of(
            st.lists(children, min_size=2, max_size=4).map(" ".join),
            st.lists(children, min_size=2, max_size=3).map(" OR ".join),
            children.map(lambda c: f"-{c}" if not c.startswith("-") else f"NOT {c}"),
            children.map(lambda c: f"({c})"),
        )

    return st.recursive(clause, combine, max_leaves=6)


def check(catalogue: Facts, query: str, now: datetime, vocabulary: Vocabulary | None = None) -> None:
    parsed = parse(query)
    assert parsed.ok, (query, parsed.error)
    finder = cached_finder(id(catalogue), vocabulary)
    which = "demo" if catalogue is demo_facts() else "synthetic"
    if vocabulary is not None:  # offerings know what is on demand
        catalogue = with_offerings(catalogue, vocabulary)
    history = {t: history_of(which, t) for t in catalogue if t != "offerings"}
    reference = Reference(catalogue, now, vocabulary, history)
    for table in FIELDS:
        if table not in catalogue:
            continue
        outcome = finder.evaluate(parsed, table, now)
        got = None if outcome.missing else outcome.rows
        key = (which, vocabulary, query, table)
        want = _TIMELESS.get(key, _UNKNOWN)
        if want is _UNKNOWN:
            reference.read_the_clock = False
            want = reference.ids(query, table)
            if not reference.read_the_clock:
                _TIMELESS[key] = want
        assert got == want, (query, table, now, _diff(got, want))


# The reference's answers it reached without reading its clock: the same at every clock (it is a
# plain function of the facts, query, table, vocabulary, history and clock), so the other clock's
# check compares the engine with it without evaluating every record again (issue 37: the reference
# is 90% of this file's time; most clauses have no date).
_TIMELESS: dict[tuple[str, Vocabulary | None, str, str], list[int] | None] = {}
_UNKNOWN: Any = object()


_FINDERS: dict[Any, Any] = {}


def cached_finder(key: int, vocabulary: Vocabulary | None) -> Any:
    catalogue = {id(demo_facts()): demo_facts(), id(synthetic_facts()): synthetic_facts()}[key]
    found = _FINDERS.get((key, vocabulary))
    if found is None:
        which = "demo" if catalogue is demo_facts() else "synthetic"
        found = _FINDERS[(key, vocabulary)] = with_history(finder_of(catalogue, vocabulary), which)
    return found


def _diff(got: list[int] | None, want: list[int] | None) -> Any:
    if got is None or want is None:
        return got, want
    return {
        "engine only": sorted(set(got) - set(want))[:5],
        "reference only": sorted(set(want) - set(got))[:5],
    }


SLOW = settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SLOW
@given(queries("demo"), st.sampled_from(NOWS))
def test_engine_agrees_with_the_plain_evaluation_on_the_demo(query: str, now: datetime) -> None:
    check(demo_facts(), query, now)


@SLOW
@given(queries("synthetic"), st.sampled_from(NOWS))
def test_engine_agrees_with_the_plain_evaluation_on_a_synthetic_catalogue(query: str, now: datetime) -> None:
    check(synthetic_facts(), query, now)


@pytest.mark.parametrize("which", ["demo", "synthetic"])
def test_every_single_clause_agrees(which: str) -> None:
    catalogue = demo_facts() if which == "demo" else synthetic_facts()
    pool = clause_pool(which)
    assert len(pool) > 500
    for query in pool:
        for now in NOWS:
            check(catalogue, query, now)


def test_other_labels_and_on_demand_codes() -> None:
    vocabulary = Vocabulary({"1": "Recorded", "2": "Live stream", "3": "Hybrid"}, frozenset({"1", "3"}))
    for query in (
        "type:recorded",
        "type:hybrid",
        "live",
        "ondemand:yes",
        "past",
        "future cle:yes",
        "type:3",
        "Type",
        "stream",
    ):
        for now in NOWS:
            check(demo_facts(), query, now, vocabulary)


# -- what a user asks, on the demo catalogue ---------------------------------------------------


def test_same_location_needs_one_location_to_satisfy_every_location_clause() -> None:
    catalogue = demo_facts()
    finder = finder_of(catalogue)
    now = NOWS[0]
    query = "city:dallas starts:2027-04 fee:<1300"
    outcome = finder.evaluate(query, "courses", now)
    courses = catalogue["courses"]
    assert outcome.rows, "the demo has a Dallas course in April under 1,300"
    for row in range(len(courses)):
        good = [
            loc
            for loc in courses[row]["locations"]
            if "dallas" in fold(loc.get("city", ""))
            and loc.get("startDate", "").startswith("2027-04")
            and loc.get("fee", 10**9) < 1300
        ]
        assert (row in outcome.rows) == bool(good)
    # ... and the locations reported are exactly those, so a row can show their date and fee
    child = finder.tables["courses"].child
    hits = bits.to_rows(outcome.child_bits, child.n)
    assert all(
        child.columns["city"][i] == "Dallas" and child.columns["startDate"][i].startswith("2027-04")
        for i in hits
    )
    # a course in Dallas (another month) and in April (another city) is not a match
    loose = finder.evaluate("city:dallas fee:<1300", "courses", now).count
    assert loose > outcome.count or loose == outcome.count


def test_a_table_without_a_field_shows_nothing_and_says_why() -> None:
    finder = finder_of(demo_facts())
    outcome = finder.evaluate("city:dallas", "webinars", NOWS[0])
    assert outcome.count == 0 and outcome.missing == "city"
    assert outcome.message() == "webinars have no field 'city'"
    assert finder.evaluate("session:70003", "courses", NOWS[0]).message() == "courses have no field 'session'"
    assert finder.evaluate("description:tax", "webinars", NOWS[0]).message() == (
        "the description of webinars is not searchable: use has:description or no:description"
    )
    assert finder.evaluate("next30d", "experts", NOWS[0]).message() == "experts have no dates"
    counts = finder.counts("city:dallas", NOWS[0])
    assert counts["courses"] and counts["webinars"] is None


def test_words_ignore_case_and_accents() -> None:
    catalogue = {
        "experts": [
            {"id": 1, "name": "Jürgen Müller"},
            {"id": 2, "name": "Ana Muller"},
            {"id": 3, "name": "Strauß"},
            {"id": 4, "name": "MÜLLER-LÜDENSCHEID"},
        ]
    }
    finder = finder_of(catalogue)
    assert finder.evaluate("muller", "experts", NOWS[0]).rows == [0, 1, 3]
    assert finder.evaluate("MÜLLER", "experts", NOWS[0]).rows == [0, 1, 3]
    assert finder.evaluate("strauss", "experts", NOWS[0]).rows == [2]
    assert finder.evaluate("name:=ana muller", "experts", NOWS[0]).rows == []
    assert finder.evaluate('name:="ana muller"', "experts", NOWS[0]).rows == [1]
    assert finder.evaluate("muller-ludenscheid", "experts", NOWS[0]).rows == [3]


def test_an_empty_query_is_every_row_and_a_broken_one_none() -> None:
    finder = finder_of(demo_facts())
    assert finder.evaluate("  ", "webinars", NOWS[0]).count == len(demo_facts()["webinars"])
    assert finder.evaluate("(tax", "webinars", NOWS[0]).count == 0


def test_clause_counts_show_which_clause_emptied_the_result() -> None:
    finder = finder_of(demo_facts())
    counts = finder.clause_counts("cle:yes fee:<100000 zzzz city:x", "webinars", NOWS[0])
    n = len(demo_facts()["webinars"])
    assert [c for _clause, c in counts][:3] == [
        sum(1 for w in demo_facts()["webinars"] if w.get("cleAccreditation") is True),
        sum(1 for w in demo_facts()["webinars"] if w.get("fee") is not None),
        0,
    ]
    assert counts[3][1] is None and n > 0


def test_a_kinds_plural_on_the_offerings_is_its_occasions() -> None:
    """``kind:courses`` (what ``find`` reads "texas courses under 1500" as) on the Dates tab: the courses'
    occasions, as ``kind:course`` (it was no row at all); ``kind:series``: the sessions."""
    facts = demo_facts()
    finder, reference, now = finder_of(facts), Reference(facts, NOWS[0]), NOWS[0]
    for plural, singular in [("courses", "course"), ("webinars", "webinar"), ("series", "session")]:
        rows = list(finder.evaluate(f"kind:{plural} fee:<1500", "offerings", now).rows)
        assert rows and rows == list(finder.evaluate(f"kind:{singular} fee:<1500", "offerings", now).rows)
        assert rows == reference.ids(f"kind:{plural} fee:<1500", "offerings")


def test_a_webinar_on_the_offerings_is_a_series_session_too() -> None:
    """A session is a webinar (the spec's Series holds Webinar records): ``kind:webinar`` on the
    Dates is the webinars' and the sessions' dates, ``kind:session`` the sessions alone."""
    facts = demo_facts()
    finder, now = finder_of(facts), NOWS[0]
    webinars = set(finder.evaluate("kind:webinar", "offerings", now).rows)
    sessions = set(finder.evaluate("kind:session", "offerings", now).rows)
    alone = set(finder.evaluate('kind:="webinar" -kind:session', "offerings", now).rows)
    assert sessions and sessions < webinars and alone == webinars - sessions


def test_a_kinds_own_name_on_its_tab_is_its_title() -> None:
    """ "patrick o'donnell" reads as ``expert:"o'donnell"``: on the Experts tab, the expert himself
    (it was no row: the Experts tab has no expert field), as ``name:``; a topic's, role's,
    situation's, series' title likewise."""
    facts = demo_facts()
    finder, reference, now = finder_of(facts), Reference(facts, NOWS[0]), NOWS[0]
    for query, same, table in [
        ('expert:"o\'donnell"', 'name:"o\'donnell"', "experts"),
        ("topic:tax", "title:tax", "topics"),
        ("role:partner", "title:partner", "roles"),
        ('series:"boot camp"', 'title:"boot camp"', "series"),
    ]:
        rows = list(finder.evaluate(query, table, now).rows)
        assert len(rows) >= 1 and rows == list(finder.evaluate(same, table, now).rows), query
        assert rows == reference.ids(query, table)
