"""Quick-open (Ctrl+K): records of every kind by title, name or id, and the window's commands.

Type to match (``core.query.quick``: every word in the title, prefix matches first, a typo
forgiven); Up/Down choose, Enter opens the record in its tab with its details (or runs the
command), Escape closes. ``PaletteModel`` is a list model over the hits of the last keystroke.

Like a command palette (VS Code's, Qt Creator's locator) it is a narrow box without a title bar at
the top of the window, as tall as its hits (at most ``ROWS_SHOWN`` rows, then it scrolls): one hit
is one row, not a large empty window.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import (
    QAbstractListModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QPoint,
    Qt,
    QTimer,
)
from PySide6.QtWidgets import QDialog, QLayout, QLineEdit, QListView, QMainWindow, QVBoxLayout, QWidget

from catalogue_desktop.core.formats.drawn_text import DRAWN_LIMIT, one_line
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.qt_compat.item_models import guarded
from catalogue_desktop.ui.common.plain_text import plain_tooltip

if TYPE_CHECKING:
    from PySide6.QtGui import QKeyEvent

    from catalogue_desktop.ui.finder.controller import FinderController

_Index = QModelIndex | QPersistentModelIndex
_SINGULAR = {k.value: k.singular.capitalize() for k in Kind}
ROWS_SHOWN = 12  # hits shown at once; more scroll
WIDTH = 640  # px, at most (less in a narrow window)


@dataclass(frozen=True)
class Item:
    what: str  # "Webinar", "Command", ...
    title: str
    detail: str  # "#100001", a shortcut
    run: Callable[[], object]


class PaletteModel(QAbstractListModel):
    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.items: list[Item] = []

    def set_items(self, items: list[Item]) -> None:
        self.beginResetModel()
        self.items = items
        self.endResetModel()

    def rowCount(self, parent: _Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.items)

    @guarded
    def data(self, index: _Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self.items):
            return None
        item = self.items[index.row()]
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            title = one_line(item.title, DRAWN_LIMIT)  # a record's title: server text, shown as data
            return (
                f"{item.what}  ·  {title}  ·  {one_line(item.detail)}"
                if item.detail
                else f"{item.what}  ·  {title}"
            )
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain_tooltip(item.title)  # a record's title: server text
        return None


class _Line(QLineEdit):
    """The palette's line: Up/Down move in the list (a ``keyPressEvent`` override)."""

    def __init__(self, view: QListView) -> None:
        super().__init__()
        self._view = view

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Up, Qt.Key.Key_Down, Qt.Key.Key_PageUp, Qt.Key.Key_PageDown):
            model = self._view.model()
            if model.rowCount():
                step = {Qt.Key.Key_Up: -1, Qt.Key.Key_Down: 1, Qt.Key.Key_PageUp: -8, Qt.Key.Key_PageDown: 8}[
                    Qt.Key(event.key())
                ]
                row = max(0, min(model.rowCount() - 1, self._view.currentIndex().row() + step))
                self._view.setCurrentIndex(model.index(row, 0))
            event.accept()
            return
        super().keyPressEvent(event)


class Palette(QDialog):
    def __init__(
        self,
        window: QMainWindow,
        controller: FinderController,
        navigate: Callable[[Kind, int], object],
        parent: QWidget | None = None,
    ) -> None:
        """Over ``window`` (its menus are the commands); ``navigate(kind, id)`` opens a hit."""
        super().__init__(parent or window)
        self.window_ = window
        self.controller = controller
        self._navigate = navigate
        self.setWindowTitle("Quick open")
        self.setWindowFlags(Qt.WindowType.Dialog | Qt.WindowType.FramelessWindowHint)
        self.setObjectName("quick-open")
        self.setStyleSheet(
            "QDialog#quick-open { border: 1px solid palette(mid); background: palette(window); }"
        )
        self.setModal(True)
        self.model = PaletteModel(self)
        self.list = QListView()
        self.list.setObjectName("palette-list")
        self.list.setAccessibleName("Matches")
        self.list.setModel(self.model)
        self.list.setUniformItemSizes(True)
        self.list.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.line = _Line(self.list)
        self.line.setObjectName("palette-line")
        self.line.setAccessibleName("Open record or command")
        self.line.setPlaceholderText("Type a title, a name, an id, or a command (Enter opens)")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        layout.setSpacing(4)
        layout.setSizeConstraint(QLayout.SizeConstraint.SetFixedSize)  # as tall as its hits
        layout.addWidget(self.line)
        layout.addWidget(self.list)
        self._timer = QTimer(self, singleShot=True, interval=15)
        self._timer.timeout.connect(self.update_hits)
        self.line.textChanged.connect(lambda _t: self._timer.start())
        self.line.returnPressed.connect(self.run_current)
        self.list.activated.connect(lambda _index: self.run_current())
        self.update_hits()

    def update_hits(self) -> None:
        self._timer.stop()
        text = self.line.text()
        items = self._commands(text)
        if text.strip():
            from catalogue_desktop.core.query.quick import search

            for hit in search(self.controller.engine, text, limit=30):
                if hit.table in _SINGULAR:
                    kind = Kind(hit.table)
                    items.append(
                        Item(
                            _SINGULAR[hit.table],
                            hit.title,
                            f"#{hit.record_id}",
                            partial(self._navigate, kind, hit.record_id),
                        )
                    )
        self.model.set_items(items)
        if items:
            self.list.setCurrentIndex(self.model.index(0, 0))
        self._fit()

    def _fit(self) -> None:
        """As wide as ``WIDTH`` (or the window less a margin), as tall as the hits (none: the
        line alone), at the top of the window, centred."""
        window = self.window_
        width = max(320, min(WIDTH, window.width() - 80))
        rows = min(self.model.rowCount(), ROWS_SHOWN)
        self.list.setVisible(rows > 0)
        row_height = max(1, self.list.sizeHintForRow(0)) if rows else 0
        self.list.setFixedSize(width, rows * row_height + 2 * self.list.frameWidth())
        self.line.setFixedWidth(width)
        layout = self.layout()
        if layout is not None:
            layout.activate()
        top = window.mapToGlobal(QPoint(0, 0))
        central = window.centralWidget()
        below = central.mapToGlobal(QPoint(0, 0)).y() if central is not None else top.y() + 60
        self.move(top.x() + (window.width() - self.width()) // 2, below)

    def _commands(self, text: str) -> list[Item]:
        """The window's menu actions (``commands``: read from the menus themselves) and tabs."""
        from catalogue_desktop.ui.finder.commands import matching, menu_commands

        found = matching(menu_commands(self.window_.menuBar()), text)
        return [Item(c.path, c.text, c.keys, c.action.trigger) for c in found]

    def run_current(self) -> None:
        index = self.list.currentIndex()
        if not index.isValid():
            return
        item = self.model.items[index.row()]
        self.accept()
        item.run()


def open_palette(
    window: QMainWindow, controller: FinderController, navigate: Callable[[Kind, int], object]
) -> Palette:
    palette = Palette(window, controller, navigate)
    palette.line.setFocus()
    palette.open()
    return palette
