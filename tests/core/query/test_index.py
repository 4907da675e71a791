"""Bitsets and the indexes under the engine, against brute force."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from catalogue_desktop.core.query import bits
from catalogue_desktop.core.query import index as text_index
from catalogue_desktop.core.query.folding import fold
from catalogue_desktop.core.query.index import RangeIndex, ScanningRangeIndex, TextIndex

ROWS = st.integers(0, 3000).flatmap(lambda n: st.tuples(st.just(n), st.lists(st.integers(0, max(0, n - 1)))))


@given(ROWS)
def test_bitsets_round_trip(case: tuple[int, list[int]]) -> None:
    n, rows = case
    rows = rows if n else []
    b = bits.from_rows(rows, n)
    want = sorted(set(rows))
    assert bits.to_rows(b, n) == want
    assert b.bit_count() == len(want)
    mask = bits.to_mask(b, n)
    assert len(mask) == n and [i for i in range(n) if mask[i]] == want
    assert bits.from_mask(mask) == b
    assert bits.from_many([rows[: len(rows) // 2], rows[len(rows) // 2 :]], n) == b
    assert bits.pick(list(range(100, 100 + n)), b) == [100 + i for i in want]


NUMBERS = st.lists(
    st.none() | st.integers(-50, 50) | st.integers(-(10**12), 10**12) | st.decimals(-100, 100, places=2),
    max_size=700,
)
BOUND = st.none() | st.integers(-60, 60) | st.decimals(-100, 100, places=1)


@settings(max_examples=300, deadline=None)
@given(NUMBERS, BOUND, BOUND, st.booleans(), st.booleans())
def test_range_index_selects_what_a_scan_selects(
    values: list[Any], lo: Any, hi: Any, lo_open: bool, hi_open: bool
) -> None:
    index = RangeIndex(values)
    index.ensure()

    def inside(v: Any) -> bool:
        if v is None:
            return False
        if lo is not None and (v < lo or (lo_open and v == lo)):
            return False
        return hi is None or (v < hi or (not hi_open and v == hi))

    want = [i for i, v in enumerate(values) if inside(v)]
    assert bits.to_rows(index.select(lo, hi, lo_open, hi_open), len(values)) == want
    assert bits.to_rows(index.present, len(values)) == [i for i, v in enumerate(values) if v is not None]


@settings(max_examples=200, deadline=None)
@given(NUMBERS, BOUND, BOUND, st.booleans(), st.booleans())
def test_a_scanning_range_index_selects_as_the_built_one_before_and_after_it_is_built(
    values: list[Any], lo: Any, hi: Any, lo_open: bool, hi_open: bool
) -> None:
    built = RangeIndex(values)
    built.ensure()
    want = built.select(lo, hi, lo_open, hi_open)
    scanning = ScanningRangeIndex(values)
    scanning.ensure()  # (does not build it)
    assert not scanning.ready
    assert scanning.select(lo, hi, lo_open, hi_open) == want
    assert scanning.select(None, hi, False, hi_open) == built.select(None, hi, False, hi_open)
    for _ in scanning.build():
        pass
    assert scanning.ready and scanning.select(lo, hi, lo_open, hi_open) == want


def test_range_index_with_many_distinct_values_tests_edge_buckets() -> None:
    values: list[Any] = [(i * 7919) % 10007 for i in range(20000)] + [None, -5, Decimal("3.5")]
    index = RangeIndex(values)
    index.ensure()
    assert not index.exact
    for lo, hi in (
        (-10, 0),
        (100, 100),
        (5000, 5003),
        (3, 4),
        (None, -1),
        (10006, None),
        (Decimal("3.5"), 4000),
        (77, 9000),
        (None, None),
    ):
        for lo_open in (False, True):
            for hi_open in (False, True):
                want = [
                    i
                    for i, v in enumerate(values)
                    if v is not None
                    and (lo is None or v > lo or (v == lo and not lo_open))
                    and (hi is None or v < hi or (v == hi and not hi_open))
                ]
                got = bits.to_rows(index.select(lo, hi, lo_open, hi_open), len(values))
                assert got == want, (lo, hi, lo_open, hi_open)


WORDS = st.sampled_from(
    [
        "Tax",
        "estate",
        "Müller",
        "muller",
        "Lease",
        "ASC 842",
        "a-b",
        "x",
        "",
        "über",
        "Estate Tax Planning",
        "taxation",
        "STRAUSS",
        "Strauß",
        "o'neil",
    ]
)


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.none() | WORDS | st.lists(WORDS, max_size=3), max_size=80),
    st.lists(WORDS | st.sampled_from(["ta", "t", "x", "-", "'", " ", "ss", "842", "e t"]), max_size=6),
)
def test_text_index_finds_what_a_scan_finds(values: list[Any], words: list[str]) -> None:
    index = TextIndex(values)
    index.ensure()

    def texts(v: Any) -> list[str]:
        items = v if isinstance(v, list) else [v]
        return [fold(x) for x in items if x]

    for word in words:  # one after another: narrowing from remembered pieces
        w = fold(word)
        if not w:
            continue
        want = [i for i, v in enumerate(values) if any(w in t for t in texts(v))]
        assert bits.to_rows(index.contains(w), len(values)) == want, word
        exact = [i for i, v in enumerate(values) if any(w == t for t in texts(v))]
        assert bits.to_rows(index.exact(w), len(values)) == exact
    assert bits.to_rows(index.present, len(values)) == [i for i, v in enumerate(values) if texts(v)]


VALUE = st.none() | st.just("") | WORDS | st.integers(0, 3)
CELL = VALUE | st.lists(VALUE, max_size=4) | st.tuples(WORDS)  # a tuple: read a row at a time


def test_a_text_index_of_lists_adds_its_postings_a_slice_of_rows_a_step(monkeypatch: Any) -> None:
    """A column of lists (a webinar's experts, topics) is sorted onto its postings 2,048 rows a
    step: 8,192 were a step of 18-29 ms of CPU at 10,000 webinars (issue 40). Counted: the rows
    of each step's ``Postings.add``."""
    from catalogue_desktop.core.query.postings import Postings

    added: list[int] = []
    real = Postings.add

    def add(postings: Postings, start: int, values: Any) -> None:
        added.append(len(values))
        real(postings, start, values)

    monkeypatch.setattr(Postings, "add", add)
    index = TextIndex([["Tax", "Ethics", f"Expert {i % 50}"] for i in range(10_000)])
    for _ in index.build():
        pass
    assert sum(added) == 10_000
    assert max(added) <= 2048
    assert index.count(index.texts.index("tax")) == 10_000


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.lists(CELL, max_size=7), max_size=6),  # chunks of one kind of cell, mostly
    st.lists(WORDS | st.sampled_from(["ta", "t", "1", "e t"]), max_size=4),
    st.booleans(),
)
def test_text_index_built_a_chunk_at_a_time_holds_what_a_row_at_a_time_reading_holds(
    chunks: list[list[Any]], words: list[str], idle: bool
) -> None:
    """Postings sorted out in C, a chunk of 7 rows at a time (plain values, lists with a text
    twice or two spellings of one, blanks, numbers, a tuple), are each row's texts once, as a
    reading of each row finds them; lookups, ``row_texts`` and counts agree, built at once or in
    idle time."""
    values = [cell for chunk in chunks for cell in chunk]
    index = TextIndex(values)
    used, text_index._TEXT_CHUNK = text_index._TEXT_CHUNK, 7  # (2,048 in use)
    try:
        if idle:
            for _ in index.build():
                pass
        else:
            index.ensure()
    finally:
        text_index._TEXT_CHUNK = used
    texts: dict[str, int] = {}
    rows: list[tuple[int, ...]] = []
    for v in values:
        mine: list[int] = []
        for item in v if isinstance(v, list) else [v]:
            if item is None or item == "":
                continue
            tid = texts.setdefault(fold(str(item)), len(texts))
            if tid not in mine:
                mine.append(tid)
        rows.append(tuple(mine))
    assert index.texts == list(texts)
    assert index.row_texts == rows
    assert [index.count(t) for t in range(len(texts))] == [
        sum(t in r for r in rows) for t in range(len(texts))
    ]
    assert bits.to_rows(index.present, len(values)) == [i for i, r in enumerate(rows) if r]
    for word in words:
        w = fold(word)
        want = [i for i, r in enumerate(rows) if any(w in index.texts[t] for t in r)]
        assert bits.to_rows(index.contains(w), len(values)) == want, word


