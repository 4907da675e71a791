"""Filtering and sorting of row sets on precomputed keys (50-100x faster than a Qt proxy model
calling back into Python for every comparison; see the stack facts).

A filter query is split into words; a row matches when every word occurs in its text (case-folded).
Typing more characters narrows the previous result instead of scanning every row again.
"""

from __future__ import annotations

from collections import OrderedDict
from decimal import Decimal, InvalidOperation
from itertools import compress, repeat
from operator import contains
from typing import Any

from catalogue_desktop.core.catalogue import RowSet
from catalogue_desktop.core.listing import ColumnType

_SEARCHED = (ColumnType.TEXT, ColumnType.CODE, ColumnType.INT, ColumnType.MONEY)
_REMEMBERED = 16  # recent query results kept per filter (backspacing returns to one at once)


def _haystack(row: list[Any], columns: list[int]) -> str:
    return "\x1f".join([str(v) for i in columns if (v := row[i]) is not None]).casefold()


class RowFilter:
    """Which rows of a row set match a query. Build once per row set (keys are precomputed)."""

    def __init__(self, rowset: RowSet, *, lazy: bool = False) -> None:
        # Text, codes, ids and fees are searched; dates and yes/no flags are not (their shown
        # form depends on the locale, and "yes" would match every row).
        self._columns = [i for i, c in enumerate(rowset.columns) if c.type in _SEARCHED]
        self._rows = rowset.rows
        self._haystacks: list[str] = []
        self._last: tuple[list[str], list[int]] | None = None
        self._recent: OrderedDict[tuple[str, ...], list[int]] = OrderedDict()
        if not lazy:
            self.build()

    @property
    def built(self) -> bool:
        return len(self._haystacks) >= len(self._rows)

    def build(self, rows: int | None = None) -> bool:
        """Precompute up to ``rows`` more haystacks (all by default): the keys can be built a
        chunk at a time in idle time, before the first keystroke. True when all are built."""
        hay, columns = self._haystacks, self._columns
        start = len(hay)
        stop = len(self._rows) if rows is None else min(len(self._rows), start + rows)
        hay.extend([_haystack(row, columns) for row in self._rows[start:stop]])
        return self.built

    def matches(self, query: str) -> list[int] | None:
        """Row indices matching ``query`` in row order; None means "all rows" (empty query)."""
        words = query.casefold().split()
        if not words:
            self._last = None
            return None
        if not self.built:
            self.build()
        key = tuple(words)
        known = self._recent.get(key)
        if known is not None:  # typed before (a backspace undid a character): no scan
            self._recent.move_to_end(key)
            self._last = (words, known)
            return list(known)
        rows = self._scan(words)
        self._recent[key] = rows
        if len(self._recent) > _REMEMBERED:
            self._recent.popitem(last=False)
        return list(rows)

    def _scan(self, words: list[str]) -> list[int]:
        candidates: list[int] | None = None
        if self._last is not None:
            last_words, last_rows = self._last
            if len(words) >= len(last_words) and all(
                w.find(lw) >= 0 for w, lw in zip(words, last_words, strict=False)
            ):
                candidates = last_rows  # every old word is contained in a new one: narrow
        hay = self._haystacks
        # map/compress run the containment tests in C (no bytecode per row): ~3x faster.
        if candidates is None:
            first, rest = words[0], words[1:]
            rows = list(compress(range(len(hay)), map(contains, hay, repeat(first))))
        else:
            rest = words
            rows = candidates
        for word in rest:
            rows = list(compress(rows, map(contains, map(hay.__getitem__, rows), repeat(word))))
        self._last = (words, rows)
        return rows


def sort_key(type_: ColumnType, value: Any) -> tuple[int, Any]:
    """Key that sorts dates and fees as dates and numbers, text case-insensitively, blanks last."""
    if value is None:
        return (1, 0)
    if type_ is ColumnType.TEXT:
        return (0, str(value).casefold())
    if type_ is ColumnType.MONEY:
        return (0, _number(value))
    if type_ is ColumnType.MONEY_RANGE:
        return (0, (_number(value[0]), _number(value[1])))
    if type_ is ColumnType.CODE:
        return (0, (0, value, "") if isinstance(value, int) else (1, 0, str(value)))
    return (0, value)


def _number(value: Any) -> Decimal | int:
    if isinstance(value, str):
        try:
            return Decimal(value)
        except InvalidOperation:
            return 0
    return value


def sorted_rows(rowset: RowSet, column: int, descending: bool = False) -> list[int]:
    """Row indices ordered by ``column`` (stable; blanks last in both directions).

    The sort runs in C on a list of plain keys built once per call (no Python comparison
    callbacks): about 0.1 s for 100,000 rows. The order is remembered on the row set, so sorting
    by a column again (a header clicked back and forth) costs a list copy.
    """
    cache_key = (column, descending)
    cached = rowset.sort_cache.get(cache_key)
    if cached is not None:
        return list(cached)
    type_ = rowset.columns[column].type
    values = [row[column] for row in rowset.rows]
    if type_ is ColumnType.TEXT:
        keys: list[Any] = [v.casefold() if v is not None else None for v in values]
    elif type_ in (ColumnType.DATE, ColumnType.INT, ColumnType.BOOL):
        keys = values
    elif type_ is ColumnType.MONEY:  # fees are mostly ints: only decimal text needs converting
        keys = [v if type(v) is int or v is None else _number(v) for v in values]
    else:
        keys = [None if v is None else sort_key(type_, v)[1] for v in values]
    present = [i for i, k in enumerate(keys) if k is not None]
    blank = [i for i, k in enumerate(keys) if k is None] if len(present) < len(keys) else []
    try:
        present.sort(key=keys.__getitem__, reverse=descending)
    except TypeError:  # mixed types the spec did not foresee (a text fee): compare as text
        present.sort(key=lambda i: str(keys[i]), reverse=descending)
    order = present + blank
    rowset.sort_cache[cache_key] = tuple(order)
    return order
