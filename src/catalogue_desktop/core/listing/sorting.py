"""Sorting of row sets on precomputed keys (far faster than a Qt proxy model calling back into
Python for every comparison; see docs/decisions.md, "Sorting and the tables"). Which rows a query matched is
``core.query.matches.Matches``.
"""

from __future__ import annotations

import heapq
import struct
from array import array
from collections.abc import Iterator
from decimal import Decimal, InvalidOperation
from itertools import chain, compress, islice, repeat
from operator import is_, is_not, itemgetter
from typing import Any

from catalogue_desktop.core.listing.rows import PAST_COLUMN, START_COLUMN, ColumnType, column_index
from catalogue_desktop.core.listing.rowset import RowSet
from catalogue_desktop.core.records.kinds import ListKind

_EXACT_FLOAT = 2.0**53  # every int below this is exactly a float (dates in ms are ~2**41)


def _packed(code: str, values: list[Any]) -> array[Any]:
    """``array(code, values)`` for ``code`` "q" or "d", built from ``struct.pack``: the array's
    own conversion parses each item as a call's argument (``PyArg_Parse``: ~165 instructions an
    item, ~10 M of a 10,000 cold start's reading). What ``struct`` refuses is handed to the array,
    which refuses it as before (``TypeError``: a blank, text, a float among "q" ints;
    ``OverflowError``: an int beyond the type)."""
    try:
        data = struct.pack(f"{len(values)}{code}", *values)
    except struct.error:
        return array(code, values)
    packed = array(code)
    packed.frombytes(data)
    return packed


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
    number: Decimal | int = value
    return number


def sorted_rows(rowset: RowSet, column: int, descending: bool = False) -> list[int]:
    """Row indices ordered by ``column`` (stable; blanks last in both directions).

    The sort runs in C on a list of plain keys (no Python comparison callbacks). Integer columns (dates in ms,
    fees, ids) are compared as floats when every value is exact as one: CPython compares floats faster than
    ints beyond 2**30 (docs/decisions.md, "Sorting and the tables"). Those keys are kept on the row set
    (``prepare_sort_keys`` builds them ahead, in idle time), so sorting the other way only sorts; orders are
    remembered too, so sorting by a column again (a header clicked back and forth) costs a list copy."""
    cache_key = (column, descending)
    cached = rowset.sort_cache.get(cache_key)
    if cached is not None:
        return list(cached)
    prepare_sort_keys(rowset, column)  # what idle time has not built yet
    keys = rowset.sort_keys[column]
    if keys is not False:
        # The other direction, if known, is nearly sorted already (ties keep their row order).
        start = rowset.sort_cache.get((column, not descending)) or range(len(keys))
        order = sorted(start, key=keys.__getitem__, reverse=descending)
    else:
        order = _sort_with_blanks(_sort_keys(rowset, column), descending)
    rowset.sort_cache[cache_key] = tuple(order)
    return order


def prepare_sort_keys(rowset: RowSet, column: int, rows: int | None = None) -> bool:
    """Build up to ``rows`` more of ``column``'s compact sort keys (all by default): floats in an
    array, kept on the row set, for columns of integers all exact as floats. True when done: the
    keys are complete, or the column has none (text, blanks, decimal text, ints beyond 2**53;
    marked False)."""
    keys = rowset.sort_keys.get(column)
    if keys is False:
        return True
    if keys is None:
        if rowset.columns[column].type not in (ColumnType.DATE, ColumnType.INT, ColumnType.MONEY):
            rowset.sort_keys[column] = False
            return True
        keys = rowset.sort_keys[column] = array("d")
    total = len(rowset.rows)
    stop = total if rows is None else min(total, len(keys) + rows)
    if len(keys) < stop:
        try:  # int.__float__ takes ints only: a blank, decimal text or a float raise TypeError
            more = _packed("d", list(map(int.__float__, _values(rowset, column, len(keys), stop))))
        except (TypeError, OverflowError):
            more = None
        if more is None or not (min(more) > -_EXACT_FLOAT and max(more) < _EXACT_FLOAT):
            rowset.sort_keys[column] = False
            return True
        keys.extend(more)
    return len(keys) >= total


def _values(rowset: RowSet, column: int, start: int = 0, stop: int | None = None) -> list[Any]:
    """Rows ``start:stop``'s values in ``column`` (the Dates rows give their instants without
    making the rows)."""
    whole = None if rowset.source is None else rowset.source.dated_column(column)
    if whole is not None:
        return whole[start:stop]
    return list(map(itemgetter(column), rowset.rows[start:stop]))


