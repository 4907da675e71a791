"""The query language: text to a tree of clauses, or an error a person can fix.

    query    := and
    and      := or (["AND"] or)*                clauses side by side are ANDed
    or       := unary (("OR" | "|") unary)*     OR binds tighter: a OR b c is (a OR b) c
    unary    := ("-" | "NOT") unary | primary
    primary  := "(" and ")" | clause
    clause   := word | "quoted words" | FIELD ":" value | FIELD ":(" values ")" | has:FIELD | no:FIELD
              | added:WINDOW | changed:WINDOW | changed:FIELD | changed:FIELD@WINDOW | removed:WINDOW
              | sort:FIELD | sort:-FIELD         the order (at the top only: not negated, not in OR)
              | word:WORD | word:"WORDS"         a word to find, as a bare word is, never read
    value    := text | =exact | >N | >=N | <N | <=N | A..B | ..B | A..

``OR`` and ``AND`` may be written in any case, ``NOT`` in capitals (a lower-case "not" is a word).
``parse`` never raises: a query that does not parse comes back with a ``QueryError`` giving the
position, what was expected and, where one exists, a suggestion (``did you mean 'fee'?``).
"""

from __future__ import annotations

import dataclasses
import difflib
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from catalogue_desktop.core.query import literals, region_codes, timeline
from catalogue_desktop.core.query.fields import SCHEMA, FieldType, Schema

SORT_OP = "sort"  # Term.op of sort:FIELD (value: the field, "-" first when descending)
FIELD_CLAUSE = re.compile(r"([A-Za-z][A-Za-z0-9_]*)(:|<=|>=|<|>)(.*)", re.S)
_COMPARE = (">=", "<=", ">", "<")
_OPS = {">=": "ge", "<=": "le", ">": "gt", "<": "lt"}
_EXAMPLES = {
    FieldType.TEXT: "{f}:tax",
    FieldType.NAMES: "{f}:tax",
    FieldType.ID: "{f}:1234",
    FieldType.NUMBER: "{f}:>5",
    FieldType.MONEY: "{f}:<300",
    FieldType.DATE: "{f}:2027-03",
    FieldType.BOOL: "{f}:yes",
    FieldType.CODE: "{f}:2",
    FieldType.PRESENCE: "has:{f}",
}


@dataclass(frozen=True)
class QueryError:
    """Why a query does not parse: ``position`` (0-based) and ``end`` of the offending text."""

    position: int
    end: int
    message: str

    def describe(self) -> str:
        return f"{self.message} (at character {self.position + 1})"


class _Fail(Exception):
    def __init__(self, position: int, end: int, message: str) -> None:
        super().__init__(message)
        self.error = QueryError(position, max(end, position + 1), message)


@dataclass(frozen=True)
class Term:
    """One clause. ``field`` is a canonical field name, or None for a free word (``op`` "word")
    or a bare date (``op`` "date": the table's start date, or for past/future whether it ended).
    ``op``: word, contains, exact, eq, lt, le, gt, ge, range, has, sort (every row: an order, not
    a condition; ``value`` "fee" or "-fee"). ``value``: text, a number,
    a bool, a ``DateSpec``, or for a range a (low, high) pair with None for an open end."""

    field: str | None
    op: str
    value: Any
    start: int
    end: int

    @property
    def key(self) -> tuple[Any, ...]:
        return (self.field, self.op, self.value)


@dataclass(frozen=True)
class Not:
    child: Node
    start: int
    end: int


@dataclass(frozen=True)
class And:
    children: tuple[Node, ...]
    start: int
    end: int


@dataclass(frozen=True)
class Or:
    children: tuple[Node, ...]
    start: int
    end: int


Node = Term | Not | And | Or


@dataclass(frozen=True)
class Parsed:
    """A parsed query: ``root`` None means every row (an empty query) unless ``error`` is set."""

    text: str
    root: Node | None
    error: QueryError | None

    @property
    def ok(self) -> bool:
        return self.error is None


@dataclass(frozen=True)
class _Tok:
    kind: str  # ( ) OR AND NOT - WORD QUOTED END
    text: str
    start: int
    end: int


def parse(text: str, schema: Schema = SCHEMA) -> Parsed:
    """Parse ``text``; never raises."""
    try:
        tokens = _lex(text)
        root = _Parser(text, tokens, schema).parse()
        _check_sort(root)
    except _Fail as fail:
        return Parsed(text, None, fail.error)
    except RecursionError:
        return Parsed(text, None, QueryError(0, len(text), "too deeply nested"))
    return Parsed(text, root, None)


def lex(text: str) -> list[_Tok]:
    """The tokens of ``text`` (kind, text, start, end; the last is END); raises ``ValueError``
    for an unclosed quote or a lone '-'."""
    try:
        return _lex(text)
    except _Fail as fail:
        raise ValueError(fail.error.message) from None


