"""The postings of a text column: its distinct texts (folded, as ``index.TextIndex`` searches
them), the rows of each, and each row's texts, made a chunk of rows at a time.

A chunk of plain values (texts or numbers, one a row) or of lists of them is sorted onto the
postings in C: each row handed to its text's ``array.append`` through ``map``, no Python loop
per row (a fresh ``find`` builds the word indexes of 100,000 webinars, 630,000 values, on its
first word: see docs/decisions.md, "The finder's engine"). Any other chunk (a row holding a
tuple, a list holding None...) is read a row at a time, with the same result.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import chain, compress, islice, repeat
from operator import call
from typing import Any

from catalogue_desktop.core.query.folding import fold

_PLAIN = {str, int, type(None)}  # a chunk of these, one a row, is sorted out in C
_LISTS = {list, type(None)}  # ... and of lists (of values read as a row at a time would read them)
_STEP = 16384  # rows (or postings' rows) per step of the later work


class Postings:
    """``rows[tid]``: the rows (ascending) holding text ``tid`` (``texts[tid]`` folded,
    ``originals[tid]`` as first seen); ``present``: a 0/1 byte per row, 1 where it holds one."""

    def __init__(self, n: int, display: Callable[[Any], str] = str) -> None:
        self.n = n
        self._display = display  # the text a value is searched as (a code's label)
        self.texts: list[str] = []
        self.originals: list[str] = []
        self.rows: list[array[int]] = []
        self.by_text: dict[str, int] = {}
        self.present = bytearray(n)
        self._ids: dict[Any, int] = {}  # a value as found -> its text id
        # per chunk: its rows' text ids, one row after the other, and how many each row has
        # (None: one each)
        self._chunks: list[tuple[list[int], Sequence[int] | None]] = []
        self._lists = False  # a chunk of lists was sorted out in C: a row may hold a text twice
        self.repeats = False  # ... one did (its row is once in the postings; ``row_texts`` keep it once)

    def add(self, start: int, values: Sequence[Any]) -> None:
        """Rows ``start, start + 1, ...`` holding ``values`` (None, a value, or a list of them)."""
        end = start + len(values)
        kinds = set(map(type, values))
        if kinds <= _PLAIN:
            tids = self._tids(values)
            if -1 in tids:  # a row without a value
                keep = bytes(map((-1).__ne__, tids))
                tids = list(compress(tids, keep))
                self._sort_out(tids, compress(range(start, end), keep))
                self._chunks.append((tids, keep))
                self.present[start:end] = keep
            else:
                self._sort_out(tids, range(start, end))
                self._chunks.append((tids, None))
                self.present[start:end] = repeat(1, end - start)
            return
        if kinds <= _LISTS:
            lists = [v or () for v in values]
            items = list(chain.from_iterable(lists))
            tids = self._tids(items)
            if -1 not in tids:  # (None or "" in a list: a row at a time)
                lengths = list(map(len, lists))
                self._sort_out(tids, chain.from_iterable(map(repeat, range(start, end), lengths)))
                self._chunks.append((tids, lengths))
                self.present[start:end] = map(bool, lengths)
                self._lists = True
                return
        self._add_rows(start, values)

    def _tids(self, items: Sequence[Any]) -> list[int]:
        """The text id of each item (-1 for None and ""), new ones made in order."""
        ids = self._ids
        tids = list(map(ids.get, items, repeat(-1)))
        if -1 in tids:
            fresh = [
                i for i in dict.fromkeys(compress(items, map((-1).__eq__, tids))) if i is not None and i != ""
            ]
            if fresh:
                for item in fresh:
                    self._text_id(item)
                tids = list(map(ids.get, items, repeat(-1)))
        return tids

    def _sort_out(self, tids: list[int], rows: Iterable[int]) -> None:
        """Each row of ``rows`` (ascending) onto the postings of its text id in ``tids``, in C."""
        appenders = [p.append for p in self.rows]
        deque(map(call, map(appenders.__getitem__, tids), rows), maxlen=0)

    def _add_rows(self, start: int, values: Sequence[Any]) -> None:
        """A row at a time: a row's texts once each, blanks skipped."""
        flat: list[int] = []
        counts: list[int] = []
        for row, value in enumerate(values, start):
            mine: list[int] = []
            if not (value is None or value == [] or value == ""):
                for item in value if isinstance(value, list) else (value,):
                    if item is None or item == "":
                        continue
                    tid = self._ids.get(item)
                    if tid is None:
                        tid = self._text_id(item)
                    if tid not in mine:
                        mine.append(tid)
                        self.rows[tid].append(row)
            if mine:
                self.present[row] = 1
            flat += mine
            counts.append(len(mine))
        self._chunks.append((flat, counts))

    def _text_id(self, item: object) -> int:
        """The text id of a value not seen before (values shown alike share one)."""
        shown = self._display(item)
        folded = fold(shown)
        tid = self.by_text.get(folded)
        if tid is None:
            tid = self.by_text[folded] = len(self.texts)
            self.texts.append(folded)
            self.originals.append(shown)
            self.rows.append(array("i"))
        self._ids[item] = tid
        return tid

    def once_steps(self) -> Iterator[None]:
        """Each row once in each posting: a row whose list held a text twice (or two spellings of
        one) was put on its posting twice, one after the other."""
        if not self._lists:
            return
        budget = 0
        for tid, rows in enumerate(self.rows):
            if len(set(rows)) != len(rows):
                self.rows[tid] = array("i", dict.fromkeys(rows))
                self.repeats = True
            budget += len(rows)
            if budget > _STEP * 2:
                budget = 0
                yield

    def row_texts_steps(self, out: list[tuple[int, ...]]) -> Iterator[None]:
        """Fill ``out`` with each row's text ids (in the order its values named them), a chunk a
        step."""
        for tids, counts in self._chunks:
            if counts is None:
                out += zip(tids)
            else:
                once = _once if self.repeats else tuple
                out += map(once, map(islice, repeat(iter(tids)), counts))
            yield

    def forget_rows(self) -> None:
        """Drop what ``row_texts_steps`` reads (made)."""
        self._chunks = []


def _once(tids: Iterable[int]) -> tuple[int, ...]:
    """Text ids in order, each once."""
    return tuple(dict.fromkeys(tids))
