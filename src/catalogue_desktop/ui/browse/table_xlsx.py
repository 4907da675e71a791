"""Export a table's visible rows as a spreadsheet (.xlsx, ``core.export.spreadsheet``): the rows the user
sees, in view order, visible columns in visual order, with typed cells — dates as spreadsheet
dates (UTC, as the CSV export writes them; the zone in the next column), fees as numbers in the
currency's format (a fee range as two columns), Yes/No, numbers as numbers, codes as shown."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from PySide6.QtCore import QAbstractItemModel, Qt

from catalogue_desktop.core.export.spreadsheet import Book
from catalogue_desktop.core.export.spreadsheet import Column as Cell
from catalogue_desktop.core.formats.files import write_file
from catalogue_desktop.core.listing.rows import COLUMNS, ColumnType
from catalogue_desktop.core.records.kinds import ListKind

RAW = Qt.ItemDataRole.UserRole
_KINDS = {
    ColumnType.INT: "number",
    ColumnType.MONEY: "money",
    ColumnType.BOOL: "bool",
    ColumnType.DATE: "date",
}


def export_xlsx(
    path: str | Path,
    kind: ListKind,
    model: QAbstractItemModel,
    columns: Sequence[int],
    currency: str | None = None,
    about: Sequence[str] = (),
) -> int:
    """Write the model's rows (view order) to ``path`` as a workbook; returns the number of rows."""

    def raw(c: int) -> Callable[[int], Any]:
        return lambda row: model.index(row, c).data(RAW)

    def shown(c: int) -> Callable[[int], Any]:
        return lambda row: model.index(row, c).data()

    def date(c: int) -> Callable[[int], Any]:
        return lambda row: _utc(model.index(row, c).data(RAW))

    def end(c: int, i: int) -> Callable[[int], Any]:
        return lambda row: (model.index(row, c).data(RAW) or (None, None))[i]

    cells: list[Cell] = []
    for c in columns:
        column = COLUMNS[kind][c]
        if column.type is ColumnType.MONEY_RANGE:
            cells += [
                Cell(f"{column.header} (min)", "money", end(c, 0)),
                Cell(f"{column.header} (max)", "money", end(c, 1)),
            ]
        elif column.type is ColumnType.DATE:
            cells += [
                Cell(column.header, "date", date(c)),
                Cell(f"{column.header} zone", "text", lambda _r: "UTC"),
            ]
        elif column.type in _KINDS:
            cells.append(Cell(column.header, _KINDS[column.type], raw(c)))
        else:
            cells.append(Cell(column.header, "text", shown(c)))
    book = Book(f"Catalogue: {kind.value}", currency)
    count = book.sheet(kind.value.capitalize(), cells, range(model.rowCount()))
    book.about(list(about))
    data = book.close()
    write_file(path, lambda out: out.write(data))
    return count


def _utc(ms: object) -> datetime | None:
    if not isinstance(ms, int) or isinstance(ms, bool):
        return None
    try:
        return datetime.fromtimestamp(ms / 1000, UTC)
    except (OverflowError, OSError, ValueError):
        return None
