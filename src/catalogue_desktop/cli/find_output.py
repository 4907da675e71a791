"""How ``catalogue-desktop find`` writes its answers: one JSON object per query and line, or a
readable block per query; a query that does not parse is shown as a compiler shows an error.

JSON lines are written as text, not through ``json.dumps`` of lists: a query may match tens of
thousands of records, and joining the ids' texts (made once per table) is several times faster.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import TYPE_CHECKING, Any

from catalogue_desktop.core.query import bits
from catalogue_desktop.core.query.engine import Outcome
from catalogue_desktop.core.query.fields import OFFERINGS
from catalogue_desktop.core.query.reading import Reading
from catalogue_desktop.core.query.syntax import Parsed, QueryError, has_removed
from catalogue_desktop.core.query.table import Table
from catalogue_desktop.core.records.field_registry import fact_keys

if TYPE_CHECKING:
    from catalogue_desktop.core.searches.stored import StoredTables

SHOWN = 10  # matches listed per kind in text mode
_TITLE = {"experts": "name"}  # the others: "title"
_DATE = fact_keys(OFFERINGS)  # a date's keys by field name (the registry's: ``starts`` is ``startDate``)


def withdrawn(
    catalogue: StoredTables, query: Parsed, tables: Iterable[str], now: datetime
) -> dict[str, list[Any]]:
    """Per kind, the withdrawn records a query with a ``removed:`` clause matches: (id, day
    withdrawn, title) each; empty for any other query."""
    found: dict[str, list[Any]] = {}
    if catalogue.withdrawn is None or query.root is None or not has_removed(query.root):
        return found
    for name in tables:
        outcome = catalogue.withdrawn.evaluate(query, name, now)
        gone = catalogue.withdrawn.get(name) if outcome is not None else None  # (answered: it has one)
        if outcome is not None and gone is not None:
            found[name] = [
                (gone.table.ids[row], gone.day_of(row), _title(gone.table, row)) for row in outcome.rows
            ]
    return found


def json_line(
    catalogue: StoredTables,
    query: str,
    outcomes: Mapping[str, Outcome],
    gone: Mapping[str, list[Any]] | None = None,
    reading: Reading | None = None,
    rows: Mapping[str, list[int]] | None = None,
) -> str:
    """``{"query": Q, "understood": QUERY, "words": [...], "counts": {KIND: n | null}, "ids":
    {KIND: [...]}}``: ``understood`` the equivalent query the words were read as, ``words`` what
    stayed free words (null and [] where the kind lacks a field the query names; ids in the order
    the query asks, ``rows``); a query with a ``removed:`` clause adds ``"withdrawn": {KIND:
    [ids]}``, the records gone from the service it matches (never in ``ids``: they are not in the
    catalogue)."""
    counts = []
    ids = []
    for name, outcome in outcomes.items():
        key = json.dumps(name)
        if outcome.missing is not None:
            counts.append(f"{key}: null")
            ids.append(f"{key}: []")
        else:
            counts.append(f"{key}: {outcome.count}")
            texts = catalogue.id_texts(name)
            picked = [texts[r] for r in rows[name]] if rows else bits.pick(texts, outcome.bits)
            ids.append(f"{key}: [{','.join(picked)}]")
    extra = ""
    if gone:
        extra = ', "withdrawn": ' + json.dumps({k: [g[0] for g in v] for k, v in gone.items()})
    said = ""
    if reading is not None:
        said = (
            f' "understood": {json.dumps(reading.query, ensure_ascii=False)},'
            f' "words": {json.dumps(list(reading.words), ensure_ascii=False)},'
        )
    return (
        f'{{"query": {json.dumps(query, ensure_ascii=False)},{said} "counts": {{{", ".join(counts)}}},'
        f' "ids": {{{", ".join(ids)}}}{extra}}}'
    )


def explain(reading: Reading) -> str:
    """How ``find --explain`` says what a query's words were read as: each condition in words
    with its clause, the equivalent query, the free words, the tab and order, a suggestion."""
    lines = [f"Reading: {reading.text}"]
    if reading.literal:
        lines.append("  read as the query language alone (--words)")
    for c in reading.conditions:
        other = f"  (or {c.other})" if c.other else ""
        lines.append(f"  {c.label:<28} {c.clause}{other}")
    lines.append(f"  query: {reading.query}")
    if reading.words:
        lines.append(f"  free words: {' '.join(reading.words)}")
    if reading.suggestion:
        lines.append(f"  {reading.suggestion}")
    return "\n".join(lines) + "\n"


def json_error(query: str, error: QueryError) -> str:
    return json.dumps(
        {"query": query, "error": {"position": error.position, "message": error.message}}, ensure_ascii=False
    )


def error_text(query: str, error: QueryError, number: int) -> str:
    """The error, the query and a caret under what is wrong (``position`` is 0-based)."""
    shown = "".join(" " if c in "\t\r\n\v\f" else c for c in query)
    end = min(max(error.end, error.position + 1), len(shown) + 1)
    return (
        f"catalogue-desktop: query {number} does not parse: {error.message}\n"
        f"  {shown}\n  {' ' * error.position}{'^' * (end - error.position)}"
    )


def text_block(
    catalogue: StoredTables,
    query: str,
    outcomes: Mapping[str, Outcome],
    number: int,
    total: int,
    gone: Mapping[str, list[Any]] | None = None,
    reading: Reading | None = None,
    rows: Mapping[str, list[int]] | None = None,
) -> str:
    """One query's answer for people: the query (and what its words were read as), the count per
    kind (a kind lacking a field says why), then the first matches of each kind with id and
    title, in the order the query asks (``rows``)."""
    head = f"Query {number}" if total > 1 else "Query"
    lines = [f"{head}: {query}" if query.strip() else f"{head}: (empty: every record)"]
    if reading is not None and reading.query != reading.text.strip():
        lines.append(f"  read as: {reading.query}")
    width = max(map(len, outcomes))
    for name, outcome in outcomes.items():
        if outcome.missing is not None:
            lines.append(f"  {name:<{width}}  skipped: {outcome.message()}")
        else:
            lines.append(f"  {name:<{width}}  {outcome.count:>9,}")
    for name, outcome in outcomes.items():
        if outcome.missing is not None or not outcome.bits:
            continue
        lines.append("")
        lines.append(f"  {name} ({outcome.count:,}):")
        table = catalogue.table(name)
        first = rows[name][:SHOWN] if rows else bits.first_rows(outcome.bits, SHOWN)
        texts = catalogue.id_texts(name)
        shown = [
            (json.loads(texts[row]) if name == OFFERINGS else texts[row], _title(table, row)) for row in first
        ]
        id_width = max(len(str(i)) for i, _ in shown)
        lines += [f"    {i!s:<{id_width}}  {title}" for i, title in shown]
        if outcome.count > len(first):
            lines.append(f"    ... and {outcome.count - len(first):,} more")
    for name, items in (gone or {}).items():
        if items:
            lines += ["", f"  {name} withdrawn from the catalogue ({len(items):,}):"]
            lines += [f"    {rid!s}  {title}  (withdrawn {day})" for rid, day, title in items[:SHOWN]]
            if len(items) > SHOWN:
                lines.append(f"    ... and {len(items) - SHOWN:,} more")
    return "\n".join(lines) + "\n\n"


def _title(table: Table, row: int) -> str:
    title = table.column(_TITLE.get(table.name, "title"))[row] or "(no title)"
    if table.name != OFFERINGS:
        return str(title)
    columns = table.columns
    where = columns[_DATE["city"]][row] or columns[_DATE["venue"]][row]
    start = columns[_DATE["starts"]][row]
    when = str(start)[:10] if start else ("on demand" if columns[_DATE["ondemand"]][row] else "")
    extra = ", ".join(str(p) for p in (where, when) if p)
    return f"{title} — {extra}" if extra else str(title)