def _split_blanks(keys: list[Any]) -> tuple[list[int], list[int]]:
    """Rows with a key, and rows without (None), each in row order."""
    n = len(keys)
    present = list(compress(range(n), map(is_not, keys, repeat(None))))
    blank = list(compress(range(n), map(is_, keys, repeat(None)))) if len(present) < n else []
    return present, blank


def _sort_with_blanks(keys: list[Any], descending: bool) -> list[int]:
    present, blank = _split_blanks(keys)
    try:
        present.sort(key=keys.__getitem__, reverse=descending)
    except TypeError:  # mixed types the spec did not foresee (a text fee): compare as text
        present.sort(key=lambda i: str(keys[i]), reverse=descending)
    return present + blank


def _sort_keys(rowset: RowSet, column: int, start: int = 0, stop: int | None = None) -> list[Any]:
    """The sort keys of rows ``start:stop`` (every row by default), None for blanks (columns
    without compact keys)."""
    type_ = rowset.columns[column].type
    values = _values(rowset, column, start, stop)
    if type_ is ColumnType.TEXT:
        return [v.casefold() if v is not None else None for v in values]
    if type_ in (ColumnType.DATE, ColumnType.INT, ColumnType.BOOL):
        return values
    if type_ is ColumnType.MONEY:  # fees are mostly ints: only decimal text needs converting
        return [v if type(v) is int or v is None else _number(v) for v in values]
    return [None if v is None else sort_key(type_, v)[1] for v in values]


def rank_columns(kind: ListKind) -> tuple[int, ...]:
    """The columns the default order (by start, upcoming first: ``ui.browse.past_rows``) reads
    besides the start: the end (else the start) and a webinar's type; none for other kinds."""
    if kind not in START_COLUMN or kind not in PAST_COLUMN:
        return ()
    keys = (PAST_COLUMN[kind], START_COLUMN[kind], *(("type",) if kind.value == "webinars" else ()))
    return tuple(column_index(kind, key) for key in keys)


def prepare_values(rowset: RowSet, columns: tuple[int, ...], rows: int | None = None) -> bool:
    """Copy up to ``rows`` more rows' values of each of ``columns`` out of the rows, into
    ``rowset.values`` (all by default): as an ``array('q')`` while every value is an int (a
    contiguous column, read without touching an object per row), else as a list. True once every
    one is complete."""
    total = len(rowset.rows)
    for column in columns:
        have = rowset.values.setdefault(column, array("q"))
        if len(have) < total:
            stop = total if rows is None else min(total, len(have) + rows)
            more = list(map(itemgetter(column), rowset.rows[len(have) : stop]))
            if isinstance(have, array):
                try:
                    have.extend(_packed("q", more))
                except (TypeError, OverflowError):  # a blank, text, a float, a huge int: a list
                    have = rowset.values[column] = [*have, *more]
            else:
                have += more
            return len(have) >= total and all(len(rowset.values.get(c, ())) >= total for c in columns)
    return True


# a SortJob slice's work, each a few milliseconds (docs/decisions.md, "Sorting and the tables"):
_KEY_SLICE = 8192  # rows whose sort keys a ``SortJob`` slice builds
_RUN = 8192  # rows a ``SortJob`` slice sorts into a run
_MERGE_SLICE = 4096  # rows a ``SortJob`` slice takes from the merge of its runs
# Up to this many runs' worth of rows, the runs are merged in one slice by ``sorted`` (Timsort
# finds the runs and merges them in C, stable as ``heapq.merge`` is: ~2.5 ms for 10,000 rows in
# two runs, where the merge in Python took ~6.5 ms in three slices)
_MERGED_AT_ONCE = 2
# (``_TAIL``) The rows left after a run, up to a quarter of ``_RUN``, are sorted into it: 10,000 rows are
# one run, sorted in ~1.4 ms, where 8,192 and 1,808 sorted and merged took ~1.8 ms


