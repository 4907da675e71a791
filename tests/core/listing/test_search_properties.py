"""Property tests of ``core.listing.sorting`` against brute-force references: sort orders (float keys,
the other direction reusing kept keys, blanks, decimal text, ints beyond 2**53) and narrowing
over remembered results."""

from __future__ import annotations

from array import array
from decimal import Decimal
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from catalogue_desktop.core.listing import sorting as search
from catalogue_desktop.core.listing.sorting import (
    SortJob,
    prepare_sort_keys,
    sorted_rows,
)
from catalogue_desktop.core.records.kinds import Kind
from tests.core.listing.test_catalogue_search import rowset_of as _rowset


def _reference(values: list[Any], key: Any, descending: bool) -> list[int]:
    """Stable, blanks last in both directions, by the exact (not float) value."""
    present = [i for i, v in enumerate(values) if v is not None]
    present.sort(key=lambda i: key(values[i]), reverse=descending)
    return present + [i for i, v in enumerate(values) if v is None]


BIG = 2**53
INTS = st.integers(-(2**40), 2**42) | st.sampled_from([BIG - 1, BIG, BIG + 1, -BIG - 1, 2**70, 10**400, 0, 1])
SMALL = st.integers(0, 5)  # many ties


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.none() | INTS | SMALL, max_size=40),
    st.booleans(),
    st.booleans(),
    st.none() | st.integers(1, 7),
)
def test_integer_columns_sort_like_the_exact_values(
    values: list[int | None], descending: bool, other_first: bool, chunk: int | None
) -> None:
    for kind, key in ((Kind.WEBINARS, "start"), (Kind.WEBINARS, "fee"), (Kind.WEBINARS, "session")):
        rowset, column = _rowset(kind, key, values)
        if chunk is not None:  # keys built ahead a chunk at a time (idle time), maybe not all
            for _ in range(len(values) // chunk // 2 + 1):
                if prepare_sort_keys(rowset, column, chunk):
                    break
        if other_first:  # the other direction's order and keys are kept: the result is the same
            assert sorted_rows(rowset, column, not descending) == _reference(values, int, not descending)
        assert sorted_rows(rowset, column, descending) == _reference(values, int, descending)
        assert sorted_rows(rowset, column, descending) == _reference(values, int, descending)  # cached
        keys = rowset.sort_keys[column]
        assert keys is False or list(keys) == [float(v) for v in values]  # complete when kept


@settings(max_examples=300, deadline=None)
@given(
    st.lists(
        st.none()
        | st.booleans()
        | st.integers(-(2**64), 2**64)
        | INTS
        | st.floats(allow_nan=False)
        | st.text(),
        max_size=30,
    )
)
def test_packed_arrays_are_the_arrays_of_the_same_values(values: list[Any]) -> None:
    """The sort's int and float columns packed through ``struct`` (``sorting._packed``) are the
    arrays ``array(code, values)`` makes, and refuse what they refuse, with the same error."""
    for code in ("q", "d"):
        try:
            expected: Any = array(code, values)
        except (TypeError, OverflowError) as exc:
            expected = type(exc)
        try:
            got: Any = search._packed(code, values)
        except (TypeError, OverflowError) as exc:
            got = type(exc)
        assert got == expected


def test_ints_beyond_exact_floats_keep_their_order() -> None:
    for values in ([BIG, BIG + 1], [-BIG - 1, -BIG], [BIG + 2, BIG + 1, 3]):
        for descending in (False, True):
            rowset, column = _rowset(Kind.WEBINARS, "start", values)
            assert sorted_rows(rowset, column, descending) == _reference(values, int, descending)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.none() | st.integers(0, 3000) | st.decimals(0, 10**18, places=2).map(str), max_size=30),
    st.booleans(),
)
def test_decimal_text_fees_sort_as_numbers(values: list[Any], descending: bool) -> None:
    rowset, column = _rowset(Kind.CERTIFICATES, "fee", values)
    assert sorted_rows(rowset, column, descending) == _reference(values, Decimal, descending)


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.none() | st.sampled_from(["b", "B", "a", "A", "straße", "STRASSE", ""]), max_size=30),
    st.booleans(),
)
def test_text_sorts_case_insensitively_and_stably(values: list[str | None], descending: bool) -> None:
    rowset, column = _rowset(Kind.TOPICS, "title", values)
    assert sorted_rows(rowset, column, descending) == _reference(values, str.casefold, descending)


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(
        [
            ("start", st.none() | INTS | SMALL),
            ("fee", st.none() | SMALL),
            ("title", st.none() | st.sampled_from(["b", "B", "a", "straße", "STRASSE", ""])),
            ("type", st.none() | SMALL | st.sampled_from(["x", "y"])),
        ]
    ).flatmap(lambda c: st.tuples(st.just(c[0]), st.lists(c[1], max_size=40))),
    st.booleans(),
    st.integers(1, 6),
    st.integers(1, 5),
)
def test_a_sort_job_in_slices_gives_the_order_of_one_sort(
    column_values: tuple[str, list[Any]], descending: bool, run: int, merge: int
) -> None:
    """Keys, runs and the runs' merge a slice per step (tiny slices here, so that every path
    runs): the same order as ``sorted_rows`` (stable, blanks last), left where it looks first.
    Mixed types (a code column of numbers and text) fall back to it."""
    key, values = column_values
    old = search._KEY_SLICE, search._RUN, search._MERGE_SLICE
    search._KEY_SLICE, search._RUN, search._MERGE_SLICE = run, run, merge
    try:
        rowset, column = _rowset(Kind.WEBINARS, key, values)
        job = SortJob(rowset, column, descending)
        steps = 0
        while not job.step():
            steps += 1
            assert steps < 10 * len(values) + 10
        assert job.done and job.step()
        got = list(rowset.sort_cache[(column, descending)])
    finally:
        search._KEY_SLICE, search._RUN, search._MERGE_SLICE = old
    fresh, _ = _rowset(Kind.WEBINARS, key, values)
    assert got == sorted_rows(fresh, column, descending)
    assert sorted(got) == list(range(len(values)))


