"""The finder's engine: a parsed query evaluated on one table to a bitset of its rows.

Semantics, beyond the syntax (``syntax``):

* A free word is looked for (folded, as a substring) in the table's searched fields; a bare date
  (``2027-03``, ``today``, ``next30d``) means the table's start date; bare ``past`` means the
  occasion has ended (its end, else its start, is before now, and it is not on demand) and
  ``future`` the opposite.
* ``kind:VALUE`` names a table (``fields.table_of_kind``): every row of it, none of another (on
  the offerings, ``kind:course``/``webinar``/``session`` is the offering's own kind, as always);
  ``sort:FIELD`` is an order, not a condition: every row (``core.query.order`` sorts them).
* A table that lacks a field the query names matches nothing, and says which field
  (``Outcome.missing``): the query as a whole stays valid for the other tables.
* **Same location.** Courses hold locations and series hold sessions (child rows). In an AND
  group, the clauses on child fields (``city``, ``starts``, ``fee`` ...) are evaluated together
  on each child row, and a record matches when one of its child rows satisfies all of them:
  ``city:dallas starts:2027-03 fee:<1300`` needs one location in Dallas, in March, under 1,300.
  A free word in such a group holds for that same child row, or for the record itself (its
  title). A group of only negated child clauses (``-city:dallas``) is about the record: none of
  its locations is in Dallas. The child rows that satisfied the query are reported
  (``Outcome.child_bits``), so a row can show the matching location's date, city and fee.

Each clause's rows are remembered per table (``Table`` objects are replaced, never changed, when
data reloads), so a keystroke that changes one clause re-evaluates that clause alone.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import datetime
from itertools import compress, repeat
from operator import contains
from typing import Any

from catalogue_desktop.core.query import bits, literals, timeline
from catalogue_desktop.core.query.fields import (
    OFFERINGS,
    SCHEMA,
    Field,
    FieldType,
    Schema,
    offering_kind,
    table_of_kind,
)
from catalogue_desktop.core.query.folding import fold
from catalogue_desktop.core.query.index import RangeIndex, ScanningRangeIndex, TextIndex
from catalogue_desktop.core.query.leaves import dates, numeric
from catalogue_desktop.core.query.matches import Matches
from catalogue_desktop.core.query.syntax import SORT_OP, And, Node, Not, Or, Parsed, Term, parse, walk
from catalogue_desktop.core.query.table import DateIndex, FlagIndex, Table
from catalogue_desktop.core.query.vocabulary import Vocabulary

__all__ = ["Finder", "Outcome", "Vocabulary"]

_REMEMBERED = 512  # clause results kept per table
_NUMERIC = (FieldType.ID, FieldType.NUMBER, FieldType.MONEY)


class Outcome(Matches):
    """A query's rows in one table (``Matches``: count, bits, mask, rows), and why none matched
    when the table lacks a field the query names."""

    __slots__ = ("child_bits", "everything", "missing", "table", "why")

    def __init__(
        self,
        table: str,
        n: int,
        bits: int = 0,
        *,
        missing: str | None = None,
        why: str | None = None,
        child_bits: int = 0,
        everything: bool = False,
    ) -> None:
        super().__init__(n, bits=bits)
        self.table = table
        self.missing = missing  # a field the table does not have (or only for has:/no:)
        self.why = why  # ... and why it shows nothing, in words
        self.child_bits = child_bits  # the child rows (locations, sessions) that satisfied the query
        self.everything = everything  # an empty query

    @property
    def n(self) -> int:
        """The table's rows."""
        return self.total

    def message(self) -> str | None:
        """Why the table shows nothing, when it lacks a field."""
        return self.why


@dataclass
class _Run:
    now: datetime
    child_hits: int = 0


