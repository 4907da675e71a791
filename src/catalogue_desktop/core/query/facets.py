"""Facets: the values of a few fields with how many rows each would give.

What a count means (the usual faceted-search rule): **the rows that would show if this value were
chosen, given the rest of the query** — the rows matching the query *without the facet's own
clauses* and with the value's clause. Choosing a value (a click) makes it the facet's one choice
(``toggle``), so the table then shows exactly its count; adding one beside it (Shift+click) ORs it
in (``topic:(="Estate Planning" OR ="Tax")``), and leaving one out writes ``-cle:yes``. The rule
holds for every facet: record fields, a course's locations (city, state, start month, fee) and
codes alike. Selections live in the query text itself, so the query stays the one truth: it can be
copied, saved and given to the command line.
"""

from __future__ import annotations

import calendar
import dataclasses
import heapq
import re
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from functools import partial
from itertools import chain
from typing import Any

from catalogue_desktop.core.query import bits
from catalogue_desktop.core.query.engine import Finder
from catalogue_desktop.core.query.facet_keys import ValueKeys
from catalogue_desktop.core.query.fields import OFFERINGS, SCHEMA, Field, FieldType, Schema, tab_of_kind
from catalogue_desktop.core.query.folding import fold
from catalogue_desktop.core.query.index import BuiltIndex, RangeIndex, TextIndex
from catalogue_desktop.core.query.syntax import Node, Not, Or, Parsed, Term, parse, quote, top_clauses
from catalogue_desktop.core.query.table import DateIndex, FlagIndex, Table
from catalogue_desktop.core.records.field_registry import FACETS

FEE_BANDS = (0, 100, 200, 300, 500, 1000, 1500, 2000)
_FIELD_PREFIX = re.compile(r"^-?[A-Za-z][A-Za-z0-9_]*:")
_ROW_COST = 250  # counting a text by its bitset costs about as much as counting 250 rows' texts


@dataclass(frozen=True)
class FacetValue:
    label: str  # as shown ("Estate Planning", "Yes", "Live", "Mar 2027", "100–199")
    clause: str  # as the query writes it after "field:" ('="Estate Planning"', "yes", "2027-03")
    count: int
    state: str | None = None  # "included", "excluded" or None


@dataclass(frozen=True)
class Facet:
    field: str
    title: str
    values: tuple[FacetValue, ...]
    more: int = 0  # values with rows that are not shown (beyond the limit)
    chosen: str = ""  # the query's own clauses on the field that no value shown stands for
    said: str = ""  # ``chosen`` in words, for the facet's heading ('contains “dal”', "under 300")


def available(finder: Finder, table: str) -> list[tuple[str, str]]:
    """The facets a table has (field, title)."""
    out = []
    for name, title in FACETS:
        f = finder.schema.field(table, name)  # (by its own name: not a kind's title on its own tab)
        if f is not None and f.name == name and f.type is not FieldType.PRESENCE:
            out.append((name, title))
    return out


def prepare_steps(table: Table, schema: Schema = SCHEMA) -> Iterator[None]:
    """Build, a slice at a time, what ``table``'s facets read beyond its fields' indexes (a date
    facet's months: ``_Months``), so that the first facets counted once the table is announced
    build no index at once: the indexer runs these steps before it announces the table (the
    months were built in the first redraw, 3-7 ms of its 10-15 ms of GUI-thread CPU at 10,000
    webinars on a loaded machine, in the same loop pass as the table's last step)."""
    for name, _title in FACETS:
        f = schema.field(table.name, name)
        if f is None or f.name != name or f.type is not FieldType.DATE or f.key.startswith("@"):
            continue  # (a derived date is made from other tables when first used)
        level = table.child if f.scope != "record" and table.child is not None else table
        yield from level.index_steps(f)
        dates = level.index(f, DateIndex)  # (built by the steps above)
        yield from level.extra_index_steps(f"@months:{f.key}", partial(_Months, dates))


