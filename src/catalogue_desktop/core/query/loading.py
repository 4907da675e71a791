"""A finder over a store's current snapshots: their facts read a page at a time, a table per
kind, and the offerings made from them (the command line's way; the window builds the same
tables in idle time, ``ui.finder.indexer``)."""

from __future__ import annotations

from collections.abc import Iterable

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.query import offerings
from catalogue_desktop.core.query.engine import Finder
from catalogue_desktop.core.query.table import Table, TableBuilder
from catalogue_desktop.core.query.vocabulary import Vocabulary
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind


def table_from_store(store: Store, kind: Kind, snapshot: int | None = None) -> Table:
    """``kind``'s table from its facts (a record listed before facts existed has none: run
    ``core.sync.relist`` first)."""
    builder = TableBuilder(kind.value)
    for _positions, facts in store.iter_facts(kind, snapshot):
        builder.add([f if isinstance(f, dict) else {} for f in facts])
    return builder.finish()


def finder_from_store(
    store: Store, vocabulary: Vocabulary | None = None, kinds: Iterable[Kind] = ALL_KINDS
) -> Finder:
    """A finder over every kind in ``kinds`` and the offerings."""
    finder = Finder(vocabulary)
    for kind in kinds:
        finder.set_table(table_from_store(store, kind))
    offerings.rebuild(finder)
    return finder
