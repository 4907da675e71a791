"""The catalogue as lists show it: per-kind row sets loaded from the store, and an index over them.

``RowSet`` holds one collection's rows (see ``rows``) and links; ``CatalogueIndex`` answers
lookups by id, reverse links (which webinars and courses an expert appears in, which series hold a
webinar, which certificates name a course) and dangling references. No pydantic, no Qt.

A row set's rows (``Rows``) are a list of the rows read from the store, or a ``RowSource``: rows
made when first read (the Dates rows, ``core.query.dates_rows``), given as ``source``, which
answers what a row set asks of every row (ids, a date column's instants) without making them.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, NamedTuple, Protocol, SupportsIndex, overload

from catalogue_desktop.core.listing.rows import COLUMNS, LINK_KINDS, column_index
from catalogue_desktop.core.records.kinds import Kind, ListKind

Row = Sequence[Any]  # the columns' values (``listing.COLUMNS[kind]``), then the dates' offsets


class Rows(Protocol):
    """A row set's rows, by index (a list is one)."""

    def __len__(self) -> int: ...
    @overload
    def __getitem__(self, i: SupportsIndex) -> Row: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Row]: ...
    def __iter__(self) -> Iterator[Row]: ...


class PackedLinks(Protocol):
    """A chunk's links packed (``cache.pages``), unpacked when first needed."""

    def __len__(self) -> int: ...
    def unpack(self) -> list[list[list[int]]]: ...


class RowSource(Rows, Protocol):
    """Rows made when first read, and what a row set needs of all of them without making them."""

    @property
    def ids(self) -> Sequence[int]:
        """Each row's id (its ``id`` column)."""
        ...

    def dated_column(self, column: int) -> list[int | None] | None:
        """Every row's instant (epoch ms) in the date column ``column``; None: not one of those
        the source has without making rows (the caller reads the rows)."""
        ...

    def clear_steps(self) -> Iterator[None]:
        """Forget the rows made, a slice per step."""
        ...