def facets(
    finder: Finder,
    query: str | Parsed,
    table: str,
    now: datetime,
    limit: int = 10,
    only: Iterable[str] | None = None,
    limits: Mapping[str, int] | None = None,
) -> list[Facet]:
    """The facets of ``table`` for ``query`` (``only``: just these fields; ``limits``: values
    shown of some fields, else ``limit``). An unparsable query or one naming a field the table
    lacks gives no facets."""
    parsed = parse(query, finder.schema) if isinstance(query, str) else query
    if parsed.error is not None:
        return []
    clauses = top_clauses(parsed.root)
    if parsed.root is not None and finder.missing(parsed.root, table) is not None:
        return []
    wanted = None if only is None else set(only)
    keys = ValueKeys(finder, table, now)
    out = []
    for name, title in available(finder, table):
        if wanted is not None and name not in wanted:
            continue
        # (``kind:dates`` on the Dates tab names the tab, every date: no value of its Kind facet)
        own = [c for c in clauses if _about(c, name) and not _names_tab(c, table)]
        base = [c for c in clauses if not _about(c, name)]
        values = _values(finder, table, name, base, now, keys)
        if table == OFFERINGS and name == "kind":  # a session is a webinar too (``is_webinar_kind``)
            values = [_webinars_counted(finder, table, base, now, v) for v in values]
        selected = _selected(own, name, parsed.text, keys)
        typed_nodes = [c for c in own if _own_values(c, name, parsed.text, keys) is None]
        typed = [parsed.text[c.start : c.end] for c in typed_nodes]
        listed = {v[2] for v in values}
        for key, (clause, _state) in selected.items():  # typed values no listed one equals
            if key not in listed:
                count = finder.evaluate_nodes([*base, _term(name, clause)], table, now).count
                values.append((_typed_label(clause), clause, key, count))
        f = finder.schema.field(table, name)
        ordered = f is not None and f.type in (FieldType.DATE, FieldType.MONEY, FieldType.BOOL)
        facet = _facet(name, title, values, selected, (limits or {}).get(name, limit), ordered)
        if typed:
            words = ", ".join(_said(c, parsed.text) for c in typed_nodes)
            facet = dataclasses.replace(facet, chosen=" ".join(typed), said=words)
        out.append(facet)
    return out


def _webinars_counted(
    finder: Finder, table: str, base: list[Node], now: datetime, value: tuple[str, str | None, Any, int]
) -> tuple[str, str | None, Any, int]:
    """The Dates' kind "webinar" counted as its click shows it: the series' sessions too."""
    label, clause, key, _count = value
    if fold(label) != "webinar":
        return value
    return label, clause, key, finder.evaluate_nodes([*base, _term("kind", "webinar")], table, now).count


_COMPARED = {"lt": "under", "le": "at most", "gt": "over", "ge": "at least", "eq": ""}


def _said(node: Node, text: str) -> str:
    """A clause of a facet's own field in words, without the field's name (the heading names
    it): ``city:dal`` 'contains “dal”', ``fee:<300`` "under 300", ``-city:dal`` 'not contains…'."""
    if isinstance(node, Not):
        return "not " + _said(node.child, text)
    if isinstance(node, Or):
        return " or ".join(_said(c, text) for c in node.children)
    if not isinstance(node, Term):
        return text[node.start : node.end]
    raw = _FIELD_PREFIX.sub("", text[node.start : node.end], count=1).lstrip("<>=").strip('"')
    if node.op == "contains":
        return f"contains “{raw}”"
    if node.op == "exact":
        return f"“{raw}”"
    if node.op == "range":
        low, _, high = raw.partition("..")
        return f"{low} to {high}" if low and high else (f"from {low}" if low else f"up to {high}")
    word = _COMPARED.get(node.op)
    return f"{word} {raw}".strip() if word is not None else raw


