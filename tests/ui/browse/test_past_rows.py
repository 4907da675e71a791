"""Upcoming first: the order a dated tab shows by default (upcoming rows, then on-demand ones, then
past ones, each group in the sort's order), worked out a column at a time, equals the rule applied
row by row, whatever the rows hold (blank dates, type codes that are lists, 1 and True and 7.0)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from catalogue_desktop.core.listing.rows import PAST_COLUMN, column_index
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.browse.past_rows import PastRows

NOW = 1_800_000_000_000
START = column_index(Kind.WEBINARS, "start")
END = column_index(Kind.WEBINARS, PAST_COLUMN[Kind.WEBINARS])
TYPE = column_index(Kind.WEBINARS, "type")


class _Marks:
    """A formatter whose type codes "rec" and 7 mean on demand (the window's: ``Formatter.on_demand``)."""

    @staticmethod
    def on_demand(code: Any) -> bool:
        return code is not None and str(code) in {"rec", "7", "1"}


def _reference(rows: list[list[Any]], order: list[int]) -> list[int]:
    """The rule, row by row."""

    def group(i: int) -> int:
        row = rows[i]
        if _Marks.on_demand(row[TYPE]):
            return 1
        when = row[END] if row[END] is not None else row[START]
        return 2 if isinstance(when, int) and when < NOW else 0

    return [i for g in (0, 1, 2) for i in order if group(i) == g]


def _rows(seed: int, count: int, hostile: bool) -> list[list[Any]]:
    rng = random.Random(seed)
    width = max(START, END, TYPE) + 1
    codes: list[Any] = [None, "live", "rec", 7, 3]
    if hostile:
        codes += [["rec"], {"a": 1}, True, 1, 7.0]
    rows = []
    for _ in range(count):
        row: list[Any] = [None] * width
        row[START] = rng.choice([None, NOW - rng.randrange(1, 10**9), NOW + rng.randrange(1, 10**9), True])
        row[END] = rng.choice([None, None, NOW - rng.randrange(1, 10**9), NOW + rng.randrange(1, 10**9)])
        row[TYPE] = rng.choice(codes)
        rows.append(row)
    return rows


@pytest.mark.parametrize("hostile", [False, True])  # (False: the demo's kinds, text and numbers)
@pytest.mark.parametrize("seed", range(6))
def test_upcoming_then_on_demand_then_past_each_in_the_sorts_order(seed: int, hostile: bool) -> None:
    rows = _rows(seed, 500, hostile)
    order = list(range(len(rows)))
    random.Random(seed).shuffle(order)
    past = PastRows(Kind.WEBINARS, _Marks(), NOW)
    assert past.upcoming_first(rows, order, START) == _reference(rows, order)


def test_another_column_or_nothing_late_keeps_the_order() -> None:
    rows = _rows(1, 50, False)
    order = list(reversed(range(len(rows))))
    past = PastRows(Kind.WEBINARS, _Marks(), NOW)
    assert past.upcoming_first(rows, order, START + 1) is order
    upcoming = [[*row[:START], NOW + 1, *row[START + 1 :]] for row in rows]
    for row in upcoming:
        row[END], row[TYPE] = None, "live"
    assert past.upcoming_first(upcoming, order, START) is order