class RowSet:
    """One collection's rows, in the order the service sent them (or the Dates rows: ``source``).

    Links can arrive packed (``Store.iter_columns(packed_links=True)``: a page's link lists as
    one blob, half the cost of reading the page). ``links`` unpacks what is left when asked;
    ``unpack_links`` does it a chunk at a time, in idle time.
    """

    def __init__(
        self,
        kind: ListKind,
        rows: list[list[Any]] | None = None,
        links: list[list[list[int]]] | None = None,
        positions: list[int] | None = None,
        *,
        source: RowSource | None = None,
    ) -> None:
        """``source``: rows made when read (then ``rows`` is None, and the row set does not grow)."""
        self.kind = kind
        self.snapshot: int | None = None  # the store's snapshot the rows were read from
        self._listed: list[list[Any]] = [] if rows is None else rows  # rows read as lists
        self.source = source
        self.rows: Rows = self._listed if source is None else source
        self._links: list[list[list[int]]] = [] if links is None else links
        self._packed: list[PackedLinks] = []  # the links of the rows after ``_links``, packed, in order
        self.positions: list[int] = [] if positions is None else positions
        # Orders computed by ``sorting.sorted_rows``, by (column, descending); emptied by ``extend``.
        self.sort_cache: dict[tuple[int, bool], tuple[int, ...]] = {}
        # Sort keys kept by ``sorting.sorted_rows`` (numeric columns, or False: none), by column;
        # emptied by ``extend``.
        self.sort_keys: dict[int, Any] = {}
        # Columns' values copied out of the rows (``sorting.SortJob``, for the default order's
        # ranks: reading them from 100,000 rows at once was most of a table reset), by column;
        # emptied by ``extend``.
        self.values: dict[int, Any] = {}  # (an array of ints, or a list)
        # A series' rows whose First and Last session are settled (``series_dates.settle_rest``):
        # for which on-demand codes, how many rows.
        self.settled: tuple[frozenset[str], int] | None = None
        self.id_column = column_index(kind, "id")
        self.title_column = 0
        self._indexed = 0  # rows[:_indexed] are in _by_id
        # filled by ``extend``: the id lookup grows with it, chunk by chunk
        self._by_id: dict[int, int] | None = None if self.rows else {}

    def __len__(self) -> int:
        return len(self.rows)

    def __repr__(self) -> str:
        return f"RowSet({self.kind.value}, {len(self.rows)} rows)"

    @property
    def links(self) -> list[list[list[int]]]:
        """Each row's link lists (by ``listing.LINK_KINDS`` slot): target ids."""
        if self._packed:
            self.unpack_links()
        return self._links

    @property
    def packed_links(self) -> int:
        """How many chunks of links are still packed."""
        return len(self._packed)

    def unpack_links(self, chunks: int | None = None) -> bool:
        """Unpack up to ``chunks`` packed chunks of links (all by default); True once none is
        left."""
        while self._packed and (chunks is None or chunks > 0):
            self._links.extend(self._packed[0].unpack())  # dropped only once unpacked
            del self._packed[0]
            chunks = None if chunks is None else chunks - 1
        return not self._packed

    def extend(self, chunk: Iterable[list[Any]]) -> None:
        """Append ``[pos, row, links]`` items as ``Store.iter_rows`` yields them."""
        items = list(chunk)
        self.extend_columns(
            [item[0] for item in items], [item[1] for item in items], [item[2] for item in items]
        )

    def extend_columns(
        self, positions: list[int], rows: list[list[Any]], links: list[list[list[int]]] | PackedLinks
    ) -> None:
        """Append a chunk as ``Store.iter_columns`` yields it: three parallel sequences, the links
        as lists or packed (anything with ``len()`` and ``unpack()``)."""
        if not len(positions) == len(rows) == len(links):
            raise ValueError("positions, rows and links differ in length")
        if self.source is not None:
            raise TypeError("rows made when read do not grow")
        self.sort_cache.clear()
        self.sort_keys.clear()
        self.values.clear()
        self.positions.extend(positions)
        self._listed.extend(rows)
        if isinstance(links, list):
            if self._packed:
                self.unpack_links()
            self._links.extend(links)
        else:
            self._packed.append(links)
        if self._by_id is not None:  # keep the id lookup current, a chunk at a time
            self.rows_by_id()

    def forget_derived(self) -> None:
        """Drop what was derived from the rows (sort orders and keys, the id lookup)."""
        self.sort_cache.clear()
        self.sort_keys.clear()
        self.values.clear()
        self._by_id = None

    def drain(self, step: int) -> Iterator[None]:
        """Empty this row set ``step`` rows at a time, one slice per ``next()``: dropping a big row set at
        once (millions of objects) holds the thread (docs/decisions.md, "Sorting and the tables")."""
        self.forget_derived()
        self._packed.clear()
        if self.source is not None:
            yield from self.source.clear_steps()
        for seq in (self._listed, self._links, self.positions):
            while seq:
                del seq[-step:]
                yield

    def record_id(self, row: int) -> int:
        found: int = self.rows[row][self.id_column]
        return found

    def rows_by_id(self) -> dict[int, int]:
        """Record id -> row index (the first row, if ids repeat); kept up to date as chunks are
        added (no pass over 100k rows when the index is rebuilt), and built once per row set, so
        that rebuilding the index after one collection reloaded does not redo the others."""
        rows = self.rows
        if self._by_id is None or self._indexed > len(rows):
            self._by_id, self._indexed = {}, 0
        by_id = self._by_id
        if self._indexed < len(rows):
            if self.source is not None:  # rows made when read know their ids
                ids = self.source.ids
                for i, record_id in enumerate(ids[self._indexed :], self._indexed):
                    by_id.setdefault(record_id, i)
            else:
                column = self.id_column
                for i in range(self._indexed, len(rows)):
                    by_id.setdefault(rows[i][column], i)
            self._indexed = len(rows)
        return by_id

    def title(self, row: int) -> str:
        value = self.rows[row][self.title_column]
        return str(value) if value else f"{self.kind.singular.capitalize()} #{self.record_id(row)}"

    def value(self, row: int, key: str) -> Any:
        return self.rows[row][column_index(self.kind, key)]

    @property
    def columns(self) -> tuple[Any, ...]:
        return COLUMNS[self.kind]


# Reverse links answered from a map built on first use (and rebuilt when the referring row set changes)
# instead of a scan: (referring kind, target kind). Which series hold a webinar is asked for every webinar the
# detail pane shows: a scan each time costs more than the map, built once (one int per webinar in a single
# series; docs/decisions.md, "Sorting and the tables").
MAPPED_LINKS: frozenset[tuple[Kind, Kind]] = frozenset({(Kind.SERIES, Kind.WEBINARS)})