def test_a_small_tables_bitsets_share_their_steps() -> None:
    """Counted, not timed (issue 40): at 60 rows every text and token is "frequent" (on more than
    1/64 of the rows) and gets a bitset; they are made a few steps in all, not a step each (a
    window's start on the demo took ~3,000 steps to index its tables, ~2,000 of them a token's
    bitset of a few rows), and the index answers as one built at once."""
    values = [f"Estate planning {i} seminar{i % 7}" for i in range(60)]
    words = TextIndex(values)
    steps = sum(1 for _ in words.build())
    assert steps <= 12, steps  # (132 before: a step per text and per token)
    at_once = TextIndex(values)
    at_once.ensure()
    asked = ("seminar3", "planning 1", "17", "estate")
    assert [words.contains(w) for w in asked] == [at_once.contains(w) for w in asked]
    fees = RangeIndex(list(range(200)))  # 200 distinct values: a bucket each
    steps = sum(1 for _ in fees.build())
    assert steps <= 6, steps  # (43 before: a step per 4 buckets)
    assert bits.to_rows(fees.select(10, 19), 200) == list(range(10, 20))


def test_a_big_tables_bitsets_still_take_a_step_per_few_thousand_rows() -> None:
    """At 100,000 rows a frequent token's bitset is still a step of its own or shares one with one
    other: the steps stay as short as they were sized (issue 28)."""
    n = 100_000
    index = TextIndex([f"word{i % 40}" for i in range(n)])  # 40 texts of 2,500 rows each
    steps = sum(1 for _ in index.build())
    assert steps >= 20, steps  # (40 frequent texts: a step per one or two)


