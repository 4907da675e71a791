"""Finding records in the cached catalogue, offline: ``catalogue-desktop find`` and
``export --query`` (the window's finder runs the same engine, ``core.query``).

Queries are parsed before anything is read, so only the tables they need are loaded: the kinds
asked for; for the offerings, the courses, series and webinars they are made of; and the tables a
derived field of those kinds comes from (``SOURCES``: webinars' ``series`` needs the series,
experts' ``webinars`` counts the webinars, ...). Rows are in the store's order (the order of the
service's arrays), so ids come out in that order.

Ids (``id_texts``): a record's own id; an offering, whose course or webinar repeats per location
or session, as ``course:COURSE@LOCATION``, ``session:SERIES@WEBINAR`` or ``webinar:WEBINAR``.
"""

from __future__ import annotations

import gc
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.listing import rows as listing
from catalogue_desktop.core.query import bits, offerings
from catalogue_desktop.core.query.engine import Finder, Outcome
from catalogue_desktop.core.query.fields import OFFERINGS, SCHEMA, TABLES
from catalogue_desktop.core.query.lexicon import Lexicon
from catalogue_desktop.core.query.order import ordered
from catalogue_desktop.core.query.reading import Reading, directives, read
from catalogue_desktop.core.query.syntax import Parsed, QueryError, walk
from catalogue_desktop.core.query.table import Table, TableBuilder
from catalogue_desktop.core.query.withdrawn import WithdrawnTables, attach_history
from catalogue_desktop.core.records.errors import CatalogueError
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.records.zones import local_now  # (here too: what a search runs at)

# A derived field's key (``fields.Field.key``) -> the kinds its values come from.
SOURCES: dict[str, tuple[str, ...]] = {
    "@series": ("series",),
    "@certificate": ("certificates",),
    "@course": ("courses",),
    "@webinars": ("webinars",),
    "@courses": ("courses",),
    "@ondemand": (),
}
OFFERING_SOURCES = ("courses", "series", "webinars")


class NothingToFind(CatalogueError):
    """None of the kinds asked for was ever synced into the store."""


def table_name(text: str) -> str:
    """A table as the command line names it: a kind (plural or singular, any case) or ``dates``
    (the window's Dates; ``offerings``, its older name, still works)."""
    key = text.strip().lower()
    if key in ("dates", "date", OFFERINGS, "offering"):
        return OFFERINGS
    try:
        return Kind.parse(key).value
    except ValueError:
        names = [t for t in TABLES if t != OFFERINGS]
        raise ValueError(f"unknown kind {text!r}: expected one of {', '.join(names)}, dates") from None


def kinds_needed(tables: Iterable[str], queries: Iterable[Parsed]) -> list[Kind]:
    """The kinds to read for ``queries`` on ``tables``, in ``Kind`` order."""
    terms = [t for p in queries if p.root is not None for t in walk(p.root)]
    needed: set[str] = set()
    for table in tables:
        needed.update(OFFERING_SOURCES if table == OFFERINGS else (table,))
        for term in terms:
            f = SCHEMA.field(table, term.field) if term.field is not None else None
            if f is not None and f.key.startswith("@"):
                needed.update(SOURCES[f.key])
    return [k for k in Kind if k.value in needed]


@dataclass
class StoredTables:
    """The tables read from a store, in the engine that finds in them (``finder``), and each
    kind's store positions per row."""

    finder: Finder
    positions: dict[str, list[int]]
    _ids: dict[str, list[str]]
    withdrawn: WithdrawnTables | None = None  # the records gone from the service, by kind

    def table(self, name: str) -> Table:
        return self.finder.tables[name]

    def id_texts(self, name: str) -> list[str]:
        """Each row's id as JSON text (made once per table)."""
        found = self._ids.get(name)
        if found is None:
            found = self._ids[name] = _id_texts(self.table(name))
        return found


def load(store: Store, kinds: Iterable[Kind], tables: Iterable[str] = ()) -> StoredTables:
    """The tables of ``kinds`` from the store's current snapshots (and the offerings, if
    ``tables`` names them). Run ``relist_stale`` first: a snapshot listed by an older version has
    no facts."""
    finder = Finder()
    positions: dict[str, list[int]] = {}
    events: dict[str, list[Any]] = {}
    enabled = gc.isenabled()
    gc.disable()  # millions of small objects, none in a cycle: as the window's loader does
    try:
        for kind in kinds:
            builder = TableBuilder(kind.value)
            rows: list[int] = []
            for page, facts in store.iter_facts(kind, store.state(kind).snapshot):
                builder.add([f if isinstance(f, dict) else {} for f in facts])
                rows += page
            table = builder.finish()
            events[kind.value] = attach_history(store, kind, table)
            finder.set_table(table)
            positions[kind.value] = rows
        if OFFERINGS in tables:
            offerings.rebuild(finder)
        gc.freeze()  # later collections do not walk the tables
    finally:
        if enabled:
            gc.enable()
    return StoredTables(finder, positions, {}, WithdrawnTables(store, events))


