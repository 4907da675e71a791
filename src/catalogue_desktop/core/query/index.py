"""Indexes over one column of a table, answering with bitsets (``bits``).

``TextIndex``: the distinct folded texts of a column (a row may hold several: an expert list),
each with its rows, and the tokens of those texts, each with the texts that hold it. A word is
looked up in the tokens (a few thousand, not 100,000 rows), and the rows of the texts found are
one bitset. ``RangeIndex``: a numeric column cut into buckets (one per distinct value when there
are few, else ~128 of equal size), with the bitset of every bucket prefix: a range is one XOR of
two prefixes, plus the rows of at most two edge buckets tested one by one.

Both are built in steps (``build()`` yields between slices of a few milliseconds at 100,000
rows), so the window can build them in idle time; ``ensure()`` finishes a build at once.
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Sequence
from itertools import chain, compress, repeat
from operator import call, contains, is_not, le, lt
from typing import Any, TypeVar

from catalogue_desktop.core.query import bits
from catalogue_desktop.core.query.folding import pieces, tokens
from catalogue_desktop.core.query.postings import Postings

_CHUNK = 1024  # rows per build step (4096 made steps of 12-27 ms of CPU at 100,000 rows: issue 28)
_FREQUENT = 64  # a text on more than 1/_FREQUENT of the rows keeps its own bitset
_EXACT_BUCKETS = 256  # up to this many distinct values: one bucket each (no edge tests)
_STEP_ROWS = _CHUNK * 4  # a step of the per-bitset loops below: about this many rows' work
_BUCKETS = 128
_REMEMBERED = 256  # recent answers kept per index and question
# rows per step of a TextIndex's postings (made in C): 8,192 rows of lists (experts, topics: ~2 each)
# were a step of 18-29 ms of thread CPU at 10,000 webinars on a loaded machine (issue 40), 2,048 4-7 ms
_TEXT_CHUNK = 2048

_K = TypeVar("_K")
_V = TypeVar("_V")


def _bitset_cost(n: int) -> int:
    """What making one bitset of ``n`` rows counts for in a step, in rows: 1,000 from 16,000 rows
    up (the figure the steps were sized by at 100,000), ``n / 16`` under it. So a small table's
    bitsets share a step instead of taking one each: at 60 rows every text and token is "frequent"
    and gets one, and ~2,000 of the ~3,000 steps a window's start on the demo took to index its
    tables were a token's bitset of a few rows (issue 40)."""
    return min(1000, n >> 4)


class BuiltIndex:
    """An index built in steps: ``build()`` yields, ``ensure()`` finishes."""

    def __init__(self) -> None:
        self._steps: Iterator[None] | None = None
        self.ready = False

    def build(self) -> Iterator[None]:
        if self._steps is None:
            self._steps = self._build()
        for _ in self._steps:
            yield
        self.ready = True

    def ensure(self) -> None:
        """Build at once what lookups need: all of it, or up to where ``_build`` sets ``ready`` (the
        rest is then made when first asked, or by ``build`` in idle time)."""
        if self.ready:
            return
        if self._steps is None:
            self._steps = self._build()
        for _ in self._steps:
            if self.ready:
                return
        self.ready = True

    def _build(self) -> Iterator[None]:  # pragma: no cover - overridden
        raise NotImplementedError


class _Cache(OrderedDict[_K, _V]):
    """The last ``_REMEMBERED`` answers, the least recently used dropped first."""

    def get_or(self, key: _K, make: Callable[[], _V]) -> _V:
        found = self.get(key)
        if found is not None:
            self.move_to_end(key)
            return found
        value = self[key] = make()
        if len(self) > _REMEMBERED:
            self.popitem(last=False)
        return value