def test_a_range_index_looks_at_each_value_once_a_slice_a_step(monkeypatch: Any) -> None:
    """Counted, not timed (issue 40): which rows have a value is worked out in the slices that read
    the values, not again for every row in one step (at 100,000 rows most of a step of ~25-38 ms
    of CPU on the loaded machine)."""
    n = 100_000
    calls = {"n": 0}
    real = text_index.is_not

    def counting(a: Any, b: Any) -> bool:
        calls["n"] += 1
        return real(a, b)

    monkeypatch.setattr(text_index, "is_not", counting)
    index = RangeIndex([i % 997 if i % 10 else None for i in range(n)])
    per_step = []
    for _ in index.build():
        per_step.append(calls["n"])
        calls["n"] = 0
    assert max(per_step) <= 4 * text_index._CHUNK, max(per_step)
    assert sum(per_step) + calls["n"] == n  # (each value looked at once)
    assert bits.to_rows(index.present, n) == [i for i in range(n) if i % 10]
    assert bits.to_rows(index.select(5, 6), n) == [i for i in range(n) if i % 10 and i % 997 in (5, 6)]


def test_a_yes_no_index_makes_its_two_bitsets_a_step_each(monkeypatch: Any) -> None:
    """Counted (issue 40): a yes/no column's rows become the yes and the no bitsets in steps of
    their own (both in one step: ~30 ms of CPU at 100,000 rows on the loaded machine)."""
    from catalogue_desktop.core.query.table import FlagIndex

    n = 100_000
    made: list[int] = []
    by_rows, by_mask = bits.from_rows, bits.from_mask

    def from_rows(rows: Any, size: int) -> int:
        made.append(len(rows))
        return by_rows(rows, size)

    def from_mask(mask: Any) -> int:
        made.append(len(mask))
        return by_mask(mask)

    monkeypatch.setattr(bits, "from_rows", from_rows)
    monkeypatch.setattr(bits, "from_mask", from_mask)
    values = [None if i % 5 == 0 else i % 3 == 0 for i in range(n)]
    for presence in (False, True):
        index = FlagIndex(values, presence=presence)
        per_step = []
        for _ in index.build():
            per_step.append(len(made))
            made.clear()
        assert max(per_step) <= 1, per_step
        yes = [i for i in range(n) if i % 5 and i % 3 == 0]
        assert bits.to_rows(index.true, n) == yes
        assert bits.to_rows(index.false, n) == ([] if presence else [i for i in range(n) if i % 5 and i % 3])
        assert index.present == index.true | index.false


def test_a_table_makes_each_index_s_values_in_a_step_of_their_own(monkeypatch: Any) -> None:
    """Counted (issue 40): the values of a field's index (a column read, fees turned into numbers)
    are made in a step of their own, not in the last step of the index before (at 100,000 rows
    the two were steps of 22-35 ms of CPU on the loaded machine)."""
    from catalogue_desktop.core.query.table import Table
    from tests.core.query.catalogues import finder_of, synthetic_facts

    table = finder_of(synthetic_facts(300)).tables["webinars"]
    fresh = Table(table.name, table.scope, dict(table.columns), table.n)
    events: list[str] = []
    made = Table._index
    by_rows = bits.from_rows

    def values(self: Table, field: Any) -> Any:
        events.append("values")
        return made(self, field)

    def from_rows(rows: Any, size: int) -> int:
        events.append("bits")
        return by_rows(rows, size)

    monkeypatch.setattr(Table, "_index", values)
    monkeypatch.setattr(bits, "from_rows", from_rows)
    steps = []
    for _ in fresh.build():
        steps.append(set(events))
        events.clear()
    assert sum("values" in s for s in steps) >= 5
    assert not [s for s in steps if s == {"values", "bits"}], steps


def test_a_table_s_ids_are_compacted_a_chunk_at_a_time(monkeypatch: Any) -> None:
    """Counted (issue 40): the ids are made into new ints side by side (``_compact``) as each chunk
    of facts is added, not all at once when the table is finished (at 100,000 rows most of a step
    of ~40 ms of CPU on the loaded machine); the table's ids are the same."""
    from catalogue_desktop.core.query import table as table_module
    from catalogue_desktop.core.query.table import TableBuilder
    from tests.core.query.catalogues import synthetic_facts

    facts = synthetic_facts(300)["webinars"]
    sizes: list[int] = []
    compact = table_module._compact

    def counted(ids: list[Any]) -> list[Any]:
        sizes.append(len(ids))
        return compact(ids)

    monkeypatch.setattr(table_module, "_compact", counted)
    builder = TableBuilder("webinars")
    for start in range(0, len(facts), 50):
        builder.add(facts[start : start + 50])
    table = builder.finish()
    assert table.ids == [f["id"] for f in facts]
    assert sizes and max(sizes) <= 50, sizes
