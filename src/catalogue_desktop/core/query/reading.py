"""Plain words read into conditions: what a person types ("texas courses under 1500") turned into
the query language (``state:TX kind:course fee:<1500``), shown before it is applied.

The contract the window, ``find``, ``export --query`` and saved searches rely on (issue 36):

* ``read(text, lexicon, now)`` never raises and is deterministic: the same text and lexicon give
  the same ``Reading``.
* A formal query reads as itself: clauses written in the language (``field:value``, AND/OR/NOT,
  parentheses, quotes) are kept as written; only bare words are read.
* ``Reading.query`` is the equivalent query in the language; ``read(reading.query, ...)`` reads
  the same conditions (the reading of a phrase equals the reading of its equivalent query).
* ``Reading.conditions`` are what was understood, in the order typed, each with the words it came
  from (``span`` in ``text``) so the window can show it as a removable chip; removing one is
  ``Reading.text_without(i)``: the typed text less those words.
* ``Reading.words`` is what stayed free words; ``Reading.table`` the tab (engine table: a
  ``Kind.value`` or "offerings") a kind word named, ``Reading.sort`` the order asked for.
* ``literal=True`` (the window's "search these words instead", ``find --words``) reads nothing:
  the text is parsed as the language alone, as before this module existed.

The rules are in ``rules`` (what words mean), the vocabulary in ``lexicon`` (the catalogue's own
words); here they are applied: the typed text is cut into the language's tokens, runs of bare words
are read left to right (the longest match first; a word no rule takes stays a free word), a word
that matches nothing but is one edit from a city or a person is read as that one (and said:
"Did you mean Chicago?"), and the equivalent query is the typed text with each read run replaced by
its clause.
"""

from __future__ import annotations

import re
from collections.abc import Container, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from rapidfuzz.distance import OSA
from rapidfuzz.process import extractOne

from catalogue_desktop.core.query import literals, region_codes, rules
from catalogue_desktop.core.query.fields import tab_of_kind
from catalogue_desktop.core.query.lexicon import Lexicon, keys
from catalogue_desktop.core.query.rules.glue import GLUE
from catalogue_desktop.core.query.syntax import (
    FIELD_CLAUSE,
    Parsed,
    Term,
    lex,
    parse,
    quote,
    top_clauses,
    walk,
)

__all__ = ["Condition", "Lexicon", "Reading", "literal_query", "read", "read_on_tab"]


@dataclass(frozen=True)
class Condition:
    """One thing understood: ``label`` in words for people ("Illinois", "CPE credit", "under
    1,500"), ``clause`` in the query language (``state:IL``), ``span`` the (start, end) of the typed
    words it was read from, ``other`` another reading the data also supports, as a clause (a city
    named like a state), or None."""

    label: str
    clause: str
    span: tuple[int, int]
    other: str | None = None


@dataclass(frozen=True)
class Reading:
    """What a typed text was read as. ``query`` is the equivalent query (what is evaluated and
    what a saved search keeps); ``suggestion`` a "did you mean" text for a word that matches
    nothing but is one edit from a known value (None if none)."""

    text: str
    query: str
    conditions: tuple[Condition, ...] = ()
    words: tuple[str, ...] = ()
    table: str | None = None
    sort: str | None = None
    suggestion: str | None = None
    literal: bool = False

    @property
    def understood(self) -> bool:
        """Whether anything was read beyond the language as typed."""
        return bool(self.conditions) or self.table is not None or self.sort is not None

    def text_without(self, index: int) -> str:
        """The typed text less the words condition ``index`` was read from, and the glue just
        before them ("in" of "in chicago": "courses in chicago in december" less Chicago is
        "courses in december", not "courses in in december")."""
        start, end = self.glued_span(index)
        return " ".join([*self.text[:start].split(), *self.text[end:].split()])

    def offered_other(self) -> tuple[int, str] | None:
        """The first condition read one way that the data also has another way, offered to the
        person ("Washington" read as the city: "Washington (state)"), as (its index, the other
        in words); None if none. Only a place or a series: a topic's other reading, its word, is
        what "search these words instead" gives."""
        for index, condition in enumerate(self.conditions):
            other = condition.other
            if other is None:
                continue
            field, _, value = other.partition(":")
            value = value.strip('"')
            if field == "state" and (name := region_codes.name_of(value)):
                return index, f"{name} (state)"
            if field == "city" and value:
                return index, f"{value} (city)"
            if field == "series" and value:
                return index, f"the series “{value}”"
        return None

    def with_other(self, index: int) -> str:
        """The typed text with condition ``index``'s words written as its other reading."""
        condition = self.conditions[index]
        start, end = condition.span
        return f"{self.text[:start]}{condition.other or ''}{self.text[end:]}"

    def glued_span(self, index: int) -> tuple[int, int]:
        """The span of condition ``index``'s words with the glue words just before them ("in
        chicago" for Chicago), never reaching into an earlier condition's words: what goes
        with them when they are taken out or written as their clause."""
        start, end = self.conditions[index].span
        floor = max((e for _, e in (c.span for c in self.conditions) if e <= start), default=0)
        while (glue := _LAST_WORD.search(self.text, floor, start)) and (glue[1].lower(),) in GLUE:
            start = glue.start()
        return start, end