class TextIndex(BuiltIndex):
    """Texts per row (``values[i]``: None, a text, or a list of texts)."""

    def __init__(self, values: Sequence[Any], display: Callable[[Any], str] = str) -> None:
        super().__init__()
        self.n = len(values)
        self._source = values
        made = self._made = Postings(self.n, display)
        self.texts: list[str] = made.texts  # folded, distinct
        self.originals: list[str] = made.originals  # as first seen (for completion and facets)
        self._postings: list[array[int]] = made.rows
        self._by_text = made.by_text
        self._frequent: dict[int, int] = {}  # text id -> bitset
        self._tokens: list[str] = []
        self._token_texts: list[list[int]] = []
        self._token_total: list[int] = []  # per token, the rows of its texts (a row counted per text)
        self._token_bits: dict[int, int] = {}  # a token on more than 1/_FREQUENT of the rows: its rows
        self.present = 0
        self._row_texts: list[tuple[int, ...]] | None = None
        self._pieces: _Cache[str, list[int]] = _Cache()  # a piece of a word -> the tokens containing it
        self._piece_texts: _Cache[str, frozenset[int]] = _Cache()  # ... -> the texts holding those
        self._text_ids: _Cache[str, list[int]] = _Cache()  # word -> ids of the texts containing it
        self._contains: _Cache[str, int] = _Cache()  # word -> rows with a text containing it

    def _build(self) -> Iterator[None]:
        """The postings a chunk of rows at a time (``postings``), then the frequent texts' bitsets and
        the tokens: what lookups need (``ready``). Then, for ``build`` in idle time only, the frequent
        tokens' bitsets (else a word's rows are its tokens' texts' rows, one union) and ``row_texts``
        (else made when first asked)."""
        made = self._made
        for start in range(0, self.n, _TEXT_CHUNK):
            made.add(start, self._source[start : start + _TEXT_CHUNK])
            yield
        self.present = bits.from_mask(made.present)
        self._source = ()  # not needed any more
        yield from made.once_steps()
        postings = self._postings
        limit = self.n / _FREQUENT
        cost = _bitset_cost(self.n)
        budget = 0
        for tid, rows in enumerate(postings):
            if len(rows) > limit:
                self._frequent[tid] = bits.from_rows(rows, self.n)
                budget += len(rows) + cost
                if budget > _STEP_ROWS:
                    budget = 0
                    yield
        token_ids: dict[str, int] = {}
        budget = 0
        for tid, text in enumerate(self.texts):
            found = dict.fromkeys(tokens(text))
            for token in found:
                k = token_ids.get(token)
                if k is None:
                    k = token_ids[token] = len(self._tokens)
                    self._tokens.append(token)
                    self._token_texts.append([])
                self._token_texts[k].append(tid)
            budget += len(found) + 4
            if budget > _CHUNK * 4:
                budget = 0
                yield
        self._token_total = [sum(len(postings[t]) for t in tids) for tids in self._token_texts]
        self.ready = True
        yield
        budget = 0
        for k in range(len(self._tokens)):
            if self._token_rows(k) is not None:
                budget += self._token_total[k] + cost
                if budget > _STEP_ROWS:
                    budget = 0
                    yield
        yield from self._row_texts_steps()

    @property
    def row_texts(self) -> list[tuple[int, ...]]:
        """Per row, its text ids (made when first asked, if ``build`` has not made them)."""
        if self._row_texts is None:
            for _ in self._row_texts_steps():
                pass
        assert self._row_texts is not None
        return self._row_texts

    def _row_texts_steps(self) -> Iterator[None]:
        if self._row_texts is not None:
            return
        out: list[tuple[int, ...]] = []
        yield from self._made.row_texts_steps(out)
        if self._row_texts is None:
            self._row_texts = out
            self._made.forget_rows()

    def _token_rows(self, k: int) -> int | None:
        """A frequent token's rows as one bitset (made at the first call, by ``build``); None for a
        rare one."""
        found = self._token_bits.get(k)
        if found is None and self._token_total[k] > self.n / _FREQUENT:
            found = self._token_bits[k] = self.rows_of(self._token_texts[k])
        return found

    # -- lookups (``ensure()`` first) ----------------------------------------------------------

    def forget_answers(self) -> None:
        self._pieces.clear()
        self._piece_texts.clear()
        self._text_ids.clear()
        self._contains.clear()

    def text_ids(self, word: str) -> list[int]:
        """Ids of the texts containing ``word`` (folded)."""
        known = self._text_ids.get(word)
        if known is not None:
            return known
        parts = pieces(word)
        if not parts:
            found = [t for t, text in enumerate(self.texts) if word in text]
        else:
            candidates: set[int] | None = None
            for part in sorted(parts, key=len, reverse=True):
                with_part = self._with_piece(part)
                candidates = set(with_part) if candidates is None else candidates & with_part
                if not candidates:
                    break
            found = sorted(candidates or ())
            if not (len(parts) == 1 and parts[0] == word):
                texts = self.texts
                found = [t for t in found if word in texts[t]]
        self._text_ids[word] = found
        return found

    def _with_piece(self, part: str) -> frozenset[int]:
        """Texts with a token containing ``part``."""
        token_texts = self._token_texts
        return self._piece_texts.get_or(
            part, lambda: frozenset(chain.from_iterable(map(token_texts.__getitem__, self._piece(part))))
        )

    def _piece(self, part: str) -> list[int]:
        """The tokens containing ``part``. A longer piece is looked for only among the tokens of a
        shorter one it contains, if known ("ta" -> "tax")."""
        known = self._pieces.get(part)
        if known is not None:
            return known
        scope: Sequence[int] | None = None
        for other, token_ids in self._pieces.items():
            if other in part and (scope is None or len(token_ids) < len(scope)):
                scope = token_ids
        tokens_ = self._tokens
        if scope is None:
            hits = list(compress(range(len(tokens_)), map(contains, tokens_, repeat(part))))
        else:
            hits = list(compress(scope, map(contains, map(tokens_.__getitem__, scope), repeat(part))))
        return self._pieces.get_or(part, lambda: hits)

    def contains(self, word: str) -> int:
        """Rows with a text containing ``word`` (folded)."""
        return self._contains.get_or(word, lambda: self._rows_with(word))

    def _rows_with(self, word: str) -> int:
        """A word of letters and digits alone lies inside one token of each text it is in: its rows are those
        of the tokens containing it, a frequent token's as one bitset (see docs/decisions.md, "The finder's
        engine")."""
        parts = pieces(word)
        if len(parts) != 1 or parts[0] != word:  # spaces or punctuation: each text confirms it
            return self.rows_of(self.text_ids(word))
        result = 0
        rare: set[int] = set()
        token_bits, token_texts = self._token_bits, self._token_texts
        for k in self._piece(word):
            found = token_bits.get(k)  # (made by ``build`` in idle time; else their texts' rows, below)
            if found is not None:
                result |= found
            else:
                rare.update(token_texts[k])
        return result | self.rows_of(list(rare)) if rare else result

    def exact(self, word: str) -> int:
        """Rows with a text equal to ``word`` (folded)."""
        tid = self._by_text.get(word)
        return 0 if tid is None else self.rows_of([tid])

    def rows_of(self, text_ids: Sequence[int]) -> int:
        frequent = self._frequent
        result = 0
        rare = []
        for tid in text_ids:
            known = frequent.get(tid)
            if known is not None:
                result |= known
            else:
                rare.append(self._postings[tid])
        if rare:
            result |= bits.from_many(rare, self.n)
        return result

    def count(self, tid: int) -> int:
        return len(self._postings[tid])

    @property
    def rare_texts(self) -> int:
        """How many texts have no bitset of their own (their rows are a list)."""
        return len(self.texts) - len(self._frequent)


