"""Watched searches' news worked out on tables already built (the window's finder), a search
at a time: ``news_steps`` yields after each one, so that a caller on an event loop never holds it
long (20 searches at 100,000 webinars: bench/bench_history.py)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from catalogue_desktop.core.cache.saved_searches import SavedSearch
from catalogue_desktop.core.query import bits
from catalogue_desktop.core.query.syntax import parse
from catalogue_desktop.core.watch.news import News, Touched, compare, kinds_of


def matches_in(finder: Any, search: SavedSearch, now: datetime) -> dict[str, list[int]]:
    """What ``search`` matches now in ``finder``'s tables (an ``engine.Finder``), per kind: ids
    in the tables' order; a kind without a table (never synced) or lacking a field, none."""
    parsed = parse(search.query)
    found: dict[str, list[int]] = {}
    if not parsed.ok:
        return found
    for kind in kinds_of(search):
        table = finder.tables.get(kind.value)
        if table is None:
            continue
        outcome = finder.evaluate(parsed, kind.value, now)
        if outcome.missing is None:
            found[kind.value] = list(bits.pick(table.ids, outcome.bits))  # type: ignore[arg-type]
    return found


def news_steps(
    finder: Any, store: Any, searches: Iterable[SavedSearch], now: datetime, out: list[News]
) -> Iterator[None]:
    """Each watched search's news appended to ``out``, yielding after each search."""
    touched = Touched(store)
    for search in searches:
        if search.watched:
            out.append(compare(search, matches_in(finder, search, now), touched))
            yield


def news_in(finder: Any, store: Any, searches: Iterable[SavedSearch], now: datetime) -> list[News]:
    """``news_steps`` run to the end."""
    out: list[News] = []
    for _ in news_steps(finder, store, searches, now, out):
        pass
    return out