def _slices(values: list[int | None], run: int, merge: int) -> list[int]:
    """The slices a ``SortJob`` of ``values`` (fees of webinars) takes, ascending and descending,
    with runs of ``run`` rows and merge slices of ``merge`` (each order checked against
    ``sorted_rows``)."""
    old = search._KEY_SLICE, search._RUN, search._MERGE_SLICE
    search._KEY_SLICE, search._RUN, search._MERGE_SLICE = 100, run, merge
    counted = []
    try:
        for descending in (False, True):
            rowset, column = _rowset(Kind.WEBINARS, "fee", values)
            job = SortJob(rowset, column, descending)
            slices = 1
            while not job.step():
                slices += 1
            fresh, _ = _rowset(Kind.WEBINARS, "fee", values)
            assert list(rowset.sort_cache[(column, descending)]) == sorted_rows(fresh, column, descending)
            counted.append(slices)
    finally:
        search._KEY_SLICE, search._RUN, search._MERGE_SLICE = old
    return counted


def test_two_runs_are_merged_in_one_slice() -> None:
    """Rows of up to two runs are merged by one ``sorted`` (Timsort merges the runs in C, stable
    as ``heapq.merge``), not a merge slice at a time: the presort of 10,000 webinars at start-up
    (two runs) spent ~6.5 ms of CPU in the Python merge. Counted: the slices a job takes."""
    values = [5, 1, 5, 3, 1, 5, None, 2, 1, 3]  # ties across the two runs, a blank
    # keys (one slice), two runs of 5, the merge in one slice (before: 5 slices of 2 rows), then
    # the columns the default order reads (none for a fee sort)
    assert _slices(values, run=5, merge=2) == [4, 4]


def test_a_short_rest_of_rows_is_sorted_into_the_run_before_it() -> None:
    """Rows left after a run, up to a quarter of a run, join it: no run of their own, and nothing
    to merge (10,000 webinars at start-up: one run, not 8,192 + 1,808 merged; -0.45 ms of the
    window's CPU before ``ready``). Counted: the slices a job takes."""
    values = [5, 1, 5, 3, 1, 5, None, 2, 1, 3]  # ties, a blank
    # keys, one run of the 9 rows with a fee (not 8 and 1 merged), its order taken
    assert _slices(values, run=8, merge=100) == [3, 3]
