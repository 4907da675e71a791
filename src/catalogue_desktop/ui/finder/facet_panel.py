"""The facet panel: the current tab's facets, each value with its count (the rows that would show
if it were chosen: ``core.query.facets``); a click chooses it, Shift+click (Shift+Enter) adds it
beside the facet's other choices, Ctrl+click (Ctrl+Enter) leaves it out, a second click takes it
back. Selections are written
into the query text by the controller (the query stays the one truth).

``FacetModel`` is a two-level ``QAbstractItemModel`` (facets, then their values; columns: value,
count) over the facets ``core.query.facets`` computes: no copy of the catalogue's data.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractItemModel,
    QItemSelectionModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    Signal,
)
from PySide6.QtGui import QFont, QFontMetrics, QGuiApplication, QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QHeaderView,
    QLabel,
    QStyledItemDelegate,
    QTreeView,
    QVBoxLayout,
    QWidget,
)

from catalogue_desktop.core.formats.drawn_text import SHORT_LIMIT, one_line
from catalogue_desktop.qt_compat.item_models import guarded

if TYPE_CHECKING:
    # (a type only: imported, the class and its 9 enums were made at start-up; Qt hands one to
    # ``_Wrapped.sizeHint`` once facets show)
    from PySide6.QtWidgets import QStyleOptionViewItem

    from catalogue_desktop.core.query.facets import Facet
    from catalogue_desktop.core.records.kinds import ListKind

_Index = QModelIndex | QPersistentModelIndex
_NO_PARENT = 0xFFFFFFFF  # internal id of a facet's own row
_MARK = {"included": "✓ ", "excluded": "✗ "}
_STATE_WORDS = {"included": "selected", "excluded": "left out"}
# The roles ``FacetModel.data`` answers: the view asks each cell for ~8 (its style option's
# foreground, background, check state, decoration...), at each paint and size hint; the others
# are answered None before the cell is looked up.
_ROLES = frozenset(
    int(role)
    for role in (
        Qt.ItemDataRole.DisplayRole,
        Qt.ItemDataRole.FontRole,
        Qt.ItemDataRole.ToolTipRole,
        Qt.ItemDataRole.TextAlignmentRole,
        Qt.ItemDataRole.AccessibleTextRole,
    )
)


class FacetModel(QAbstractItemModel):
    """Facets (top level) and their values (children). Read-only."""

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.facets: list[Facet] = []

    def set_facets(self, facets: list[Facet]) -> None:
        self.beginResetModel()
        self.facets = list(facets)
        self.endResetModel()

    def index(self, row: int, column: int, parent: _Index = QModelIndex()) -> QModelIndex:  # noqa: B008
        if not self.hasIndex(row, column, parent):
            return QModelIndex()
        if not parent.isValid():
            return self.createIndex(row, column, _NO_PARENT)
        return self.createIndex(row, column, parent.row())

    def parent(self, index: _Index = QModelIndex()) -> QModelIndex:  # type: ignore[override]  # noqa: B008
        if not index.isValid() or index.internalId() == _NO_PARENT:
            return QModelIndex()
        return self.createIndex(int(index.internalId()), 0, _NO_PARENT)

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        if not parent.isValid():
            return len(self.facets)
        if parent.internalId() == _NO_PARENT and parent.column() == 0:
            return len(self.facets[parent.row()].values)
        return 0

    def columnCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 2

    def flags(self, index: _Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def value_at(self, index: _Index) -> tuple[Facet, Any] | None:
        """(facet, value) of a value's index, or None for a facet's own row."""
        if not index.isValid() or index.internalId() == _NO_PARENT:
            return None
        facet = self.facets[int(index.internalId())]
        return facet, facet.values[index.row()]

    @guarded
    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if role not in _ROLES or not index.isValid():
            return None
        if index.internalId() == _NO_PARENT:
            facet = self.facets[index.row()]
            if role == Qt.ItemDataRole.DisplayRole:
                if index.column() == 0:
                    return (
                        f"{facet.title}: {one_line(facet.said, SHORT_LIMIT)}" if facet.said else facet.title
                    )
                return f"+{facet.more} more" if facet.more else None
            if role == Qt.ItemDataRole.FontRole and index.column() == 0:
                font = QFont()
                font.setBold(True)
                return font
            if role == Qt.ItemDataRole.ToolTipRole and facet.chosen:
                return (
                    f"The query asks for {facet.title.lower()} {facet.said} ({facet.chosen}); each "
                    "value's count is what choosing it instead would give, and a click replaces that clause"
                )
            if role == Qt.ItemDataRole.ToolTipRole and facet.more:
                return f"{facet.more} more values have rows: click to show them"
            return None
        found = self.value_at(index)
        assert found is not None
        facet, value = found
        if role == Qt.ItemDataRole.DisplayRole:
            if index.column() == 0:
                return _MARK.get(value.state or "", "") + one_line(value.label, SHORT_LIMIT)
            return f"{value.count:,}"
        if role == Qt.ItemDataRole.TextAlignmentRole and index.column() == 1:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        if role == Qt.ItemDataRole.FontRole and value.state == "excluded":
            font = QFont()
            font.setStrikeOut(True)
            return font
        if role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
            state = f" ({_STATE_WORDS[value.state]})" if value.state else ""
            return (
                f"{facet.title}: {one_line(value.label, SHORT_LIMIT)}{state} — {value.count:,} rows. "
                "Click (Enter) to choose or take back; Shift+click to add; Ctrl+click to leave out."
            )
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return ("Value", "Rows")[section] if 0 <= section < 2 else None
        return None


def how(modifiers: Qt.KeyboardModifier) -> str:
    """What a click (or Enter) with ``modifiers`` does to a value: Ctrl leaves it out, Shift adds
    it beside the facet's other choices, else it is chosen (the facet's one choice)."""
    if modifiers & Qt.KeyboardModifier.ControlModifier:
        return "exclude"
    return "add" if modifiers & Qt.KeyboardModifier.ShiftModifier else "choose"


_SEEN_KEPT = 4096  # hints kept by content (a few facets' values at a few widths)


class _Wrapped(QStyledItemDelegate):
    """Rows of the names' column as tall as their names wrapped at the column's width (the
    default hint is one line whatever the width).

    Each row's hint is worked out once for its content, font and width, then kept: the tree asks
    for every row's hint at each layout (rows of unequal heights: the scroll range is their sum),
    and it lays its rows out again when the names' column changes width. The kept hints are
    dropped when the model's content changes or the application's font does. Behind them, hints
    by content (the text, its font, the width, facet or value): the facets shown again after a
    query mostly repeat the names of the ones before (2 ``data`` calls a look-up). A hint worked
    out is the text's width and its height wrapped at the column's width, at least a line: the
    style's hint of a one-line cell (~10 ``data`` calls and a text layout) is asked once a font."""

    def __init__(self, tree: QTreeView, model: QAbstractItemModel) -> None:
        super().__init__(tree)
        self._tree = tree
        self._text_margin: int | None = None
        # a one-line cell's hint by font (the style's: ~8 ``data`` calls and a text layout)
        self._lines: dict[str | None, QSize] = {}
        self._hints: dict[tuple[int, int, int, int], QSize] = {}  # by place: (facet, row, column, width)
        self._seen: dict[tuple[Any, ...], QSize] = {}  # by content (``_by_content``)
        for signal in (
            model.modelReset,
            model.layoutChanged,
            model.dataChanged,
            model.rowsInserted,
            model.rowsRemoved,
            model.rowsMoved,
        ):
            signal.connect(self.forget)
        # Told by the application's signal, not by an event: a Python ``changeEvent`` is handed a
        # plain ``QEvent`` (qt_compat's notes); the window's own font is never set.
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):
            app.fontChanged.connect(self._font_changed)

    def forget(self, *_args: object) -> None:
        """Drop the hints kept by place (the content changed)."""
        self._hints.clear()

    def _font_changed(self, _font: QFont) -> None:
        self._hints.clear()
        self._seen.clear()
        self._lines.clear()

    def _margin(self) -> int:
        """The style's text margin in a cell; ``QStyle`` imported here, not at start-up (its ~500
        enum members are made when the name is first read: docs/decisions.md, "Start-up and
        Qt"), for facets are hidden until asked for."""
        if self._text_margin is None:
            from PySide6.QtWidgets import QStyle

            style = self._tree.style()
            self._text_margin = (
                style.pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, self._tree) + 1
            )
        return self._text_margin

    def sizeHint(self, option: QStyleOptionViewItem, index: _Index) -> QSize:
        column = index.column()
        # (the names' column wraps at its width: a hint per width; the counts' is one line)
        width = self._tree.header().sectionSize(0) if column == 0 else -1
        key = (int(index.internalId()), index.row(), column, width)
        hint = self._hints.get(key)
        if hint is None:
            hint = self._hints[key] = self._by_content(option, index, column, width)
        return hint  # (Qt takes a copy)

    def _by_content(self, option: QStyleOptionViewItem, index: _Index, column: int, width: int) -> QSize:
        font = index.data(Qt.ItemDataRole.FontRole)
        key = (
            column,
            width,
            index.internalId() == _NO_PARENT,  # (a facet's row or a value's: their indentation)
            index.data(),
            font.key() if isinstance(font, QFont) else None,
        )
        hint = self._seen.get(key)
        if hint is None:
            if len(self._seen) > _SEEN_KEPT:
                self._seen.clear()
            hint = self._seen[key] = self._work_out(option, index, width)
        return hint

    def _work_out(self, option: QStyleOptionViewItem, index: _Index, width: int) -> QSize:
        text = index.data()
        font = index.data(Qt.ItemDataRole.FontRole)
        line = self._lines.get(font.key() if isinstance(font, QFont) else None)
        if line is None or not text:  # (a cell's one-line height in its font: the style's, once)
            line = super().sizeHint(option, index)
            if not text:
                return line
            self._lines[font.key() if isinstance(font, QFont) else None] = line
        metrics = QFontMetrics(font) if isinstance(font, QFont) else option.fontMetrics
        wide = metrics.horizontalAdvance(str(text)) + 2 * self._margin()
        if index.column() != 0:  # (the counts: one line)
            return QSize(wide, line.height())
        depth = 2 if index.parent().isValid() else 1
        width -= depth * self._tree.indentation() + 2 * self._margin()
        flags = int(Qt.TextFlag.TextWordWrap)
        height = metrics.boundingRect(QRect(0, 0, max(width, 20), 10_000), flags, str(text)).height()
        return QSize(wide, max(line.height(), height + 4))


