"""The catalogue as lists show it: per-kind row sets loaded from the store, and an index over them.

``RowSet`` holds one collection's rows (see ``listing``) and links; ``CatalogueIndex`` answers
lookups by id, reverse links (which webinars and courses an expert appears in, which series hold a
webinar, which certificates name a course) and dangling references. No pydantic, no Qt.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from catalogue_desktop.core.kinds import Kind
from catalogue_desktop.core.listing import COLUMNS, LINK_KINDS, column_index


@dataclass
class RowSet:
    """One collection's rows, in the order the service sent them."""

    kind: Kind
    rows: list[list[Any]] = field(default_factory=list)
    links: list[list[list[int]]] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.id_column = column_index(self.kind, "id")
        self.title_column = 0

    def __len__(self) -> int:
        return len(self.rows)

    def extend(self, chunk: Iterable[list[Any]]) -> None:
        """Append ``[pos, row, links]`` items as ``Store.iter_rows`` yields them."""
        for pos, row, links in chunk:
            self.positions.append(pos)
            self.rows.append(row)
            self.links.append(links)

    def record_id(self, row: int) -> int:
        return self.rows[row][self.id_column]

    def title(self, row: int) -> str:
        value = self.rows[row][self.title_column]
        return str(value) if value else f"{self.kind.singular.capitalize()} #{self.record_id(row)}"

    def value(self, row: int, key: str) -> Any:
        return self.rows[row][column_index(self.kind, key)]

    @property
    def columns(self) -> tuple[Any, ...]:
        return COLUMNS[self.kind]


@dataclass(frozen=True, slots=True)
class Ref:
    """A reference from one record to another that the catalogue does not list."""

    source_kind: Kind
    source_id: int
    target_kind: Kind
    target_id: int


class CatalogueIndex:
    """Lookups over the loaded row sets. Rebuild (cheap) after any row set changes."""

    def __init__(self, rowsets: Mapping[Kind, RowSet]) -> None:
        self.rowsets = dict(rowsets)
        self._rows: dict[Kind, dict[int, int]] = {}
        for kind, rowset in self.rowsets.items():
            column = rowset.id_column
            rows: dict[int, int] = {}
            for i, row in enumerate(rowset.rows):
                rows.setdefault(row[column], i)
            self._rows[kind] = rows
        # target kind -> target id -> source kind -> [source ids]
        self._back: dict[Kind, dict[int, dict[Kind, list[int]]]] = defaultdict(
            lambda: defaultdict(lambda: defaultdict(list))
        )
        for kind, rowset in self.rowsets.items():
            targets = LINK_KINDS.get(kind, ())
            column = rowset.id_column
            for row, links in zip(rowset.rows, rowset.links, strict=True):
                source = row[column]
                for target_kind, ids in zip(targets, links, strict=False):
                    back = self._back[target_kind]
                    for target in ids:
                        back[target][kind].append(source)

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
        found = self._back.get(kind, {}).get(record_id)
        return {k: list(dict.fromkeys(v)) for k, v in found.items()} if found else {}

    def dangling(self) -> list[Ref]:
        """References to records of a loaded kind that the catalogue does not list."""
        out = []
        for target_kind, targets in self._back.items():
            if target_kind not in self.rowsets:
                continue
            for target_id, sources in targets.items():
                if self.has(target_kind, target_id):
                    continue
                for source_kind, ids in sources.items():
                    out.extend(Ref(source_kind, s, target_kind, target_id) for s in ids)
        return out