_LAST_WORD = re.compile(r"(\S+)\s*$")  # the last word of a stretch of text, and the space after it


def read(
    text: str, lexicon: Lexicon, now: datetime, *, literal: bool = False, table: str | None = None
) -> Reading:
    """The reading of ``text`` (see the module's docstring) for ``table`` (the tab the person is
    on: what applies there is read; None: whatever applies to any table, as ``find`` reads)."""
    if literal:
        return _literal(text, parse(text), literal=True)
    try:
        return _read(text, lexicon, now, table)
    except RecursionError:  # pragma: no cover - absurdly nested text
        return _literal(text, parse(text))
    except (IndexError, KeyError, ValueError):  # pragma: no cover - a rule's slip: read nothing
        return _literal(text, parse(text))


def read_on_tab(text: str, lexicon: Lexicon, now: datetime, table: str, *, literal: bool = False) -> Reading:
    """The window's reading of ``text`` on ``table``'s tab: the same words mean the same on every
    tab. Read for the tab (what it adds: an expert's ``name:`` on Experts, its titles' phrases,
    counts and orders it has), unless that leaves words free that ``find``'s reading (for any
    table) understands: a city, a fee or a credit on a tab without one is still that place, fee
    or credit, which this tab lacks (it shows none; the window moves to where the results are),
    never a word searched in its text ("chicago december" on Webinars was 0 everywhere). On Dates,
    a kind of date ("texas courses") stays there, the dates of that kind, unless the words need
    that kind's own tab ("webinars with no access link": the dates have no access link)."""
    here = read(text, lexicon, now, literal=literal, table=table)
    if literal or not here.words:
        return here
    others = [read(text, lexicon, now, table=t) for t in _kinds_named(here)]
    best = here
    for other in [*others, read(text, lexicon, now, table=None)]:
        if len(other.words) < len(best.words):
            best = other
    return best


def _kinds_named(reading: Reading) -> list[str]:
    """The tabs of the kinds of date a reading on the Dates tab names (``kind:course``: courses)."""
    tables = {f"kind:{value}": table for table, (value, _) in rules.DATE_KINDS.items()}
    tables["kind:session"] = "series"
    return [tables[c.clause] for c in reading.conditions if c.clause in tables]


def _literal(text: str, parsed: Parsed, *, literal: bool = False) -> Reading:
    shown, order = directives(parsed)
    return Reading(text=text, query=text, words=free_words(parsed), table=shown, sort=order, literal=literal)


def literal_query(text: str) -> str:
    """``text`` written so that nothing in it is read: each bare word and quoted phrase that the
    reading might take as ``word:WORD`` (``chicago cpe`` -> ``word:chicago word:cpe``), the rest as
    typed; a saved search of words searched as words keeps them so. ``text`` itself when it does
    not parse."""
    try:
        tokens = lex(text)
    except ValueError:
        return text
    runs, words = _runs(text, tokens)
    replaced: dict[int, str | None] = {}
    for run in runs:
        for tok in run.tokens:
            if tok.start in replaced:
                continue
            if run.quoted:
                replaced[tok.start] = "word:" + quote(text[tok.start + 1 : tok.end - 1].replace('\\"', '"'))
            elif text[tok.start : tok.end].lower() not in ("and", "or"):
                replaced[tok.start] = "word:" + quote(words[tok.start])
    query = _written(text, tokens, replaced, words)
    return query if parse(query).ok else text