class SortJob:
    """``sorted_rows(rowset, column, descending)`` a slice at a time, for idle passes: one sort of a big row
    set holds the GIL for tens of ms (docs/decisions.md, "Sorting and the tables"). Each ``step`` does one
    slice: keys for ``_KEY_SLICE`` rows, or one run of ``_RUN`` rows sorted, or ``_MERGE_SLICE`` rows of the
    runs' merge (``heapq.merge``: one pass, whose earlier runs win ties, so ties keep their row order, as in
    ``sorted_rows``; in all about 2x the one-shot sort's CPU, in slices of a few ms; two runs are merged in
    one slice by ``sorted``, ``_MERGED_AT_ONCE``). The result goes where
    ``sorted_rows`` looks first, the row set's ``sort_cache``. The row set must not grow meanwhile."""

    def __init__(
        self, rowset: RowSet, column: int, descending: bool = False, keys: list[Any] | None = None
    ) -> None:
        """``keys``: every row's sort key (None: blank), if the caller has them."""
        self.rowset = rowset
        self.column = column
        self.descending = descending
        self._keys: array[Any] | list[Any] | None = (
            None  # compact keys, or (other columns) a list with blanks
        )
        self._text: list[Any] | None = None  # the latter while it is built
        self._present: list[int] | None = None  # rows with a key (None: every row)
        self._blank: list[int] = []
        if keys is not None:
            self._text = self._keys = keys
            self._present, self._blank = _split_blanks(keys)
        self._next = 0  # the next row (of ``_present``) to sort into a run
        self._runs: list[list[int]] = []  # sorted runs, in row order
        self._merge: Iterator[int] | None = None  # the runs merged, as they are consumed
        self._order: list[int] = []  # what the merge gave so far
        # Sorted by start, ascending: the default order's other columns are copied out of the rows
        # too, a slice per step (``rank_columns``: its ranks are then made without reading the rows).
        start = START_COLUMN.get(rowset.kind)
        default = start is not None and not descending and column == column_index(rowset.kind, start)
        self._copied = rank_columns(rowset.kind) if default and rowset.source is None else ()

    @property
    def done(self) -> bool:
        return (self.column, self.descending) in self.rowset.sort_cache

    def step(self) -> bool:
        """Do one slice; True once the order is in ``rowset.sort_cache`` (and the default order's
        columns are copied out: ``rank_columns``)."""
        if self.done:
            return prepare_values(self.rowset, self._copied, _KEY_SLICE)
        if self._keys is None:
            self._build_keys()
            return False
        keys, present = self._keys, self._present
        total = len(keys) if present is None else len(present)
        if self._next < total:
            start, stop = self._next, min(total, self._next + _RUN)
            if total - stop <= _RUN // 4:
                stop = total  # a short rest joins this run: not a run of its own to merge (``_TAIL``)
            rows = range(start, stop) if present is None else present[start:stop]
            try:
                self._runs.append(sorted(rows, key=keys.__getitem__, reverse=self.descending))
            except TypeError:  # mixed types the spec did not foresee: ``sorted_rows`` copes
                sorted_rows(self.rowset, self.column, self.descending)
                return True
            self._next = stop
            return False
        if self._merge is None and len(self._runs) > 1 and total <= _MERGED_AT_ONCE * _RUN:
            try:
                order = sorted(chain.from_iterable(self._runs), key=keys.__getitem__, reverse=self.descending)
            except TypeError:  # runs of types that do not compare: ``sorted_rows`` copes
                sorted_rows(self.rowset, self.column, self.descending)
                return True
            self._runs = []
            self.rowset.sort_cache[(self.column, self.descending)] = tuple(order + self._blank)
            return not self._copied
        if self._merge is None:
            runs = self._runs
            self._merge = (
                iter(runs[0])
                if len(runs) == 1
                else heapq.merge(*runs, key=keys.__getitem__, reverse=self.descending)
            )
            self._runs = []
        order = self._order
        order.extend(islice(self._merge, _MERGE_SLICE))
        if len(order) < total:
            return False
        self.rowset.sort_cache[(self.column, self.descending)] = tuple(order + self._blank)
        return not self._copied

    def _build_keys(self) -> None:
        """One slice of keys: compact keys if the column has them, else keys with blanks."""
        rowset, column = self.rowset, self.column
        if self._text is None:
            if not prepare_sort_keys(rowset, column, _KEY_SLICE):
                return
            keys = rowset.sort_keys[column]
            if keys is not False:
                self._keys = keys
                return
            self._text = []
        text = self._text
        text.extend(_sort_keys(rowset, column, len(text), len(text) + _KEY_SLICE))
        if len(text) < len(rowset.rows):
            return
        self._present, self._blank = _split_blanks(text)
        self._keys = text
