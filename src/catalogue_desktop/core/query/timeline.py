"""Time in the query language: clauses on each record's history (``core.cache.record_history``).

    added:WINDOW            the record was added (first listed) within WINDOW
    changed:WINDOW          a sync changed the record within WINDOW
    changed:FIELD           a sync kept in the history changed FIELD (``changed:fee``)
    changed:FIELD@WINDOW    ... within WINDOW (``changed:fee@last30d``, ``changed:city@2026-11``)
    removed:WINDOW          the record was withdrawn (the service stopped listing it) within WINDOW

WINDOW is any date the language has (``last7d``, ``last2w``, ``this-month``, ``2026-11``,
``yesterday``), or a range ``A..B`` of them; a sync's time is an instant, so a calendar window
means the viewer's days (``now``'s zone). FIELD is a query field of the table (``fee``,
``starts``, ``city``): a course's ``fee`` changed when one of its locations' fees did, and a
location or session added or taken away changes every one of its fields (and ``locations`` /
``sessions``). A record currently listed was never removed, so ``removed:`` matches none of a
table's rows: withdrawn records live in tables of their own (``core.query.withdrawn``), which
only a query with a ``removed:`` clause shows.

Each table holds a ``HistoryIndex`` of its records' events (``Table.history``), built with the
table (``core.searches.stored.load``, the window's indexer); a clause is a bisection on the events'
times and one conversion of their rows to bits.
"""

from __future__ import annotations

import json
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import cache
from operator import itemgetter
from typing import Any

from catalogue_desktop.core.query import bits, literals
from catalogue_desktop.core.query.fields import FIELDS, OFFERINGS, Schema

CHANGES = ("added", "changed", "removed")
TIME_OP = "time"  # the Term op of a time clause (field None, value a ``TimeSpec``)
BLOCK = 512  # events per block of a timeline, at least
MAX_BLOCKS = 96  # blocks per timeline, at most
_CHUNK = 4096  # events grouped per step
_CHILD_LISTS = {"courses": ("location", "locations"), "series": ("session", "sessions")}


@dataclass(frozen=True)
class TimeSpec:
    """A time clause's value: which change, of which field (None: any), within which window
    (None: the whole kept history; else (low, high) date specs, either None when open)."""

    change: str
    field: str | None
    window: tuple[literals.DateSpec | None, literals.DateSpec | None] | None

    def text(self) -> str:
        out = self.change + ":" + (self.field or "")
        if self.window is not None:
            lo, hi = self.window
            span = (
                lo.text
                if lo is not None and lo == hi
                else f"{lo.text if lo else ''}..{hi.text if hi else ''}"
            )
            out += ("@" if self.field else "") + span
        return out

    def key(self, now: datetime) -> tuple[Any, ...]:
        """What its rows depend on, for the finder's cache: itself, and the minute of asking when
        it has a window (relative ones move with the clock)."""
        return ("time", self, None if self.window is None else now.isoformat(timespec="minutes"))


def is_time_clause(name: str, op: str) -> bool:
    return op == ":" and name.lower() in CHANGES


def parse_value(change: str, text: str, schema: Schema) -> TimeSpec:
    """``added:``/``changed:``/``removed:``'s value as written; raises ``LiteralError``."""
    change = change.lower()
    if not text:
        raise literals.LiteralError(f"needs a window, e.g. {change}:last30d")
    field: str | None = None
    window_text: str | None = text
    if change == "changed":
        head, at, tail = text.partition("@")
        if at or not _is_window(head):
            field = schema.canonical(head)
            if field is None:
                raise literals.LiteralError(
                    f"'{head}' is neither a field nor a date: write changed:fee, changed:last30d"
                    " or changed:fee@last30d"
                )
            window_text = tail if at else None
            if at and not tail:
                raise literals.LiteralError(f"'{text}' needs a window after '@', e.g. {head}@last30d")
    elif "@" in text:
        raise literals.LiteralError(f"{change}: takes a window only (e.g. {change}:last30d)")
    window = None if window_text is None else _window(window_text)
    if window is None and field is None:
        raise literals.LiteralError(f"{change}: needs a window, e.g. {change}:last7d or {change}:2026-11")
    return TimeSpec(change, field, window)