def _facet(
    name: str,
    title: str,
    values: list[tuple[str, str | None, Any, int]],
    selected: dict[Any, tuple[str, str]],
    limit: int,
    ordered: bool,
) -> Facet:
    """Values with rows: the most first, at most ``limit`` of them (dates, fees and yes/no: all,
    in their own order); selected values always, even without rows (to be taken back)."""
    shown: list[FacetValue] = []
    rest = 0
    ranked = values
    if not ordered:
        live = [v for v in values if v[3] > 0 or v[2] in selected]
        if len(live) > 2 * limit + len(selected):  # 3,258 experts: no need to sort them all
            top = heapq.nsmallest(limit + len(selected), live, key=_rank)
            taken = {id(v) for v in top}
            top += [v for v in live if v[2] in selected and id(v) not in taken]
            rest = len(live) - len(top)  # each with rows, ranked below every one kept
            live = top
        ranked = sorted(live, key=_rank)
    for label, clause, key, count in ranked:
        state = selected[key][1] if key in selected else None
        if state is None and (count == 0 or (len(shown) >= limit and not ordered)):
            rest += count > 0
            continue
        shown.append(FacetValue(label, "=" + quote(label) if clause is None else clause, count, state))
    return Facet(name, title, tuple(shown), rest)


def _rank(value: tuple[str, str | None, Any, int]) -> tuple[int, str]:
    return -value[3], value[0].casefold()


_MONTH = re.compile(r"(\d{4})-(\d{2})")


def _typed_label(clause: str) -> str:
    """A value typed in the query as its facet lists it: a month as the facet's months are said
    ("Mar 2027"), a range with a dash ("Mar 2027 – May 2027", "500 – 999"), not as typed
    ("2027-03..2027-05" was listed, cut to "2027-03..20…")."""
    raw = clause.lstrip("=").strip('"')

    def said(part: str) -> str:
        found = _MONTH.fullmatch(part)
        if found is None or not 1 <= int(found[2]) <= 12:
            return part
        return f"{calendar.month_abbr[int(found[2])]} {found[1]}"

    if ".." not in raw:
        return said(raw)
    low, _, high = raw.partition("..")
    if low and high:
        return f"{said(low)} – {said(high)}"
    return f"from {said(low)}" if low else f"up to {said(high)}"


def _names_tab(node: Node, table: str) -> bool:
    """``node`` is ``kind:`` naming ``table``'s own tab (``kind:dates`` on the Dates tab: what the
    plain words "what's on" or "seminars" are read as), which every row of it matches."""
    return (
        isinstance(node, Term)
        and node.field == "kind"
        and node.op in ("contains", "exact", "eq")
        and tab_of_kind(str(node.value)) == table
    )


def _about(node: Node, name: str) -> bool:
    """Every clause of ``node`` is on the field ``name``."""
    if isinstance(node, Term):
        return node.field == name and node.op != "has"
    if isinstance(node, Not):
        return _about(node.child, name)
    return all(_about(c, name) for c in node.children)


def _selected(own: list[Node], name: str, text: str, keys: ValueKeys) -> dict[Any, tuple[str, str]]:
    """Value key -> (its clause, "included" or "excluded"), for the facet-written clauses among
    a facet's own (``f:v``, ``f:(v OR w)``, ``-f:v``)."""
    found: dict[Any, tuple[str, str]] = {}
    for clause in own:
        values = _own_values(clause, name, text, keys)
        state = "excluded" if isinstance(clause, Not) else "included"
        for value in values or ():
            found[keys.key(name, value)] = (value, state)
    return found


def _key(term: Term) -> Any:
    value = term.value
    if term.op == "exact" and isinstance(value, str):
        from catalogue_desktop.core.query.folding import fold

        return (term.field, "exact", fold(value))
    return term.key


def _clause_key(name: str, clause: str) -> Any:
    root = parse(f"{name}:{clause}").root
    assert isinstance(root, Term), clause
    return _key(root)