def relist_stale(store: Store, kinds: Iterable[Kind], note: Callable[[str], None]) -> None:
    """List again the snapshots of ``kinds`` stored by an older version (they have no facts),
    saying so through ``note``."""
    stale = [k for k in store.stale_listings(listing.LISTING_VERSION) if k in set(kinds)]
    if stale and store.read_only:
        note(f"{', '.join(k.value for k in stale)} stored by an older version: found as listed then")
        return
    if stale:
        # (imported here for time, not for the layers: relist decodes records with pydantic, which
        # the window imports on a thread after start-up; the window's watched searches read this
        # module at start-up)
        from catalogue_desktop.core.sync.relist import relist

        note(f"listing {', '.join(k.value for k in stale)} again (stored by an older version); once only")
        for kind in stale:
            relist(str(store.path), kind.value)


def _id_texts(table: Table) -> list[str]:
    if table.name != OFFERINGS:
        return [str(i) if type(i) is int else json.dumps(i) for i in table.ids]
    out = []
    columns = table.columns
    for kind, rid, location, series in zip(
        columns["kind"], table.ids, columns["locationId"], columns["seriesId"], strict=True
    ):
        if kind == "course" and location is not None:
            out.append(f'"course:{rid}@{location}"')
        elif kind == "session" and series is not None:
            out.append(f'"session:{series}@{rid}"')
        else:
            out.append(json.dumps(f"{kind}:{rid}"))
    return out


# -- plain words ----------------------------------------------------------------------------------

# The kinds the reading's vocabulary comes from: cities, states and venues (courses), experts'
# names, the titles of topics, roles, situations, series and courses.
LEXICON_KINDS = (Kind.COURSES, Kind.EXPERTS, Kind.TOPICS, Kind.ROLES, Kind.SITUATIONS, Kind.SERIES)


def lexicon_of(store: Store) -> Lexicon:
    """The reading's vocabulary from the store's synced kinds (an empty one when none is)."""
    kinds = [k for k in LEXICON_KINDS if store.state(k).has_data]
    if not kinds:
        return Lexicon()
    return Lexicon.from_finder(load(store, kinds).finder)


def read_all(
    store: Store, texts: Iterable[str], now: datetime, *, table: str | None = None, literal: bool = False
) -> list[Reading]:
    """What each text reads as (``core.query.reading``) in the store's vocabulary, for ``table``
    (None: any); ``literal``: the language alone, nothing read."""
    texts = list(texts)
    lexicon = Lexicon() if literal or not texts else lexicon_of(store)
    return [read(text, lexicon, now, literal=literal, table=table) for text in texts]


# -- export --query --------------------------------------------------------------------------------


def select(
    store: Store, kind: Kind, query: Parsed, note: Callable[[str], None], now: datetime | None = None
) -> list[int]:
    """The store positions of ``kind``'s records matching ``query`` (which parsed), in the
    store's order or the one the query asks (``sort:fee``); none, saying why to ``note``, when
    the kind lacks a field the query names."""
    assert query.ok, query.error

    kinds = kinds_needed([kind.value], [query])
    relist_stale(store, kinds, note)
    catalogue = load(store, kinds)
    outcome: Outcome = catalogue.finder.evaluate(query, kind.value, now or local_now())
    if outcome.missing is not None:
        note(f"{outcome.message()}: no records match")
        return []
    if catalogue.withdrawn is not None and catalogue.withdrawn.evaluate(
        query, kind.value, now or local_now()
    ):
        note("withdrawn records (removed:) are no longer in the catalogue and are not exported; see find")
    order = directives(query)[1]
    if order is None:
        return bits.pick(catalogue.positions[kind.value], outcome.bits)
    positions = catalogue.positions[kind.value]
    return [
        positions[row]
        for row in ordered(catalogue.table(kind.value), outcome.bits, order, outcome.child_bits)
    ]


__all__ = [
    "SOURCES",
    "NothingToFind",
    "QueryError",
    "StoredTables",
    "kinds_needed",
    "lexicon_of",
    "load",
    "local_now",
    "read_all",
    "select",
    "table_name",
]
