"""A plain evaluation of finder queries, record by record, over the facts themselves.

Written for clarity, not speed, from the semantics in ``core.query.engine``'s docstring; the
engine (indexes, bitsets, caches) must agree with it on every query. It shares only the
definitions: the parser, the field list and ``fold``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from datetime import UTC, date, datetime, time, timedelta
from decimal import Decimal
from functools import cache
from typing import Any

from catalogue_desktop.core.query import literals
from catalogue_desktop.core.query.engine import Vocabulary
from catalogue_desktop.core.query.fields import SCHEMA, Field, FieldType, offering_kind, table_of_kind
from catalogue_desktop.core.query.folding import fold
from catalogue_desktop.core.query.literals import Bounds, DateSpec
from catalogue_desktop.core.query.syntax import And, Not, Or, Term, parse, walk
from catalogue_desktop.core.query.timeline import TIME_OP, TimedEvent

CHILD_KEY = {"courses": "locations", "series": "sessions"}


class Reference:
    def __init__(
        self,
        facts: dict[str, list[dict[str, Any]]],
        now: datetime,
        vocabulary: Vocabulary | None = None,
        history: dict[str, dict[Any, list[TimedEvent]]] | None = None,
    ) -> None:
        self.facts = facts
        self._now = now
        self.read_the_clock = False  # set once an evaluation reads ``now`` (see the property)
        self.vocabulary = vocabulary or Vocabulary()
        self.history = history or {}  # table -> record id -> its events (the time clauses)
        self.kept = _kept_for(facts, self.vocabulary)
        self._bounds: dict[DateSpec, Bounds] = {}  # (at this clock: see ``bounds``)

    @property
    def now(self) -> datetime:
        """The clock the dates are read against; reading it is noted (``read_the_clock``): an
        answer computed without it is the answer at any other clock."""
        self.read_the_clock = True
        return self._now

    def bounds(self, spec: DateSpec) -> Any:
        """``spec.bounds(now)``, worked out once per spec: a plain function of the spec and the
        clock, which is this Reference's for its whole life (the clock is read, as noted, each time).
        (A ``Bounds``, read as the callers read the specs they hold: open ends where they allow.)"""
        now = self.now
        found = self._bounds.get(spec)
        if found is None:
            found = self._bounds[spec] = spec.bounds(now)
        return found

    def ids(self, query: str, table: str) -> list[int] | None:
        """Row numbers matching, in row order; None if the table lacks a field of the query."""
        parsed = parse(query)
        assert parsed.error is None, parsed.error
        rows = self.facts[table]
        if parsed.root is None:
            return list(range(len(rows)))
        for term in walk(parsed.root):
            if term.op == "sort" or self.is_kind(term, table):
                continue
            if term.op == TIME_OP:
                field = term.value.field
                if table == "offerings" or (field is not None and SCHEMA.field(table, field) is None):
                    return None
                continue
            name = term.field if term.field is not None else (None if term.op == "word" else "starts")
            f = None if name is None else SCHEMA.field(table, name)
            if name is not None and (f is None or (f.type is FieldType.PRESENCE and term.op != "has")):
                return None
        return [i for i, rec in enumerate(rows) if self.record(parsed.root, table, rec)]

    # -- record level ----------------------------------------------------------------------

    def record(self, node: Any, table: str, rec: dict[str, Any]) -> bool:
        if isinstance(node, Not):
            return not self.record(node.child, table, rec)
        if isinstance(node, Or):
            return any(self.record(c, table, rec) for c in node.children)
        if isinstance(node, And):
            children = list(node.children)
            if table in CHILD_KEY:
                group = [c for c in children if self.child_only(c, table)]
                if any(not isinstance(c, Not) for c in group):
                    joined = group + [c for c in children if isinstance(c, Term) and c.op == "word"]
                    rest = [c for c in children if c not in joined]
                    found = any(
                        all(self.child(j, table, rec, kid) for j in joined) for kid in self.kids(table, rec)
                    )
                    return found and all(self.record(c, table, rec) for c in rest)
            return all(self.record(c, table, rec) for c in children)
        term: Term = node
        if term.op == "sort":
            return True
        if self.is_kind(term, table):
            return table_of_kind(str(term.value)) == table
        if term.field == "kind" and table == "offerings":
            term = dataclasses.replace(term, value=offering_kind(term.value))
            if term.op in ("eq", "exact") and str(term.value).strip().lower() == "webinar":
                f = self.field_of(term, table)  # a series' session is a webinar too
                kinds = [dataclasses.replace(term, value=v) for v in ("webinar", "session")]
                return any(self.test(k, f, table, rec, rec) for k in kinds)
        if term.op == TIME_OP:
            return self.time_test(term.value, table, rec)
        if term.op == "word":
            return self.has_word(term.value, table, rec, "record") or any(
                self.has_word(term.value, table, kid, "child") for kid in self.kids(table, rec)
            )
        f = self.field_of(term, table)
        if f.scope != "record":
            return any(self.child(term, table, rec, kid) for kid in self.kids(table, rec))
        return self.test(term, f, table, rec, rec)

    @staticmethod
    def is_kind(term: Term, table: str) -> bool:
        """``kind:`` naming a table: every row of it (on the offerings, the offering's kind)."""
        if term.field != "kind" or term.op != "eq":
            return False
        return SCHEMA.field(table, "kind") is None or table_of_kind(str(term.value)) == "offerings" == table

    def child_only(self, node: Any, table: str) -> bool:
        terms = walk(node)
        return bool(terms) and all(
            t.op not in ("word", TIME_OP, "sort")
            and not self.is_kind(t, table)
            and self.field_of(t, table).scope != "record"
            for t in terms
        )

    def kids(self, table: str, rec: dict[str, Any]) -> list[dict[str, Any]]:
        return [k for k in rec.get(CHILD_KEY.get(table, ""), ()) if isinstance(k, dict)]

    @staticmethod
    def field_of(term: Term, table: str) -> Field:
        return _field(table, term.field or "starts")

    def time_test(self, spec: Any, table: str, rec: dict[str, Any]) -> bool:
        """A record's events: one of the change asked (a change of the field asked) in the window;
        a listed record was never removed."""
        for event in self.history.get(table, {}).get(rec.get("id"), ()):
            if spec.field is not None:
                if event.change != "changed" or spec.field not in event.fields:
                    continue
            elif event.change != spec.change or event.change == "removed":
                continue
            if spec.window is None:
                return True
            lo_spec, hi_spec = spec.window
            lo = None if lo_spec is None else self.edges(lo_spec)[0]
            hi = None if hi_spec is None else self.edges(hi_spec)[1]
            if (lo is None or event.ms >= lo) and (hi is None or event.ms <= hi):
                return True
        return False

    def edges(self, spec: Any) -> tuple[int, int]:
        """The first and last millisecond a date spec covers, days in the viewer's zone."""
        b = self.bounds(spec)
        if b.mode == "instant":
            return b.lo, b.hi
        zone = self.now.tzinfo
        first = datetime.combine(date.fromordinal(b.lo), time(), zone)
        after = datetime.combine(date.fromordinal(b.hi) + timedelta(days=1), time(), zone)
        return int(first.timestamp() * 1000), int(after.timestamp() * 1000) - 1

    # -- child level -------------------------------------------------------------------------

    def child(self, node: Any, table: str, rec: dict[str, Any], kid: dict[str, Any]) -> bool:
        if isinstance(node, Not):
            return not self.child(node.child, table, rec, kid)
        if isinstance(node, Or):
            return any(self.child(c, table, rec, kid) for c in node.children)
        if isinstance(node, And):
            return all(self.child(c, table, rec, kid) for c in node.children)
        if node.op == "word":
            return self.has_word(node.value, table, kid, "child") or self.has_word(
                node.value, table, rec, "record"
            )
        return self.test(node, self.field_of(node, table), table, kid, rec)

    # -- one value ---------------------------------------------------------------------------

    def has_word(self, word: str, table: str, rec: dict[str, Any], level: str) -> bool:
        w = fold(word)
        codes, numbers, texts = self.searched(table, rec, level)
        return (
            any(code == w or w in label for code, label in codes)
            or (w.isdigit() and any(w in number for number in numbers))
            or any(w in text for text in texts)
        )

    def searched(self, table: str, rec: dict[str, Any], level: str) -> _Searched:
        """What a bare word is looked for in, folded, from the fields searched at ``level``: codes
        (to equal) with their labels (to contain), numbers (digits to contain), texts (to contain).
        Made once per record and kept for the next Reference over the same facts and vocabulary
        (the values do not depend on ``now``)."""
        key = (table, id(rec), level)
        kept = self.kept.get(key)
        if kept is not None and kept[0] is rec:
            return kept[1]
        codes: list[tuple[str, str]] = []
        numbers: list[str] = []
        texts: list[str] = []
        for f in SCHEMA.fields[table]:
            if not f.searched or (f.scope == "record") != (level == "record"):
                continue
            if f.type is FieldType.CODE:
                codes += [
                    (fold(str(v)), fold(self.vocabulary.label(f.name, v))) for v in self.texts(f, table, rec)
                ]
            elif f.type in (FieldType.ID, FieldType.NUMBER, FieldType.MONEY):
                value = self.value(f, table, rec)
                if value is not None:
                    numbers.append(str(value))
            else:
                texts += [fold(str(v)) for v in self.texts(f, table, rec)]
        self.kept[key] = (rec, (codes, numbers, texts))  # rec kept alive: its id is not reused
        return codes, numbers, texts

    def texts(self, f: Field, table: str, rec: dict[str, Any]) -> list[Any]:
        value = self.value(f, table, rec)
        if value is None or value == "":
            return []
        return [v for v in value if v not in (None, "")] if isinstance(value, list) else [value]

    def value(self, f: Field, table: str, rec: dict[str, Any]) -> Any:
        if f.key.startswith("@"):  # derived from the facts, not ``now``: kept like ``searched``
            key = (table, id(rec), f.key)
            kept = self.kept.get(key)
            if kept is None or kept[0] is not rec:
                kept = self.kept[key] = (rec, self.derived(f.key, table, rec))
            return kept[1]
        return rec.get(f.key)

    def test(self, term: Term, f: Field, table: str, rec: dict[str, Any], record: dict[str, Any]) -> bool:
        if term.op == "date" and term.value.text in ("past", "future"):
            past = self.past(table, rec)
            return past if term.value.text == "past" else not past
        if term.op == "date":
            term = Term("starts", "eq", term.value, term.start, term.end)
        if term.op == "has":
            if f.key == "@ondemand":
                return True
            if f.type is FieldType.DATE:
                return self.date(rec.get(f.key)) is not None
            if f.type is FieldType.BOOL:
                return self.value(f, table, rec) in (True, False)
            if f.type in (FieldType.ID, FieldType.NUMBER):
                return type(self.value(f, table, rec)) is int
            if f.type is FieldType.MONEY:
                return self.money(self.value(f, table, rec)) is not None
            if f.type is FieldType.PRESENCE:
                return bool(self.value(f, table, rec))
            return bool(self.texts(f, table, rec))
        if f.key == "@ondemand":
            return self.on_demand(table, rec) == term.value
        value = self.value(f, table, rec)
        if f.type in (FieldType.TEXT, FieldType.NAMES):
            w = fold(term.value)
            items = [fold(str(v)) for v in self.texts(f, table, rec)]
            return any(w == v for v in items) if term.op == "exact" else any(w in v for v in items)
        if f.type is FieldType.BOOL:
            return value is term.value
        if f.type is FieldType.CODE:
            if term.op == "eq":
                w = fold(str(term.value))
                if value is None or value == "":
                    return False
                if str(term.value).strip().isdigit():
                    return fold(str(value)) == w
                return fold(str(value)) == w or w in fold(self.vocabulary.label(f.name, value))
            return self.compare(term.op, term.value, value if type(value) is int else None)
        if f.type is FieldType.DATE:
            return self.date_test(term, rec.get(f.key))
        number = self.money(value) if f.type is FieldType.MONEY else (value if type(value) is int else None)
        return self.compare(term.op, term.value, number)

    @staticmethod
    def compare(op: str, want: Any, have: Any) -> bool:
        if have is None:
            return False
        if op == "eq":
            return have == want
        if op == "lt":
            return have < want
        if op == "le":
            return have <= want
        if op == "gt":
            return have > want
        if op == "ge":
            return have >= want
        lo, hi = want
        return (lo is None or have >= lo) and (hi is None or have <= hi)

    @staticmethod
    def money(value: Any) -> Any:
        if isinstance(value, bool):
            return None
        if isinstance(value, int):
            return value
        if isinstance(value, str):
            try:
                return Decimal(value)
            except ArithmeticError:
                return None
        return None

    @staticmethod
    def date(text: Any) -> datetime | None:
        if not isinstance(text, str):
            return None
        read = _moment(text)
        return None if read is None else read[0]

    def date_test(self, term: Term, text: Any) -> bool:
        read = _moment(text) if isinstance(text, str) else None
        if read is None:
            return False
        _, day, ms = read
        now = self.now
        if term.op == "range":
            lo_spec, hi_spec = term.value
            lo_b = self.bounds(lo_spec) if lo_spec else None
            hi_b = self.bounds(hi_spec) if hi_spec else None
            if {b.mode for b in (lo_b, hi_b) if b} == {"local"}:
                return (lo_b is None or day >= lo_b.lo) and (hi_b is None or day <= hi_b.hi)
            lo = (
                None
                if lo_b is None
                else lo_b.lo
                if lo_b.mode == "instant"
                else literals.local_day_bounds_ms(lo_b.lo, lo_b.hi, now)[0]
            )
            hi = (
                None
                if hi_b is None
                else hi_b.hi
                if hi_b.mode == "instant"
                else literals.local_day_bounds_ms(hi_b.lo, hi_b.hi, now)[1]
            )
            return (lo is None or ms >= lo) and (hi is None or ms <= hi)
        b = self.bounds(term.value)
        x = day if b.mode == "local" else ms
        if term.op == "eq":
            return (b.lo is None or x >= b.lo) and (b.hi is None or x <= b.hi)
        if term.op == "gt":
            return b.hi is not None and x > b.hi
        if term.op == "ge":
            return b.lo is None or x >= b.lo
        if term.op == "lt":
            return b.lo is not None and x < b.lo
        return b.hi is None or x <= b.hi  # le

    def on_demand(self, table: str, rec: dict[str, Any]) -> bool:
        if "ondemand" in rec:
            return bool(rec["ondemand"])
        code = rec.get("type")
        return code is not None and str(code) in self.vocabulary.on_demand

    def past(self, table: str, rec: dict[str, Any]) -> bool:
        end = self.date(rec.get("endDate")) or self.date(rec.get("startDate"))
        return end is not None and end < self.now and not self.on_demand(table, rec)

    # -- derived -----------------------------------------------------------------------------

    def derived(self, key: str, table: str, rec: dict[str, Any]) -> Any:
        facts = self.facts
        rid = rec.get("id")
        counts = {
            ("@webinars", "experts"): ("webinars", "expertIds"),
            ("@courses", "experts"): ("courses", "expertIds"),
            ("@webinars", "topics"): ("webinars", "topicIds"),
            ("@courses", "topics"): ("courses", "topicIds"),
            ("@webinars", "roles"): ("webinars", "roleIds"),
            ("@webinars", "situations"): ("webinars", "situationIds"),
        }
        if (key, table) in counts:
            source, column = counts[(key, table)]
            return sum(1 for r in facts.get(source, ()) if rid in (r.get(column) or ()))
        if key == "@series":
            return _unique(
                s.get("title") or ""
                for s in facts.get("series", ())
                if any(k.get("id") == rid for k in s.get("sessions", ()))
            )
        if key == "@certificate":
            return (
                _unique(
                    c.get("title") or ""
                    for c in facts.get("certificates", ())
                    for i in c.get("courseIds", ())
                    if i == rid
                )
                or None
            )
        if key == "@course":
            titles = {c["id"]: c.get("title") for c in facts.get("courses", ())}
            ids = rec.get("courseIds") or []
            return [titles.get(i) or f"Course #{i}" for i in ids] or None
        if key == "@ondemand":
            return self.on_demand(table, rec)
        raise KeyError(key)


_Searched = tuple[list[tuple[str, str]], list[str], list[str]]


@cache
def _field(table: str, name: str) -> Field:
    """The field ``name`` of ``table`` (the schema is fixed: looked up once per pair)."""
    f = SCHEMA.field(table, name)
    assert f is not None
    return f


@cache
def _moment(text: str) -> tuple[datetime, int, int] | None:
    """A date-time as the facts write it (UTC if it names no zone), with its day ordinal and
    epoch milliseconds; None if it is no date-time. Read once per text."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    moment = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return moment, moment.toordinal(), int(moment.timestamp() * 1000)


_KEPT: list[tuple[Any, Vocabulary, dict[tuple[str, int, str], tuple[dict[str, Any], Any]]]] = []


def _kept_for(
    facts: dict[str, list[dict[str, Any]]], vocabulary: Vocabulary
) -> dict[tuple[str, int, str], tuple[dict[str, Any], Any]]:
    """What References over these facts (the same object) and this vocabulary keep of their
    records (searched words, derived values), keyed by table, record id() and what; the last
    four kept."""
    for kept_facts, kept_vocabulary, kept in _KEPT:
        if kept_facts is facts and kept_vocabulary == vocabulary:
            return kept
    _KEPT.insert(0, (facts, vocabulary, {}))
    del _KEPT[4:]
    return _KEPT[0][2]


def _unique(items: Iterable[str]) -> list[str] | None:
    out: list[str] = []
    for item in items:
        if item not in out:
            out.append(item)
    return out or None
