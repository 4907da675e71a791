"""The collection table's view: Copy copies whole rows, it says when it first painted rows, and an
empty table says why (the model's ``note``: a field the kind lacks, the finder still preparing).

An override of ``paintEvent`` and ``keyPressEvent``, not an event filter: a Python event filter
receives every event of the widget, and PySide6 converting each to its Python type made it create
~40 event types and their enums at start-up (``qt_compat``'s notes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QKeySequence, QResizeEvent
from PySide6.QtWidgets import QAbstractItemView, QTableView

from catalogue_desktop.ui.browse.table_model import RowSetTableModel

if TYPE_CHECKING:
    # (QKeyEvent: QEvent's 179 enum members, made at the first key press)
    from PySide6.QtGui import QKeyEvent, QPaintEvent


class TableView(QTableView):
    """A table whose Copy key copies whole selected rows (TSV) instead of one cell, and which
    says when it first painted rows (``rows_painted``, once: a window is populated)."""

    copy_requested = Signal()
    rows_painted = Signal()
    enter_pressed = Signal()  # Enter on a row: its details get the focus
    resized = Signal()  # the view got another size (the title column may take the room)
    _painted_rows = False
    # The layout Qt has pending (``doItemsLayout``) is for rows appended below the last row on
    # screen alone (``rowsInserted``); any other change of the model's shape since the last
    # layout (``_shape_changed``) makes it a full one.
    _appended_below = False
    _layout_pending = False

    def setModel(self, model: QAbstractItemModel | None) -> None:
        super().setModel(model)
        if model is not None:
            for changed in (
                model.modelReset,
                model.layoutChanged,
                model.rowsRemoved,
                model.rowsMoved,
                model.columnsInserted,
                model.columnsRemoved,
                model.columnsMoved,
            ):
                changed.connect(self._shape_changed)

    def _shape_changed(self) -> None:
        self._appended_below, self._layout_pending = False, True

    def rowsInserted(self, parent: QModelIndex | QPersistentModelIndex, start: int, end: int) -> None:
        """Rows appended below the last row on screen (a growing tab's rows as they are read)
        change the scroll bar, not a cell on screen: the layout they cause repaints nothing
        (``doItemsLayout``; Qt's repainted the whole viewport: ~30 M instructions at 10,000)."""
        super().rowsInserted(parent, start, end)
        # the viewport's height, or more (scroll bars not taken off): ``viewport()`` from Python
        # made PySide make four wrapper classes and their enums (~15 M instructions)
        last = self.rowAt(self.maximumViewportSize().height() - 1)  # (-1: the rows end above it)
        below = not parent.isValid() and 0 <= last < start
        self._appended_below = below and (self._appended_below or not self._layout_pending)
        self._layout_pending = True

    def doItemsLayout(self) -> None:
        appended_below = self._appended_below
        self._appended_below = self._layout_pending = False
        if appended_below:
            self.updateGeometries()  # the scroll bars' ranges; no cell on screen changed
            return
        super().doItemsLayout()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.resized.emit()

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        model = self.model()
        if model.rowCount() > 0:
            if not self._painted_rows:
                self._painted_rows = True
                self.rows_painted.emit()
            return
        if not isinstance(model, RowSetTableModel):
            return
        note = model.note or ("No rows match the query." if model.filtered else None)
        if note:
            from PySide6.QtGui import QPainter

            painter = QPainter(self.viewport())
            painter.setPen(self.palette().placeholderText().color())
            rect = self.viewport().rect().adjusted(16, 24, -16, -16)
            flags = int(Qt.AlignmentFlag.AlignHCenter | Qt.AlignmentFlag.AlignTop | Qt.TextFlag.TextWordWrap)
            painter.drawText(rect, flags, note)
            painter.end()

    def moveCursor(
        self, cursorAction: QAbstractItemView.CursorAction, modifiers: Qt.KeyboardModifier
    ) -> QModelIndex:
        """Ctrl+Home and Ctrl+End go to the first and last row in the current column (Qt's went to
        the first and last column too, scrolling the Title out of view: a row is read by its
        title, and the row is what these keys are for)."""
        index = super().moveCursor(cursorAction, modifiers)
        ends = (QAbstractItemView.CursorAction.MoveHome, QAbstractItemView.CursorAction.MoveEnd)
        if cursorAction in ends and modifiers & Qt.KeyboardModifier.ControlModifier and index.isValid():
            current = self.currentIndex()
            header = self.horizontalHeader()
            column = (
                current.column()
                if current.isValid() and not self.isColumnHidden(current.column())
                else header.logicalIndex(
                    next(
                        v for v in range(header.count()) if not header.isSectionHidden(header.logicalIndex(v))
                    )
                )
            )
            return index.siblingAtColumn(column)
        return index

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.matches(QKeySequence.StandardKey.Copy):
            self.copy_requested.emit()
            event.accept()
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentIndex().isValid():
            self.enter_pressed.emit()
            event.accept()
            return
        super().keyPressEvent(event)
