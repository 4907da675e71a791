"""The detail pages' small views (a series' sessions, a certificate's levels), sized to what they
show in a details pane of any width: every column wide enough for its heading and its text (the
title given the room that is left, never less than a readable width), the view scrolling
sideways when the pane is narrower, and the view as tall as its rows plus that scroll bar, so
that no row hides behind it. (In a narrow pane the sessions' Title heading had slid out of view
and their fees and types were cut off; the levels' last row hid under the scroll bar.)

The widths and height are worked out again whenever the view's width changes (``resizeEvent``).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableWidget, QTreeView

__all__ = ["LevelsTree", "SessionsTable"]

MAX_ROWS = 15  # rows shown before the view scrolls (a series of more sessions scrolls)
MAX_TITLE_LINES = 4  # a longer title is cut with "…" (its tooltip has it whole)


def _content_width(view: QAbstractItemView, header: QHeaderView, column: int) -> int:
    """What ``column`` needs: its widest text or its heading, whichever is wider."""
    return max(view.sizeHintForColumn(column), header.sectionSizeHint(column))


def _scroll_bar_height(view: QAbstractItemView, needed: int) -> int:
    """The sideways scroll bar's height if ``needed`` px of columns do not fit, else 0."""
    return view.horizontalScrollBar().sizeHint().height() if needed > view.viewport().width() else 0


class SessionsTable(QTableWidget):
    """A series' sessions: Title (shown first, as in the tables), Start, Fee and Type."""

    def __init__(self, rows: int, *, title: int, start: int) -> None:
        """``title``, ``start``: the columns of the title and of the start."""
        super().__init__(rows, 4)
        self.title_column, self.start_column = title, start
        header = self.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)  # (set by ``fit``)
        header.setStretchLastSection(False)
        header.moveSection(header.visualIndex(title), 0)
        # (headings at their column's left: one partly in view still shows its name)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.setWordWrap(True)
        self.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        metrics = self.fontMetrics()
        self.min_title = metrics.horizontalAdvance("m") * 14  # a few words a line
        self.start_width = metrics.horizontalAdvance("12/28/26 10:00 PM") + 16  # date and time, zone below

    def fit(self) -> None:
        """Columns, rows and height for the table's width now."""
        header = self.horizontalHeader()
        others = [c for c in range(self.columnCount()) if c != self.title_column]
        widths = {c: _content_width(self, header, c) for c in others}
        widths[self.start_column] = max(self.start_width, header.sectionSizeHint(self.start_column))
        room = self.viewport().width() - sum(widths.values())
        widths[self.title_column] = max(self.min_title, room, header.sectionSizeHint(self.title_column))
        for column, width in widths.items():
            if header.sectionSize(column) != width:
                header.resizeSection(column, width)
        self.resizeRowsToContents()
        line = self.fontMetrics().lineSpacing()
        tallest = MAX_TITLE_LINES * line + 8
        for row in range(self.rowCount()):
            height = max(2 * line + 8, min(self.rowHeight(row), tallest))
            if self.rowHeight(row) != height:
                self.setRowHeight(row, height)
        shown = sum(self.rowHeight(r) for r in range(min(self.rowCount(), MAX_ROWS)))
        height = header.sizeHint().height() + 2 * self.frameWidth() + shown + 2
        height += _scroll_bar_height(self, sum(widths.values()))
        if self.height() != height:
            self.setFixedHeight(height)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.fit()


class LevelsTree(QTreeView):
    """A certificate's levels, options, tracks and courses: each column as wide as its text."""

    def __init__(self) -> None:
        super().__init__()
        self.setUniformRowHeights(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        header = self.header()
        header.setStretchLastSection(False)
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setDefaultAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter)
        self.shown_rows = 0  # rows of the expanded tree (``fit``)

    def fit(self, rows: int | None = None) -> None:
        """The height for ``rows`` rows (at most 30; more scroll) and the scroll bar, if needed."""
        if rows is not None:
            self.shown_rows = rows
        header = self.header()
        row_height = self.sizeHintForRow(0) if self.shown_rows else 20
        needed = sum(_content_width(self, header, c) for c in range(header.count()))
        height = header.sizeHint().height() + row_height * min(self.shown_rows, 30)
        height += 2 * self.frameWidth() + 2 + _scroll_bar_height(self, needed)
        if self.height() != height:
            self.setFixedHeight(height)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.fit()
