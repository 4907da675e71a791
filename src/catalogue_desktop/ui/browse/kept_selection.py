"""The rows selected in a table, kept across a change of its rows (a reload, a query's new result,
the Dates rows made again after Preferences ▸ OK): read as record ids before, selected again after.

Only a selection of up to ``KEPT_AT_MOST`` rows is kept row by row (Ctrl+A over 100,000 rows is
kept as its current row only: reading every selected row's id would stall the change).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QItemSelection, QItemSelectionModel
from PySide6.QtWidgets import QTableView

if TYPE_CHECKING:
    from catalogue_desktop.ui.browse.table_model import RowSetTableModel

KEPT_AT_MOST = 1_000


def selected_ids(view: QTableView, model: RowSetTableModel) -> list[int]:
    """The record ids of the selected rows (none when more than ``KEPT_AT_MOST`` are)."""
    selection = view.selectionModel().selection()
    ranges = [selection.at(i) for i in range(selection.count())]
    if sum(r.height() for r in ranges) > KEPT_AT_MOST:
        return []
    rows = sorted({row for r in ranges for row in range(r.top(), r.bottom() + 1)})
    return [model.record_id(row) for row in rows if row < model.rowCount()]


def select_also(view: QTableView, model: RowSetTableModel, record_ids: list[int]) -> None:
    """Add the rows of ``record_ids`` the model lists to the selection (the current row stays)."""
    rows = sorted(row for row in map(model.view_row_of, record_ids) if row is not None)
    if not rows:
        return
    last = model.columnCount() - 1
    selection = QItemSelection()
    start = previous = rows[0]
    for row in [*rows[1:], None]:
        if row is not None and row == previous + 1:
            previous = row
            continue
        selection.select(model.index(start, 0), model.index(previous, last))
        if row is not None:
            start = previous = row
    flags = QItemSelectionModel.SelectionFlag.Select | QItemSelectionModel.SelectionFlag.Rows
    view.selectionModel().select(selection, flags)
