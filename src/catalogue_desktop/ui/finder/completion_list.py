"""The query box's completion list: a list beside the box that takes neither the focus nor the
mouse from the window.

A ``QCompleter`` popup grabs the mouse: the click that closes it is eaten (a row clicked while
completions showed was not selected), and it sat over the query's error line. This list is a
tool-tip window: clicks elsewhere go where they are aimed (and close it, as the box loses the
focus), it is placed beneath the error line when that shows, and the box drives it from the
keyboard (``QueryEdit``: Up/Down choose, Enter or Tab insert, Escape closes). It moves clear of
the error line when that appears after it was shown, and closes when the window moves.
"""

from __future__ import annotations

from PySide6.QtCore import QModelIndex, QRect, QStringListModel, Qt, Signal
from PySide6.QtGui import QWindow
from PySide6.QtWidgets import QAbstractItemView, QListView, QWidget

ROWS_SHOWN = 10


class CompletionList(QListView):
    """Completions offered for the word being typed (``offer``); ``chosen`` when one is clicked
    or entered."""

    chosen = Signal(str)

    def __init__(self, owner: QWidget) -> None:
        super().__init__(owner)
        self.setWindowFlags(Qt.WindowType.ToolTip | Qt.WindowType.FramelessWindowHint)
        self.setAttribute(Qt.WidgetAttribute.WA_ShowWithoutActivating)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setObjectName("query-completions")
        self.setAccessibleName("Completions")
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setUniformItemSizes(True)
        self.model_ = QStringListModel(self)
        self.setModel(self.model_)
        self.clicked.connect(self._clicked)
        self._followed: QWindow | None = None  # the window whose moves close the list
        self.hide()

    def offer(self, items: list[str], below: QRect) -> None:
        """Show ``items`` under the global rectangle ``below`` (none chosen: Enter applies the
        query as typed until an arrow key chooses one)."""
        self.model_.setStringList(items)
        self.setCurrentIndex(self.model_.index(-1, 0))
        self.place(below)
        self._follow_window()
        self.show()
        self.raise_()

    def place(self, below: QRect) -> None:
        """Under the global rectangle ``below``, as tall as its items (at most ``ROWS_SHOWN``)."""
        width = max(260, self.sizeHintForColumn(0) + 24)
        rows = min(self.model_.rowCount(), ROWS_SHOWN)
        height = rows * max(1, self.sizeHintForRow(0)) + 2 * self.frameWidth() + 2
        self.setGeometry(QRect(below.left(), below.bottom() + 1, width, height))

    def _follow_window(self) -> None:
        """Closed when the box's window moves or is resized (a tool-tip window stays where it
        was shown: it lingered beside a window dragged away)."""
        owner = self.parentWidget()
        handle = owner.window().windowHandle() if owner is not None else None
        if handle is None or handle is self._followed:
            return
        self._followed = handle
        for changed in (handle.xChanged, handle.yChanged, handle.widthChanged, handle.heightChanged):
            changed.connect(lambda _value: self.hide())

    def step(self, rows: int) -> None:
        count = self.model_.rowCount()
        if count:
            current = self.currentIndex().row()
            row = max(
                0, min(count - 1, (rows - 1 if rows > 0 else count + rows) if current < 0 else current + rows)
            )
            self.setCurrentIndex(self.model_.index(row, 0))

    def current_text(self) -> str | None:
        index = self.currentIndex()
        return str(index.data()) if self.isVisible() and index.isValid() else None

    def _clicked(self, index: QModelIndex) -> None:
        self.chosen.emit(str(index.data()))
