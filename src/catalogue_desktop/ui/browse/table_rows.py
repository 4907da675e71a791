"""Getting rows out of a collection table: copy as TSV (what is displayed), export as CSV (raw).

* ``rows_as_tsv`` / ``copy_rows``: the selected rows in view order, visible columns in visual
  order, a header row, the displayed text (for pasting into a mail or a spreadsheet).
* ``export_csv``: every visible (filtered) row in view order, UTF-8, a header row, raw sortable
  values: ISO 8601 dates (UTC), plain numbers, ``true``/``false``; a fee range becomes two
  columns (min, max).

Both write cells by ``core.formats.csv_cells``' rules: no cell a spreadsheet would evaluate, a
cell with a line break quoted (CSV) or flattened (TSV): one record, one row.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TextIO

from PySide6.QtCore import QAbstractItemModel, Qt
from PySide6.QtWidgets import QApplication, QTableView

from catalogue_desktop.core.formats.csv_cells import CsvWriter, inert
from catalogue_desktop.core.formats.files import text_writer, write_file
from catalogue_desktop.core.formats.numbers import plain_number
from catalogue_desktop.core.listing.rows import COLUMNS, ColumnType
from catalogue_desktop.core.records.kinds import ListKind

RAW = Qt.ItemDataRole.UserRole


def visible_columns(view: QTableView) -> list[int]:
    """Logical column indices the view shows, in the order the user arranged them."""
    header = view.horizontalHeader()
    columns = [header.logicalIndex(v) for v in range(header.count())]
    return [c for c in columns if not header.isSectionHidden(c)]


def selected_view_rows(view: QTableView) -> list[int]:
    selection = view.selectionModel()
    if selection is None:
        return []
    return sorted({index.row() for index in selection.selectedIndexes()})


def _clean(text: object) -> str:
    """Cell text with tabs and line breaks flattened (other characters kept as displayed)."""
    if text is None:
        return ""
    return str(text).replace("\r\n", " ").translate(_FLATTEN)


_FLATTEN = str.maketrans({"\t": " ", "\n": " ", "\r": " "})


def rows_as_tsv(model: QAbstractItemModel, rows: Sequence[int], columns: Sequence[int]) -> str:
    """Header plus ``rows`` as tab-separated displayed text (tabs/newlines in cells flattened)."""
    horizontal = Qt.Orientation.Horizontal
    lines = ["\t".join(_clean(model.headerData(c, horizontal)) for c in columns)]
    for row in rows:
        lines.append("\t".join(inert(_clean(model.index(row, c).data())) for c in columns))
    return "\n".join(lines) + "\n"


def copy_rows(view: QTableView) -> int:
    """Copy the selected rows to the clipboard as TSV; returns how many rows were copied."""
    rows = selected_view_rows(view)
    if not rows:
        return 0
    QApplication.clipboard().setText(rows_as_tsv(view.model(), rows, visible_columns(view)))
    return len(rows)


def raw_text(type_: ColumnType, value: Any) -> list[str]:
    """One raw value as CSV cells (two for a fee range)."""
    if type_ is ColumnType.MONEY_RANGE:
        if not value:
            return ["", ""]
        return [plain_number(value[0]), plain_number(value[1])]
    if value is None:
        return [""]
    if type_ is ColumnType.DATE:
        return [datetime.fromtimestamp(value / 1000, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")]
    if type_ is ColumnType.BOOL:
        return ["true" if value else "false"]
    return [plain_number(value)]


def csv_header(kind: ListKind, columns: Sequence[int]) -> list[str]:
    out = []
    for c in columns:
        column = COLUMNS[kind][c]
        if column.type is ColumnType.MONEY_RANGE:
            out += [f"{column.header} (min)", f"{column.header} (max)"]
        else:
            out.append(column.header)
    return out


def export_csv(
    path: str | Path,
    kind: ListKind,
    model: QAbstractItemModel,
    columns: Sequence[int],
    *,
    excel: bool = False,
) -> int:
    """Write the model's rows (view order) to ``path`` as CSV (``excel``: a UTF-8 byte-order mark
    first, so that Excel reads it as UTF-8); returns the number of rows."""
    types = [COLUMNS[kind][c].type for c in columns]
    count = model.rowCount()

    def write(handle: TextIO) -> None:
        writer = CsvWriter(handle, line_end="\r\n")
        writer.writerow(csv_header(kind, columns))
        for row in range(count):
            cells: list[str] = []
            for c, type_ in zip(columns, types, strict=True):
                cells += raw_text(type_, model.index(row, c).data(RAW))
            writer.writerow(cells)

    write_file(path, text_writer(write, "utf-8-sig" if excel else "utf-8"))
    return count
