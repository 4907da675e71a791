"""The rows selected in a table, kept across a change of its rows (a reload, a query's new result,
the Dates rows made again after Preferences ▸ OK): read as record ids before, selected again after
(``KeptSelection``, a tab's, with the record shown though the query hides its row, and the record
selected when the window was last closed).

Only a selection of up to ``KEPT_AT_MOST`` rows is kept row by row (Ctrl+A over 100,000 rows is
kept as its current row only: reading every selected row's id would stall the change).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QItemSelection, QItemSelectionModel
from PySide6.QtWidgets import QTableView

if TYPE_CHECKING:
    from catalogue_desktop.core.records.kinds import ListKind
    from catalogue_desktop.ui.browse.table_model import RowSetTableModel
    from catalogue_desktop.ui.common.settings import Settings

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


class Chooser(Protocol):
    """The record chosen in a tab (``CollectionTab``), as ``KeptSelection`` keeps it."""

    def selected_record_id(self) -> int | None: ...
    def shown_row(self) -> int | None: ...
    def select_row(self, row: int, *, emit: bool) -> None: ...
    def clear_detail(self, text: str) -> None: ...


class KeptSelection:
    """A tab's chosen record kept while its rows change: the rows selected before a new row set
    or result selected again after it; a record shown in the details though the query hides its
    row (pinned: ``pin``) kept shown, and selected once a result lists it again; the record
    selected when the window was last closed selected once its row is listed."""

    def __init__(
        self,
        tab: Chooser,
        view: QTableView,
        model: RowSetTableModel,
        kind: ListKind,
        withdraw: Callable[[str], None],
    ) -> None:
        """``withdraw``: a message said of the pinned record is no longer true (the tab's
        ``message_withdrawn``)."""
        self._tab = tab
        self._view = view
        self._model = model
        self._kind = kind
        self._withdraw = withdraw
        # a record shown in the details though the query hides its row (``pin``): it stays shown
        # while the rows change, and is selected once they list it again
        self._pinned: int | None = None
        self._pin_note: str | None = None  # what the status line was told of the pinned record
        self._keep: int | None = None
        self._selected_at_close: int | None = None  # selected again once listed (``restore``)
        self._keep_also: list[int] = []  # the other selected records (``keeping``)
        model.modelReset.connect(self._reselect)

    def keeping(self, show: Callable[..., None], *args: object) -> None:
        """``show(*args)``: the model's change of rows. If it resets the model, ``_reselect``
        selects again the record selected (or shown) before."""
        tab = self._tab
        self._keep = self._pinned or tab.selected_record_id() or tab.shown_row()
        self._keep_also = selected_ids(self._view, self._model)
        show(*args)  # modelReset -> _reselect
        self._keep = None  # (no reset: e.g. the rows shown while read were completed in place)
        self._keep_also = []
        self._select_as_at_close()

    def _select_as_at_close(self) -> None:
        """The record selected when the window was last closed, selected again once its row is
        listed (the rows are read, the query applied), unless another was chosen meanwhile."""
        record_id = self._selected_at_close
        if record_id is None:
            return
        if self._tab.selected_record_id() is not None or self._pinned is not None:
            self._selected_at_close = None
            return
        row = self._model.view_row_of(record_id)
        if row is not None and not self._model.loading:
            self._selected_at_close = None
            self._tab.select_row(row, emit=True)

    def _reselect(self) -> None:
        keep, self._keep = self._keep, None
        also, self._keep_also = self._keep_also, []
        if keep is None:
            return
        row = self._model.view_row_of(keep)
        if row is not None:
            self._tab.select_row(row, emit=False)
            select_also(self._view, self._model, [i for i in also if i != keep])
            return
        listed = self._model.rowset.rows_by_id().get(keep) is not None
        if keep == self._pinned and listed:
            return  # still shown in the details only, as asked
        singular = self._kind.singular
        article = "an" if singular[0] in "aeiou" else "a"
        self.unpin()
        if not listed:
            self._tab.clear_detail(f"The {singular} you had selected is no longer listed.")
        else:  # kept: selected again when the query lists it (an answer may come for rows half read)
            self._pinned = keep
            # (no row is selected now: the words say what was, and what is true of it)
            self._tab.clear_detail(
                f"The {singular} you had selected is not among the rows shown now. "
                f"Select {article} {singular} to see its details."
            )

    def pin(self, record_id: int, note: str | None) -> None:
        """``record_id`` is shown in the details though the query hides its row; ``note``: what the
        status line is told of it (withdrawn once it is not pinned any more, or the tab hidden)."""
        self.unpin()
        self._pinned = record_id
        self._pin_note = note

    def unpin(self) -> None:
        """The record shown in the details only is not any more (its row listed and selected,
        another chosen): what the status line was told of it is withdrawn."""
        self._pinned = None
        self.withdraw_note()

    def withdraw_note(self) -> None:
        """What the status line was told of the pinned record is withdrawn (the tab hidden)."""
        note, self._pin_note = self._pin_note, None
        if note is not None:
            self._withdraw(note)

    def restore(self, settings: Settings) -> None:
        """The record selected when the window was last closed: selected again once listed."""
        self._selected_at_close = settings.selected(self._kind)

    def save(self, settings: Settings) -> None:
        """The record selected now (else the one still to be selected again) saved."""
        shown = self._tab.selected_record_id()
        settings.set_selected(self._kind, self._selected_at_close if shown is None else shown)
