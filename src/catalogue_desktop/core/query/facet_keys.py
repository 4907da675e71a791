"""When a value typed in the query and a facet's value are the same choice.

``type:live`` and the Type facet's "Live" (written ``type:2``) are one choice when the label names
exactly one code; ``starts:march`` (or ``mar-2027``) and the Start month facet's "Mar 2027"
(``starts:2027-03``) when the words name that one month; ``state:illinois`` and "IL" always
(the parser reads the name as the code). ``ValueKeys.key`` gives both the same key, so the facet
shows one entry, ticked, and a click on it takes the typed clause back.
"""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from catalogue_desktop.core.query.engine import Finder
from catalogue_desktop.core.query.fields import Field, FieldType
from catalogue_desktop.core.query.folding import fold
from catalogue_desktop.core.query.index import TextIndex
from catalogue_desktop.core.query.literals import DateSpec
from catalogue_desktop.core.query.syntax import Term, parse


class ValueKeys:
    """Keys of a facet's value clauses in one table, at one moment (for relative dates)."""

    def __init__(self, finder: Finder, table: str, now: datetime) -> None:
        self._finder = finder
        self._table = table
        self._now = now

    def key(self, name: str, clause: str) -> Any:
        """The key of ``name:clause``: equal for clauses that choose the same value."""
        return self.term_key(_term(name, clause))

    def term_key(self, term: Term) -> Any:
        value = term.value
        if term.op == "exact" and isinstance(value, str):
            return (term.field, "exact", fold(value))
        f = self._finder.schema.field(self._table, term.field or "")
        if f is None:
            return term.key
        if term.op == "contains" and isinstance(value, str) and self._is_value(f, fold(value)):
            return (term.field, "exact", fold(value))  # city:dallas: the value Dallas, whole
        if term.op != "eq":
            return term.key
        if f.type is FieldType.CODE and isinstance(value, str):
            codes = self._codes(f, fold(value.strip()))
            if len(codes) == 1:
                return (term.field, "eq", fold(codes[0]))
        if f.type is FieldType.DATE and isinstance(value, DateSpec):
            month = _month_of(value, self._now)
            if month is not None:
                return (term.field, "month", month)
        return term.key

    def _is_value(self, f: Field, folded: str) -> bool:
        """Whether a text field holds ``folded`` as a whole value somewhere."""
        table = self._finder.tables.get(self._table)
        if table is None or f.type not in (FieldType.TEXT, FieldType.NAMES) or f.key.startswith("@"):
            return False
        level = table.child if f.scope != "record" and table.child is not None else table
        return bool(level.index(f, TextIndex).exact(folded))

    def _codes(self, f: Field, folded: str) -> list[str]:
        """The codes a typed code value names (its code, or the codes whose label contains it:
        as the engine reads it)."""
        table = self._finder.tables.get(self._table)
        if table is None:
            return []
        level = table.child if f.scope != "record" and table.child is not None else table
        label = self._finder.vocabulary.label
        originals = level.index(f, TextIndex).originals
        exact = [str(c) for c in originals if fold(str(c)) == folded]
        return exact or [str(c) for c in originals if folded in fold(label(f.name, c))]


def _month_of(spec: DateSpec, now: datetime) -> tuple[int, int] | None:
    """(year, month) when ``spec`` covers exactly one calendar month of days."""
    bounds = spec.bounds(now)
    if bounds.mode != "local" or bounds.lo is None or bounds.hi is None:
        return None
    first, last = date.fromordinal(bounds.lo), date.fromordinal(bounds.hi)
    following = date(last.year + last.month // 12, last.month % 12 + 1, 1)
    if first.day != 1 or (first.year, first.month) != (last.year, last.month):
        return None
    if (following - last).days != 1:
        return None
    return first.year, first.month


def _term(name: str, clause: str) -> Term:
    root = parse(f"{name}:{clause}").root
    assert isinstance(root, Term), clause
    return root