def directives(parsed: Parsed) -> tuple[str | None, str | None]:
    """The table a query's ``kind:`` clause names (the first at its top) and its order
    (``sort:``), or None."""
    shown = order = None
    for clause in top_clauses(parsed.root):
        if isinstance(clause, Term) and clause.field == "kind" and clause.op == "eq" and shown is None:
            shown = tab_of_kind(str(clause.value))
        if isinstance(clause, Term) and clause.op == "sort" and order is None:
            order = clause.value
    return shown, order


def free_words(parsed: Parsed) -> tuple[str, ...]:
    """The free words (and quoted phrases) of a query."""
    return tuple(str(t.value) for t in walk(parsed.root) if t.op == "word")


@dataclass
class _Run:
    """A run of bare words between the language's own tokens."""

    tokens: list[rules.Token]
    quoted: bool = False  # a quoted phrase: read only when one condition takes it whole


@dataclass(frozen=True)
class _Read:
    """A match placed: the tokens ``first``..``last`` (inclusive) of a run."""

    match: rules.Match
    first: int
    last: int
    negated: bool = False
    corrected: str | None = None  # the typed word a correction replaced
    joined: str | None = (
        None  # one piece of a joined word ("cle/cpe", "ca/ny"): what joins it to the one before
    )


_NOT = frozenset({"not", "except", "excluding", "minus", "outside", "but", "besides", "no", "non", "never"})
_EDGE = re.compile(r"^[^\w$&+<>'’]+|[^\w$&+%]+$")
_PIECES = re.compile(r"[-/–—]+")
_JOINED = re.compile(r"(?<=[A-Za-z])[+&]+(?=[A-Za-z])")


def _read(text: str, lexicon: Lexicon, now: datetime, table: str | None) -> Reading:
    try:
        tokens = lex(text)
    except ValueError:
        return _literal(text, parse(text))
    runs, words = _runs(text, tokens)
    formal_table = next((t for t in (_kind_of(tok.text) for tok in tokens if tok.kind == "WORD") if t), None)
    placed, shown = _scan_all(runs, lexicon, now, table, formal_table)
    suggestion = None
    corrected = _corrections(runs, placed, lexicon)
    if corrected:
        fixed = [_Run([_corrected(t, corrected) for t in run.tokens], run.quoted) for run in runs]
        placed, shown = _scan_all(fixed, lexicon, now, table, formal_table, runs)
        used = [p for run in placed for p in run if p.corrected]
        if used:
            suggestion = f"Did you mean {used[0].match.label}?"
    return _assemble(text, tokens, runs, placed, words, suggestion, shown, lexicon.index.known)


def _scan_all(
    runs: list[_Run],
    lexicon: Lexicon,
    now: datetime,
    table: str | None,
    formal_table: str | None,
    typed: list[_Run] | None = None,
) -> tuple[list[list[_Read]], str | None]:
    """Every run read for the table shown: a ``kind:`` clause's, else the first kind word's (read
    again for it), else ``table``; ``typed``: the runs as typed, where ``runs`` has corrections."""
    shown = formal_table

    def scan(ctx: rules.Context) -> list[list[_Read]]:
        if typed is None:
            return [_scan(run, ctx) for run in runs]
        return [_scan(run, ctx, before.tokens) for run, before in zip(runs, typed, strict=True)]

    placed = scan(rules.Context(lexicon, shown or table, now))
    strong = [p.match.table for run in placed for p in run if p.match.what == "kind" and p.match.rank < 5]
    weak = [p.match.table for run in placed for p in run if p.match.what == "kind"]
    if shown is None and (strong or weak):
        shown = (strong or weak)[0]
        if shown != table:
            placed = scan(rules.Context(lexicon, shown, now))
    return placed, shown


def _kind_of(word: str) -> str | None:
    match = FIELD_CLAUSE.fullmatch(word)
    if match and match.group(1).lower() == "kind" and match.group(2) == ":":
        return tab_of_kind(match.group(3))
    return None


_VALUE_NEXT = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?::[=<>]*|<=|>=|<|>)")


