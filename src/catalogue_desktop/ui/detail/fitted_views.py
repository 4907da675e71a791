"""The detail pages' small views (a series' sessions, a certificate's levels), sized to what they
show in a details pane of any width: every column wide enough for its heading and its text (the
title given the room that is left, never less than a readable width), and the view as tall as
its rows, so that no row hides. A pane too narrow for the columns shows them stacked in one
wrapped column (a session's start, fee and type under its title; a level's details after its
name): nothing to scroll sideways. (In a narrow pane the sessions' Title heading had slid out of
view, their starts were cut to "reco…", and the levels' lines needed the sideways scroll bar.)

The widths and height are worked out again whenever the view's width changes (``resizeEvent``).
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableWidget,
    QTreeView,
)

from catalogue_desktop.ui.common.plain_text import plain_tooltip
from catalogue_desktop.ui.detail.certificate_model import CertificateTreeModel

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
        self.stacked = False  # the columns' texts under each title (``_stack``)
        self._titles: dict[int, tuple[str, str]] = {}  # each row's own title and tooltip, stacked

    def fit(self) -> None:
        """Columns, rows and height for the table's width now: four columns when they fit, else
        stacked (``_stack``)."""
        header = self.horizontalHeader()
        others = [c for c in range(self.columnCount()) if c != self.title_column]
        self._stack(False)
        widths = {c: _content_width(self, header, c) for c in others}
        widths[self.start_column] = max(self.start_width, header.sectionSizeHint(self.start_column))
        room = self.viewport().width() - sum(widths.values())
        stacked = room < self.min_title
        self._stack(stacked)
        if stacked:  # one column as wide as the pane: each session's title, its facts below
            title = max(self.viewport().width(), header.sectionSizeHint(self.title_column))
            widths = {self.title_column: title}
        else:
            widths[self.title_column] = max(self.min_title, room, header.sectionSizeHint(self.title_column))
        for column, width in widths.items():
            if header.sectionSize(column) != width:
                header.resizeSection(column, width)
        self.resizeRowsToContents()
        line = self.fontMetrics().lineSpacing()
        tallest = (MAX_TITLE_LINES + (3 if stacked else 0)) * line + 8
        for row in range(self.rowCount()):
            height = max(2 * line + 8, min(self.rowHeight(row), tallest))
            if self.rowHeight(row) != height:
                self.setRowHeight(row, height)
        shown = sum(self.rowHeight(r) for r in range(min(self.rowCount(), MAX_ROWS)))
        height = header.sizeHint().height() + 2 * self.frameWidth() + shown + 2
        height += _scroll_bar_height(self, sum(widths.values()))
        if self.height() != height:
            self.setFixedHeight(height)

    def _stack(self, stacked: bool) -> None:
        """Stacked: the Start, Fee and Type columns hidden, their texts on a line under each
        title ("3/10/27 1:00 PM UTC−05:00 · USD 195 · Live"), so that a pane too narrow for four
        columns reads every session whole without scrolling sideways (its Start had been cut to
        "reco…", "3/1…"); else the four columns, each with its own text."""
        if stacked == self.stacked:
            return
        self.stacked = stacked
        others = [c for c in range(self.columnCount()) if c != self.title_column]
        for row in range(self.rowCount()):
            item = self.item(row, self.title_column)
            if item is None:
                continue
            if stacked:
                self._titles[row] = item.text(), item.toolTip()
                start = [self.start_column]
                facts = [self.item(row, c) for c in start + [c for c in others if c not in start]]
                said = " · ".join(i.text() for i in facts if i is not None and i.text())
                item.setText(f"{item.text()}\n{said}" if said else item.text())
                item.setToolTip(plain_tooltip(item.text()))  # (whole, as the title's was)
            elif row in self._titles:
                text, tip = self._titles.pop(row)
                item.setText(text)
                item.setToolTip(tip)
        for column in others:
            self.setColumnHidden(column, stacked)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.fit()


class _IndentedWrap(QStyledItemDelegate):
    """A wrapped row's height measured at the width its text has: the column's less the row's
    indentation (the tree asks without a width: every row came out one line high)."""

    def __init__(self, tree: QTreeView) -> None:
        super().__init__(tree)
        self.tree = tree

    def sizeHint(self, option: QStyleOptionViewItem, index: QModelIndex | QPersistentModelIndex) -> QSize:
        depth = 1  # (the root's decoration)
        parent = index.parent()
        while parent.isValid():
            depth += 1
            parent = parent.parent()
        if not self.tree.wordWrap():
            return super().sizeHint(option, index)
        narrower = QStyleOptionViewItem(option)
        width = self.tree.header().sectionSize(index.column()) - depth * self.tree.indentation()
        narrower.rect = QRect(0, 0, max(1, width), 1 << 20)  # (``option.rect`` is a copy: set whole)
        return super().sizeHint(narrower, index)


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
        self.setItemDelegate(_IndentedWrap(self))
        self.needed: int | None = None  # the width of the columns side by side (``fit``)
        self.stacked = False

    def _stack(self, stacked: bool) -> None:
        """One column, each row's details after its name, wrapped; or the two columns."""
        if stacked == self.stacked:
            return
        self.stacked = stacked
        model = self.model()
        if isinstance(model, CertificateTreeModel):
            model.set_stacked(stacked)
        self.setWordWrap(stacked)
        self.setUniformRowHeights(not stacked)
        mode = QHeaderView.ResizeMode.Fixed if stacked else QHeaderView.ResizeMode.ResizeToContents
        self.header().setSectionResizeMode(mode)
        self.setColumnHidden(1, stacked)
        self.setHorizontalScrollBarPolicy(
            Qt.ScrollBarPolicy.ScrollBarAlwaysOff if stacked else Qt.ScrollBarPolicy.ScrollBarAsNeeded
        )

    def fit(self, rows: int | None = None) -> None:
        """The height for ``rows`` rows (at most 30; more scroll) and the scroll bar, if needed.
        A pane too narrow for the columns shows one, stacked: each row's details after its name,
        wrapped at the pane's width (lines such as "at least 1 option a…" had been cut, read
        only by scrolling sideways)."""
        if rows is not None:
            self.shown_rows = rows
            self.needed = None
        header = self.header()
        model = self.model()
        if self.needed is None:  # what the columns need side by side (the rows are set now)
            self._stack(False)
            self.needed = sum(_content_width(self, header, c) for c in range(header.count()))
        stacked = self.needed > self.viewport().width() and isinstance(model, CertificateTreeModel)
        self._stack(stacked)
        if stacked:
            if header.sectionSize(0) != self.viewport().width():
                header.resizeSection(0, self.viewport().width())
            self.doItemsLayout()  # (the rows' wrapped heights, at the width now)
            heights: list[int] = []
            index = model.index(0, 0)
            while index.isValid() and len(heights) < 30:
                heights.append(self.indexRowSizeHint(index))
                index = self.indexBelow(index)
            height = header.sizeHint().height() + sum(heights) + 2 * self.frameWidth() + 2
        else:
            row_height = self.sizeHintForRow(0) if self.shown_rows else 20
            height = header.sizeHint().height() + row_height * min(self.shown_rows, 30)
            height += 2 * self.frameWidth() + 2 + _scroll_bar_height(self, self.needed)
        if self.height() != height:
            self.setFixedHeight(height)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        if event.size().width() != event.oldSize().width():
            self.fit()