def _is_window(text: str) -> bool:
    lo, dots, hi = text.partition("..")
    return all(literals.is_date_word(p) or _date_ok(p) for p in ((lo, hi) if dots else (text,)) if p)


def _date_ok(text: str) -> bool:
    try:
        literals.date_spec(text)
    except literals.LiteralError:
        return False
    return True


def _window(text: str) -> tuple[literals.DateSpec | None, literals.DateSpec | None]:
    if text.lower() in ("past", "future"):
        raise literals.LiteralError(f"'{text}' is not a window of time: write e.g. last30d or this-month")
    if ".." in text:
        lo_text, _, hi_text = text.partition("..")
        if not lo_text and not hi_text:
            raise literals.LiteralError("'..' needs a start, an end or both: A..B, ..B, A..")
        return (
            literals.date_spec(lo_text) if lo_text else None,
            literals.date_spec(hi_text) if hi_text else None,
        )
    spec = literals.date_spec(text)
    return spec, spec


def window_ms(
    window: tuple[literals.DateSpec | None, literals.DateSpec | None], now: datetime
) -> tuple[int | None, int | None]:
    """The instants a window covers (inclusive; None for an open end), calendar days being the
    viewer's (``now``'s zone)."""
    lo_spec, hi_spec = window
    return _edge(lo_spec, now, low=True), _edge(hi_spec, now, low=False)


def _edge(spec: literals.DateSpec | None, now: datetime, *, low: bool) -> int | None:
    if spec is None:
        return None
    b = spec.bounds(now)
    if b.mode == "instant":
        return b.lo if low else b.hi
    first, last = literals.local_day_bounds_ms(b.lo, b.hi, now)  # type: ignore[arg-type]
    return first if low else last


# -- which fields a change touched -------------------------------------------------------------


@cache
def fields_of_path(table: str, path: str) -> frozenset[str]:
    """The query fields of ``table`` a changed path (``locations/7114/fee``, ``startDate``)
    touches."""
    parts = path.split("/")
    child = _CHILD_LISTS.get(table)
    names: set[str] = set()
    if child is not None and parts[0] == child[1]:
        scope = child[0]
        if len(parts) <= 2:  # a whole location or session added or taken away
            names |= {f.name for f in FIELDS[table] if f.scope == scope}
            names |= _named(table, "record", parts[0])
        else:
            names |= _named(table, scope, parts[2])
        return frozenset(names)
    return frozenset(_named(table, "record", parts[0]))


def _named(table: str, scope: str, key: str) -> set[str]:
    return {f.name for f in FIELDS.get(table, ()) if f.scope == scope and key in (f.key, f.spec)}


def fields_of_event(table: str, paths: Iterable[str]) -> frozenset[str]:
    out: set[str] = set()
    for path in paths:
        out |= fields_of_path(table, path)
    return frozenset(out)


# -- the index ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class TimedEvent:
    """One history event of one record, as the index takes it."""

    record_id: Any
    ms: int
    change: str
    fields: frozenset[str]


def events_from_rows(table: str, rows: Iterable[tuple[Any, str, str, str | None]]) -> list[TimedEvent]:
    """``History.rows``'s (record id, at, change, fields JSON) as events with their query fields."""
    out: list[TimedEvent] = []
    moments: dict[str, int] = {}
    for rid, at, change, fields in rows:
        ms = moments.get(at)
        if ms is None:
            ms = moments[at] = _ms(at)
        paths = json.loads(fields) if fields else ()
        out.append(TimedEvent(rid, ms, change, fields_of_event(table, paths)))
    return out


def _ms(at: str) -> int:
    moment = datetime.fromisoformat(at.replace("Z", "+00:00"))
    if moment.tzinfo is None:
        from datetime import UTC

        moment = moment.replace(tzinfo=UTC)
    return literals.epoch_ms(moment)


