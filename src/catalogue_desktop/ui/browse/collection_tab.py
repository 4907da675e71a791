"""One collection's tab: count, table (``TableView`` over a ``RowSetTableModel``) and detail pane.

The table sorts through ``model.sort`` (header clicks) and shows the rows the finder's query
matched (``set_result``: the query box is the window's, one for every tab); the header's context
menu shows/hides columns; layout is saved to ``Settings``. The detail pane is made when a record
is first shown (a plain label holds its place until then), so that start-up builds neither eight
panes nor imports their modules.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QByteArray,
    QItemSelectionModel,
    QModelIndex,
    QPoint,
    Qt,
    QTimer,
    Signal,
)
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

from catalogue_desktop.core.listing.rows import COLUMNS
from catalogue_desktop.core.listing.rowset import RowSet
from catalogue_desktop.core.records.kinds import Kind, ListKind
from catalogue_desktop.ui.browse import columns, kept_selection
from catalogue_desktop.ui.browse import table_rows as export
from catalogue_desktop.ui.browse.count_label import CountLabel
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
    """Rows of one kind with filter, sorting, column choice and the selected record's details."""

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
        # (saved, as restored): ``restore_state``
        self._header_restored: tuple[QByteArray | None, QByteArray | None] = (None, None)
        # the order before the query's words asked for another (column, order, upcoming first):
        # shown again when they no longer ask, and the one remembered (``sort_as_words_ask``)
        self._before_words: tuple[int, Qt.SortOrder, bool] | None = None
        self._words_sorting = False  # the words' order being applied, not a header click
        # a record shown in the details though the query hides its row (``select_record``): it
        # stays shown while the rows change, and is selected once they list it again
        self._pinned: int | None = None
        self._pin_note: str | None = None  # what the status line was told of the pinned record
        self._keep: int | None = None
        self._selected_at_close: int | None = None  # selected again once listed (``restore_state``)
        self._keep_also: list[int] = []  # the other selected records (``_keeping_selection``)
        self._emit_selection = True
        self._detail_visible = True
        self._fit_title = False  # fit the title column when next shown (``_default_columns``)
        self._fitting = False  # (the tab sizes its columns: not the user)
        self._user_sized: set[int] = set()  # columns the user sized (``columns.fit_values`` leaves them)

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
        self._auto_title = False
        self._setup_view()
        self.view.resized.connect(self._view_resized)
        self.view.horizontalHeader().sectionResized.connect(self._title_resized)
        if kind in columns.FITTED_KINDS:  # columns as wide as their values: fitted as these change
            self._refit = QTimer(self)
            self._refit.setSingleShot(True)
            self._refit.timeout.connect(self.fit_values)
            for changed in (self.model.modelReset, self.model.layoutChanged, self.model.headerDataChanged):
                changed.connect(self._refit.start)
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
        self.model.modelReset.connect(self._reselect)
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

    def _clear_detail(self, text: str) -> None:
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
        header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        header.customContextMenuRequested.connect(self._header_menu)
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.customContextMenuRequested.connect(self._rows_menu)
        self._default_columns()

    def _default_columns(self) -> None:
        self._auto_title = False
        columns.default_widths(self.view, self.kind, self._formatter)
        self._fit_title = True  # once the view has its width (``showEvent``)
        self._auto_title = True  # and again whenever it gets another, until the user sizes it

    def fit_title_column(self) -> None:
        auto, self._auto_title = self._auto_title, False
        try:
            columns.fit_title(self.view)
        finally:
            self._auto_title = auto

    def _title_resized(self, column: int, _old: int, _new: int) -> None:
        if column == 0 and self._auto_title and self.view.isVisible():
            self._auto_title = False  # the user's width from now on
        elif column != 0 and not self._fitting and self.view.isVisible():
            self._user_sized.add(column)

    def fit_values(self) -> None:
        """The columns sized to their values (``columns.FITTED``) fitted to the rows shown now,
        and the title given what they leave (unless the user sized it)."""
        self._fitting = True
        try:
            changed = columns.fit_values(self.view, self.kind, self._user_sized)
        finally:
            self._fitting = False
        if changed and self._auto_title and self.view.isVisible():
            self.fit_title_column()

    def _view_resized(self) -> None:
        if self._auto_title and self.view.isVisible():
            self.fit_title_column()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.resized.emit()

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self.kind in columns.FITTED_KINDS:
            self._refit.start()  # (the rows read while hidden)
        if self._fit_title:
            self._fit_title = False
            QTimer.singleShot(0, self.fit_title_column)  # after the layout gave the view its width

    def hideEvent(self, event: QHideEvent) -> None:
        """Another tab shown: what this one told the status line of its details goes with it."""
        super().hideEvent(event)
        note, self._pin_note = self._pin_note, None
        if note is not None:
            self.message_withdrawn.emit(note)

    # -- rows --------------------------------------------------------------------------------

    def set_rowset(
        self, rowset: RowSet, changes: dict[str, Any] | None, result: Result | None = None
    ) -> None:
        """Show new rows (``result``: which of them the query matched, see
        ``RowSetTableModel.set_result``); the sort and the selected record stay."""
        self._keeping_selection(self.model.set_rowset, rowset, changes, result)

    def set_result(
        self, matches: Matches | None, overlay: Overlay | None = None, note: str | None = None
    ) -> None:
        """Show the rows the query matched; the selected record stays if it is among them."""
        self._keeping_selection(self.model.set_result, matches, overlay, note)

    def show_growing(self, rowset: RowSet, expected: int, changes: dict[str, Any] | None) -> None:
        """Show the rows of a row set read so far (see ``RowSetTableModel.show_growing``)."""
        self._keeping_selection(self.model.show_growing, rowset, expected, changes)

    def _keeping_selection(self, show: Callable[..., None], *args: object) -> None:
        """``show(*args)``: the model's change of rows. If it resets the model, ``_reselect``
        selects again the record selected (or shown) before."""
        self._keep = self._pinned or self.selected_record_id() or self._shown_id
        self._keep_also = kept_selection.selected_ids(self.view, self.model)
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
        if self.selected_record_id() is not None or self._pinned is not None:
            self._selected_at_close = None
            return
        row = self.model.view_row_of(record_id)
        if row is not None and not self.model.loading:
            self._selected_at_close = None
            self._select_row(row, emit=True)

    def _reselect(self) -> None:
        keep, self._keep = self._keep, None
        also, self._keep_also = self._keep_also, []
        if keep is None:
            return
        row = self.model.view_row_of(keep)
        if row is not None:
            self._select_row(row, emit=False)
            kept_selection.select_also(self.view, self.model, [i for i in also if i != keep])
            return
        listed = self.model.rowset.rows_by_id().get(keep) is not None
        if keep == self._pinned and listed:
            return  # still shown in the details only, as asked
        self._shown_id = None
        singular = self.kind.singular
        article = "an" if singular[0] in "aeiou" else "a"
        if not listed:
            self._unpin()
            self._clear_detail(f"The {singular} you had selected is no longer listed.")
        else:  # kept: selected again when the query lists it (an answer may come for rows half read)
            self._unpin()
            self._pinned = keep
            # (no row is selected now: the words say what was, and what is true of it)
            self._clear_detail(
                f"The {singular} you had selected is not among the rows shown now. "
                f"Select {article} {singular} to see its details."
            )

    def _unpin(self) -> None:
        """The record shown in the details only is not any more (its row listed and selected,
        another chosen): what the status line was told of it is withdrawn."""
        self._pinned = None
        note, self._pin_note = self._pin_note, None
        if note is not None:
            self.message_withdrawn.emit(note)

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
            self._unpin()
            self._pinned = record_id
            if self.model.filtered:  # (else its row is still being read: selected once it is)
                singular = self.kind.singular.capitalize()
                self._pin_note = f"{singular} #{record_id} is shown in the details; the query hides its row"
                self.message.emit(self._pin_note)
            return None
        self._select_row(row, emit=emit)
        return True

    def focus_order(self) -> list[QWidget]:
        """Its Tab stops before the details, in reading order (a tab with a row of tools above the
        table has those first)."""
        return [self.view]

    def focus_rows(self) -> None:
        """The keyboard to the table, on the current row (the first when none is)."""
        if not self.view.currentIndex().isValid() and self.model.rowCount() > 0:
            self._select_row(0, emit=True)
        self.view.setFocus(Qt.FocusReason.OtherFocusReason)

    def _select_row(self, row: int, *, emit: bool) -> None:
        index = self.model.index(row, self._first_visible_column())
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        record_id = self.model.record_id(row)
        self._unpin()
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
        self._unpin()
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
        if columns.fit_content(self.view, self.kind, self._formatter) and self._auto_title:
            self.fit_title_column()
        if self.kind in columns.FITTED_KINDS:
            self._refit.start()

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

    def column_actions(self, menu: QMenu) -> None:
        """Add one checkable action per column to ``menu`` (show/hide), and Reset columns."""
        columns.add_column_actions(menu, self.view, COLUMNS[self.kind], self.set_column_visible)
        menu.addAction("Reset columns", self.reset_columns)

    def set_column_visible(self, column: int, visible: bool) -> None:
        columns.set_column_visible(self.view, column, visible)

    def reset_columns(self) -> None:
        columns.reset_order(self.view)
        self._default_columns()

    def _header_menu(self, pos: QPoint) -> None:
        menu = QMenu(self)
        self.column_actions(menu)
        menu.exec(self.view.horizontalHeader().mapToGlobal(pos))

    def _rows_menu(self, pos: QPoint) -> None:
        menu = QMenu(self)
        menu.addAction("Copy rows", QKeySequence.StandardKey.Copy, self.copy_selection)
        menu.exec(self.view.viewport().mapToGlobal(pos))

    # -- settings ------------------------------------------------------------------------------

    def restore_state(self, settings: Settings) -> None:
        if columns.restore_header(self.view, settings, self.kind, self.model):
            # The user's widths, each still wide enough for its values (the currency or the
            # zone may have changed since); the title takes the room the others leave, as on
            # a first start, unless the user sized it (a title width fitted to a narrower
            # window, restored, kept titles cut).
            columns.fit_content(self.view, self.kind, self._formatter)
            self._fit_title = self._auto_title = not settings.title_sized(self.kind)
        header = self.view.horizontalHeader()
        # The state as restored, in this process's bytes: ``save_state`` keeps the saved one while the
        # header is unchanged (its hidden columns come out in a different order in each process,
        # and a changed value rewrites the settings file at every close).
        self._header_restored = (settings.header_state(self.kind), header.saveState())
        header.sortIndicatorChanged.connect(self._header_sorted, Qt.ConnectionType.UniqueConnection)
        self._selected_at_close = settings.selected(self.kind)

    def _header_sorted(self, *_sort: object) -> None:
        """The user chose an order: plain from now on, and remembered (the default is not); it
        outlasts an order the query's words asked for."""
        if self._words_sorting:
            return
        self._before_words = None
        self.model.upcoming_first = False

    def sort_as_words_ask(self, column: int, order: Qt.SortOrder) -> None:
        """The order the query's words ask for ("cheapest first"), shown while they ask for it
        (``sort_as_before_words``) and never remembered: the order it replaces is."""
        model = self.model
        if self._before_words is None:
            if (column, order) == (model.sort_column, model.sort_order):
                return  # the tab's own order already
            self._before_words = (model.sort_column, model.sort_order, model.upcoming_first)
        self._sort_quietly(column, order, upcoming_first=False)

    def sort_as_before_words(self) -> None:
        """The words no longer ask for an order: the tab's order before them again (the user's
        header click, or the tab's default)."""
        if self._before_words is None:
            return
        column, order, upcoming = self._before_words
        self._before_words = None
        self._sort_quietly(column, order, upcoming_first=upcoming)

    def _sort_quietly(self, column: int, order: Qt.SortOrder, *, upcoming_first: bool) -> None:
        """Sort by ``column`` (the header's indicator shows it), not as the user's choice."""
        model = self.model
        if upcoming_first != model.upcoming_first and (column, order) == (
            model.sort_column,
            model.sort_order,
        ):
            model.sort(-1, order)  # (the same column in the other grouping: sorted afresh)
        model.upcoming_first = upcoming_first
        self._words_sorting = True
        try:
            self.view.sortByColumn(column, order)
        finally:
            self._words_sorting = False

    def save_state(self, settings: Settings) -> None:
        header = self.view.horizontalHeader()
        model = self.model
        column, qt_order, upcoming = self._before_words or (
            model.sort_column,
            model.sort_order,
            model.upcoming_first,
        )  # (never the order the query's words asked for)
        order = 1 if qt_order == Qt.SortOrder.DescendingOrder else 0
        column = -1 if upcoming else column  # (-1: the default)
        state = header.saveState()
        saved, restored = self._header_restored
        if saved is not None and state == restored:
            state = saved  # unchanged since it was restored
        settings.save_tab(self.kind, state, (column, order), title_sized=not self._auto_title)
        shown = self.selected_record_id()
        settings.set_selected(self.kind, self._selected_at_close if shown is None else shown)
