"""Numbers and dates: one clause's rows from a column's ``RangeIndex`` (or a date's two)."""

from __future__ import annotations

from datetime import datetime

from catalogue_desktop.core.query import literals
from catalogue_desktop.core.query.index import RangeIndex
from catalogue_desktop.core.query.syntax import Term
from catalogue_desktop.core.query.table import DateIndex


def numeric(term: Term, index: RangeIndex) -> int:
    op, value = term.op, term.value
    if op == "eq":
        return index.select(value, value)
    if op == "lt":
        return index.select(None, value, hi_open=True)
    if op == "le":
        return index.select(None, value)
    if op == "gt":
        return index.select(value, None, lo_open=True)
    if op == "ge":
        return index.select(value, None)
    if op == "range":
        lo, hi = value
        return index.select(lo, hi)
    raise AssertionError(op)


def dates(term: Term, index: DateIndex, now: datetime) -> int:
    op, value = term.op, term.value
    if op == "range":
        lo_spec, hi_spec = value
        lo_b = lo_spec.bounds(now) if lo_spec is not None else None
        hi_b = hi_spec.bounds(now) if hi_spec is not None else None
        modes = {b.mode for b in (lo_b, hi_b) if b is not None}
        if modes == {"local"}:
            return index.local.select(lo_b.lo if lo_b else None, hi_b.hi if hi_b else None)
        lo = _instant(lo_b, now, low=True)
        hi = _instant(hi_b, now, low=False)
        return index.instant.select(lo, hi)
    b = value.bounds(now)
    target = index.local if b.mode == "local" else index.instant
    if op == "eq":
        return target.select(b.lo, b.hi)
    if op == "gt":
        return 0 if b.hi is None else target.select(b.hi, None, lo_open=True)
    if op == "ge":
        return target.select(b.lo, None)
    if op == "lt":
        return 0 if b.lo is None else target.select(None, b.lo, hi_open=True)
    if op == "le":
        return target.select(None, b.hi)
    raise AssertionError(op)


def _instant(b: literals.Bounds | None, now: datetime, *, low: bool) -> int | None:
    if b is None:
        return None
    if b.mode == "instant":
        return b.lo if low else b.hi
    day = b.lo if low else b.hi
    if day is None:  # an open end
        return None
    first, last = literals.local_day_bounds_ms(day, day, now)
    return first if low else last