class Finder:
    """Queries over a set of tables (``set_table``), with their derived columns."""

    def __init__(self, vocabulary: Vocabulary | None = None, schema: Schema = SCHEMA) -> None:
        self.schema = schema
        self.vocabulary = vocabulary or Vocabulary()
        self.tables: dict[str, Table] = {}
        self._caches: dict[int, OrderedDict[tuple[object, ...], int]] = {}  # per table: rows by clause

    # -- tables ----------------------------------------------------------------------------------

    def set_table(self, table: Table) -> None:
        """Take a (re)loaded table; the others' derived columns are made again when next used."""
        from catalogue_desktop.core.query.derived import derive

        old = self.tables.get(table.name)
        if old is not None:
            self._forget(old)
        self.tables[table.name] = table
        for t in (table, table.child):
            if t is not None:
                t.derive = lambda tb, key: derive(self, tb, key)
        for other in self.tables.values():
            if other is not table:
                other.forget_derived()
                self._forget(other)

    def set_vocabulary(self, vocabulary: Vocabulary) -> None:
        if vocabulary == self.vocabulary:
            return
        self.vocabulary = vocabulary
        for t in self.tables.values():
            t.forget_derived()
            self._forget(t)

    def forget_answers(self) -> None:
        """Forget every remembered clause and word (the benchmark's cold runs)."""
        self._caches.clear()
        for t in self.tables.values():
            for tb in (t, t.child):
                if tb is not None:
                    tb.forget_answers()

    def _forget(self, table: Table) -> None:
        self._caches.pop(id(table), None)
        if table.child is not None:
            self._caches.pop(id(table.child), None)

    def _cache(self, table: Table) -> OrderedDict[tuple[object, ...], int]:
        cache = self._caches.get(id(table))
        if cache is None:
            cache = self._caches[id(table)] = OrderedDict()
        return cache

    # -- queries ---------------------------------------------------------------------------------

    def evaluate(self, query: str | Parsed, table: str, now: datetime) -> Outcome:
        """The rows of ``table`` matching ``query`` (none if it does not parse: see ``parse().error``)."""
        parsed = parse(query, self.schema) if isinstance(query, str) else query
        t = self.tables[table]
        if parsed.error is not None:
            return Outcome(table, t.n)
        if parsed.root is None:
            return Outcome(table, t.n, t.all, everything=True)
        missing = self.missing(parsed.root, table)
        if missing is not None:
            return Outcome(table, t.n, missing=missing[0], why=missing[1])
        run = _Run(now)
        result = self._eval(parsed.root, t, run, True)
        return Outcome(table, t.n, result, child_bits=run.child_hits)

    def evaluate_nodes(self, nodes: list[Node], table: str, now: datetime) -> Outcome:
        """The rows matching every one of ``nodes`` (clauses of a parsed query)."""
        t = self.tables[table]
        if not nodes:
            return Outcome(table, t.n, t.all, everything=True)
        root = nodes[0] if len(nodes) == 1 else And(tuple(nodes), nodes[0].start, nodes[-1].end)
        missing = self.missing(root, table)
        if missing is not None:
            return Outcome(table, t.n, missing=missing[0], why=missing[1])
        run = _Run(now)
        return Outcome(table, t.n, self._eval(root, t, run, True), child_bits=run.child_hits)

    def counts(
        self, query: str | Parsed, now: datetime, tables: Iterable[str] | None = None
    ) -> dict[str, int | None]:
        """Each table's count of matches (None: it lacks a field the query names)."""
        parsed = parse(query, self.schema) if isinstance(query, str) else query
        out: dict[str, int | None] = {}
        for name in tables or self.tables:
            outcome = self.evaluate(parsed, name, now)
            out[name] = None if outcome.missing else outcome.count
        return out

    def clause_counts(self, query: str | Parsed, table: str, now: datetime) -> list[tuple[Node, int | None]]:
        """How many rows each top-level clause matches alone (None: the table lacks its field)."""
        from catalogue_desktop.core.query.syntax import top_clauses

        parsed = parse(query, self.schema) if isinstance(query, str) else query
        t = self.tables[table]
        out: list[tuple[Node, int | None]] = []
        for clause in top_clauses(parsed.root):
            if self.missing(clause, table) is not None:
                out.append((clause, None))
            else:
                out.append((clause, self._eval(clause, t, _Run(now), True).bit_count()))
        return out

    def missing(self, root: Node, table: str) -> tuple[str, str] | None:
        """The first field ``root`` names that ``table`` lacks ("dates" for a bare date), or has
        for has:/no: only, and a sentence saying so."""
        for term in walk(root):
            if term.op == timeline.TIME_OP and (why := timeline.supports(table, term.value, self.schema)):
                return why
            if term.op == SORT_OP or is_kind(term, table, self.schema):
                continue
            if term.field is not None:
                f = self.schema.field(table, term.field)
                if f is None:
                    return term.field, f"{table} have no field '{term.field}'"
                if f.type is FieldType.PRESENCE and term.op != "has":
                    return term.field, (
                        f"the {term.field} of {table} is not searchable: "
                        f"use has:{term.field} or no:{term.field}"
                    )
            elif term.op == "date" and self.schema.field(table, "starts") is None:
                return "dates", f"{table} have no dates"
        return None

    # -- evaluation ------------------------------------------------------------------------------

    def _eval(self, node: Node, t: Table, run: _Run, positive: bool) -> int:
        if isinstance(node, Term):
            return self._term(node, t, run, positive)
        if isinstance(node, Not):
            return t.all ^ self._eval(node.child, t, run, not positive)
        if isinstance(node, Or):
            result = 0
            for child in node.children:
                result |= self._eval(child, t, run, positive)
            return result
        assert isinstance(node, And)
        children = list(node.children)
        result = t.all
        if t.child is not None:
            group = [c for c in children if self._child_only(c, t)]
            if any(not isinstance(c, Not) for c in group):
                words = [c for c in children if isinstance(c, Term) and c.op == "word"]
                joined = group + words
                child_bits = t.child.all
                for c in joined:
                    child_bits &= self._eval(c, t.child, run, positive)
                    if not child_bits:
                        break
                if positive:
                    run.child_hits |= child_bits
                result = t.project(child_bits)
                children = [c for c in children if c not in joined]
        for c in children:
            if not result:
                break
            result &= self._eval(c, t, run, positive)
        return result

    def _child_only(self, node: Node, t: Table) -> bool:
        """Every clause of ``node`` is about ``t``'s child rows (a location, a session)."""
        terms = walk(node)
        return bool(terms) and all(self._scope(term, t) != "record" for term in terms)

    def _scope(self, term: Term, t: Table) -> str:
        if term.op in ("word", timeline.TIME_OP, SORT_OP):
            return "record"
        name = term.field if term.field is not None else "starts"
        f = self.schema.field(t.name, name)
        return "record" if f is None else f.scope

    def _term(self, term: Term, t: Table, run: _Run, positive: bool) -> int:
        if term.op == timeline.TIME_OP:  # added:, changed:, removed: (``timeline``)
            history = t.history  # (none: the table's records have no history, so nothing holds)
            spec = term.value
            return self._remember(
                t, spec.key(run.now), lambda: 0 if history is None else history.select(spec, run.now)
            )
        if term.op == "word":
            return self._word(term.value, t, run, positive)
        if term.op == SORT_OP:
            return t.all
        if is_kind(term, t.name, self.schema):
            return t.all if table_of_kind(str(term.value)) == t.name else 0
        if term.field == "kind" and t.name == OFFERINGS and offering_kind(term.value) != term.value:
            term = replace(term, value=offering_kind(term.value))
        scope = self._scope(term, t)
        if scope != t.scope:
            if t.scope == "record" and t.child is not None:  # a child field: one of its child rows
                child_bits = self._term(term, t.child, run, positive)
                if positive:
                    run.child_hits |= child_bits
                return t.project(child_bits)
            raise AssertionError(f"{term} is not about {t}")  # groups hold child clauses only
        key = (term.key, self._now_key(term, run.now))
        found = self._remember(t, key, lambda: self._leaf(term, t, run.now))
        if t.name == OFFERINGS and is_webinar_kind(term):
            # A series' session is a webinar (the spec: a Series embeds its Webinar records in
            # sessions): ``kind:webinar`` on the Dates is every webinar's date, a session's too
            # ("cle webinars next 30 days" there found none of a series' webinars).
            session = replace(term, value="session")
            found |= self._remember(t, (session.key, None), lambda: self._leaf(session, t, run.now))
        return found

    def _now_key(self, term: Term, now: datetime) -> Any:
        """What of ``now`` a clause's rows depend on (relative dates), for the cache key."""
        values = term.value if isinstance(term.value, tuple) else (term.value,)
        if any(isinstance(v, literals.DateSpec) for v in values):
            return (now.isoformat(timespec="minutes"), self.vocabulary.key())
        if term.field in ("type", "ondemand"):
            return self.vocabulary.key()
        return None

    def _word(self, word: str, t: Table, run: _Run, positive: bool) -> int:
        """Rows with ``word`` in a searched field (of the record or of one of its child rows); at
        a child level (joined with child clauses), child rows with it or whose record has it."""
        folded = fold(word)
        found = self._searched(t, folded)
        if t.scope != "record":
            parent = self.tables[t.name]
            return found | parent.spread(self._searched(parent, folded))
        if t.child is not None:
            child_bits = self._searched(t.child, folded)
            if positive:
                run.child_hits |= child_bits
            found |= self._remember(t, ("projected", folded), lambda: t.project(child_bits))
        return found

    def _searched(self, t: Table, folded: str) -> int:
        """Rows of ``t`` itself with ``folded`` in a searched field."""

        def scan() -> int:
            found = 0
            for f in t.fields.values():
                if f.searched:
                    found |= self._contains(t, f, folded)
            return found

        return self._remember(t, ("word", folded, self.vocabulary.key()), scan)

    def _remember(self, t: Table, key: tuple[object, ...], make: Callable[[], int]) -> int:
        """Rows ``make`` finds, remembered under ``key`` (the last ``_REMEMBERED`` per table)."""
        cache = self._cache(t)
        found = cache.get(key)
        if found is None:
            found = cache[key] = make()
            if len(cache) > _REMEMBERED:
                cache.popitem(last=False)
        else:
            cache.move_to_end(key)
        return found

    def _contains(self, t: Table, f: Field, folded: str) -> int:
        if f.type is FieldType.CODE:
            return self._code_text(t, f, folded, exact=False)
        if f.type in _NUMERIC:
            return self._digits(t, f, folded) if folded.isdigit() else 0
        return t.index(f, TextIndex).contains(folded)

    def _digits(self, t: Table, f: Field, folded: str) -> int:
        """Rows whose number holds the digits ``folded`` (an id typed in part): a scan in C of
        the numbers' texts, made at the first such word (docs/decisions.md, "The finder's engine")."""

        def scan() -> int:
            texts = t.number_texts(f.key)
            hits = compress(range(len(texts)), map(contains, texts, repeat(folded)))
            return bits.from_rows(list(hits), t.n)

        return self._remember(t, ("digits", f.key, folded), scan)

    def _code_text(self, t: Table, f: Field, folded: str, *, exact: bool) -> int:
        """Rows whose code is ``folded``, or (not ``exact``) whose label contains it (none, its index
        not built, when no code is named: a fresh ``find`` builds no index for most words)."""
        label = self.vocabulary.label

        def named(code: str) -> bool:
            return fold(code) == folded or (not exact and folded in fold(label(f.name, code)))

        codes = t.distinct_texts(f.key) if t.built_index(f.name, TextIndex) is None else None
        if codes is not None and not any(map(named, codes)):
            return 0
        index = t.index(f, TextIndex)
        return index.rows_of([tid for tid, code in enumerate(index.originals) if named(code)])

    def _leaf(self, term: Term, t: Table, now: datetime) -> int:
        if term.op == "date":
            spec = term.value
            if spec.text in ("past", "future"):
                past = self._past(t, now)
                return past if spec.text == "past" else t.all ^ past
            term = Term("starts", "eq", spec, term.start, term.end)
        f = self.schema.field(t.name, term.field or "")
        assert f is not None
        if term.op == "has":
            return self._present(t, f)
        if f.key == "@ondemand" and term.op == "eq":
            on_demand = self._on_demand(t)
            return on_demand if term.value else t.all ^ on_demand
        kind = f.type
        if kind in (FieldType.TEXT, FieldType.NAMES):
            text = t.index(f, TextIndex)
            word = fold(term.value)
            return text.exact(word) if term.op == "exact" else text.contains(word)
        if kind is FieldType.BOOL:
            flag = t.index(f, FlagIndex)
            return flag.true if term.value else flag.false
        if kind is FieldType.CODE:
            if term.op == "eq":
                value = str(term.value)
                return self._code_text(t, f, fold(value), exact=value.strip().isdigit())
            return numeric(term, t.index(f, RangeIndex, "int"))
        if kind is FieldType.DATE:
            return dates(term, t.index(f, DateIndex), now)
        return numeric(term, t.index(f, RangeIndex))

    def _present(self, t: Table, f: Field) -> int:
        if f.key == "@ondemand":
            return t.all
        if f.type in (FieldType.TEXT, FieldType.NAMES, FieldType.CODE):
            return t.index(f, FlagIndex, "present").true
        kind = {FieldType.DATE: DateIndex, FieldType.BOOL: FlagIndex, FieldType.PRESENCE: FlagIndex}
        return t.index(f, kind.get(f.type, RangeIndex)).present

    def _on_demand(self, t: Table) -> int:
        """Rows on demand: a webinar or session of a type marked so, or an offering dated so."""

        def make() -> int:
            if "ondemand" in t.columns:
                return bits.from_rows([i for i, v in enumerate(t.columns["ondemand"]) if v], t.n)
            if "type" in t.columns:
                codes = self.vocabulary.on_demand
                return bits.from_rows(
                    [i for i, v in enumerate(t.columns["type"]) if v is not None and str(v) in codes], t.n
                )
            return 0

        return self._remember(t, ("ondemand", self.vocabulary.key()), make)

    def _past(self, t: Table, now: datetime) -> int:
        """Rows whose occasion has ended (end, else start, before now), not on demand."""
        ended = t.extra_index("@ended", RangeIndex, lambda: self._ended(t))
        past = ended.select(None, literals.epoch_ms(now), hi_open=True)
        return past & ~self._on_demand(t)

    def _ended(self, t: Table) -> RangeIndex:
        f_start = self.schema.field(t.name, "starts")
        f_end = self.schema.field(t.name, "ends")
        assert f_start is not None
        starts = t.index(f_start, DateIndex).ms
        ends = t.index(f_end, DateIndex).ms if f_end is not None else starts
        return RangeIndex([e if e is not None else s for s, e in zip(starts, ends, strict=True)])

    def past_steps(self, t: Table, ended: list[int | None] | None = None) -> Iterator[None]:
        """Build, a slice at a time, what ``past`` and ``future`` need on ``t`` (the index of when
        each occasion ended, which rows are on demand): ahead, so that the first of them is
        answered at once. ``ended``: each row's end (else start) in epoch ms, if the caller has
        them (else they are read from the dates' indexes, built first); their index then answers
        by a scan until ``t``'s ``extra_index_steps("@ended", ...)`` builds it."""
        if ended is None:
            yield from self.past_index_steps(t)
        else:
            scanning = t.extra_index("@ended", RangeIndex, lambda: ScanningRangeIndex(ended))
            if isinstance(scanning, ScanningRangeIndex):  # (not if built already)
                scanning.prepare()
            yield
        self._on_demand(t)
        yield

    def past_index_steps(self, t: Table) -> Iterator[None]:
        """Build the index of when ``t``'s occasions ended, if ``past_steps`` left it to a scan:
        the dates' indexes it is made of first, a slice at a time (``_ended`` made them at once:
        at 10,000 webinars one step of 35 ms of CPU parsing every offering's dates, issue 40)."""
        for name in ("starts", "ends"):
            f = self.schema.field(t.name, name)
            if f is not None:
                yield from t.index_steps(f)
        yield from t.extra_index_steps("@ended", lambda: self._ended(t))


def is_webinar_kind(term: Term) -> bool:
    """Whether ``term`` is ``kind:webinar`` on the offerings (as written, or by a facet's value):
    every webinar's date, a series' sessions too (``kind:session``: those alone)."""
    return (
        term.field == "kind"
        and term.op in ("eq", "exact")
        and isinstance(term.value, str)
        and fold(term.value.strip()) == "webinar"
    )


def is_kind(term: Term, table: str, schema: Schema = SCHEMA) -> bool:
    """Whether ``term`` is ``kind:VALUE`` naming a table rather than an offering's kind: on a
    table without a ``kind`` field, or on the offerings ``kind:dates`` (``kind:offerings``)."""
    if term.field != "kind" or term.op != "eq":
        return False
    return schema.field(table, "kind") is None or (
        table == OFFERINGS and table_of_kind(str(term.value)) == OFFERINGS
    )