def _values(
    finder: Finder, table: str, name: str, base: list[Node], now: datetime, keys: ValueKeys
) -> list[tuple[str, str | None, Any, int]]:
    """(label, clause, key, count) of every value of the facet ``name`` (clause None: a text
    value, ``="label"``)."""
    t = finder.tables[table]
    f = finder.schema.field(table, name)
    assert f is not None
    scoped = f.scope != "record"
    level = t.child if scoped and t.child is not None else t
    if scoped:
        return [
            (
                label,
                clause,
                keys.key(name, clause),
                finder.evaluate_nodes([*base, _term(name, clause)], table, now).count,
            )
            for label, clause, _rows in _options(finder, level, f, now)
        ]
    matched = finder.evaluate_nodes(base, table, now).bits
    if f.type in (FieldType.TEXT, FieldType.NAMES):  # the clause is written when shown (_facet)
        index = level.index(f, TextIndex)
        counts = _text_counts(index, matched, level.all)
        return [
            (index.originals[tid], None, (name, "exact", index.texts[tid]), counts[tid])
            for tid in range(len(index.texts))
        ]
    return [
        (label, clause, keys.key(name, clause), (matched & rows).bit_count())
        for label, clause, rows in _options(finder, level, f, now)
    ]


def _text_counts(index: TextIndex, matched: int, everything: int) -> list[int]:
    """How many ``matched`` rows hold each text of ``index``: the posting lists' lengths when
    every row matches; else row by row, over the matched rows or over the others (whichever
    are fewer), unless nearly every text has a bitset of its own (a frequent one: 12 roles).
    What each costs: docs/decisions.md, "The finder's engine"."""
    total = [index.count(tid) for tid in range(len(index.texts))]
    if matched == everything:
        return total
    found = matched.bit_count()
    other = everything.bit_count() - found
    if index.rare_texts * _ROW_COST > min(found, other):
        if found <= other:
            counts = Counter(chain.from_iterable(bits.pick(index.row_texts, matched)))
            return [counts.get(tid, 0) for tid in range(len(total))]
        counts = Counter(chain.from_iterable(bits.pick(index.row_texts, everything ^ matched)))
        return [n - counts.get(tid, 0) for tid, n in enumerate(total)]
    return [(matched & index.rows_of([tid])).bit_count() for tid in range(len(total))]


def _term(name: str, clause: str) -> Node:
    root = parse(f"{name}:{clause}").root
    assert root is not None
    return root


def _options(finder: Finder, t: Table, f: Field, now: datetime) -> list[tuple[str, str, int]]:
    """(label, clause, rows) of a facet's values at the level ``t`` holds them."""
    if f.type in (FieldType.TEXT, FieldType.NAMES):
        texts = t.index(f, TextIndex)
        return [
            (texts.originals[tid], "=" + quote(texts.originals[tid]), texts.rows_of([tid]))
            for tid in range(len(texts.texts))
        ]
    if f.type is FieldType.BOOL:
        flag = t.index(f, FlagIndex)
        return [("Yes", "yes", flag.true), ("No", "no", flag.false)]
    if f.type is FieldType.CODE:
        codes = t.index(f, TextIndex)
        label = finder.vocabulary.label
        return [
            (label(f.name, code), quote(str(code)), codes.rows_of([tid]))
            for tid, code in enumerate(codes.originals)
        ]
    if f.type is FieldType.DATE:
        dates = t.index(f, DateIndex)
        return t.extra_index(f"@months:{f.key}", _Months, lambda: _Months(dates)).options
    if f.type is FieldType.MONEY:
        index = t.index(f, RangeIndex)
        decimal = any(not isinstance(v, int) for v in index.edges)
        out = []
        for lo, hi in zip(FEE_BANDS, (*FEE_BANDS[1:], None), strict=True):
            if hi is None:
                out.append((f"{lo:,} and more", f"{lo}..", index.select(lo, None)))
            else:
                top = f"{hi - 1}.99" if decimal else f"{hi - 1}"
                out.append((f"{lo:,}–{hi - 1:,}", f"{lo}..{top}", index.select(lo, hi, hi_open=True)))
        return out
    return []


_DAYS_A_STEP = 16_384  # the rows' days gathered a step (``_Months``)