class Ref(NamedTuple):
    """A reference from one record to another that the catalogue does not list."""

    source_kind: Kind
    source_id: int
    target_kind: Kind
    target_id: int


class CatalogueIndex:
    """Lookups over the loaded row sets.

    Id lookups use a dict per kind, built eagerly. Reverse links are answered by scanning the referring kind's
    link lists on demand (no memory held; the costs: docs/decisions.md, "Sorting and the tables") rather than
    by reverse maps that would cost a second at start-up; only the links in ``MAPPED_LINKS`` get a map, built
    the first time they are asked for."""

    def __init__(self, rowsets: Mapping[Kind, RowSet]) -> None:
        self.rowsets: dict[Kind, RowSet] = {}
        self._rows: dict[Kind, dict[int, int]] = {}
        # (source kind, slot) -> (row set and link count it was built from, target id -> ids)
        self._reverse: dict[tuple[Kind, int], tuple[RowSet, int, dict[int, Any]]] = {}
        for rowset in rowsets.values():
            self.replace(rowset)

    def replace(self, rowset: RowSet) -> None:
        """Take a reloaded collection's rows (the other kinds' lookups stay as they are)."""
        kind = rowset.kind
        if not isinstance(kind, Kind):
            raise TypeError(f"{kind.label} are no collection: the index holds the collections' rows")
        self.rowsets[kind] = rowset
        self._rows[kind] = rowset.rows_by_id()
        self._reverse = {key: value for key, value in self._reverse.items() if key[0] is not kind}

    def row_of(self, kind: Kind, record_id: int) -> int | None:
        """Row index of the record with this id (the first, if ids repeat), or None."""
        return self._rows.get(kind, {}).get(record_id)

    def has(self, kind: Kind, record_id: int) -> bool:
        return record_id in self._rows.get(kind, {})

    def title(self, kind: Kind, record_id: int) -> str | None:
        row = self.row_of(kind, record_id)
        return None if row is None else self.rowsets[kind].title(row)

    def referrers(self, kind: Kind, record_id: int) -> dict[Kind, list[int]]:
        """Records that refer to this one, by kind: an expert's webinars and courses, etc."""
        out: dict[Kind, list[int]] = {}
        for source, targets in LINK_KINDS.items():
            rowset = self.rowsets.get(source)
            if rowset is None or kind not in targets:
                continue
            slot = targets.index(kind)
            if (source, kind) in MAPPED_LINKS:
                got = self._reverse_map(source, rowset, slot).get(record_id)
                found = [] if got is None else got if isinstance(got, list) else [got]
            else:
                column = rowset.id_column
                found = [
                    rowset.rows[i][column]
                    for i, links in enumerate(rowset.links)
                    if len(links) > slot and record_id in links[slot]
                ]
            if found:
                out[source] = list(dict.fromkeys(found))
        return out

    def _reverse_map(self, source: Kind, rowset: RowSet, slot: int) -> dict[int, Any]:
        """Target id -> id of the referring row (of ``source``'s ``rowset``), or a list of ids in
        row order when several rows refer to it; rebuilt when the row set was replaced or has grown."""
        key = (source, slot)
        cached = self._reverse.get(key)
        if cached is not None and cached[0] is rowset and cached[1] == len(rowset.links):
            return cached[2]
        reverse: dict[int, Any] = {}
        column = rowset.id_column
        for row, links in zip(rowset.rows, rowset.links, strict=True):
            if len(links) <= slot:
                continue
            source_id = row[column]
            for target_id in links[slot]:
                got = reverse.get(target_id)
                if got is None:
                    reverse[target_id] = source_id
                elif isinstance(got, list):
                    got.append(source_id)
                else:
                    reverse[target_id] = [got, source_id]
        self._reverse[key] = (rowset, len(rowset.links), reverse)
        return reverse

    def dangling(self) -> list[Ref]:
        """References to records of a loaded kind that the catalogue does not list."""
        out = []
        for source, targets in LINK_KINDS.items():
            rowset = self.rowsets.get(source)
            if rowset is None:
                continue
            for slot, target in enumerate(targets):
                if target not in self.rowsets:
                    continue
                known = self._rows[target]
                for row, links in zip(rowset.rows, rowset.links, strict=True):
                    for target_id in links[slot] if len(links) > slot else ():
                        if target_id not in known:
                            out.append(Ref(source, row[rowset.id_column], target, target_id))
        return out