def _focus_margin() -> Any:
    """The style's metric of a cell's text margin (``QStyle`` imported when first needed, not at
    start-up: ``_Wrapped._margin``)."""
    from PySide6.QtWidgets import QStyle

    return QStyle.PixelMetric.PM_FocusFrameHMargin


class _FacetTree(QTreeView):
    """The facet tree: Enter chooses the current value, Shift+Enter adds it, Ctrl+Enter leaves
    it out (a ``keyPressEvent`` override, not an event filter: ``qt_compat``'s notes).

    ``hold_scroll_bar``: the vertical scroll bar shown ahead of the new rows' layout
    (``FacetPanel`` knows they will not fit), then left to show as needed again once it has a
    range to scroll: the rows laid out once, at the width they keep, not once at the width
    without it and again when it appears."""

    activated_value = Signal(QModelIndex, str)  # index, how (``how``)

    _held = False
    _heard = False  # its range heard (connected when first held: ``QScrollBar`` not made at start-up)

    def hold_scroll_bar(self, held: bool) -> None:
        if held and not self._heard:
            self._heard = True
            self.verticalScrollBar().rangeChanged.connect(self._range_changed)
        if held != self._held:
            self._held = held
            self.setVerticalScrollBarPolicy(
                Qt.ScrollBarPolicy.ScrollBarAlwaysOn if held else Qt.ScrollBarPolicy.ScrollBarAsNeeded
            )

    def _range_changed(self, low: int, high: int) -> None:
        if self._held and high > low:  # (as needed from now on: it stays)
            self.hold_scroll_bar(False)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Space):
            index = self.currentIndex()
            if index.isValid():
                self.activated_value.emit(index, how(event.modifiers()))
                event.accept()
                return
        super().keyPressEvent(event)


