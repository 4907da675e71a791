"""Catalogues the finder's tests run on: the demo sample and a synthetic one, as facts (decoded
once per test session), and a finder over them."""

from __future__ import annotations

from functools import cache
from typing import Any

from catalogue_desktop.core.listing.facts import facts
from catalogue_desktop.core.query import offerings
from catalogue_desktop.core.query.engine import Finder, Vocabulary
from catalogue_desktop.core.query.table import TableBuilder
from catalogue_desktop.core.records.decode import decode_collection
from catalogue_desktop.core.records.kinds import Kind

Facts = dict[str, list[dict[str, Any]]]


def facts_of(payloads: dict[Kind, bytes]) -> Facts:
    out: Facts = {}
    for kind, payload in payloads.items():
        decoded = decode_collection(kind, payload)
        out[kind.value] = [facts(kind, record) for _pos, record in decoded.records]
    return out


@cache
def demo_facts() -> Facts:
    from catalogue_desktop.demo.server import load_sample

    return with_offerings(facts_of(load_sample()))


@cache
def synthetic_facts(size: int = 400, seed: int = 5) -> Facts:
    from catalogue_desktop.demo.synthetic import generate

    return with_offerings(facts_of(generate(size, seed)))


def with_offerings(catalogue: Facts, vocabulary: Vocabulary | None = None) -> Facts:
    """``catalogue`` and its offerings (one dict per occasion, as ``core.query.offerings`` makes them)."""
    finder = finder_of({k: v for k, v in catalogue.items() if k != offerings.OFFERINGS}, vocabulary)
    found = offerings.columns(finder.tables, finder.vocabulary)
    return {**catalogue, offerings.OFFERINGS: offerings.as_facts(found)}


def finder_of(catalogue: Facts, vocabulary: Vocabulary | None = None, page: int = 97) -> Finder:
    """A finder over ``catalogue``, its tables built as the window builds them: pages of facts;
    the offerings made from its courses, series and webinars."""
    finder = Finder(vocabulary)
    for name, rows in catalogue.items():
        if name == offerings.OFFERINGS:
            continue
        builder = TableBuilder(name)
        for start in range(0, len(rows), page):
            builder.add(rows[start : start + page])
        finder.set_table(builder.finish())
    offerings.rebuild(finder)
    return finder