def _check_sort(root: Node | None) -> None:
    """``sort:`` only among the clauses ANDed at the top (an order cannot be negated or ORed)."""
    top = {id(c) for c in top_clauses(root)}
    for term in walk(root):
        if term.op == SORT_OP and id(term) not in top:
            raise _Fail(
                term.start, term.end, "sort: sets the order: write it beside the query, not in OR or NOT"
            )


def _lex(text: str) -> list[_Tok]:
    out: list[_Tok] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c.isspace():
            i += 1
        elif c in "()":
            out.append(_Tok(c, c, i, i + 1))
            i += 1
        elif c == "|":
            out.append(_Tok("OR", c, i, i + 1))
            i += 1
        elif c == '"':
            j, chars = i + 1, []
            while j < n and text[j] != '"':
                if text[j] == "\\" and j + 1 < n and text[j + 1] in '"\\':
                    j += 1
                chars.append(text[j])
                j += 1
            if j >= n:
                raise _Fail(i, n, 'closing quote (") missing')
            out.append(_Tok("QUOTED", "".join(chars), i, j + 1))
            i = j + 1
        elif c == "-" and (not out or out[-1].end < i or out[-1].kind in ("(", "-", "NOT")):
            if i + 1 >= n or text[i + 1].isspace() or text[i + 1] == ")":
                raise _Fail(i, i + 1, "nothing after '-': write -word to leave out what matches")
            out.append(_Tok("-", c, i, i + 1))
            i += 1
        else:
            j = i
            while j < n and not text[j].isspace() and text[j] not in '()"|':
                j += 1
            word = text[i:j]
            kind = "WORD"
            if word.upper() in ("OR", "AND") or word == "NOT":
                kind = word.upper()
            out.append(_Tok(kind, word, i, j))
            i = j
    out.append(_Tok("END", "", n, n))
    return out


