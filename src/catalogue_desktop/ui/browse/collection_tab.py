"""One collection's tab: count, table (``TableView`` over a ``RowSetTableModel``) and detail pane.

The table sorts through ``model.sort`` (header clicks) and shows the rows the finder's query
matched (``set_result``: the query box is the window's, one for every tab). The tab holds an
object per job beside the record chosen and shown: its columns (``columns.TabColumns``: widths,
the header's menu that shows/hides them, the saved header), its order (``row_order.TabOrder``: the
user's, or the one the query's words ask for) and the chosen record kept while the rows change
(``kept_selection.KeptSelection``); layout is saved to ``Settings``. The detail pane is made when
a record is first shown (a plain label holds its place until then), so that start-up builds
neither eight panes nor imports their modules.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QPoint, Qt, Signal
from PySide6.QtGui import QHideEvent, QKeySequence, QResizeEvent, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QMenu,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from catalogue_desktop.core.listing.rowset import RowSet
from catalogue_desktop.core.records.kinds import Kind, ListKind
from catalogue_desktop.ui.browse import table_rows as export
from catalogue_desktop.ui.browse.columns import TabColumns
from catalogue_desktop.ui.browse.count_label import CountLabel
from catalogue_desktop.ui.browse.kept_selection import KeptSelection
from catalogue_desktop.ui.browse.row_order import TabOrder
from catalogue_desktop.ui.browse.table_model import Overlay, Result, RowSetTableModel
from catalogue_desktop.ui.browse.table_view import TableView
from catalogue_desktop.ui.common.formatting import Formatter
from catalogue_desktop.ui.common.settings import Settings

if TYPE_CHECKING:
    from catalogue_desktop.core.query.matches import Matches
    from catalogue_desktop.core.records.models import Record
    from catalogue_desktop.ui.detail.context import DetailContext
    from catalogue_desktop.ui.detail.images import ImageLoader
    from catalogue_desktop.ui.detail.pane import DetailPane


class CollectionTab(QWidget):
    """Rows of one kind, the record chosen among them and its details; its columns (``columns``),
    its order (``order``) and the chosen record kept across new rows are objects it holds."""

    counts_changed = Signal(object, int, int)  # Kind, visible, total
    record_selected = Signal(object, int)  # Kind, record id (user or program selection)
    link_activated = Signal(object, int)  # from the detail pane
    open_url = Signal(str)
    message = Signal(str)  # for the status bar
    message_withdrawn = Signal(str)  # a message said here is no longer true: cleared if still shown
    resized = Signal()  # the tab got another size (the window's split may follow)

    def __init__(
        self,
        kind: ListKind,
        formatter: Formatter,
        images: Callable[[], ImageLoader | None],
        record: Callable[[Kind, int], Record | None],
        context: Callable[[Kind, int], DetailContext],
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.kind = kind
        self._formatter = formatter
        self._images = images  # () -> ImageLoader | None, called when the detail pane is made
        self._record = record
        self._context = context
        self._shown_id: int | None = None
        self._emit_selection = True
        self._detail_visible = True

        self.count_label = CountLabel(kind.value, kind.singular, f"count-{kind.value}")
        self.model = self.make_model(kind, formatter)
        self.view = TableView()
        self.view.setObjectName(f"table-{kind.value}")
        self.view.setAccessibleName(f"{kind.label} table")
        self.view.setAccessibleDescription(
            f"The {kind.label.lower()} the query matches, one per row; Enter or selecting a row shows its "
            "details; click a column's header to sort"
        )
        self.view.horizontalHeader().setAccessibleName(f"{kind.label} columns")
        self.view.verticalHeader().setAccessibleName(f"{kind.label} rows")
        self.view.setModel(self.model)
        self._setup_view()
        self.columns = TabColumns(self.view, self.model, kind, formatter)
        self.order = TabOrder(self.view, self.model)
        self._detail: DetailPane | None = None
        article = "an" if kind.singular[0] in "aeiou" else "a"  # "an expert"
        self._placeholder = QLabel(f"Select {article} {kind.singular} to see its details.")
        self._placeholder.setTextFormat(Qt.TextFormat.PlainText)
        self._placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self._placeholder.setWordWrap(True)
        self._placeholder.setEnabled(False)  # muted, as the pane's own message
        self._placeholder.setMinimumWidth(260)

        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.view)
        self.splitter.addWidget(self._placeholder)
        self.splitter.setStretchFactor(0, 3)
        self.splitter.setStretchFactor(1, 2)
        self.splitter.setChildrenCollapsible(False)
        self.splitter.setSizes([840, 440])

        self.top = QHBoxLayout()
        self.top.addStretch(1)
        self.top.addWidget(self.count_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.addLayout(self.top)
        layout.addWidget(self.splitter, 1)

        self.model.counts_changed.connect(self._counts_changed)
        self._kept = KeptSelection(self, self.view, self.model, kind, self.message_withdrawn.emit)
        self.view.selectionModel().currentRowChanged.connect(self._current_changed)
        self.view.selectionModel().selectionChanged.connect(self._selection_changed)
        self.view.copy_requested.connect(self.copy_selection)
        self.view.enter_pressed.connect(lambda: self.detail.focus_record())
        self._counts_changed(0, 0)

    def shown_record(self) -> tuple[Kind, int] | None:
        """The record the details show, if any (without making the pane: see ``detail``)."""
        return None if self._detail is None else self._detail.current

    def shown_row(self) -> int | None:
        """The row key of the row the details show (a record's id, or a date's row), if any."""
        return None if self._detail is None else self._shown_id

    def target(self, row_key: int) -> tuple[Kind, int] | None:
        """The record a row opens: on a tab of a list of records, the row's own record (a tab of
        a derived list says: ``DatesTab.target``)."""
        return (self.kind, row_key) if isinstance(self.kind, Kind) else None

    @property
    def detail(self) -> DetailPane:
        """The detail pane (made on first use, in the place of the placeholder label)."""
        if self._detail is None:
            from catalogue_desktop.ui.detail.pane import DetailPane

            pane = DetailPane(self._formatter, self._images())
            pane.setMinimumWidth(260)
            pane.link_activated.connect(self.link_activated)
            pane.open_url.connect(self.open_url)
            pane.clear(self._placeholder.text())
            sizes = self.splitter.sizes()
            self.splitter.replaceWidget(1, pane)
            self.splitter.setSizes(sizes)
            pane.setVisible(self._detail_visible)
            self._placeholder.deleteLater()
            self.setTabOrder(self.view, pane)
            pane.leave_requested.connect(lambda: self.view.setFocus(Qt.FocusReason.OtherFocusReason))
            self._detail = pane
        return self._detail

    def set_split(self, sizes: list[int]) -> None:
        """The table's and the detail pane's widths (the window's one split: ``window_layout``)."""
        if self.splitter.sizes() != sizes:
            self.splitter.setSizes(sizes)

    def set_detail_visible(self, visible: bool) -> None:
        """Show or hide the detail pane (the table takes its room)."""
        self._detail_visible = visible
        pane = self.splitter.widget(1)
        if pane is not None:
            pane.setVisible(visible)

    def make_model(self, kind: ListKind, formatter: Formatter) -> RowSetTableModel:
        """The table's model (a tab of another list may give its own)."""
        return RowSetTableModel(kind, formatter, self)

    def clear_detail(self, text: str) -> None:
        """Nothing shown in the details: ``text`` in their place."""
        self._shown_id = None
        if self._detail is None:
            self._placeholder.setText(text)
        else:
            self._detail.clear(text)

    def _setup_view(self) -> None:
        view = self.view
        view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        view.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        view.setAlternatingRowColors(True)
        view.setTabKeyNavigation(False)  # Tab leaves the table (arrows move in it), not a trap
        view.setWordWrap(False)
        view.setCornerButtonEnabled(False)
        view.setHorizontalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        vertical = view.verticalHeader()
        vertical.hide()
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(view.fontMetrics().height() + 8)
        header = view.horizontalHeader()
        header.setSectionsMovable(True)
        header.setHighlightSections(False)
        header.setStretchLastSection(False)  # (a fee or a count stretched across half the window)
        header.setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        view.setSortingEnabled(True)
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)  # (``TabColumns``'s menu)
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.customContextMenuRequested.connect(self._rows_menu)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.resized.emit()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        self.columns.shown()

    def hideEvent(self, event: QHideEvent) -> None:
        """Another tab shown: what this one told the status line of its details goes with it."""
        super().hideEvent(event)
        self._kept.withdraw_note()

    # -- rows --------------------------------------------------------------------------------

    def set_rowset(
        self, rowset: RowSet, changes: dict[str, Any] | None, result: Result | None = None
    ) -> None:
        """Show new rows (``result``: which of them the query matched, see
        ``RowSetTableModel.set_result``); the sort and the selected record stay."""
        self._kept.keeping(self.model.set_rowset, rowset, changes, result)

    def set_result(
        self, matches: Matches | None, overlay: Overlay | None = None, note: str | None = None
    ) -> None:
        """Show the rows the query matched; the selected record stays if it is among them."""
        self._kept.keeping(self.model.set_result, matches, overlay, note)

    def show_growing(self, rowset: RowSet, expected: int, changes: dict[str, Any] | None) -> None:
        """Show the rows of a row set read so far (see ``RowSetTableModel.show_growing``)."""
        self._kept.keeping(self.model.show_growing, rowset, expected, changes)

    def _counts_changed(self, visible: int, total: int) -> None:
        self.count_label.show_counts(visible, total, loading=self.model.loading, filtered=self.model.filtered)
        self.counts_changed.emit(self.kind, visible, total)

    # -- selection and details -----------------------------------------------------------------

    def selected_ids(self) -> list[int]:
        """The ids of the selected rows, in the table's order."""
        from catalogue_desktop.ui.browse.table_rows import selected_view_rows

        return [self.model.record_id(row) for row in selected_view_rows(self.view)]

    def selected_record_id(self) -> int | None:
        current = self.view.selectionModel().currentIndex()
        if not current.isValid() or current.row() >= self.model.rowCount():
            return None
        if not self.view.selectionModel().isRowSelected(current.row()):
            return None  # current, not chosen (``_follow_current``)
        return self.model.record_id(current.row())

    def select_record(self, record_id: int, *, emit: bool = True) -> bool | None:
        """Select and show ``record_id``: True; shown in the detail pane only when the query
        hides its row: None; False if not listed."""
        row = self.model.view_row_of(record_id)
        if row is None:
            if self.model.rowset.rows_by_id().get(record_id) is None:
                return False
            self.view.selectionModel().clear()  # no row selected, none current: none is this record
            self.show_record(record_id)
            note = None
            if self.model.filtered:  # (else its row is still being read: selected once it is)
                singular = self.kind.singular.capitalize()
                note = f"{singular} #{record_id} is shown in the details; the query hides its row"
            self._kept.pin(record_id, note)
            if note is not None:
                self.message.emit(note)
            return None
        self.select_row(row, emit=emit)
        return True

    def focus_order(self) -> list[QWidget]:
        """Its Tab stops before the details, in reading order (a tab with a row of tools above the
        table has those first)."""
        return [self.view]

    def focus_rows(self) -> None:
        """The keyboard to the table, on the current row (the first when none is)."""
        if not self.view.currentIndex().isValid() and self.model.rowCount() > 0:
            self.select_row(0, emit=True)
        self.view.setFocus(Qt.FocusReason.OtherFocusReason)

    def select_row(self, row: int, *, emit: bool) -> None:
        """Select view row ``row`` (current, scrolled to the middle) and show its record;
        ``emit``: as the user's choice (``record_selected``)."""
        index = self.model.index(row, self._first_visible_column())
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        record_id = self.model.record_id(row)
        self._kept.unpin()
        self._shown_id = None  # render it once, fresh (the record may have changed)
        self._emit_selection = emit
        try:
            self.view.selectionModel().setCurrentIndex(index, flags)
        finally:
            self._emit_selection = True
        self.view.scrollTo(index, QAbstractItemView.ScrollHint.PositionAtCenter)
        if self._shown_id != record_id:  # the current row did not move: no signal came
            self.show_record(record_id)

    def _first_visible_column(self) -> int:
        columns = export.visible_columns(self.view)
        return columns[0] if columns else 0

    def _current_changed(self, _current: QModelIndex, _previous: QModelIndex) -> None:
        self._follow_current()

    def _selection_changed(self, *_changed: object) -> None:
        self._follow_current()  # (a click on the current row selects it: it is chosen now)

    def _follow_current(self) -> None:
        """The details show the current row's record once it is chosen (selected). A row made
        current without being selected is not chosen: a table focused without a current row
        (after a menu closes, after quick open) makes its first row current, and showing it
        replaced the record shown and added it to Back/Forward."""
        current = self.view.currentIndex()
        if not current.isValid() or not self.view.selectionModel().isRowSelected(current.row()):
            return
        record_id = self.model.record_id(current.row())
        if record_id == self._shown_id:
            return
        self._kept.unpin()
        self.show_record(record_id)
        if self._emit_selection:
            self.emit_selected(record_id)

    def emit_selected(self, record_id: int) -> None:
        """A record was chosen: for Back/Forward (a tab of another list may name another)."""
        self.record_selected.emit(self.kind, record_id)

    def show_record(self, record_id: int) -> None:
        self._shown_id = record_id
        # (a tab of a derived list shows the record a row names: ``DatesTab.show_record``)
        assert isinstance(self.kind, Kind), "a tab of a derived list says which record a row shows"
        self._show_in_detail(self.kind, record_id)

    def _show_in_detail(self, kind: Kind, record_id: int) -> None:
        """Show ``kind``'s record ``record_id`` in the detail pane, or say why it cannot be."""
        try:
            record = self._record(kind, record_id)
        except Exception as exc:  # a damaged store: say so in the pane, keep the window
            self.detail.clear(f"Cannot show this {kind.singular}: {exc}")
            return
        if record is None:
            self.detail.clear(f"{kind.singular.capitalize()} #{record_id} is not in the cache.")
            return
        self.detail.show_record(kind, record, self.detail_context(kind, record_id))

    def detail_context(self, kind: Kind, record_id: int) -> DetailContext:
        """What the record's page needs besides the record (the Dates tab adds the row's date)."""
        return self._context(kind, record_id)

    def redraw(self) -> None:
        """Show every cell again in the formatter's present words (a currency, a zone or labels
        changed): the date and money columns widened to fit what it now writes, the title given
        what they leave (unless the user sized it)."""
        self.model.redraw()
        self.columns.redraw()

    def redraw_details(self) -> None:
        """Render the shown record again (new index, changes or currency)."""
        if self._shown_id is not None:
            self.show_record(self._shown_id)

    # -- copy / export -------------------------------------------------------------------------

    def copy_selection(self) -> int:
        count = export.copy_rows(self.view)
        self.message.emit(f"Copied {count:,} rows" if count else "Select rows to copy")
        return count

    def export_visible(self, path: str | Path, currency: str | None = None, *, excel: bool = False) -> int:
        """The visible rows written to ``path``: a spreadsheet for a .xlsx name, else CSV (for
        Excel: with a byte-order mark)."""
        columns = export.visible_columns(self.view)
        if str(path).lower().endswith(".xlsx"):
            from catalogue_desktop.ui.browse.table_xlsx import export_xlsx

            return export_xlsx(path, self.kind, self.model, columns, currency)
        return export.export_csv(path, self.kind, self.model, columns, excel=excel)

    # -- menus ---------------------------------------------------------------------------------

    def _rows_menu(self, pos: QPoint) -> None:
        menu = QMenu(self)
        menu.addAction("Copy rows", QKeySequence.StandardKey.Copy, self.copy_selection)
        menu.exec(self.view.viewport().mapToGlobal(pos))

    # -- settings ------------------------------------------------------------------------------

    def restore_state(self, settings: Settings) -> None:
        """The tab's saved columns and order, and the record selected when the window closed."""
        self.columns.restore(settings)
        self.order.follow_header()
        self._kept.restore(settings)

    def save_state(self, settings: Settings) -> None:
        """The tab's columns, its order (never one the query's words asked for) and the record
        selected."""
        state = self.columns.saved_header()
        settings.save_tab(self.kind, state, self.order.saved(), title_sized=not self.columns.auto_title)
        self._kept.save(settings)