def _runs(text: str, tokens: Sequence[Any]) -> tuple[list[_Run], dict[int, str]]:
    """The runs of bare words (their tokens), and each bare word's text by its start. Clauses in
    the language (``field:value``, a bare date, an operator, parentheses, quotes) end a run and are
    kept as written; the values in ``field:( ... )`` are never read."""
    runs: list[_Run] = []
    current: list[rules.Token] = []
    words: dict[int, str] = {}
    group = 0  # depth inside field:( ... )
    opening = False  # the last token was field: right before a "("
    for tok in tokens:
        readable = False
        if tok.kind == "(" and (group or opening):
            group += 1
        elif tok.kind == ")" and group:
            group -= 1
        elif tok.kind == "WORD" and not group:
            match = FIELD_CLAUSE.fullmatch(tok.text)
            if not (match and not match.group(3).startswith("//")) and not literals.is_date_word(tok.text):
                readable = True
        elif tok.kind in ("AND", "OR") and tok.text != "|" and not group:
            readable = True  # "and", "or": "between 500 and 1,000", "$149 or less"; else as typed
        if tok.kind == "QUOTED" and not group and not opening:
            if current:
                runs.append(_Run(current))
                current = []
            pieces = _pieces(tok.text, tok.start, tok.end, 0)
            if pieces:
                runs.append(_Run([replace(p, word=k) for k, p in enumerate(pieces)], quoted=True))
        # field: or field:= / field:> ... right before a "(" or a quoted value, which is that field's
        opening = tok.kind == "WORD" and _VALUE_NEXT.fullmatch(tok.text) is not None
        if readable:
            words[tok.start] = tok.text
            pieces = _pieces(tok.text, tok.start, tok.end, len(words))
            if tok.kind != "WORD":  # OR in capitals is the operator, never Oregon
                pieces = [replace(p, upper=False) for p in pieces]
            current += pieces
        elif current:
            runs.append(_Run(current))
            current = []
    if current:
        runs.append(_Run(current))
    return runs, words


# Shorthands people type for a word: "w/" with, "w/o" without.
_SHORTHAND = {
    "&": "and",
    "+": "and",
    "w/": "with",
    "w": "with",
    "w/o": "without",
    "w/out": "without",
    "wo": "without",
    "b4": "before",
}


def _pieces(word: str, start: int, end: int, number: int) -> list[rules.Token]:
    short = _SHORTHAND.get(word.lower())
    if short is not None:
        return [rules.Token(short, word, start, end, number)]
    raw = _EDGE.sub("", word.replace("’", "'"))
    if len(raw) > 3 and raw[-2:].lower() == "'s":  # okafor's, tomorrow's, what's
        raw = raw[:-2]
    if re.fullmatch(r"\$?[\d,.]+k?-\$?[\d,.]+k?", raw) or not _PIECES.search(raw):
        parts = [raw]
    else:
        parts = [p for p in _PIECES.split(raw) if p]
    if len(parts) == 1 and _JOINED.search(raw) and raw.lower() not in rules.ALIASES:  # cle+cpe, cpe&cle
        parts = [p for p in _JOINED.split(raw) if p] or [raw]
    out = []
    upper = word.isupper()
    for part in parts or [raw]:
        for key in keys(part) or ([part] if part else []):
            out.append(rules.Token(key, part, start, end, number, upper))
    if len(parts) == 1 and "-" in raw and re.fullmatch(r"\$?[\d,.]+k?-\$?[\d,.]+k?", raw):
        low, high = raw.split("-")
        out = [
            rules.Token(keys(low)[0] if keys(low) else low, low, start, end, number, upper),
            rules.Token(keys(high)[0] if keys(high) else high, high, start, end, number, upper),
        ]
    return out


def _corrected(tok: rules.Token, corrected: dict[tuple[int, str], str]) -> rules.Token:
    return replace(tok, key=corrected.get((tok.start, tok.key), tok.key))


