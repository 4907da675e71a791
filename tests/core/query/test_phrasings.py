"""The phrasing suite: questions as sales people and staff type them, written by someone who had
not read the reading's rules, each with the formal query it means (``phrasings.json``, copied from
the writer's ``suite.json``; a third more are kept aside to score the rules afterwards).

For each: the typed words are read on the tab the person starts on, as the window reads them
(``read_on_tab``); the tab shown must be the one the writer meant (on Dates, a kind of date stays
there: ``meant``), its rows under the reading's equivalent query those of the writer's query (both
evaluated by the reference evaluator, on the demo catalogue), and the order the one asked for.

Two more sets joined it once the rules were written: the writer's kept-aside third
(``phrasings_kept_aside.json``; 61 of 71 read right when first scored blind) and a second writer's
75 questions, written after the rules were generalised (``phrasings_second_writer.json``; 66 of 75
blind), then a third writer's 60 on the final rules (``phrasings_third_writer.json``; 59 of 60
blind). Each must stay at 9 in 10 or better."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.query.lexicon import Lexicon
from catalogue_desktop.core.query.reading import read_on_tab
from catalogue_desktop.core.query.syntax import parse
from tests.core.query.catalogues import demo_facts, finder_of
from tests.core.query.reference import Reference

NOW = datetime(2026, 11, 28, 12, 0, tzinfo=UTC)  # the day the writer checked relative dates on
SUITE = Path(__file__).with_name("phrasings.json")
ORDERS = {"cheapest": "fee", "most-expensive": "-fee", "soonest": "starts", "latest": "-starts"}
REQUIRED = 0.90


@cache
def lexicon() -> Lexicon:
    return Lexicon.from_finder(finder_of(demo_facts()))


# On the Dates tab a kind of date is a filter, not the tab to show (issue 39: offers are made from
# Dates): where a writer starting on Dates meant Courses or Webinars, Dates stays, showing the dates
# of the courses or webinars the writer's query means.
_DATE_KINDS = {"courses": "course", "webinars": "webinar"}


def meant(entry: dict[str, Any], reference: Reference) -> tuple[str, str]:
    """The tab and the query (on it) the writer of ``entry`` meant, as the window shows them (a
    field the dates lack, as ``no:access``: the writer's tab)."""
    kind = _DATE_KINDS.get(entry["tab"])
    if entry["start"] == "offerings" and kind is not None:
        on_dates = f"kind:{kind} ({entry['formal']})"
        if reference.ids(on_dates, "offerings") is not None:
            return "offerings", on_dates
    return entry["tab"], entry["formal"]


def failure(entry: dict[str, Any], reference: Reference) -> str | None:
    """Why the window's reading of ``entry`` is not what its writer meant (None: it is)."""
    reading = read_on_tab(entry["typed"], lexicon(), NOW, entry["start"])
    shown = reading.table or entry["start"]
    said = f"{entry['id']} {entry['typed']!r} read as {reading.query!r} on {shown}"
    tab, formal = meant(entry, reference)
    if shown != tab:
        return f"{said}: the tab should be {tab}"
    if not parse(reading.query).ok:
        return f"{said}: the query does not parse"
    got, want = reference.ids(reading.query, shown), reference.ids(formal, shown)
    if got != want:
        return f"{said}: rows {got} where {formal!r} gives {want}"
    wanted_order = ORDERS.get(entry.get("order") or "")
    if wanted_order is not None and reading.sort != wanted_order:
        return f"{said}: the order should be sort:{wanted_order}"
    return None


@pytest.mark.parametrize(
    ("name", "least"),
    [
        ("phrasings.json", 100),
        ("phrasings_kept_aside.json", 70),
        ("phrasings_second_writer.json", 75),
        ("phrasings_third_writer.json", 60),
    ],
)
def test_the_phrasing_suite_reads_as_its_writer_meant(name: str, least: int) -> None:
    suite = json.loads(SUITE.with_name(name).read_text(encoding="utf-8"))
    assert len(suite) >= least
    reference = Reference(demo_facts(), NOW)
    for entry in suite:  # the writer's queries are real answers: each parses and names a tab
        assert reference.ids(entry["formal"], entry["tab"]) is not None, entry
    failures = [f for f in (failure(e, reference) for e in suite) if f is not None]
    score = 1 - len(failures) / len(suite)
    print(f"{name}: {len(suite) - len(failures)} of {len(suite)} ({score:.1%})")
    assert score >= REQUIRED, f"{score:.1%} read as meant (>= {REQUIRED:.0%} needed):\n" + "\n".join(failures)
