"""A row set over a ``RowSource`` (rows made when read, as the Dates rows are): its ids and a date
column's instants come from the source without a row made; it does not grow; draining it clears
the rows made."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any, overload

import pytest

from catalogue_desktop.core.listing.rows import COLUMNS, column_index
from catalogue_desktop.core.listing.rowset import Row, RowSet, RowSource
from catalogue_desktop.core.listing.sorting import sorted_rows
from catalogue_desktop.core.records.kinds import OCCASIONS

START = column_index(OCCASIONS, "start")


class CountingSource:
    """Rows made on demand, counted; the start instants known without them."""

    def __init__(self, starts: list[int | None]) -> None:
        self.starts = starts
        self.made = 0
        self.cleared = False

    def _row(self, i: int) -> Row:
        self.made += 1
        row: list[Any] = [None] * len(COLUMNS[OCCASIONS])
        row[START] = self.starts[i]
        row[column_index(OCCASIONS, "id")] = i
        return row

    def __len__(self) -> int:
        return len(self.starts)

    @overload
    def __getitem__(self, i: int) -> Row: ...
    @overload
    def __getitem__(self, i: slice) -> Sequence[Row]: ...
    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self._row(j) for j in range(*i.indices(len(self)))]
        return self._row(i)

    def __iter__(self) -> Iterator[Row]:
        return (self._row(i) for i in range(len(self)))

    @property
    def ids(self) -> Sequence[int]:
        return range(len(self.starts))

    def dated_column(self, column: int) -> list[int | None] | None:
        return self.starts if column == START else None

    def clear_steps(self) -> Iterator[None]:
        self.cleared = True
        yield


def _rowset(source: CountingSource) -> RowSet:
    typed: RowSource = source  # (the protocol: checked by mypy)
    n = len(source)
    return RowSet(OCCASIONS, None, [[]] * n, list(range(n)), source=typed)


def test_ids_and_date_sorts_make_no_row() -> None:
    source = CountingSource([30, None, 10, 20])
    rowset = _rowset(source)
    assert rowset.rows_by_id() == {0: 0, 1: 1, 2: 2, 3: 3}
    assert sorted_rows(rowset, START) == [2, 3, 0, 1]  # blanks last
    assert sorted_rows(rowset, START, descending=True) == [0, 3, 2, 1]
    assert source.made == 0
    assert rowset.record_id(2) == 2 and source.made == 1  # a row read is made


def test_a_sourced_row_set_does_not_grow_and_drains_its_source() -> None:
    source = CountingSource([1, 2])
    rowset = _rowset(source)
    with pytest.raises(TypeError):
        rowset.extend_columns([2], [[None] * len(COLUMNS[OCCASIONS])], [[]])
    for _ in rowset.drain(1):
        pass
    assert source.cleared and rowset.positions == [] and rowset.sort_cache == {}