def _scan(run: _Run, ctx: rules.Context, typed: list[rules.Token] | None = None) -> list[_Read]:
    """The matches of a run, left to right, the longest at each word first (a quoted run: one
    condition taking it whole, or nothing)."""
    tokens = run.tokens
    if run.quoted:
        found = [m for rule in rules.RULES for m in rule(tokens, 0, ctx)]
        whole = [m for m in found if m.size == len(tokens) and m.what == "condition"]
        return [_Read(whole[0], 0, len(tokens) - 1)] if whole else []
    out: list[_Read] = []
    i, n = 0, len(tokens)
    negate = False
    while i < n:
        best: rules.Match | None = None
        best_order = 0
        for order, rule in enumerate(rules.RULES):
            for match in rule(tokens, i, ctx):
                last = i + match.size - 1
                if last >= n or (last + 1 < n and tokens[last + 1].word == tokens[last].word):
                    continue  # a match ends where a typed word does
                if best is None or (match.size, -match.rank, -order) > (best.size, -best.rank, -best_order):
                    best, best_order = match, order
        word_end = i
        while word_end + 1 < n and tokens[word_end + 1].word == tokens[i].word:
            word_end += 1
        if best is None and tokens[i].key in _NOT and word_end == i:
            negate = True
            out.append(_Read(rules.Match(1, "glue"), i, i))
            i += 1
            continue
        if best is None and word_end > i:
            pieces = _joined_pieces(tokens, i, word_end, ctx)
            if pieces:
                out += pieces
                i = word_end + 1
                continue
        if best is None:
            i = word_end + 1
            continue
        last = i + best.size - 1
        if best.what == "glue" and tokens[i].key == "and" and _alike(out, tokens, last, ctx):
            best = rules.Match(1, "operator", "OR")  # chicago and dallas: either
        fixed = None
        if typed is not None:
            changed = [typed[k].raw for k in range(i, last + 1) if typed[k].key != tokens[k].key]
            fixed = " ".join(changed) if changed else None
        if best.what == "condition" and negate:
            out.append(_Read(best, i, last, negated=True, corrected=fixed))
            negate = False
        else:
            out.append(_Read(best, i, last, corrected=fixed))
        i = last + 1
    return out


_EITHER = ("city:", "state:", "topic:", "role:", "situation:")


def _joined_pieces(tokens: list[rules.Token], first: int, last: int, ctx: rules.Context) -> list[_Read]:
    """A word no rule reads whole that joins words each read alone ("cle/cpe", "cpe&cle",
    "cle-cpe": both credits; "ca/ny": either state): its pieces' readings, or none."""
    found: list[_Read] = []
    for k in range(first, last + 1):
        alone = [replace(tokens[k], word=0)]
        matches = [m for rule in rules.RULES for m in rule(alone, 0, ctx) if m.size == 1]
        matches = [m for m in matches if m.what in ("condition", "kind", "sort")]
        if not matches:
            return []
        best = min(matches, key=lambda m: m.rank)
        joined = None
        if found:
            before = found[-1].match.clause
            same = next((f for f in _EITHER if before.startswith(f) and best.clause.startswith(f)), None)
            joined = "OR" if same else "AND"
        found.append(_Read(best, k, k, joined=joined))
    return found


def _alike(out: list[_Read], tokens: list[rules.Token], at: int, ctx: rules.Context) -> bool:
    """Whether the place or person read just before ``at`` ("and") and the one read just after
    are of one field: "chicago and dallas" means either (a course is in one city)."""
    if not out or out[-1].match.what != "condition" or at + 1 >= len(tokens):
        return False
    before = out[-1].match.clause
    field = next((f for f in _EITHER if before.startswith(f)), None)
    if field is None:
        return False
    after = [m for rule in rules.RULES for m in rule(tokens, at + 1, ctx) if m.what == "condition"]
    longest = max((m.size for m in after), default=0)
    return any(m.size == longest and m.clause.startswith(field) for m in after)


def _corrections(runs: list[_Run], placed: list[list[_Read]], lexicon: Lexicon) -> dict[tuple[int, str], str]:
    """Free words one edit from a city's or a person's word: (their start, key) -> that word."""
    known = lexicon.index.known
    if not known:
        return {}
    out: dict[tuple[int, str], str] = {}
    for run, reads in zip(runs, placed, strict=True):
        if run.quoted:
            continue
        taken = {k for r in reads for k in range(r.first, r.last + 1)}
        for k, tok in enumerate(run.tokens):
            if k in taken or len(tok.key) < 5 or not tok.key.isalpha() or tok.key in known:
                continue
            found = extractOne(tok.key, lexicon.index.known_words, scorer=OSA.distance, score_cutoff=1)
            if found is not None:
                out[(tok.start, tok.key)] = found[0]
    return out


_PLURAL = re.compile(r"[A-Za-z]{4,}[^sueiSUEI][sS]")