class RangeIndex(BuiltIndex):
    """Numbers per row (``values[i]``: a number or None), for comparisons and ranges."""

    def __init__(self, values: Sequence[Any]) -> None:
        super().__init__()
        self.n = len(values)
        self.values = values
        self.edges: list[Any] = []  # bucket k holds edges[k] <= v < edges[k + 1]
        self.exact = False  # one bucket per distinct value
        self._rows: list[array[int]] = []  # per bucket; without exact buckets, by value
        self._values: list[list[Any]] = []  # ... and their values, in that order
        self._prefix: list[int] = [0]  # rows of buckets [0, k)
        self.present = 0

    def _build(self) -> Iterator[None]:
        values, n = self.values, self.n
        present_rows: list[int] = []
        present = bytearray()  # (one 0/1 byte a row: the rows with a value, made a slice a step)
        distinct: set[Any] | None = set()
        for start in range(0, n, _CHUNK * 4):
            end = min(n, start + _CHUNK * 4)
            seen = bytes(map(is_not, values[start:end], repeat(None)))
            present += seen
            rows = list(compress(range(start, end), seen))
            present_rows.extend(rows)
            if distinct is not None:
                distinct.update(map(values.__getitem__, rows))
                if len(distinct) > _EXACT_BUCKETS:
                    distinct = None
            yield
        if distinct is not None:
            self.exact, self.edges = True, sorted(distinct)
        else:
            step = max(1, len(present_rows) // 4096)
            sample = sorted(values[i] for i in present_rows[::step])
            edges = [sample[(len(sample) * k) // _BUCKETS] for k in range(_BUCKETS)]
            self.edges = sorted(set(edges))
        edges = self.edges
        self._rows = [array("i") for _ in edges]
        # bisect_right's b: bucket b - 1, or 0 for a value below the first edge (one call each, in C)
        appenders = [bucket.append for bucket in self._rows[:1] + self._rows]
        for start in range(0, len(present_rows), _CHUNK * 4):
            chunk = present_rows[start : start + _CHUNK * 4]
            found = map(bisect_right, repeat(edges), map(values.__getitem__, chunk))
            deque(map(call, map(appenders.__getitem__, found), chunk), maxlen=0)
            yield
        # (the mask of every row made in the slices above: made here, every value looked at again in
        # one step, it was most of a step of ~25-38 ms of CPU at 100,000 rows on the loaded machine)
        self.present = bits.from_mask(present)
        del present
        yield
        if not self.exact:  # an edge bucket's rows in range are then one slice (``select``)
            for k, bucket in enumerate(self._rows):
                ordered = sorted(bucket, key=values.__getitem__)
                self._rows[k] = array("i", ordered)
                self._values.append([values[r] for r in ordered])
                if k % 4 == 3:  # a slice of 4 buckets
                    yield
        prefix = 0
        budget = 0
        cost = _bitset_cost(n)
        for bucket in self._rows:
            prefix |= bits.from_rows(bucket, n)
            self._prefix.append(prefix)
            budget += len(bucket) + cost
            if budget > _STEP_ROWS:
                budget = 0
                yield

    def select(self, lo: Any = None, hi: Any = None, lo_open: bool = False, hi_open: bool = False) -> int:
        """Rows with ``lo <= v <= hi`` (``<`` where open; None: unbounded): the buckets inside the range from
        two prefixes, the rows of the (at most two) buckets at its edges found by bisection in their values
        (testing each of their rows took most of a query's time: docs/decisions.md, "The finder's engine")."""
        edges = self.edges
        if not edges:
            return 0
        # (Without exact buckets, bucket 0 also holds values below ``edges[0]``: they come from
        # a sample, which may have missed the smallest.)
        first = 0 if lo is None else max(0, bisect_right(edges, lo) - 1)
        last = len(edges) - 1 if hi is None else bisect_right(edges, hi) - 1
        if not self.exact:
            last = max(last, 0)
        if last < first:
            return 0

        def inside(v: Any) -> bool:
            if lo is not None and (v < lo or (lo_open and v == lo)):
                return False
            return not (hi is not None and (v > hi or (hi_open and v == hi)))

        if self.exact:
            a = first if inside(edges[first]) else first + 1
            b = last if inside(edges[last]) else last - 1
            return self._prefix[b + 1] ^ self._prefix[a] if b >= a else 0
        result = self._prefix[last] ^ self._prefix[first + 1] if last > first + 1 else 0
        edge_rows = []
        for k in {first, last}:
            values = self._values[k]
            a = 0 if lo is None else (bisect_right if lo_open else bisect_left)(values, lo)
            b = len(values) if hi is None else (bisect_left if hi_open else bisect_right)(values, hi)
            if a < b:
                edge_rows.append(self._rows[k][a:b])
        return result | bits.from_many(edge_rows, self.n) if edge_rows else result


class ScanningRangeIndex(RangeIndex):
    """A ``RangeIndex`` that answers at once, by a scan of its values, until it is built (``build``, in idle
    time): what ``past`` needs of the Dates rows before they are shown, without building it first (the costs:
    docs/decisions.md, "The finder's engine"). ``ensure`` does not build it."""

    _filled: list[Any] | None = None  # the values, a blank as +inf (for ``v < hi`` in C)

    def ensure(self) -> None:
        pass

    def prepare(self) -> None:
        """Make what the scan needs, ahead of the first ``select``."""
        if self._filled is None:
            self._filled = [_INF if v is None else v for v in self.values]

    def select(self, lo: Any = None, hi: Any = None, lo_open: bool = False, hi_open: bool = False) -> int:
        if self.ready:
            return super().select(lo, hi, lo_open, hi_open)
        if lo is None and hi is not None:  # (what ``past`` asks: one pass in C)
            self.prepare()
            assert self._filled is not None
            found: Any = list(compress(range(self.n), map(lt if hi_open else le, self._filled, repeat(hi))))
        else:
            found = [
                i
                for i, v in enumerate(self.values)
                if v is not None
                and (lo is None or v > lo or (v == lo and not lo_open))
                and (hi is None or v < hi or (v == hi and not hi_open))
            ]
        return bits.from_rows(found, self.n)


_INF = float("inf")