class _Timeline:
    """Events' times, ascending, and each one's row; and the rows of each block of ``BLOCK``
    consecutive events as a bitset, so that a window is the OR of the whole blocks it covers and
    the rows of at most two partial ones (100,000 events in a month: ~0.3 ms, where setting 30,000
    rows' bits one by one takes ~2). Made by ``fill``, a slice at a time."""

    __slots__ = ("blocks", "ms", "n", "rows", "step")

    def __init__(self, n: int) -> None:
        self.n = n
        self.ms = array("q")
        self.rows = array("i")
        self.step = BLOCK
        self.blocks: list[int] = []

    def fill(self, pairs: list[tuple[int, int]]) -> Iterator[None]:
        pairs.sort(key=itemgetter(0))  # (in order already, mostly: the history is read oldest first)
        yield
        self.ms = array("q", [p[0] for p in pairs])
        self.rows = array("i", [p[1] for p in pairs])
        yield
        if len(pairs) < 2 * BLOCK:
            return
        # blocks of at least BLOCK events, at most MAX_BLOCKS of them (their bitsets: ~n/8 bytes each)
        self.step = step = max(BLOCK, -(-len(pairs) // MAX_BLOCKS))
        for k, i in enumerate(range(0, len(pairs), step)):
            self.blocks.append(bits.from_rows(self.rows[i : i + step].tolist(), self.n))
            if k % 16 == 15:
                yield

    def select(self, lo: int | None, hi: int | None) -> int:
        """The rows with an event from ``lo`` to ``hi`` (inclusive; None: open)."""
        i = 0 if lo is None else bisect_left(self.ms, lo)
        j = len(self.ms) if hi is None else bisect_right(self.ms, hi)
        if i >= j:
            return 0
        step = self.step
        first, last = -(-i // step), j // step  # the whole blocks within [i, j)
        if not self.blocks or first >= last:
            return bits.from_rows(self.rows[i:j].tolist(), self.n)
        found = bits.from_rows([*self.rows[i : first * step], *self.rows[last * step : j]], self.n)
        for block in self.blocks[first:last]:
            found |= block
        return found


class HistoryIndex:
    """A table's records' events: per change, and per change and field, their times and rows.
    Made by ``build`` a slice at a time (the window's indexer), or at the first ``select``."""

    def __init__(self, ids: Sequence[Any], events: Sequence[TimedEvent], *, withdrawn: bool = False) -> None:
        """``withdrawn``: the table holds withdrawn records (their removals count); a table of
        listed records answers no ``removed:`` clause (a record listed again is not withdrawn)."""
        self.n = len(ids)
        self.count = 0  # events of this table's records
        self._changes: dict[str, _Timeline] = {}
        self._fields: dict[str, _Timeline] = {}
        self._builder = self._build(ids, events, withdrawn)

    def build(self) -> Iterator[None]:
        yield from self._builder

    def _build(self, ids: Sequence[Any], events: Sequence[TimedEvent], withdrawn: bool) -> Iterator[None]:
        row_of = dict(zip(ids, range(self.n), strict=True))
        yield
        by_change: dict[str, list[tuple[int, int]]] = {c: [] for c in CHANGES}
        by_field: dict[str, list[tuple[int, int]]] = {}
        for start in range(0, len(events), _CHUNK):
            for e in events[start : start + _CHUNK]:
                row = row_of.get(e.record_id)
                if row is None or (e.change == "removed" and not withdrawn):
                    continue  # a record no longer in this table
                by_change[e.change].append((e.ms, row))
                if e.change == "changed":
                    for name in e.fields:
                        by_field.setdefault(name, []).append((e.ms, row))
            yield
        self.count = sum(map(len, by_change.values()))
        for target, groups in ((self._changes, by_change), (self._fields, by_field)):
            for key, pairs in groups.items():
                made = _Timeline(self.n)
                yield from made.fill(pairs)
                target[key] = made

    def select(self, spec: TimeSpec, now: datetime) -> int:
        """The rows whose records ``spec`` holds for."""
        for _ in self._builder:  # (what idle time has not built yet)
            pass
        timeline = self._fields.get(spec.field) if spec.field else self._changes.get(spec.change)
        if timeline is None:
            return 0
        lo, hi = (None, None) if spec.window is None else window_ms(spec.window, now)
        return timeline.select(lo, hi)


def supports(table: str, spec: TimeSpec, schema: Schema) -> tuple[str, str] | None:
    """Why ``table`` cannot answer ``spec`` (a field, in words), or None."""
    if table == OFFERINGS:
        return spec.change, "offerings keep no history: ask a kind's tab (webinars, courses ...)"
    if spec.field is not None and schema.field(table, spec.field) is None:
        return spec.field, f"{table} have no field '{spec.field}'"
    return None
