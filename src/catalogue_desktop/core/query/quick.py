"""Quick-open: records of every kind by title, name or id, as fast as one types.

Each word must occur in the title (or, all digits, in the id); titles that start with the text, or
whose words start with the words typed, come first. When that finds few records, titles a few
letters away (a typo) are added, scored by rapidfuzz, below every exact match.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from catalogue_desktop.core.query import bits
from catalogue_desktop.core.query.engine import Finder
from catalogue_desktop.core.query.fields import OFFERINGS, TABLES
from catalogue_desktop.core.query.folding import fold, tokens
from catalogue_desktop.core.query.index import TextIndex
from catalogue_desktop.core.query.table import Table

TITLE_FIELD = {"experts": "name"}  # the others: "title"
_SCORED = 3000  # distinct titles ranked per table and keystroke at most
_FUZZY_MIN = 5  # fewer hits than this: look for typos too


@dataclass(frozen=True)
class Hit:
    table: str
    row: int
    record_id: Any
    title: str
    score: float  # 100: the title is the text; 0-59: a fuzzy match


def search(finder: Finder, text: str, limit: int = 20, tables: list[str] | None = None) -> list[Hit]:
    """The best ``limit`` records for ``text`` over ``tables`` (default: every kind; offerings
    repeat their courses and webinars)."""
    query = fold(text).strip()
    words = query.split()
    if not words:
        return []
    tables = tables or [t for t in TABLES if t != OFFERINGS]
    hits: list[Hit] = []
    for name in tables:
        if name not in finder.tables:
            continue
        hits.extend(_exact(finder, name, query, words, limit))
    hits.sort(key=lambda h: (-h.score, len(h.title), h.table, h.row))
    if len(hits) < _FUZZY_MIN:
        seen = {(h.table, h.row) for h in hits}
        for name in tables:
            if name in finder.tables:
                hits.extend(h for h in _fuzzy(finder, name, query, limit) if (h.table, h.row) not in seen)
        hits.sort(key=lambda h: (-h.score, len(h.title), h.table, h.row))
    return hits[:limit]


def _title_index(finder: Finder, name: str) -> tuple[Table, TextIndex | None]:
    t = finder.tables[name]
    f = finder.schema.field(name, TITLE_FIELD.get(name, "title"))
    return t, (t.index(f, TextIndex) if f is not None else None)


def _exact(finder: Finder, name: str, query: str, words: list[str], limit: int) -> list[Hit]:
    t, index = _title_index(finder, name)
    out: list[Hit] = []
    if query.isdigit():  # an id
        row = t.row_of_id(int(query))
        if row is not None:
            out.append(Hit(name, row, t.ids[row], _title(t, index, row), 100.0))
    if index is None:
        return out
    candidates: set[int] | None = None
    for word in sorted(words, key=len, reverse=True):
        found = set(index.text_ids(word))
        candidates = found if candidates is None else candidates & found
        if not candidates:
            return out
    ranked = sorted(
        ((_score(index.texts[tid], query, words), tid) for tid in sorted(candidates or ())[:_SCORED]),
        reverse=True,
    )
    for score, tid in ranked:
        rows = index.rows_of([tid])
        for row in bits.first_rows(rows, limit - len(out)):
            out.append(Hit(name, row, t.ids[row], index.originals[tid], score))
        if len(out) >= limit:
            break
    return out


def _score(title: str, query: str, words: list[str]) -> float:
    if title == query:
        return 100.0
    if title.startswith(query):
        return 90.0
    title_words = tokens(title)
    if all(any(tw.startswith(w) for tw in title_words) for w in words):
        return 80.0
    return 60.0


def _fuzzy(finder: Finder, name: str, query: str, limit: int) -> list[Hit]:
    try:
        from rapidfuzz import fuzz, process
    except ImportError:  # pragma: no cover - a dependency; without it, no typo matches
        return []
    t, index = _title_index(finder, name)
    if index is None or not index.texts:
        return []
    out: list[Hit] = []
    for _text, score, tid in process.extract(
        query, index.texts, scorer=fuzz.WRatio, limit=limit, score_cutoff=70
    ):
        for row in bits.first_rows(index.rows_of([tid]), 3):
            out.append(Hit(name, row, t.ids[row], index.originals[tid], round(score * 0.59, 1)))
    return out


def _title(t: Table, index: TextIndex | None, row: int) -> str:
    if index is None:
        return str(t.ids[row])
    texts = index.row_texts[row]
    return index.originals[texts[0]] if texts else f"#{t.ids[row]}"


__all__ = ["Hit", "search"]