class FacetPanel(QWidget):
    """The side panel (a dock): a line naming the tab, then the facet tree."""

    value_toggled = Signal(str, str, str)  # field, value clause, how: "choose", "add", "exclude"
    more_requested = Signal(str)  # field: its "+N more" clicked (Enter on the facet's row)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.heading = QLabel()
        self.heading.setTextFormat(Qt.TextFormat.PlainText)
        self.heading.setWordWrap(True)
        self.model = FacetModel(self)
        self.tree = _FacetTree()
        self.tree.setObjectName("facets")
        self.tree.setAccessibleName("Facets")
        self.tree.setAccessibleDescription(
            "Values of the current tab's rows with their counts. Enter "
            "selects a value, Ctrl+Enter leaves it out."
        )
        self.tree.setModel(self.model)
        self.tree.header().setAccessibleName("Facet columns")
        # A long name wraps onto more lines instead of being cut: the panel is 200 px wide at
        # 1024 and 1366 (the table keeps the width), where one line held ten characters. Rows are
        # as tall as their names, laid out again when the names' column changes width.
        self.tree.setWordWrap(True)
        self.tree.setUniformRowHeights(False)
        self.tree.setItemDelegate(_Wrapped(self.tree, self.model))
        # Scrolled by pixels: a scroll by items counts rows, not their heights, so with wrapped
        # names the last values stayed below the panel's edge at the scroll bar's end.
        self.tree.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.tree.setIndentation(12)  # (20 by default: the values' names get the width)
        self.tree.setAllColumnsShowFocus(True)
        self.tree.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self.tree.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        # The counts' column as wide as its widest text, worked out from the texts as the facets
        # are set (``_fit_counts``), not fitted to the rows' hints by the header after each layout
        # (which laid the names out at one width, then again at the one left to them).
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.Fixed)
        header.sectionResized.connect(self._names_resized)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.heading)
        layout.addWidget(self.tree, 1)
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):  # (the counts' column fitted to the new font's texts)
            app.fontChanged.connect(self._font_changed)
        self.tree.clicked.connect(self._clicked)
        self.tree.activated_value.connect(self._activate)
        self._expanded: set[str] = set()
        self._clicking = False  # (``_activate`` from a click, not a key)
        self._kind: ListKind | None = None

    def _names_resized(self, column: int, _old: int, _new: int) -> None:
        if column == 0:  # the names wrap at another width: rows as tall as they now are
            # (laid out once the pass's changes are made: the counts' column, the scroll bar
            # and the model's reset each resize the names' column in one call of ``show_facets``)
            self.tree.scheduleDelayedItemsLayout()

    def _fit_counts(self, facets: list[Facet], font: QFont | None = None) -> None:
        """The counts' column as wide as the widest of ``facets``' counts (and "+N more", and its
        title): the width the header's fit to the rows' contents gave, from the texts alone
        (measured in ``font``: the application's new one, before the tree is given it)."""
        metrics = QFontMetrics(font) if font is not None else self.tree.fontMetrics()
        texts = [f"{v.count:,}" for f in facets for v in f.values]
        texts += [f"+{f.more} more" for f in facets if f.more]
        header = self.tree.header()
        width = header.sectionSizeHint(1)
        if texts:  # (none while the finder prepares: the style's enum not made at start-up)
            margin = 2 * (self.tree.style().pixelMetric(_focus_margin(), None, self.tree) + 1)
            width = max(width, max(metrics.horizontalAdvance(t) for t in set(texts)) + margin)
        if header.sectionSize(1) != width:
            header.resizeSection(1, width)

    def _font_changed(self, font: QFont) -> None:
        self._fit_counts(self.model.facets, font)

    def _fits(self, facets: list[Facet], expanded: int) -> bool:
        """Whether the rows may fit the tree's height without a scroll bar: each is at least a
        line tall (``expanded``: the values shown under their facets). (The tree's height, not
        its viewport's: ``viewport()`` made PySide make dialogs' classes at start-up.)"""
        rows = len(facets) + expanded
        return rows * self.tree.fontMetrics().height() <= self.tree.height()

    def show_facets(self, kind: ListKind, facets: list[Facet], note: str | None) -> None:
        """Show ``kind``'s facets (``note``: why there are none, e.g. still preparing)."""
        if kind is not self._kind:
            self._kind = kind
        self._remember_expanded()
        # A facet with no values (none of these rows has one) and no clause of the query is an
        # empty heading ("Roles" with nothing under it): left out.
        shown = [f for f in facets if f.values or f.more or f.chosen]
        if note is None and facets and not shown:
            note = f"{kind.label}: none of the rows shown has a value to count."
        facets = shown
        if note is None:
            note = (
                f"{kind.label}: each count is the rows its value would show. Click to choose, "
                "Shift+click to add, Ctrl+click to leave out."
                if facets
                else f"{kind.label} have no facets."
            )
        self.heading.setText(note)
        current = self.tree.currentIndex()
        where = (current.parent().row(), current.row()) if current.isValid() else None
        opened = [
            row
            for row, facet in enumerate(facets)
            if facet.field in self._expanded
            or facet.chosen
            or any(v.state for v in facet.values)
            or (not self._expanded and row < 4)
        ]
        # The rows laid out once, at the names' width they keep: the counts' column and the scroll
        # bar set first (each resizes the names' column), the layout after them.
        self._fit_counts(facets)
        self.tree.hold_scroll_bar(not self._fits(facets, sum(len(facets[row].values) for row in opened)))
        self.model.set_facets(facets)
        for row in opened:
            self.tree.expand(self.model.index(row, 0))
        # Keyboard users keep their place, but not as a highlight: the row now at that place holds
        # another value, which looked chosen ("IL" highlighted while "✓ TX" was the choice).
        if where is not None:
            parent = self.model.index(where[0], 0) if where[0] >= 0 else QModelIndex()
            index = self.model.index(where[1], 0, parent)
            if index.isValid():
                self.tree.selectionModel().setCurrentIndex(index, QItemSelectionModel.SelectionFlag.NoUpdate)

    def _remember_expanded(self) -> None:
        for row, facet in enumerate(self.model.facets):
            if self.tree.isExpanded(self.model.index(row, 0)):
                self._expanded.add(facet.field)
            else:
                self._expanded.discard(facet.field)

    def _clicked(self, index: QModelIndex) -> None:
        self._clicking = True
        try:
            self._activate(index, how(QApplication.keyboardModifiers()))
        finally:
            self._clicking = False

    def _more(self, row: int) -> None:
        facet = self.model.facets[row]
        if facet.more:
            self._expanded.add(facet.field)
            self.more_requested.emit(facet.field)

    def _activate(self, index: QModelIndex, way: str) -> None:
        found = self.model.value_at(index)
        if found is None:
            if index.isValid() and (index.column() == 1 or not self._clicking):
                self._more(index.row())  # its "+N more" clicked, or Enter on its row
            return
        facet, value = found
        self.value_toggled.emit(facet.field, value.clause, way)
