"""A table's column widths: sensible defaults per column type, the title given the room the
others leave, and an added column making its room from the title (and scrolled into view);
``TabColumns``, a tab's columns as they change (shown, sized by the user or fitted, saved).

Widths come from the view's font, not from the rows (measuring 100,000 cells is no option):
an average character's width per type, and for dates the width of the widest date the formatter
writes ("12/28/26 10:00 PM UTC−05:00").
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QByteArray, QPoint, Qt, QTimer
from PySide6.QtWidgets import QMenu, QTableView

from catalogue_desktop.core.listing.rows import COLUMNS, Column, ColumnType, column_index
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind, ListKind

if TYPE_CHECKING:
    from catalogue_desktop.ui.browse.table_model import RowSetTableModel
    from catalogue_desktop.ui.browse.table_view import TableView
    from catalogue_desktop.ui.common.formatting import Formatter
    from catalogue_desktop.ui.common.settings import Settings

# Default widths in average character widths, per column type (the title column: at least).
WIDTH_CHARS = {
    ColumnType.TEXT: 24,
    ColumnType.INT: 8,
    ColumnType.CODE: 12,
    ColumnType.MONEY: 10,
    ColumnType.MONEY_RANGE: 16,
    ColumnType.DATE: 25,
    ColumnType.BOOL: 5,
}
TITLE_CHARS = 40  # the title's default: it gets what the other columns leave of the view
TITLE_READ_CHARS = 34  # ... in a narrower view, this while the columns read first stay in view
READ_FIRST = 4  # the columns after the title read first (Dates: start, city, state, fee): kept in view
TITLE_MIN_CHARS = 12  # ... down to this in a narrow view, before the table scrolls sideways (at
# 1024 px with the details shown and a currency: "USD 1,295" whole and in view, the title the rest)
# Columns whose values are shorter than their type's default (Dates: "Course", "IL", a city).
WIDTH_CHARS_OF: dict[tuple[ListKind, str], int] = {
    (OCCASIONS, "kind"): 8,
    (OCCASIONS, "city"): 13,  # "San Francisco" (longer ones: the tooltip)
    (OCCASIONS, "state"): 5,  # "IL", and the heading "State"
    (OCCASIONS, "fee"): 7,  # "1,295" (with a currency: widened to fit, ``fit_content``)
    (OCCASIONS, "venue"): 18,
    (OCCASIONS, "expert"): 18,
}
# Columns as wide as the values they show (the rows of the tab, and their heading; text up to its
# type's default): Courses' cities and fee range hold "Chicago" and "USD 1,095" under a query
# ("Matching city", "Matching fee"), and their room goes to the titles. (A course tab's rows are
# few: measured; Dates' are not, ``WIDTH_CHARS_OF``.)
FITTED: set[tuple[ListKind, str]] = {(Kind.COURSES, "cities"), (Kind.COURSES, "fee")}
FITTED_KINDS = {kind for kind, _key in FITTED}
# Columns hidden by default beyond the listing's own choice (Dates' experts: the facets and the
# details name them; shown, no tab of a 1920 px screen's window fitted its columns).
HIDDEN: set[tuple[ListKind, str]] = {(OCCASIONS, "expert")}
# The order columns are shown in, where it is not the listing's: what a person reads first first.
SHOWN_ORDER: dict[ListKind, tuple[str, ...]] = {
    OCCASIONS: ("title", "start", "city", "state", "fee", "kind", "venue", "cle", "cpe", "expert")
}
_WIDEST_DATE_MS = 1798514400000  # 12/28/26 10:00 PM at UTC−05:00
# A tab's order until the user sorts otherwise; the order the user chooses is remembered instead.
# Dated kinds by start, upcoming first (``past_rows.upcoming_first``; Dates: past occasions
# hidden), the others by title or name. (A sorted tab still paints the first page it reads at once,
# then its rows are put in order once all are read: ``RowSetTableModel.set_rowset``.)
DEFAULT_SORT: dict[ListKind, str] = {  # a Kind or the Dates sheet -> its column key
    Kind.WEBINARS: "start",
    Kind.SERIES: "first",
    Kind.COURSES: "next",
    Kind.CERTIFICATES: "title",
    Kind.EXPERTS: "name",
    Kind.TOPICS: "title",
    Kind.ROLES: "title",
    Kind.SITUATIONS: "title",
    OCCASIONS: "start",
}
_WIDEST_MONEY = {
    ColumnType.MONEY: lambda f: f.money("8888.88"),  # a seminar's fee (a wider one: "…", by hand)
    ColumnType.MONEY_RANGE: lambda f: f.money_range([8888, 88888]),
}


def _char(view: QTableView) -> int:
    return max(6, view.fontMetrics().averageCharWidth())


def _room(view: QTableView) -> int:
    """The width the columns have: the view's, less its vertical scroll bar (as the style draws
    it; counted whether shown or not, so that widths do not change as rows come and go).
    (Not viewport(): handing Python a QWidget* made PySide create every QtWidgets type at
    start-up; the view's size less the bar's extent is the same.)"""
    bar = view.verticalScrollBar().sizeHint().width()  # (the style's extent; not QStyle itself:
    return view.maximumViewportSize().width() - bar  # its ~500 enum members are not made at start)


def default_widths(view: QTableView, kind: ListKind, formatter: Formatter) -> None:
    """Every column of ``kind`` at its default width, shown or hidden as by default."""
    header = view.horizontalHeader()
    char = _char(view)
    for i, column in enumerate(COLUMNS[kind]):
        chars = WIDTH_CHARS_OF.get((kind, column.key), WIDTH_CHARS[column.type])
        width = (TITLE_CHARS if i == 0 else chars) * char + 16
        if (kind, column.key) not in FITTED:  # (those: once their rows are shown, ``fit_values``)
            width = max(width, _content_width(view, column, formatter))
        header.resizeSection(i, width)
        header.setSectionHidden(i, not column.visible or (kind, column.key) in HIDDEN)
    for visual, key in enumerate(SHOWN_ORDER.get(kind, ())):
        header.moveSection(header.visualIndex(column_index(kind, key)), visual)


def _content_width(view: QTableView, column: Column, formatter: Formatter) -> int:
    """The width a date or money column needs for the widest value the formatter writes (with
    its zone, its currency and grouping, whatever they are now); 0 for other columns."""
    metrics = view.fontMetrics()
    if column.type is ColumnType.DATE:
        return metrics.horizontalAdvance(formatter.date(_WIDEST_DATE_MS, -300)) + 10  # (its margins)
    if column.type in _WIDEST_MONEY:
        return metrics.horizontalAdvance(_WIDEST_MONEY[column.type](formatter)) + 8  # (its margins)
    return 0


def fit_values(view: QTableView, kind: ListKind, skip: set[int]) -> bool:
    """Size ``kind``'s ``FITTED`` columns (but those in ``skip``: the user's) to the values and
    heading they show (text up to its type's default width); whether one changed."""
    header = view.horizontalHeader()
    char = _char(view)
    changed = False
    for i, column in enumerate(COLUMNS[kind]):
        if (kind, column.key) not in FITTED or i in skip or header.isSectionHidden(i):
            continue
        width = max(header.sectionSizeHint(i), view.sizeHintForColumn(i))
        if column.type is ColumnType.TEXT:  # (a fee never cut; a long list of cities: its tooltip)
            width = min(width, WIDTH_CHARS[column.type] * char + 16)
        if width != header.sectionSize(i):
            header.resizeSection(i, width)
            changed = True
    return changed


def fit_content(view: QTableView, kind: ListKind, formatter: Formatter) -> bool:
    """Widen the date and money columns that are now too narrow for their values: restored from
    the settings (a fee column saved before a currency was chosen cut "USD 1,095" to "USD 59…"),
    or sized before the formatter changed (a currency chosen: "USD 1,…"). Whether one was
    widened (the title then gives the room back: ``fit_title``)."""
    header = view.horizontalHeader()
    widened = False
    for i, column in enumerate(COLUMNS[kind]):
        if (kind, column.key) in FITTED:
            continue  # (as wide as its values: ``fit_values``)
        needed = _content_width(view, column, formatter)
        if i < header.count() and header.sectionSize(i) < needed:
            header.resizeSection(i, needed)
            widened = True
    return widened


def fit_title(view: QTableView) -> None:
    """Give the title column the width the other shown columns leave (titles get the room). In
    a narrower view it keeps ``TITLE_READ_CHARS`` as long as the ``READ_FIRST`` columns after it
    stay in view (those further right scroll sideways rather than squeeze the titles), and at
    least ``TITLE_MIN_CHARS``."""
    header = view.horizontalHeader()
    shown = [
        header.logicalIndex(v)
        for v in range(header.count())
        if not header.isSectionHidden(header.logicalIndex(v)) and header.logicalIndex(v) != 0
    ]
    others = sum(header.sectionSize(i) for i in shown)
    first = sum(header.sectionSize(i) for i in shown[:READ_FIRST])
    view_width = _room(view)
    char = _char(view)
    readable = min(TITLE_READ_CHARS * char + 16, view_width - first)
    width = max(view_width - others, readable, TITLE_MIN_CHARS * char + 16)
    if width != header.sectionSize(0):
        header.resizeSection(0, width)


def make_room(view: QTableView, width: int) -> None:
    """A column ``width`` wide was added: the title column gives up as much, down to its default
    (a narrow table then scrolls sideways: ``scroll_to``)."""
    header = view.horizontalHeader()
    shown = sum(header.sectionSize(i) for i in range(header.count()) if not header.isSectionHidden(i))
    over = shown - _room(view)
    floor = TITLE_CHARS * _char(view) + 16
    if over > 0 and header.sectionSize(0) > floor:
        header.resizeSection(0, max(floor, header.sectionSize(0) - min(over, width)))


def scroll_to(view: QTableView, column: int) -> None:
    """Scroll sideways until ``column``'s right edge is in view."""
    view.updateGeometries()  # the scroll range with the column shown (else: once laid out)
    header = view.horizontalHeader()
    bar = view.horizontalScrollBar()
    right = header.sectionPosition(column) + header.sectionSize(column)
    vertical = view.verticalScrollBar()
    width = view.maximumViewportSize().width() - (vertical.width() if vertical.isVisible() else 0)
    if right - bar.value() > width:
        bar.setValue(right - width)


# -- shown columns, their order and the saved header ---------------------------------------------


def add_column_actions(
    menu: QMenu, view: QTableView, kind_columns: Sequence[Column], set_visible: Callable[[int, bool], None]
) -> None:
    """One checkable action per column on ``menu`` (show/hide), then a separator."""
    header = view.horizontalHeader()
    for i, column in enumerate(kind_columns):
        action = menu.addAction(column.header)
        action.setCheckable(True)
        action.setChecked(not header.isSectionHidden(i))
        action.toggled.connect(lambda on, i=i: set_visible(i, on))
    menu.addSeparator()


def set_column_visible(view: QTableView, column: int, visible: bool) -> None:
    """Show or hide a column (never the last one shown); one shown gets room and is scrolled to."""
    header = view.horizontalHeader()
    if not visible and header.count() - header.hiddenSectionCount() <= 1:
        return  # keep at least one column
    header.setSectionHidden(column, not visible)
    if visible and column != 0:
        make_room(view, header.sectionSize(column))
        scroll_to(view, column)


def reset_order(view: QTableView) -> None:
    """The columns back in their own order."""
    header = view.horizontalHeader()
    for visual, logical in enumerate(range(header.count())):
        header.moveSection(header.visualIndex(logical), visual)


def restore_header(view: QTableView, settings: Settings, kind: ListKind, model: RowSetTableModel) -> bool:
    """The tab's saved header (widths, order, shown columns) and sort, or its default sort;
    whether the widths were the user's."""
    header = view.horizontalHeader()
    state = settings.header_state(kind)
    if state is not None:
        header.restoreState(state)
    column, order = settings.sort(kind)
    default = column < 0 and kind in DEFAULT_SORT  # never sorted by the user
    if default:
        column, order = column_index(kind, DEFAULT_SORT[kind]), 0
    qt_order = Qt.SortOrder.DescendingOrder if order else Qt.SortOrder.AscendingOrder
    header.setSortIndicator(column, qt_order)
    model.upcoming_first = default  # until the user sorts (``row_order.TabOrder``)
    model.sort(column, qt_order)
    return state is not None


class TabColumns:
    """A tab's columns: their default widths and order, the title given the room the others
    leave until the user sizes it, the ``FITTED`` columns fitted to the rows shown, the header's
    menu (show/hide, Reset columns), and the header saved and restored."""

    def __init__(
        self, view: TableView, model: RowSetTableModel, kind: ListKind, formatter: Formatter
    ) -> None:
        self._view = view
        self._model = model
        self._kind = kind
        self._formatter = formatter
        # (saved, as restored): ``restore``
        self._header_restored: tuple[QByteArray | None, QByteArray | None] = (None, None)
        self._fit_title = False  # fit the title column when next shown (``default``)
        self._fitting = False  # (the tab sizes its columns: not the user)
        self._user_sized: set[int] = set()  # columns the user sized (``fit_values`` leaves them)
        self.auto_title = False  # the title takes the room the others leave (the user did not size it)
        header = view.horizontalHeader()
        header.customContextMenuRequested.connect(self._header_menu)
        self.default()
        view.resized.connect(self._view_resized)
        header.sectionResized.connect(self._resized)
        if kind in FITTED_KINDS:  # columns as wide as their values: fitted as these change
            self._refit = QTimer(view)
            self._refit.setSingleShot(True)
            self._refit.timeout.connect(self.fit_values)
            for changed in (model.modelReset, model.layoutChanged, model.headerDataChanged):
                changed.connect(self._refit.start)

    def default(self) -> None:
        """Every column at its default width, shown or hidden and in its place as by default."""
        self.auto_title = False
        default_widths(self._view, self._kind, self._formatter)
        self._fit_title = True  # once the view has its width (``shown``)
        self.auto_title = True  # and again whenever it gets another, until the user sizes it

    def fit_title(self) -> None:
        """The title column given the width the others leave (``fit_title``), not as the user's."""
        auto, self.auto_title = self.auto_title, False
        try:
            fit_title(self._view)
        finally:
            self.auto_title = auto

    def _resized(self, column: int, _old: int, _new: int) -> None:
        if column == 0 and self.auto_title and self._view.isVisible():
            self.auto_title = False  # the user's width from now on
        elif column != 0 and not self._fitting and self._view.isVisible():
            self._user_sized.add(column)

    def fit_values(self) -> None:
        """The columns sized to their values (``FITTED``) fitted to the rows shown now, and the
        title given what they leave (unless the user sized it)."""
        self._fitting = True
        try:
            changed = fit_values(self._view, self._kind, self._user_sized)
        finally:
            self._fitting = False
        if changed and self.auto_title and self._view.isVisible():
            self.fit_title()

    def _view_resized(self) -> None:
        if self.auto_title and self._view.isVisible():
            self.fit_title()

    def shown(self) -> None:
        """The tab is shown: the fitted columns fitted to the rows read while hidden, and the
        title to the view's width once the layout gave it (``default``)."""
        if self._kind in FITTED_KINDS:
            self._refit.start()  # (the rows read while hidden)
        if self._fit_title:
            self._fit_title = False
            # after the layout gave the view its width (the view as the call's context: a tab
            # closed meanwhile takes the call with it, as when the tab itself made it)
            QTimer.singleShot(0, self._view, self.fit_title)

    def redraw(self) -> None:
        """The cells are written in other words (a currency, a zone): the date and money columns
        widened to fit them, the title given what they leave (unless the user sized it)."""
        if fit_content(self._view, self._kind, self._formatter) and self.auto_title:
            self.fit_title()
        if self._kind in FITTED_KINDS:
            self._refit.start()

    def add_actions(self, menu: QMenu) -> None:
        """Add one checkable action per column to ``menu`` (show/hide), and Reset columns."""
        add_column_actions(menu, self._view, COLUMNS[self._kind], self.set_visible)
        menu.addAction("Reset columns", self.reset)

    def set_visible(self, column: int, visible: bool) -> None:
        """Show or hide a column (``set_column_visible``)."""
        set_column_visible(self._view, column, visible)

    def reset(self) -> None:
        """The columns in their own order, at their default widths, shown as by default."""
        reset_order(self._view)
        self.default()

    def _header_menu(self, pos: QPoint) -> None:
        menu = QMenu(self._view)
        self.add_actions(menu)
        menu.exec(self._view.horizontalHeader().mapToGlobal(pos))

    def restore(self, settings: Settings) -> None:
        """The saved header (widths, order, shown columns) and sort (``restore_header``)."""
        if restore_header(self._view, settings, self._kind, self._model):
            # The user's widths, each still wide enough for its values (the currency or the
            # zone may have changed since); the title takes the room the others leave, as on
            # a first start, unless the user sized it (a title width fitted to a narrower
            # window, restored, kept titles cut).
            fit_content(self._view, self._kind, self._formatter)
            self._fit_title = self.auto_title = not settings.title_sized(self._kind)
        # The state as restored, in this process's bytes: ``saved_header`` keeps the saved one while
        # the header is unchanged (its hidden columns come out in a different order in each process,
        # and a changed value rewrites the settings file at every close).
        header = self._view.horizontalHeader()
        self._header_restored = (settings.header_state(self._kind), header.saveState())

    def saved_header(self) -> QByteArray:
        """The header's state to save: the one restored while it is unchanged since."""
        state = self._view.horizontalHeader().saveState()
        saved, restored = self._header_restored
        if saved is not None and state == restored:
            state = saved  # unchanged since it was restored
        return state
