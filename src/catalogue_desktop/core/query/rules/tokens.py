"""What every rule of the reading uses: the typed words (``Token``), what a run of them means
(``Match``), the reading's ``Context``, a ``Rule``, and tables of phrases (``Phrases``) with the longest one
found at a position."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime

from catalogue_desktop.core.query.fields import SCHEMA
from catalogue_desktop.core.query.lexicon import Lexicon


@dataclass(frozen=True)
class Token:
    """One word (or a hyphen's piece of one) of the typed text: ``key`` compared, ``raw`` as typed
    (edge punctuation stripped), ``start``/``end`` the whole typed word's span, ``word`` its
    number, ``upper`` whether it was typed in capitals."""

    key: str
    raw: str
    start: int
    end: int
    word: int
    upper: bool = False


@dataclass(frozen=True)
class Match:
    """What ``size`` tokens mean: ``what`` is glue, condition, kind, sort or not (a negation of what
    follows); ``clause`` the query language, ``label`` in words, ``other`` another reading."""

    size: int
    what: str
    clause: str = ""
    label: str = ""
    other: str | None = None
    table: str | None = None
    rank: int = 0  # among matches of one size, the lower wins


@dataclass(frozen=True)
class Context:
    lexicon: Lexicon
    table: str | None  # the table the reading is for (None: any)
    now: datetime


def has(ctx: Context, name: str) -> bool:
    """Whether the table has field ``name`` by that name (any table does when the reading is for
    none; a kind's own name, the title's alias on its tab, does not count)."""
    if ctx.table is None:
        return True
    found = SCHEMA.field(ctx.table, name)
    return found is not None and found.name == name


class Phrases(dict[tuple[str, ...], str]):
    """Phrases (as key tuples) -> their value; ``longest`` the most words one has."""

    longest = 0
    starts: frozenset[tuple[str, ...]] = frozenset()  # each phrase's first word, as a 1-tuple


def phrase_table(spec: dict[str, Sequence[str]]) -> Phrases:
    """Phrases (a string may list several, separated by commas) -> their value."""
    found = Phrases(
        (tuple(p.split()), value) for value, texts in spec.items() for text in texts for p in text.split(",")
    )
    found.longest = max(map(len, found), default=0)
    found.starts = frozenset((k[0],) for k in found)
    return found


def longest_at(table: Phrases, toks: Sequence[Token], i: int) -> tuple[int, str] | None:
    if i >= len(toks) or (toks[i].key,) not in table.starts:
        return None
    keys = tuple(t.key for t in toks[i : i + table.longest])
    best = None
    for size in range(1, len(keys) + 1):
        found = table.get(keys[:size])
        if found is not None:
            best = (size, found)
    return best


Rule = Callable[[Sequence[Token], int, Context], list[Match]]
