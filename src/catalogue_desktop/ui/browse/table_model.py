"""A table model over one collection's ``RowSet``: sorting and filtering on precomputed keys.

No ``QSortFilterProxyModel``: it calls back into Python for every comparison (50-100x slower at
10k rows, see the stack facts). The model keeps ``visible``, the row-set indices shown, in order:
the filtered rows in the current sort order. The view only asks ``data()`` for visible rows.
"""

from __future__ import annotations

import time
from contextlib import suppress
from functools import cache
from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QColor, QGuiApplication, QPalette

from catalogue_desktop.core.catalogue import RowSet
from catalogue_desktop.core.diff import describe_fields
from catalogue_desktop.core.kinds import Kind
from catalogue_desktop.core.listing import COLUMNS, PAST_COLUMN, ColumnType, column_index
from catalogue_desktop.core.search import Matches, RowFilter, prepare_sort_keys, sorted_rows
from catalogue_desktop.ui.common.formatting import Formatter
from catalogue_desktop.ui.common.plain_text import plain_tooltip

if TYPE_CHECKING:
    from PySide6.QtGui import QFont, QIcon

__all__ = ["ADDED_COLOR", "CHANGED_COLOR", "RowSetTableModel", "marker_icon"]

ADDED_COLOR = QColor(46, 160, 67)  # green
CHANGED_COLOR = QColor(219, 151, 0)  # amber
_LONG_TEXT = 60  # text columns longer than this get the full text as tooltip
_CELL_TEXT = 1000  # characters a cell shows (no column is wider); the tooltip shows 2000
_RIGHT = {ColumnType.MONEY, ColumnType.MONEY_RANGE, ColumnType.INT, ColumnType.DATE}
_PRESORTED = {ColumnType.MONEY, ColumnType.INT, ColumnType.DATE}  # sort keys built in idle time
_START_COLUMN = {Kind.WEBINARS: "start", Kind.COURSES: "next", Kind.SERIES: "first"}
_ICONS: dict[str, QIcon] = {}
# Idle work (``prepare_filter``) starts ``_PREPARE_DELAY_MS`` after rows arrive (not while the
# window starts), then runs in slices for up to ``_PREPARE_PASS_S`` per event-loop pass: bounded
# by time, not rows, so a slower or busier CPU does smaller passes, not longer ones.
_PREPARE_DELAY_MS = 300
_PREPARE_PASS_S = 0.004
_PREPARE_ROWS = 1000  # a slice of filter keys (~1.2 ms), built ahead of the first keystroke
_PREPARE_SORT_ROWS = 4000  # a slice of one column's sort keys (~1 ms)
_PREPARE_RANK_ROWS = 4000  # a slice of positions in the sort order (~0.8 ms)
_FEW = 8  # fewer matches than 1/_FEW of the rows are put in sort order by their positions

_Index = QModelIndex | QPersistentModelIndex
# Roles as plain ints (an enum member costs an attribute lookup per comparison in data()).
_DISPLAY = Qt.ItemDataRole.DisplayRole.value
_DECORATION = Qt.ItemDataRole.DecorationRole.value
_TOOLTIP = Qt.ItemDataRole.ToolTipRole.value
_FONT = Qt.ItemDataRole.FontRole.value
_ALIGNMENT = Qt.ItemDataRole.TextAlignmentRole.value
_FOREGROUND = Qt.ItemDataRole.ForegroundRole.value
_USER = Qt.ItemDataRole.UserRole.value
# Asked by every repaint (the delegate's style options), never answered here.
_UNANSWERED = frozenset({Qt.ItemDataRole.BackgroundRole.value, Qt.ItemDataRole.CheckStateRole.value})
_ALIGN_RIGHT = int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
_FLAGS = Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemNeverHasChildren
_NO_FLAGS = Qt.ItemFlag.NoItemFlags
_LAYOUT_SIGNATURE = ("QList<QPersistentModelIndex>", "QAbstractItemModel::LayoutChangeHint")
_SORT_HINT = QAbstractItemModel.LayoutChangeHint.VerticalSortHint


