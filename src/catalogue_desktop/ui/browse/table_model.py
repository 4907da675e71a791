"""A table model over one collection's ``RowSet``: sorting on precomputed keys, showing the rows
the finder matched.

No ``QSortFilterProxyModel``: it calls back into Python for every comparison (see docs/decisions.md, "No
QSortFilterProxyModel", and docs/decisions.md, "Sorting and the tables"). The model keeps ``visible``, the
row-set indices shown, in order: the matched rows in the current sort order. The view only asks ``data()`` for
visible rows. Which rows match is the finder's answer (``set_result``); a result may carry an overlay (the
matching location's date, city and fee shown in a course's row) and a note (why nothing matches)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any, Protocol

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QGuiApplication

from catalogue_desktop.core.listing import series_dates
from catalogue_desktop.core.listing.rows import COLUMNS, ColumnType, column_index, zone
from catalogue_desktop.core.listing.rowset import Rows, RowSet
from catalogue_desktop.core.listing.sorting import sorted_rows
from catalogue_desktop.core.query.matches import Matches
from catalogue_desktop.core.records.diff import describe_fields
from catalogue_desktop.core.records.kinds import Kind, ListKind
from catalogue_desktop.qt_compat.item_models import (
    ALIGNMENT,
    BACKGROUND,
    CHECK_STATE,
    DECORATION,
    DISPLAY,
    FONT,
    FOREGROUND,
    SORT_HINT,
    TOOLTIP,
    USER,
    guarded,
    layout_about_to_be_changed,
    layout_changed,
)
from catalogue_desktop.ui.browse.idle_work import IdleWork
from catalogue_desktop.ui.browse.markers import bold_font, cell_text, cell_tooltip, header_tip, marker_icon
from catalogue_desktop.ui.browse.on_demand import OnDemandCells
from catalogue_desktop.ui.browse.past_rows import PastRows
from catalogue_desktop.ui.browse.row_order import RowOrder, view_rows
from catalogue_desktop.ui.common.colors import muted
from catalogue_desktop.ui.common.formatting import Formatter

_RIGHT = {ColumnType.MONEY, ColumnType.MONEY_RANGE, ColumnType.INT, ColumnType.DATE}
_PRESORTED = {ColumnType.MONEY, ColumnType.INT, ColumnType.DATE}  # sort keys built in idle time

_Index = QModelIndex | QPersistentModelIndex
# Asked by every repaint (the delegate's style options), never answered here.
_UNANSWERED = frozenset({BACKGROUND, CHECK_STATE})
_ALIGN_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_FLAGS = Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemNeverHasChildren
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
# Rows read while a row set is shown as read are appended once the view would show this many
# times as many (1,000 shown: at 4,000, 16,000..., the last with the complete row set): Qt's table
# repaints its whole viewport at every change of its row count (``QTableView::rowCountChanged``),
# and a page per pass made ~5 repaints of 10,000 rows read, ~50 of 100,000, for rows off screen;
# twice as many made 4 of 10,000 (each ~30 M instructions, cachegrind), four times 2 (issue 40).
GROWTH = 4


class Overlay(Protocol):
    """What a query's result shows in place of a row's own values (``ui.finder.overlay``: a
    course's matching location, not its next one), as the model asks for it."""

    def values(self, row: int) -> Mapping[int, tuple[Any, int | None]] | None:
        """Column -> (value, UTC offset of a date) for ``row``; None: its own values."""
        ...

    def heading(self, column: int) -> str | None: ...

    def ordered(self, rows: list[int], column: int, descending: bool, own: Rows) -> list[int]: ...


Result = tuple[Matches | None, Overlay | None, str | None]  # matches, overlay, note (``set_result``)


class RowSetTableModel(QAbstractTableModel):
    """Rows of one kind, formatted by a shared :class:`Formatter`; read-only; ``IdleWork``: see it."""

    counts_changed = Signal(int, int)  # visible, total

    def __init__(self, kind: ListKind, formatter: Formatter, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._kind = kind
        self._formatter = formatter
        self._columns = COLUMNS[kind]
        self._alignment = [_ALIGN_RIGHT if c.type in _RIGHT else None for c in self._columns]
        self._presorted = [i for i, c in enumerate(self._columns) if c.visible and c.type in _PRESORTED]
        self._rowset = RowSet(kind)
        self._matched: Matches | None = None  # rows matching the query (None: all)
        self._overlay: Overlay | None = None  # values shown instead of the row's (``set_result``)
        self.note: str | None = None  # why no row matches (a field the kind lacks), if so
        self._sort_column = -1
        self._sort_order = Qt.SortOrder.AscendingOrder
        self.upcoming_first = False  # the tab's default order: by start ascending, upcoming first
        self._order: RowOrder | None = None  # the sort order (None: as sent)
        self._visible: list[int] | None = None  # None: every row, in row-set order
        self._view_of: dict[int, int] | None = None  # row-set index -> view row (lazy)
        self._added: set[int] = set()
        self._changed: dict[int, str] = {}  # record id -> "fee 199 -> 219"
        self._past = PastRows(kind, formatter, int(time.time() * 1000))
        self._on_demand = OnDemandCells(kind, formatter)
        self._id_column = column_index(kind, "id")
        self._grey: QColor | None = None  # past rows' text (``colors.muted``)
        self.idle_work = IdleWork(self._rowset, self._presorted, self)
        # Rows the view knows of while a row set is shown as read (``show_growing``), how many come
        self._growing: int | None = None
        self._expected = 0

    # -- public API ----------------------------------------------------------------------------

    @property
    def kind(self) -> ListKind:
        return self._kind

    @property
    def rowset(self) -> RowSet:
        return self._rowset

    @property
    def formatter(self) -> Formatter:
        return self._formatter

    @property
    def filtered(self) -> bool:
        """Only the rows a query matched are shown."""
        return self._matched is not None

    def visible_count(self) -> int:
        if self._growing is not None:
            return self._growing
        return len(self._rowset) if self._visible is None else len(self._visible)

    def total_count(self) -> int:
        """The row set's records (while it is read: how many are coming)."""
        return len(self._rowset) if self._growing is None else max(self._expected, self._growing)

    @property
    def loading(self) -> bool:
        """The rows shown are the first of a row set still being read (``show_growing``)."""
        return self._growing is not None

    def show_growing(self, rowset: RowSet, expected: int, changes: dict[str, Any] | None = None) -> None:
        """Show a row set while it is read, ``expected`` rows in all: its first rows at once (a
        reset), then the rows read since, appended each time as many again were read as the view
        shows (``GROWTH``). :meth:`set_rowset` with the same row set says it is complete (its
        last rows appended): a sort (or filter) needs every row, applied then."""
        if rowset is self._rowset and self._growing is not None:
            if len(rowset) >= self._growing * GROWTH:
                self._append_read_rows()
            elif expected == self._expected:
                return  # (nothing shown changed: no counts said again)
            self._expected = expected
            self._emit_counts()
            return
        self._expected = expected
        self.beginResetModel()
        self.idle_work.stop()
        self._take(rowset, changes)
        self._set_order(None)
        self._matched = None
        self._visible = None
        self._view_of = None
        self._growing = len(rowset)
        self.endResetModel()
        self._emit_counts()

    def _take(self, rowset: RowSet, changes: dict[str, Any] | None) -> None:
        """Hold ``rowset`` and forget what was derived from the previous one (in a reset)."""
        self._rowset = rowset
        self._settle_series()
        self.idle_work.work_on(rowset, self._order)
        self._past.forget()
        self._grey = None
        self._set_changes(changes)

    def _append_read_rows(self) -> None:
        shown, count = self._growing or 0, len(self._rowset)
        self._settle_series()  # (the rows read since)
        if count > shown:
            self.beginInsertRows(QModelIndex(), shown, count - 1)
            self._growing = count
            self.endInsertRows()

    def set_rowset(
        self,
        rowset: RowSet,
        changes: dict[str, Any] | None = None,
        result: Result | None = None,
    ) -> None:
        """Show another row set (model reset); the current sort stays applied, and ``result``
        (matches, overlay, note: see ``set_result``) says which of its rows to show (None: all).

        The row set shown while read (``show_growing``), complete, is not reset: its last rows
        are appended, then sorted (unless a result waited for them)."""
        matches, overlay, note = result or (None, None, None)
        if rowset is self._rowset and self._growing is not None and matches is None:
            self._append_read_rows()
            self._growing = None
            if self._sort_column >= 0:  # in its order now (a layout change: nothing reset)
                column, self._sort_column = self._sort_column, -1
                self.sort(column, self._sort_order)
            self._emit_counts()
            self.idle_work.start_later()
            return
        self._growing = None
        self.beginResetModel()
        self._take(rowset, changes)
        self._set_order(self._compute_order())
        self._matched, self._overlay, self.note = matches, overlay, note
        self._update_visible()
        self.endResetModel()
        self._emit_counts()
        self.idle_work.start_later()

    def set_changes(self, changes: dict[str, Any] | None) -> None:
        """Change markers only (the rows stay)."""
        self._set_changes(changes)
        if self.rowCount() and self.columnCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1))

    def redraw(self) -> None:
        """Repaint every cell (after the formatter's currency, locale, time zones or labels
        changed: what is on demand, so past, too; or the colour scheme). A series' First and Last
        session follow what is on demand: a tab sorted by either is sorted again."""
        self._past.forget()
        self._grey = None
        dates = (series_dates.FIRST, series_dates.LAST)
        if self._settle_series() and self._growing is None and self._sort_column in dates:
            column, order = self._sort_column, self._sort_order
            self._sort_column = -1
            self.sort(column, order)
        if self.rowCount() and self.columnCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1))

    def set_result(
        self, matches: Matches | None, overlay: Overlay | None = None, note: str | None = None
    ) -> None:
        """Show only the rows of ``matches`` (None: every row). ``overlay.values(row)`` gives
        a row's values to show instead of its own, by column (the matching location's), or
        None; ``note`` says why nothing matches."""
        if matches is None and self._matched is None and overlay is self._overlay and note == self.note:
            return
        self.beginResetModel()
        self._matched, self._overlay, self.note = matches, overlay, note
        self._update_visible()
        self.endResetModel()
        self._emit_counts()

    def set_now_ms(self, ms: int) -> None:
        """The time against which records count as past (greyed)."""
        if ms == self._past.now_ms:
            return
        self._past.forget(ms)
        if self.rowCount() and self.columnCount():
            self.dataChanged.emit(
                self.index(0, 0),
                self.index(self.rowCount() - 1, self.columnCount() - 1),
                [Qt.ItemDataRole.ForegroundRole],
            )

    def source_row(self, view_row: int) -> int:
        """The row-set index shown at ``view_row``."""
        return view_row if self._visible is None else self._visible[view_row]

    def record_id(self, view_row: int) -> int:
        return self._rowset.record_id(self.source_row(view_row))

    def view_row_of(self, record_id: int) -> int | None:
        """The view row showing the record with this id, or None (filtered out or unknown)."""
        source = self._rowset.rows_by_id().get(record_id)  # kept by the row set as it loads
        if source is None:
            return None
        if self._visible is None:
            return source if self._growing is None or source < self._growing else None
        if self._view_of is None:
            self._view_of = {s: v for v, s in enumerate(self._visible)}
        return self._view_of.get(source)

    def change_state(self, view_row: int) -> str | None:
        """``"added"``, ``"changed"`` or None for the record at ``view_row``."""
        record_id = self.record_id(view_row)
        if record_id in self._added:
            return "added"
        if record_id in self._changed:
            return "changed"
        return None

    def is_past(self, view_row: int) -> bool:
        return self._past.is_past(self._rowset.rows, self.source_row(view_row))

    # -- internals -----------------------------------------------------------------------------

    def _settle_series(self) -> bool:
        """A series' First and Last session cells set from its sessions not on demand
        (``series_dates.settle_rest``): the rows not settled yet (the loader settles them as it
        reads them), all of them when other codes are on demand; True if a cell changed."""
        if self._kind is not Kind.SERIES:
            return False
        codes = self._formatter.vocabulary.on_demand
        return series_dates.settle_rest(self._rowset, codes, self._formatter.on_demand)

    def _set_changes(self, changes: dict[str, Any] | None) -> None:
        self._added = set()
        self._changed = {}
        if not changes:
            return
        self._added = {i for i in changes.get("added") or () if isinstance(i, int)}
        for entry in changes.get("changed") or ():
            if isinstance(entry, dict) and isinstance(entry.get("id"), int):
                fields = entry.get("fields") or {}
                self._changed[entry["id"]] = describe_fields(fields) if fields else "changed"

    def _compute_order(self) -> list[int] | None:
        if self._sort_column < 0 or self._sort_column >= len(self._columns):
            return None
        if self._sort_order == Qt.SortOrder.DescendingOrder:
            return sorted_rows(self._rowset, self._sort_column, True)
        order = sorted_rows(self._rowset, self._sort_column)
        if not self.upcoming_first:
            return order
        return self._past.upcoming_first(self._rowset.rows, order, self._sort_column, self._rowset.values)

    def _set_order(self, order: list[int] | None) -> None:
        """A new sort order: positions in it are noted again in idle time."""
        self._order = None if order is None else RowOrder(order)
        self.idle_work.work_on(self._rowset, self._order)
        if order is not None:
            self.idle_work.start_later()

    def _update_visible(self) -> None:  # (``_visible``: shared with results, never changed in place)
        self._view_of = None
        matched, order = self._matched, self._order
        if matched is None:
            self._visible = None if order is None else order.rows
        elif order is None:
            self._visible = matched.rows
        else:  # (by the values shown: a course's matching date, not its next)
            visible, overlay, rows = order.matching(matched), self._overlay, self._rowset.rows
            column, descending = self._sort_column, self._sort_order == Qt.SortOrder.DescendingOrder
            self._visible = visible if overlay is None else overlay.ordered(visible, column, descending, rows)

    def _emit_counts(self) -> None:
        self.counts_changed.emit(self.visible_count(), self.total_count())

    def _grey_color(self) -> QColor:
        # A QColor, not a QBrush: the view takes either, and QBrush's constructors make PySide create
        # QGradient's and QImage's enums (docs/decisions.md, "Start-up and Qt").
        if self._grey is None:
            self._grey = muted(QGuiApplication.palette())
        return self._grey

    # -- Qt model API --------------------------------------------------------------------------

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else self.visible_count()

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        if parent.isValid():
            return 0
        return len(self._columns)

    def flags(self, index: _Index) -> Qt.ItemFlag:
        return _FLAGS if index.isValid() else _NO_FLAGS

    @guarded
    def data(self, index: _Index, role: int = DISPLAY) -> Any:
        # A repaint asks 7 roles of every visible cell (~1,200 calls): roles are compared as
        # plain ints, the common ones first, and roles never answered return at once.
        if role in _UNANSWERED:
            return None
        view_row, column = index.row(), index.column()
        visible = self._visible
        if view_row < 0 or column < 0 or column >= len(self._columns) or view_row >= self.visible_count():
            return None  # also an invalid index (-1, -1)
        source = view_row if visible is None else visible[view_row]
        if role == DISPLAY:
            col = self._columns[column]
            shown = self._overlay.values(source) if self._overlay is not None else None
            if shown is not None and column in shown:
                value, offset = shown[column]
            else:
                row = self._rowset.rows[source]
                value = row[column]
                offset = None
                if col.type is ColumnType.DATE:
                    offset = zone(self._kind, row, column)
                    if self._on_demand.applies and (special := self._on_demand.text(row, column)) is not None:
                        return special
            return cell_text(self._formatter, col, value, offset)
        if role == ALIGNMENT:
            return self._alignment[column]
        if role == FOREGROUND:
            return self._grey_color() if self._past.is_past(self._rowset.rows, source) else None
        if role in (DECORATION, FONT):
            if column != 0 or not (self._added or self._changed):
                return None
            record_id = self._rowset.rows[source][self._id_column]
            if role == FONT:
                if record_id in self._added or record_id in self._changed:
                    return bold_font()
                return None
            if record_id in self._added:
                return marker_icon("added")
            if record_id in self._changed:
                return marker_icon("changed")
            return None
        if role == USER:
            return self._rowset.rows[source][column]
        if role == TOOLTIP:
            return self._tooltip(source, column)
        return None

    def _tooltip(self, source: int, column: int) -> str | None:
        row = self._rowset.rows[source]
        record_id = row[self._id_column]
        return cell_tooltip(
            self._columns[column],
            row[column],
            record_id in self._added,
            self._changed.get(record_id),
            self._past.sentence(self._rowset.rows, source),
        )

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal:
            if not 0 <= section < len(self._columns):
                return None
            col = self._columns[section]
            if role == Qt.ItemDataRole.DisplayRole:
                heading = self._overlay.heading(section) if self._overlay is not None else None
                return heading or col.header
            if role == Qt.ItemDataRole.ToolTipRole:
                return header_tip(col)
            if role == Qt.ItemDataRole.TextAlignmentRole:
                if col.type in _RIGHT:
                    return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
            return None
        if role == Qt.ItemDataRole.DisplayRole and 0 <= section < self.visible_count():
            return str(section + 1)
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        """Sort on precomputed keys (dates and fees numerically, blanks last); -1 restores the
        service's order. The filter stays applied; selections follow their records."""
        column = column if 0 <= column < len(self._columns) else -1
        if column == self._sort_column and order == self._sort_order and column >= 0:
            return
        if self._growing is not None:  # applied by ``set_rowset``, to every row
            self._sort_column, self._sort_order = column, order
            return
        # A sort hint: the selection model then keeps one persistent index per selected row, not one per
        # selected cell (a big selection made a sort take seconds: docs/decisions.md, "Sorting and the
        # tables").
        layout_about_to_be_changed(self, SORT_HINT)
        persistent = self.persistentIndexList()
        shown, count = self._visible, self.rowCount()
        sources: list[tuple[int, int] | None] = []  # (row-set index, column)
        for index in persistent:
            row = index.row()  # -1 if invalid
            sources.append(
                ((row if shown is None else shown[row]), index.column()) if 0 <= row < count else None
            )
        self._sort_column = column
        self._sort_order = order
        self._set_order(self._compute_order())
        self._update_visible()
        rows = view_rows(self._visible, {item[0] for item in sources if item is not None}, len(self._rowset))
        new = []
        for item in sources:
            view = None if item is None else rows.get(item[0])
            # createIndex, not index(): no rowCount()/columnCount() call back per index.
            new.append(QModelIndex() if item is None or view is None else self.createIndex(view, item[1]))
        if persistent:
            self.changePersistentIndexList(persistent, new)
        layout_changed(self, SORT_HINT)

    @property
    def sort_column(self) -> int:
        return self._sort_column

    @property
    def sort_order(self) -> Qt.SortOrder:
        return self._sort_order
