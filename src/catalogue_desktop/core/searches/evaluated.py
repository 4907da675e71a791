"""Watched searches' news worked out on tables already built (the window's finder), a search
at a time: ``news_steps`` yields after each one, so that a caller on an event loop never holds it
long (20 searches at 100,000 webinars: bench/history_bench.py)."""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any

from catalogue_desktop.core.cache.saved_searches import SavedSearch
from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.query import bits
from catalogue_desktop.core.query.engine import Finder
from catalogue_desktop.core.query.lexicon import of_finder
from catalogue_desktop.core.query.reading import read
from catalogue_desktop.core.query.syntax import Parsed, parse
from catalogue_desktop.core.query.table import Table
from catalogue_desktop.core.searches.news import News, Touched, kinds_of


def matches_in(finder: Finder, search: SavedSearch, now: datetime) -> dict[str, list[int]]:
    """What ``search`` matches now in ``finder``'s tables (an ``engine.Finder``), per kind: ids
    in the tables' order; a kind without a table (never synced) or lacking a field, none."""
    parsed = understood(finder, search, now)
    found: dict[str, list[int]] = {}
    if not parsed.ok:
        return found
    for kind in kinds_of(search):
        table = finder.tables.get(kind.value)
        if table is None:
            continue
        outcome = finder.evaluate(parsed, kind.value, now)
        if outcome.missing is None:
            found[kind.value] = list(bits.pick(table.ids, outcome.bits))
    return found


def understood(finder: Finder, search: SavedSearch, now: datetime) -> Parsed:
    """A saved search's query as the window reads it (plain words read into conditions in the
    finder's vocabulary: ``core.query.reading``); one saved since is its equivalent query already,
    which reads as itself."""
    return parse(read(search.query, of_finder(finder), now, table=search.kind).query)


def news_steps(
    finder: Finder, store: Store, searches: Iterable[SavedSearch], now: datetime, out: list[News]
) -> Iterator[None]:
    """Each watched search's news appended to ``out``, yielding after each search. Compared as
    bitsets over the finder's rows (the baseline's ids looked up once each), so that a search
    matching half of 100,000 webinars costs a few milliseconds, not sets of 50,000 ids."""
    touched = Touched(store)
    for search in searches:
        if search.watched:
            out.append(compare_in(finder, search, now, touched))
            yield


def compare_in(finder: Finder, search: SavedSearch, now: datetime, touched: Touched) -> News:
    """``news.compare`` on ``finder``'s tables: the same new, changed and gone (and in the same
    order: table order; gone ascending)."""
    parsed = understood(finder, search, now)
    new: dict[str, list[int]] = {}
    changed: dict[str, list[int]] = {}
    gone: dict[str, list[int]] = {}
    current: dict[str, list[int]] = {}
    for kind in kinds_of(search):
        key = kind.value
        table = finder.tables.get(key)
        before = search.baseline.get(key, ())
        if table is None or not parsed.ok:
            if before:
                gone[key] = sorted(before)
            continue
        outcome = finder.evaluate(parsed, key, now)
        if outcome.missing is not None:
            if before:
                gone[key] = sorted(before)
            continue
        ids, n, now_bits = table.ids, table.n, outcome.bits
        row_of = _rows_by_id(table)
        base_rows = [row_of.get(i) for i in before]
        base_bits = bits.from_rows([r for r in base_rows if r is not None], n)
        unlisted = [i for i, r in zip(before, base_rows, strict=True) if r is None]
        current[key] = list(bits.pick(ids, now_bits))
        if fresh := now_bits & ~base_bits:
            new[key] = list(bits.pick(ids, fresh))
        if (lost := base_bits & ~now_bits) or unlisted:
            gone[key] = sorted([*bits.pick(ids, lost), *unlisted])
        kept = base_bits & now_bits
        if kept:
            moved_rows = [
                r for i in touched.after(kind, search.seen_mark) if (r := row_of.get(i)) is not None
            ]
            if moved := kept & bits.from_rows(moved_rows, n):
                changed[key] = list(bits.pick(ids, moved))
    return News(search, new, changed, gone, current)


_ROWS: weakref.WeakKeyDictionary[Table, dict[Any, int]] = weakref.WeakKeyDictionary()


def _rows_by_id(table: Table) -> dict[Any, int]:
    """Each id's row in ``table`` (made once per table: tables are replaced, never changed)."""
    found = _ROWS.get(table)
    if found is None:
        found = _ROWS[table] = dict(zip(table.ids, range(table.n), strict=True))
    return found


def news_in(finder: Finder, store: Store, searches: Iterable[SavedSearch], now: datetime) -> list[News]:
    """``news_steps`` run to the end."""
    out: list[News] = []
    for _ in news_steps(finder, store, searches, now, out):
        pass
    return out