def _plain(word: str, known: Container[str] = ()) -> str:
    """A free word as looked for: a plain plural without its s ("partners" finds "Partner", and
    "partners" too: a word is found inside longer ones), unless it is a ``known`` word ("dallas"
    stays Dallas, not "dalla")."""
    return word[:-1] if _PLURAL.fullmatch(word) and word.lower() not in known else word


def _negated(clause: str) -> str:
    for a, b in ((":yes", ":no"), (":no", ":yes")):
        if clause.endswith(a) and not clause.startswith(("no:", "has:")):
            return clause[: -len(a)] + b
    if clause.startswith("no:"):
        return "has:" + clause[3:]
    if clause.startswith("has:"):
        return "no:" + clause[4:]
    if clause.startswith("-"):
        return clause[1:]
    return "-" + clause


def _assemble(
    text: str,
    tokens: Sequence[Any],
    runs: list[_Run],
    placed: list[list[_Read]],
    words: dict[int, str],
    suggestion: str | None,
    shown: str | None,
    known: Container[str],
) -> Reading:
    """The equivalent query: the typed text, each read word replaced by its clause (glue and
    repeated kinds and orders dropped), and the conditions read (``known``: the words of cities,
    states and names, which free words keep as typed)."""
    replaced: dict[int, str | None] = {}  # a bare word's start -> its replacement (None: dropped)
    conditions: list[Condition] = []
    kind_done = sort_done = False
    for run, reads in zip(runs, placed, strict=True):
        for r in reads:
            first, last = run.tokens[r.first], run.tokens[r.last]
            starts = sorted({t.start for t in run.tokens[r.first : r.last + 1]})
            m = r.match
            clause: str | None = None
            if m.what == "kind":
                if not kind_done and m.table == shown:
                    clause, kind_done = m.clause, True
            elif m.what == "sort":
                if not sort_done:
                    clause, sort_done = m.clause, True
            elif m.what == "condition":
                clause = _negated(m.clause) if r.negated else m.clause
            elif m.what == "operator":
                for k, s in enumerate(starts):
                    replaced[s] = m.clause if k == 0 else None
                continue
            if clause is not None:
                label = f"not {m.label}" if r.negated else m.label
                other = m.other
                if r.corrected is not None:
                    other = r.corrected
                conditions.append(Condition(label, clause, (first.start, last.end), other))
            if r.joined is not None and replaced.get(starts[0]):
                if clause is not None:
                    if r.joined == "OR":
                        either = (replaced[starts[0]] or "").strip("()")
                        replaced[starts[0]] = f"({either} OR {clause})"
                    else:
                        replaced[starts[0]] = f"{replaced[starts[0]]} {clause}"
                continue
            for k, s in enumerate(starts):
                replaced[s] = clause if k == 0 else None
    query = _written(text, tokens, replaced, words, known)
    parsed = parse(query)
    if parsed.error is not None:
        return _literal(text, parse(text))
    table, order = directives(parsed)
    return Reading(
        text=text,
        query=query,
        conditions=tuple(conditions),
        words=free_words(parsed),
        table=table or shown,
        sort=order,
        suggestion=suggestion,
    )


def _written(
    text: str,
    tokens: Sequence[Any],
    replaced: dict[int, str | None],
    words: dict[int, str],
    known: Container[str] = (),
) -> str:
    """The typed text with the read words replaced (``replaced``: by a word's start) and the free
    words' edge punctuation dropped; the language's own tokens as typed. A free word of a city,
    a state or a name (``known``) is looked for as it is, never as a plural."""
    pieces: list[str] = []
    pos = 0
    for tok in tokens:
        start, end = tok.start, tok.end
        if tok.kind == "END":
            break
        gap = text[pos:start]
        if start in replaced:
            value = replaced[start]
            if value is None:
                pos = end
                continue
            piece = value
        elif start in words:
            bare = _EDGE.sub("", words[start].replace("’", "'")) or ""
            piece = _plain(bare[:-2] if len(bare) > 3 and bare[-2:].lower() == "'s" else bare, known)
            if not piece:
                pos = end
                continue
            if piece.lower() in ("and", "or") and tok.kind == "AND":
                pos = end
                continue
        else:
            piece = text[start:end]
        pieces.append((" " if gap and pieces else "") + piece)
        pos = end
    return "".join(pieces).strip()