def marker_icon(state: str) -> QIcon | None:
    """A small filled dot: ``"added"`` green, ``"changed"`` amber (cached; needs a QGuiApplication)."""
    icon = _ICONS.get(state)
    if icon is None:
        if QGuiApplication.instance() is None:
            return None
        # only now: QPainter's enums alone take ~1 ms to create, and most starts show no marker
        from PySide6.QtGui import QIcon, QPainter, QPixmap

        size = 10
        pixmap = QPixmap(size, size)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(ADDED_COLOR if state == "added" else CHANGED_COLOR)
        painter.drawEllipse(1, 1, size - 2, size - 2)
        painter.end()
        icon = _ICONS[state] = QIcon(pixmap)
    return icon


@cache
def _bold_font() -> QFont:
    """The font of added and changed records' titles, made on first use."""
    from PySide6.QtGui import QFont

    font = QFont()
    font.setBold(True)
    return font


class RowSetTableModel(QAbstractTableModel):
    """Rows of one kind, formatted by a shared :class:`Formatter`. Read-only."""

    counts_changed = Signal(int, int)  # visible, total

    def __init__(self, kind: Kind, formatter: Formatter, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._kind = kind
        self._formatter = formatter
        self._columns = COLUMNS[kind]
        self._alignment = [_ALIGN_RIGHT if c.type in _RIGHT else None for c in self._columns]
        self._presorted = [i for i, c in enumerate(self._columns) if c.visible and c.type in _PRESORTED]
        self._rowset = RowSet(kind)
        self._filter: RowFilter | None = None
        self._query = ""
        self._matched: Matches | None = None  # rows matching the query (None: all)
        self._sort_column = -1
        self._sort_order = Qt.SortOrder.AscendingOrder
        self._order: list[int] | None = None  # row-set indices in sort order (None: as sent)
        self._visible: list[int] | None = None  # None: every row, in row-set order
        self._view_of: dict[int, int] | None = None  # row-set index -> view row (lazy)
        self._added: set[int] = set()
        self._changed: dict[int, str] = {}  # record id -> "fee 199 -> 219"
        self._now_ms = int(time.time() * 1000)
        self._past_column = self._column(PAST_COLUMN.get(kind))
        self._start_column = self._column(_START_COLUMN.get(kind))
        self._id_column = column_index(kind, "id")
        self._past_cache: dict[int, bool] = {}
        self._grey: QColor | None = None  # past rows' text (the palette's disabled text)
        self._rank: list[int] = []  # row-set index -> position in ``_order`` (idle time)
        self._ranked = 0  # positions of ``_order[:_ranked]`` are in ``_rank``
        self._pick: itemgetter[Any] | None = None  # itemgetter(*_order) (lazy)
        self._prepare_timer = QTimer(self, singleShot=False, interval=0)
        self._prepare_timer.timeout.connect(self._prepare_step)
        # While a row set is shown as it is read (``show_growing``): the rows the view knows of
        # (the row set may already hold more); None otherwise. And how many are coming.
        self._growing: int | None = None
        self._expected = 0

    def _column(self, key: str | None) -> int | None:
        return None if key is None else column_index(self._kind, key)

    # -- public API ----------------------------------------------------------------------------

    @property
    def kind(self) -> Kind:
        return self._kind

    @property
    def rowset(self) -> RowSet:
        return self._rowset

    @property
    def formatter(self) -> Formatter:
        return self._formatter

    @property
    def query(self) -> str:
        return self._query

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

    def show_growing(self, rowset: RowSet, expected: int,
                     changes: dict[str, Any] | None = None) -> None:
        """Show a row set while it is read, ``expected`` rows in all: its first rows at once (a
        model reset), then at each later call the rows read since (appended, in the service's
        order). :meth:`set_rowset` with the same row set says it is complete. A sort or filter
        asked for meanwhile is noted, and applied then: it needs every row."""
        self._expected = expected
        if rowset is self._rowset and self._growing is not None:
            self._append_read_rows()
            self._emit_counts()
            return
        self.beginResetModel()
        self._prepare_timer.stop()
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
        self._filter = None
        self._past_cache = {}
        self._grey = None
        self._set_changes(changes)

    def _append_read_rows(self) -> None:
        shown, count = self._growing or 0, len(self._rowset)
        if count > shown:
            self.beginInsertRows(QModelIndex(), shown, count - 1)
            self._growing = count
            self.endInsertRows()

    def set_rowset(self, rowset: RowSet, changes: dict[str, Any] | None = None) -> None:
        """Show another row set (model reset); the current sort and filter stay applied.

        The row set shown while it was read (``show_growing``), now complete, is not shown
        anew: its last rows are appended, unless a sort or a filter waited for them."""
        if rowset is self._rowset and self._growing is not None and self._sort_column < 0 \
                and not self._query.split():
            self._append_read_rows()
            self._growing = None
            self._emit_counts()
            self.prepare_filter()
            return
        self._growing = None
        self.beginResetModel()
        self._take(rowset, changes)
        self._set_order(self._compute_order())
        self._matched = self._compute_matches(self._query)
        self._update_visible()
        self.endResetModel()
        self._emit_counts()
        self.prepare_filter()

    def prepare_filter(self) -> None:
        """Build the filter's keys in idle time, up to 4 ms per event-loop pass (the first keystroke
        on 100k rows then does not pay ~0.3 s for them), then the sort keys of the date, fee and
        number columns shown by default (their first sort then only sorts: ~30 ms less), then
        each row's position in the current sort order (a filter with few matches then orders
        them by it: ~20 ms less on its first keystroke). It starts ``_PREPARE_DELAY_MS`` after
        rows arrive, not amid the window's start-up."""
        if len(self._rowset):
            self._prepare_timer.start(_PREPARE_DELAY_MS)

    def prepare_now(self) -> None:
        """Build at once what idle time has not built yet (for tests)."""
        while self._prepare_timer.isActive():
            self._prepare_step()

    def _prepare_step(self) -> None:
        """One event-loop pass of idle work: slices until ``_PREPARE_PASS_S`` is spent."""
        self._prepare_timer.setInterval(0)
        deadline = time.perf_counter() + _PREPARE_PASS_S
        while not self._prepare_slice():
            if time.perf_counter() >= deadline:
                return
        self._prepare_timer.stop()

    def _prepare_slice(self) -> bool:
        """One slice of idle work; True when nothing is left."""
        if self._filter is None:
            self._filter = RowFilter(self._rowset, lazy=True)
        if not self._filter.build(_PREPARE_ROWS):
            return False
        for column in self._presorted:
            if not prepare_sort_keys(self._rowset, column, _PREPARE_SORT_ROWS):
                return False
        return self._prepare_rank(_PREPARE_RANK_ROWS)

    def _prepare_rank(self, rows: int) -> bool:
        """Note the positions of up to ``rows`` more rows in the sort order; True when done."""
        order = self._order
        if order is None:
            return True
        rank, start = self._rank, self._ranked
        if not rank:
            rank.extend([0] * len(order))
        stop = min(len(order), start + rows)
        for position in range(start, stop):
            rank[order[position]] = position
        self._ranked = stop
        return stop >= len(order)

    def set_changes(self, changes: dict[str, Any] | None) -> None:
        """Change markers only (the rows stay)."""
        self._set_changes(changes)
        if self.rowCount() and self.columnCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1))

    def refresh_display(self) -> None:
        """Repaint every cell (after the formatter's currency or locale changed)."""
        if self.rowCount() and self.columnCount():
            self.dataChanged.emit(self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1))

    def set_filter(self, query: str) -> None:
        """Show only rows whose text holds every word of ``query`` (case-insensitive)."""
        if query == self._query:
            return
        if self._growing is not None:  # applied by ``set_rowset``, to every row
            self._query = query
            return
        matched = self._compute_matches(query)
        self._query = query
        if matched is None and self._matched is None:
            return
        self.beginResetModel()
        self._matched = matched
        self._update_visible()
        self.endResetModel()
        self._emit_counts()

    def set_now_ms(self, ms: int) -> None:
        """The time against which records count as past (greyed)."""
        if ms == self._now_ms:
            return
        self._now_ms = ms
        self._past_cache = {}
        if self.rowCount() and self.columnCount():
            self.dataChanged.emit(
                self.index(0, 0), self.index(self.rowCount() - 1, self.columnCount() - 1),
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
        return self._is_past(self.source_row(view_row))

    # -- internals -----------------------------------------------------------------------------

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
        descending = self._sort_order == Qt.SortOrder.DescendingOrder
        return sorted_rows(self._rowset, self._sort_column, descending)

    def _compute_matches(self, query: str) -> Matches | None:
        if not query.split():
            return None
        if self._filter is None:
            self._filter = RowFilter(self._rowset)
        return self._filter.match(query)  # builds what idle time has not built yet

    def _set_order(self, order: list[int] | None) -> None:
        """A new sort order: positions in it are noted again in idle time."""
        self._order = order
        self._rank = []
        self._ranked = 0
        self._pick = None
        if order is not None and len(self._rowset):
            self._prepare_timer.start(_PREPARE_DELAY_MS)

    def _update_visible(self) -> None:
        # ``_visible`` is shared with the filter's and the sort's results: never changed in place.
        self._view_of = None
        matched, order = self._matched, self._order
        if matched is None:
            self._visible = order
        elif order is None:
            self._visible = matched.rows
        elif matched.count * _FEW < len(order) and self._ranked >= len(order):
            # Few matches: order them by their position in the sort order (no pass over every row).
            self._visible = sorted(matched.rows, key=self._rank.__getitem__)
        elif len(order) < 2:  # itemgetter() of one index returns no tuple
            self._visible = [i for i in order if matched.mask[i]]
        else:
            # The matches' mask bytes in sort order, picked in C (itemgetter(*order)), keep their
            # rows: ~3 ms for 100,000 rows (a loop here took 10-20 ms).
            if self._pick is None:
                self._pick = itemgetter(*order)
            self._visible = list(compress(order, self._pick(matched.mask)))

    def _emit_counts(self) -> None:
        self.counts_changed.emit(self.visible_count(), self.total_count())

    def _is_past(self, source: int) -> bool:
        if self._past_column is None:
            return False
        cached = self._past_cache.get(source)
        if cached is None:
            row = self._rowset.rows[source]
            when = row[self._past_column]
            if when is None and self._start_column is not None:
                when = row[self._start_column]
            cached = isinstance(when, int) and not isinstance(when, bool) and when < self._now_ms
            self._past_cache[source] = cached
        return cached

    def _grey_color(self) -> QColor:
        # A QColor, not a QBrush: the view takes either, and QBrush's constructors make PySide
        # create QGradient's and QImage's enums (~4 ms at start-up).
        if self._grey is None:
            palette = QGuiApplication.palette()
            self._grey = palette.color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
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

    def data(self, index: _Index, role: int = _DISPLAY) -> Any:
        # A repaint asks 7 roles of every visible cell (~1,200 calls): roles are compared as
        # plain ints, the common ones first, and roles never answered return at once.
        if role in _UNANSWERED:
            return None
        view_row, column = index.row(), index.column()
        visible = self._visible
        if (view_row < 0 or column < 0 or column >= len(self._columns)
                or view_row >= self.visible_count()):
            return None  # also an invalid index (-1, -1)
        source = view_row if visible is None else visible[view_row]
        if role == _DISPLAY:
            text = self._formatter.value(self._columns[column], self._rowset.rows[source][column])
            if len(text) > _CELL_TEXT:  # eliding a 1 MB title on every repaint takes 0.3 s
                text = text[:_CELL_TEXT] + "…"
            return text
        if role == _ALIGNMENT:
            return self._alignment[column]
        if role == _FOREGROUND:
            return self._grey_color() if self._is_past(source) else None
        if role in (_DECORATION, _FONT):
            if column != 0 or not (self._added or self._changed):
                return None
            record_id = self._rowset.rows[source][self._id_column]
            if role == _FONT:
                if record_id in self._added or record_id in self._changed:
                    return _bold_font()
                return None
            if record_id in self._added:
                return marker_icon("added")
            if record_id in self._changed:
                return marker_icon("changed")
            return None
        if role == _USER:
            return self._rowset.rows[source][column]
        if role == _TOOLTIP:
            return self._tooltip(source, column)
        return None

    def _tooltip(self, source: int, column: int) -> str | None:
        row = self._rowset.rows[source]
        parts = []
        col = self._columns[column]
        value = row[column]
        if col.type is ColumnType.TEXT and isinstance(value, str) and len(value) > _LONG_TEXT:
            parts.append(value[:2000])
        record_id = row[self._id_column]
        if record_id in self._added:
            parts.append("Added in the last refresh")
        elif record_id in self._changed:
            parts.append(f"Changed in the last refresh: {self._changed[record_id]}")
        if self._is_past(source) and column == 0:
            parts.append("Past")
        return plain_tooltip("\n".join(parts)) or None  # server text: shown, never rendered

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal:
            if not 0 <= section < len(self._columns):
                return None
            col = self._columns[section]
            if role == Qt.ItemDataRole.DisplayRole:
                return col.header
            if role == Qt.ItemDataRole.ToolTipRole:
                return _HEADER_TIPS.get(col.type, col.header).format(header=col.header)
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
        # A sort hint: the selection model then keeps one persistent index per selected row, not
        # one per selected cell (a 20,000-row selection made a sort take ~3 s).
        self.layoutAboutToBeChanged[_LAYOUT_SIGNATURE].emit([], _SORT_HINT)
        persistent = self.persistentIndexList()
        shown, count = self._visible, self.rowCount()
        sources: list[tuple[int, int] | None] = []  # (row-set index, column)
        for index in persistent:
            row = index.row()  # -1 if invalid
            sources.append(((row if shown is None else shown[row]), index.column())
                           if 0 <= row < count else None)
        self._sort_column = column
        self._sort_order = order
        self._set_order(self._compute_order())
        self._update_visible()
        rows = self._view_rows({item[0] for item in sources if item is not None})
        new = []
        for item in sources:
            view = None if item is None else rows.get(item[0])
            # createIndex, not index(): no rowCount()/columnCount() call back per index.
            new.append(QModelIndex() if view is None else self.createIndex(view, item[1]))
        if persistent:
            self.changePersistentIndexList(persistent, new)
        self.layoutChanged[_LAYOUT_SIGNATURE].emit([], _SORT_HINT)

    def _view_rows(self, sources: set[int]) -> dict[int, int]:
        """View rows of these row-set indices (those shown): a few (the header's row, a selected
        row) by a scan in C each, more by one pass over the shown rows."""
        visible = self._visible
        if visible is None:
            return {s: s for s in sources if s < len(self._rowset)}
        if len(sources) > 4:
            return {s: v for v, s in enumerate(visible) if s in sources}
        found = {}
        for s in sources:
            with suppress(ValueError):  # filtered out
                found[s] = visible.index(s)
        return found

    @property
    def sort_column(self) -> int:
        return self._sort_column

    @property
    def sort_order(self) -> Qt.SortOrder:
        return self._sort_order


_HEADER_TIPS = {
    ColumnType.DATE: "{header}: date and time in your time zone",
    ColumnType.MONEY: "{header}: the fee as the service sends it",
    ColumnType.MONEY_RANGE: "{header}: lowest – highest fee over all locations",
    ColumnType.CODE: "{header}: the service's code, shown as it comes",
    ColumnType.BOOL: "{header}: Yes / No",
}