class _Parser:
    def __init__(self, text: str, tokens: list[_Tok], schema: Schema) -> None:
        self.text = text
        self.tokens = tokens
        self.schema = schema
        self.i = 0
        self.group: str | None = None  # inside field:( ... ): the field its values are for

    def peek(self) -> _Tok:
        return self.tokens[self.i]

    def take(self) -> _Tok:
        tok = self.tokens[self.i]
        self.i += 1
        return tok

    def parse(self) -> Node | None:
        if self.peek().kind == "END":
            return None
        node = self.parse_and()
        tok = self.peek()
        if tok.kind == ")":
            raise _Fail(tok.start, tok.end, "')' has no '(' before it")
        assert tok.kind == "END", tok
        return node

    def parse_and(self) -> Node:
        items: list[Node] = []
        while True:
            tok = self.peek()
            if tok.kind in ("END", ")"):
                break
            if tok.kind == "OR":
                raise _Fail(tok.start, tok.end, f"nothing before {tok.text}: write a OR b")
            if tok.kind == "AND":
                self.take()
                if not items or self.peek().kind in ("END", ")", "OR", "AND"):
                    raise _Fail(tok.start, tok.end, f"{tok.text} needs a clause on each side")
                continue
            items.append(self.parse_or())
        if not items:
            tok = self.peek()
            raise _Fail(tok.start, tok.end, "a clause is missing here")
        if len(items) == 1:
            return items[0]
        return And(tuple(items), items[0].start, items[-1].end)

    def parse_or(self) -> Node:
        """OR binds tighter than AND, as in Gmail: ``a OR b c`` is ``(a OR b) c``."""
        first = self.parse_unary()
        items = [first]
        while self.peek().kind == "OR":
            tok = self.take()
            if self.peek().kind in ("END", ")", "OR", "AND"):
                raise _Fail(tok.start, tok.end, f"nothing after {tok.text}: write a OR b")
            items.append(self.parse_unary())
        if len(items) == 1:
            return first
        return Or(tuple(items), items[0].start, items[-1].end)

    def parse_unary(self) -> Node:
        tok = self.peek()
        if tok.kind in ("-", "NOT"):
            self.take()
            if self.peek().kind in ("END", ")", "OR", "AND"):
                raise _Fail(tok.start, tok.end, f"nothing after {tok.text}")
            child = self.parse_unary()
            return Not(child, tok.start, child.end)
        return self.parse_primary()

    def parse_primary(self) -> Node:
        tok = self.take()
        if tok.kind == "(":
            if self.peek().kind == ")":
                raise _Fail(tok.start, self.peek().end, "empty parentheses")
            node = self.parse_and()
            close = self.peek()
            if close.kind != ")":
                raise _Fail(tok.start, tok.end, "')' missing: this '(' is not closed")
            self.take()
            return node
        if tok.kind == "QUOTED":
            if not tok.text.strip():
                raise _Fail(tok.start, tok.end, "empty quotes")
            if self.group is not None:
                return self.value(self.group, tok.text, tok.start, tok.end, quoted=True)
            return Term(None, "word", tok.text, tok.start, tok.end)
        if tok.kind == ")":
            raise _Fail(tok.start, tok.end, "')' has no '(' before it")
        assert tok.kind == "WORD", tok
        return self.word(tok)

    def word(self, tok: _Tok) -> Node:
        match = FIELD_CLAUSE.fullmatch(tok.text)
        if match and not match.group(3).startswith("//"):
            return self.clause(tok, *match.groups())
        if self.group is not None:
            nxt = self.peek()
            if tok.text == "=" and nxt.kind == "QUOTED" and nxt.start == tok.end:  # ="two words"
                self.take()
                return self.value(
                    self.group, nxt.text, nxt.start, nxt.end, quoted=True, exact=True, begin=tok.start
                )
            return self.value(self.group, tok.text, tok.start, tok.end)
        if literals.is_date_word(tok.text):
            try:
                spec = literals.date_spec(tok.text)
            except literals.LiteralError as exc:
                raise _Fail(tok.start, tok.end, str(exc)) from None
            return Term(None, "date", spec, tok.start, tok.end)
        return Term(None, "word", tok.text, tok.start, tok.end)

    def clause(self, tok: _Tok, name: str, op: str, rest: str) -> Node:
        value_at = tok.start + len(name) + len(op)
        if name.lower() in ("has", "no") and op == ":":
            field = self.field_name(rest, value_at, tok.end, what="has:/no: need a field")
            term = Term(field, "has", None, tok.start, tok.end)
            return term if name.lower() == "has" else Not(term, tok.start, tok.end)
        if name.lower() == "word" and op == ":":  # word:chicago: a word to find, never read as a city
            nxt = self.peek()
            if rest == "" and nxt.kind == "QUOTED" and nxt.start == tok.end and nxt.text.strip():
                self.take()
                return Term(None, "word", nxt.text, tok.start, nxt.end)
            if not rest:
                raise _Fail(tok.start, tok.end, "'word:' needs a word, e.g. word:chicago")
            return Term(None, "word", rest, tok.start, tok.end)
        if name.lower() == "sort" and op == ":":
            return Term(None, SORT_OP, self.sort_key(rest, value_at, tok.end), tok.start, tok.end)
        if timeline.is_time_clause(name, op):  # added:, changed:, removed: (``timeline``)
            try:
                return Term(
                    None, timeline.TIME_OP, timeline.parse_value(name, rest, self.schema), tok.start, tok.end
                )
            except literals.LiteralError as exc:
                raise _Fail(value_at, tok.end, f"{name.lower()}: {exc}") from None
        field = self.field_name(name, tok.start, tok.start + len(name))
        if op != ":":
            return self.value(field, op + rest, value_at - len(op), tok.end, begin=tok.start)
        nxt = self.peek()
        adjacent = nxt.start == tok.end
        if rest in ("", "=") and adjacent and nxt.kind == "QUOTED":
            self.take()
            term = self.value(field, nxt.text, nxt.start, nxt.end, quoted=True, exact=rest == "=")
            return Term(term.field, term.op, term.value, tok.start, nxt.end)
        if rest == "" and adjacent and nxt.kind == "(":
            return self.group_of(field, tok)
        if rest == "":
            example = _EXAMPLES[self.schema.value_type(field)].format(f=field)
            raise _Fail(tok.start, tok.end, f"'{tok.text}' needs a value, e.g. {example}")
        return self.value(field, rest, value_at, tok.end, begin=tok.start)

    def sort_key(self, rest: str, start: int, end: int) -> str:
        """``fee`` or ``-fee`` (descending): a field's canonical name."""
        descending = rest.startswith("-")
        name = rest[1:] if descending else rest
        if not name:
            raise _Fail(start, end, "sort: needs a field, e.g. sort:fee (cheapest first) or sort:-fee")
        field = self.field_name(name, start + descending, end)
        if self.schema.value_type(field) is FieldType.PRESENCE:
            raise _Fail(start, end, f"sort: {field} has no value to sort by")
        return ("-" if descending else "") + field

    def group_of(self, field: str, tok: _Tok) -> Node:
        if self.group is not None:
            raise _Fail(tok.start, tok.end, "a field group cannot hold another field's group")
        opening = self.take()
        if self.peek().kind == ")":
            raise _Fail(opening.start, self.peek().end, "empty parentheses")
        self.group = field
        try:
            node = self.parse_and()
        finally:
            self.group = None
        if self.peek().kind != ")":
            raise _Fail(opening.start, opening.end, "')' missing: this '(' is not closed")
        closing = self.take()
        return dataclasses.replace(node, start=tok.start, end=closing.end)

    def field_name(self, name: str, start: int, end: int, what: str = "") -> str:
        if not name:
            raise _Fail(start, end, what or "a field name is missing")
        canonical = self.schema.canonical(name)
        if canonical is None:
            close = difflib.get_close_matches(name.lower(), self.schema.names(), n=1, cutoff=0.6)
            hint = (
                f" — did you mean '{self.schema.canonical(close[0])}'?"
                if close
                else " — to search for text with ':' in it, put it in quotes"
            )
            raise _Fail(start, end, f"unknown field '{name}'{hint}")
        return canonical

    def value(
        self,
        field: str,
        text: str,
        start: int,
        end: int,
        *,
        quoted: bool = False,
        exact: bool = False,
        begin: int | None = None,
    ) -> Term:
        """The value ``text`` of ``field`` (written from ``start``; the clause from ``begin``): a
        Term, or an error naming what the field takes."""
        begin = start if begin is None else begin
        ftype = self.schema.value_type(field)
        try:
            op, value = self._typed(field, ftype, text, quoted, exact)
        except literals.LiteralError as exc:
            raise _Fail(start, end, f"{field}: {exc}") from None
        return Term(field, op, value, begin, end)

    def _typed(self, field: str, ftype: FieldType, text: str, quoted: bool, exact: bool) -> tuple[str, Any]:
        """(op, value) of a value as written: a quoted text is taken as it is (``exact`` when it
        followed ``=``); a bare one may start with =, <, <=, >, >= or hold a range A..B."""
        if ftype is FieldType.PRESENCE:
            raise literals.LiteralError(f"only has:{field} and no:{field} can test it")
        compare = None
        if not quoted:
            compare = next((c for c in _COMPARE if text.startswith(c)), None)
            exact = compare is None and text.startswith("=")
        body = text[len(compare) :] if compare else text[1:] if exact and not quoted else text
        if not body.strip():
            raise literals.LiteralError(f"'{text}' needs a value after it")
        if ftype in (FieldType.TEXT, FieldType.NAMES):
            if compare:
                raise literals.LiteralError(
                    f"is text: comparisons (<, >) work on numbers and dates; write {field}:word"
                )
            region = region_codes.region_code(body) if field == "state" else None
            if region is not None:  # state:illinois is state:il is state:=IL (the service's codes)
                return "exact", region
            return ("exact" if exact else "contains"), body
        if ftype is FieldType.BOOL:
            if compare or ".." in body:
                raise literals.LiteralError("write yes or no")
            return "eq", literals.boolean(body)
        if ftype is FieldType.CODE and not compare and ".." not in body:
            return "eq", body.strip()
        parse_one = literals.date_spec if ftype is FieldType.DATE else literals.number
        if ".." in body and not compare and not exact:
            lo_text, _, hi_text = body.partition("..")
            if not lo_text and not hi_text:
                raise literals.LiteralError("'..' needs a start, an end or both: A..B, ..B, A..")
            lo = parse_one(lo_text) if lo_text else None
            hi = parse_one(hi_text) if hi_text else None
            if _numbers_reversed(lo, hi):
                raise literals.LiteralError(f"'{body}': the range's start is after its end")
            return "range", (lo, hi)
        value = parse_one(body)
        return (_OPS[compare] if compare else "eq"), value


