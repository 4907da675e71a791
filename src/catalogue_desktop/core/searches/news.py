"""What is new for the watched searches: what each matches now, compared with what it matched
when the user last looked (its baseline, kept with the saved search in the cache).

* ``new``: records it matches now and did not then (added, or changed so that they match);
* ``changed``: records it matched then and now whose shown fields (fee, dates, place, title)
  changed since, as the history written after its mark says;
* ``gone``: records it matched then and does not now (changed so they no longer match, or
  withdrawn by the service).

``mark_seen`` makes the present the new baseline.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from catalogue_desktop.core.cache.record_history import Event
from catalogue_desktop.core.cache.saved_searches import SavedSearch
from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.query import bits
from catalogue_desktop.core.query.lexicon import Lexicon
from catalogue_desktop.core.query.reading import read
from catalogue_desktop.core.query.syntax import Parsed, parse
from catalogue_desktop.core.records.errors import CatalogueError
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.searches.stored import kinds_needed, lexicon_of, load, local_now, relist_stale

# The fields whose change is news for a record a watched search keeps matching (path leaves).
SHOWN_FIELDS = frozenset(
    {"fee", "startDate", "endDate", "productionDate", "venue", "city", "state", "address", "title"}
)


class SearchError(CatalogueError):
    """A watched search that cannot be made, said in words."""


@dataclass(frozen=True, slots=True)
class News:
    """What changed for one watched search since it was last looked at."""

    search: SavedSearch
    new: dict[str, list[int]]
    changed: dict[str, list[int]]
    gone: dict[str, list[int]]
    matches: dict[str, list[int]]  # what it matches now (the next baseline)

    @property
    def count(self) -> int:
        return sum(len(v) for part in (self.new, self.changed, self.gone) for v in part.values())

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.search.name,
            "query": self.search.query,
            "new": self.new,
            "changed": self.changed,
            "gone": self.gone,
        }


def kinds_of(search: SavedSearch) -> list[Kind]:
    return [Kind(search.kind)] if search.kind else list(Kind)


def matches(
    store: Store, searches: Iterable[SavedSearch], now: datetime | None = None
) -> list[dict[str, list[int]]]:
    """What each search matches now, per kind: ids in the cache's order. The tables are read once
    for all the searches."""
    searches = list(searches)
    now = now or local_now()
    lexicon = lexicon_of(store) if searches else Lexicon()
    parsed: list[Parsed] = [understood(lexicon, s, now) for s in searches]
    tables = sorted({k.value for s in searches for k in kinds_of(s)})
    kinds = kinds_needed(tables, [p for p in parsed if p.ok])
    relist_stale(store, kinds, lambda _text: None)
    synced = {k for k in kinds if store.state(k).has_data}
    catalogue = load(store, [k for k in kinds if k in synced])
    out: list[dict[str, list[int]]] = []
    for search, query in zip(searches, parsed, strict=True):
        found: dict[str, list[int]] = {}
        for kind in kinds_of(search):
            if kind not in synced or not query.ok:
                continue
            outcome = catalogue.finder.evaluate(query, kind.value, now)
            if outcome.missing is None:
                found[kind.value] = list(bits.pick(catalogue.table(kind.value).ids, outcome.bits))
        out.append(found)
    return out


def news(store: Store, searches: Iterable[SavedSearch], now: datetime | None = None) -> list[News]:
    """For each watched search among ``searches``: its new, changed and gone records since its
    ``seen_at``."""
    watched = [s for s in searches if s.watched]
    found = matches(store, watched, now)
    touched = Touched(store)
    return [compare(search, current, touched) for search, current in zip(watched, found, strict=True)]


class Touched:
    """The records whose shown fields the history changed after a mark, per kind (read once per
    kind and mark: watched searches seen together share it)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self._found: dict[tuple[Kind, int], set[int]] = {}

    def after(self, kind: Kind, mark: int) -> set[int]:
        found = self._found.get((kind, mark))
        if found is None:
            found = self._found[(kind, mark)] = _shown_changes(self._store.history.after(kind, mark))
        return found


def compare(search: SavedSearch, current: dict[str, list[int]], touched: Touched) -> News:
    """One watched search's news: what it matches now (``current``, per kind) against its
    baseline, and the shown fields the history changed since its mark."""
    new: dict[str, list[int]] = {}
    changed: dict[str, list[int]] = {}
    gone: dict[str, list[int]] = {}
    for kind in kinds_of(search):
        key = kind.value
        before = set(search.baseline.get(key, ()))
        now_ids = current.get(key, [])
        now_set = set(now_ids)
        if fresh := [i for i in now_ids if i not in before]:
            new[key] = fresh
        if lost := sorted(before - now_set):
            gone[key] = lost
        kept = before & now_set
        if kept:
            moved_ids = touched.after(kind, search.seen_mark)
            if moved := [i for i in now_ids if i in kept and i in moved_ids]:
                changed[key] = moved
    return News(search, new, changed, gone, current)


def mark_seen(store: Store, items: Iterable[News], at: str) -> None:
    """The present becomes each search's baseline: its news are seen."""
    store.searches.set_seen({item.search.name: item.matches for item in items}, at, store.history.mark())


def watch(
    store: Store, name: str, query: str, kind: str | None, at: str, now: datetime | None = None
) -> SavedSearch:
    """Save ``query`` under ``name`` (replacing one of that name) as a watched search whose
    baseline is what it matches now: its news start from here. Plain words are saved as the
    query they read as (``core.query.reading``), so the search's meaning never drifts."""
    name = name.strip()
    if not name:
        raise SearchError("a watched search needs a name")
    parsed = parse(query)
    if parsed.error is not None:
        raise SearchError(
            f"the query does not parse: {parsed.error.message} (at character {parsed.error.position + 1})"
        )
    query = understood(lexicon_of(store), SavedSearch(name, query, kind), now or local_now()).text
    search = SavedSearch(name, query, kind, watched=True)
    mark = store.history.mark()
    (baseline,) = matches(store, [search], now)
    search = SavedSearch(name, query, kind, True, at, mark, baseline)
    store.searches.put(search)
    return search


def understood(lexicon: Lexicon, search: SavedSearch, now: datetime) -> Parsed:
    """A saved search's query, its plain words read (``core.query.reading``)."""
    return parse(read(search.query, lexicon, now, table=search.kind).query)


def _shown_changes(events: Iterable[tuple[int, Event]]) -> set[int]:
    touched = set()
    for record_id, event in events:
        if event.change == "changed" and any(_leaf(path) in SHOWN_FIELDS for path in event.fields):
            touched.add(record_id)
    return touched


def _leaf(path: str) -> str:
    return path.rsplit("/", 1)[-1]