class _Months(BuiltIndex):
    """A date field's months with their rows (the start month facet's values), made once per
    table like an index: they do not depend on the query."""

    def __init__(self, index: DateIndex) -> None:
        super().__init__()
        self._index = index
        self.options: list[tuple[str, str, int]] = []

    def _build(self) -> Iterator[None]:
        index = self._index
        seen: set[int | None] = set()
        for start in range(0, len(index.days), _DAYS_A_STEP):  # (at once: ~30 ms at 100,000 rows, loaded)
            seen.update(index.days[start : start + _DAYS_A_STEP])
            yield
        days = [day for day in seen if day is not None]  # (the distinct days: a few thousand at most)
        months = sorted({(d.year, d.month) for d in map(date.fromordinal, days)})
        for year, month in months:
            first = date(year, month, 1).toordinal()
            last = date(year, month, calendar.monthrange(year, month)[1]).toordinal()
            self.options.append(
                (
                    f"{calendar.month_abbr[month]} {year}",
                    f"{year}-{month:02d}",
                    index.local.select(first, last),
                )
            )
            yield


def toggle(
    text: str,
    name: str,
    clause: str,
    *,
    exclude: bool = False,
    add: bool = False,
    keys: ValueKeys | None = None,
) -> str | None:
    """``text`` with the value ``clause`` of facet ``name`` chosen (or excluded), or that
    selection taken back if it was there; None if ``text`` does not parse. A value chosen
    replaces every clause of the field (its other values, ``city:dal``, ``fee:<300``): the rows
    are then the value's count. ``add``: chosen beside the facet's other chosen values (OR).
    ``keys``: which typed values are the same choice (``type:live`` and ``type:2``)."""
    parsed = parse(text)
    if parsed.error is not None:
        return None
    same = keys.key if keys is not None else _clause_key
    key = same(name, clause)
    included: list[str] = []
    excluded: list[str] = []
    kept: list[tuple[str, bool, bool]] = []  # (clause, whether it is the field's, whether negated)
    for node in top_clauses(parsed.root):
        values = _own_values(node, name, text, keys)
        if values is None:
            kept.append((text[node.start : node.end], _about(node, name), isinstance(node, Not)))
        else:
            (excluded if isinstance(node, Not) else included).extend(values)
    inc = {same(name, c): c for c in included}
    exc = {same(name, c): c for c in excluded}
    target, other = (exc, inc) if exclude else (inc, exc)
    replaced = key not in target and not exclude
    if key in target:
        del target[key]
    elif replaced and not add:  # the facet's one choice: its count is what shows
        inc, exc = {key: clause}, {}
    else:
        target[key] = clause
        other.pop(key, None)
    chosen_alone = replaced and not add
    keep = [c for c, about, negated in kept if not (about and replaced and (chosen_alone or not negated))]
    for chosen, sign in ((inc, ""), (exc, "-")):
        if chosen:
            body = (
                next(iter(chosen.values())) if len(chosen) == 1 else "(" + " OR ".join(chosen.values()) + ")"
            )
            keep.append(f"{sign}{name}:{body}")
    return " ".join(keep)


def spelled_out(text: str, read: Iterable[tuple[tuple[int, int], str]], name: str) -> str:
    """``text`` with the words read as a clause on the field ``name`` (``read``: each reading's
    span of words and its clause, as ``core.query.reading`` gives them: "march" read as
    ``starts:2027-03``) written as that clause, so that ``toggle`` can replace or take it back."""
    for (start, end), clause in sorted(read, reverse=True):
        root = parse(clause).root
        if root is not None and _about(root, name):
            text = text[:start] + clause + text[end:]
    return text


def _chooses_a_value(term: Term, keys: ValueKeys | None) -> bool:
    if term.op in ("exact", "eq", "range"):
        return True
    return term.op == "contains" and keys is not None and keys.term_key(term)[1] == "exact"


def _own_values(node: Node, name: str, text: str, keys: ValueKeys | None = None) -> list[str] | None:
    """The value clauses of a facet-written clause (``f:v``, ``f:(v OR w)``, negated), else None.
    With ``keys``, a text typed whole (``city:dallas``, a value the field has) is one too."""
    inner = node.child if isinstance(node, Not) else node
    terms = inner.children if isinstance(inner, Or) else (inner,)
    if not all(isinstance(t, Term) and t.field == name and _chooses_a_value(t, keys) for t in terms):
        return None
    return [_FIELD_PREFIX.sub("", text[t.start : t.end], count=1) for t in terms]