def walk(node: Node | None) -> list[Term]:
    """The clauses of a tree, left to right."""
    if node is None:
        return []
    if isinstance(node, Term):
        return [node]
    if isinstance(node, Not):
        return walk(node.child)
    return [t for child in node.children for t in walk(child)]


def top_clauses(node: Node | None) -> list[Node]:
    """The clauses ANDed at the top of a tree."""
    if node is None:
        return []
    if isinstance(node, And):
        return list(node.children)
    return [node]


def quote(value: str) -> str:
    """A value as a query writes it: bare when it is one plain word, else in quotes."""
    if (
        value
        and re.fullmatch(r"[\w.@'&/+-]+", value)
        and not value.startswith("-")
        and value.upper() not in ("OR", "AND", "NOT")
        and ":" not in value
    ):
        return value
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _numbers_reversed(lo: object, hi: object) -> bool:
    """A range of numbers whose start is after its end (dates are compared when the query runs)."""
    return isinstance(lo, int | Decimal) and isinstance(hi, int | Decimal) and lo > hi


def has_removed(root: Node | None) -> bool:
    """The query (its root node) asks for withdrawn records: a ``removed:`` clause not under a
    NOT."""
    if isinstance(root, Term):
        return bool(root.op == timeline.TIME_OP and root.value.change == "removed")
    if isinstance(root, (And, Or)):
        return any(has_removed(c) for c in root.children)
    return False  # Not, or nothing
