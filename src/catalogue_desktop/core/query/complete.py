"""Completion for the query box: field names for a table, then values of fields with few values.

``completions(finder, table, token)`` answers for the word being typed: ``ci`` -> ``city:``;
``city:da`` -> ``city:Dallas``; ``topic:est`` -> ``topic:"Estate Planning and Trusts"``. Values
come from the loaded catalogue (the texts its indexes hold), the most frequent first.
"""

from __future__ import annotations

import calendar

from catalogue_desktop.core.query import region_codes
from catalogue_desktop.core.query.engine import Finder
from catalogue_desktop.core.query.fields import Field, FieldType
from catalogue_desktop.core.query.folding import fold
from catalogue_desktop.core.query.index import TextIndex
from catalogue_desktop.core.query.literals import FALSE_WORDS, TRUE_WORDS
from catalogue_desktop.core.query.syntax import quote

FEW = 2000  # fields with more distinct values than this get no value completion
DATE_WORDS = (
    "today",
    "tomorrow",
    "this-week",
    "next-week",
    "this-month",
    "next-month",
    "this-quarter",
    "next-quarter",
    "last-quarter",
    "next7d",
    "next30d",
    "next3m",
    "past",
    "future",
)
MONTHS = tuple(calendar.month_name[m].lower() for m in range(1, 13))  # starts:march, the coming one


def completions(finder: Finder, table: str, token: str, limit: int = 25) -> list[str]:
    """What the word ``token`` may become, in the table ``table``."""
    schema = finder.schema
    name, colon, prefix = token.partition(":")
    if not colon:
        folded = token.lower()
        names = [f.name for f in schema.fields.get(table, ())] + ["has", "no"]
        found = [f"{n}:" for n in names if n.startswith(folded)]
        found += [w for w in DATE_WORDS if w.startswith(folded) and schema.field(table, "starts")]
        return found[:limit]
    if name.lower() in ("has", "no"):
        return [
            f"{name}:{f.name}" for f in schema.fields.get(table, ()) if f.name.startswith(prefix.lower())
        ][:limit]
    f = schema.field(table, name)
    if f is None or table not in finder.tables:
        return []
    want = fold(prefix.lstrip("=").strip('"'))
    values = _values(finder, table, f)
    return [f"{name}:{quote(v)}" for v in values if want in fold(v)][:limit]


def _values(finder: Finder, table: str, f: Field) -> list[str]:
    if f.type is FieldType.BOOL:
        return [TRUE_WORDS[0], FALSE_WORDS[0]]
    if f.type is FieldType.DATE:
        return [*DATE_WORDS, *MONTHS]
    t = finder.tables[table]
    level = t.child if f.scope != "record" and t.child is not None else t
    if f.type is FieldType.CODE:
        codes = level.index(f, TextIndex)
        labels = [finder.vocabulary.label(f.name, code) for code in codes.originals]
        return list(dict.fromkeys([*labels, *codes.originals]))
    if f.type in (FieldType.TEXT, FieldType.NAMES) and not f.key.startswith("@"):
        index = level.index(f, TextIndex)
        if len(index.texts) > FEW:
            return []
        ranked = sorted(range(len(index.texts)), key=lambda tid: -index.count(tid))
        found = [index.originals[tid] for tid in ranked]
        if f.name == "state":  # state:illi -> state:Illinois (read as IL)
            found += [n for n in map(region_codes.name_of, found) if n is not None]
        return found
    return []
