"""A row of tool buttons whose actions always stay reachable: the buttons that fit the row's width
are shown, and the others are the entries of its "More ▾" menu button, which opens its menu.

It replaces a ``QToolBar`` inside a tab: outside a ``QMainWindow`` a tool bar's "››" extension
button does nothing when clicked (it expands the bar only in a main window's tool bar area), so
the actions it hid could not be reached at all. Here the first widgets (a check box) always
stay, the buttons are laid out in order while they fit, and the row never needs more than its
first widgets and the "More" button.
"""

from __future__ import annotations

from PySide6.QtCore import QSize, QTimer
from PySide6.QtGui import QAction, QResizeEvent
from PySide6.QtWidgets import QHBoxLayout, QMenu, QSizePolicy, QToolButton, QWidget

SPACING = 4  # px between the row's widgets


class ActionRow(QWidget):
    """Widgets that always show (``add_widget``), then one button per action (``add_action``)
    while they fit, and a "More" menu button with the actions that do not."""

    def __init__(self, more_name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(SPACING)
        self._fixed: list[QWidget] = []
        self.buttons: list[QToolButton] = []
        self.more = QToolButton(self)
        self.more.setText("More")
        self.more.setAccessibleName(more_name)
        self.more.setToolTip(f"{more_name}: the actions that do not fit this row")
        self.more.setPopupMode(QToolButton.ToolButtonPopupMode.InstantPopup)
        self.more.setMenu(QMenu(self.more))
        self._hidden: list[QToolButton] = []  # the buttons the "More" menu holds the actions of
        self.more.hide()
        self._layout.addWidget(self.more)
        self._layout.addStretch(1)

    def add_widget(self, widget: QWidget) -> None:
        """A widget always shown, before the buttons."""
        self._layout.insertWidget(len(self._fixed), widget)
        self._fixed.append(widget)
        self._arrange(self.width())

    def add_action(self, action: QAction) -> QToolButton:
        """A button for ``action`` (in the "More" menu while the row has no room for it)."""
        button = QToolButton(self)
        button.setDefaultAction(action)
        self._layout.insertWidget(len(self._fixed) + len(self.buttons), button)
        self.buttons.append(button)
        self._arrange(self.width())
        return button

    def focus_order(self) -> list[QWidget]:
        """Its widgets in reading order, left to right (the Tab key's order): the first widgets,
        the buttons, then "More" (made first, it came before them all)."""
        return [*self._fixed, *self.buttons, self.more]

    def sizeHint(self) -> QSize:
        widgets = self._fixed + self.buttons
        width = sum(w.sizeHint().width() for w in widgets) + SPACING * max(0, len(widgets) - 1)
        return QSize(width, super().sizeHint().height())

    def minimumSizeHint(self) -> QSize:
        """Its first widgets and the "More" button (every action is in its menu)."""
        widgets = [*self._fixed, self.more]
        width = sum(w.sizeHint().width() for w in widgets) + SPACING * (len(widgets) - 1)
        return QSize(width, super().minimumSizeHint().height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._arrange(event.size().width())

    def _arrange(self, width: int) -> None:
        """Show the buttons that fit ``width`` in order; the rest go into the "More" menu."""
        used = sum(w.sizeHint().width() + SPACING for w in self._fixed)
        more = self.more.sizeHint().width()
        hints = [b.sizeHint().width() for b in self.buttons]
        shown = 0
        if used + sum(hints) + SPACING * max(0, len(hints) - 1) <= width:
            shown = len(hints)  # all fit: no "More"
        else:
            while shown < len(hints) and used + hints[shown] + SPACING + more <= width:
                used += hints[shown] + SPACING
                shown += 1
        for i, button in enumerate(self.buttons):
            button.setVisible(i < shown)
        self.more.setVisible(shown < len(self.buttons))
        if self.buttons[shown:] != self._hidden:
            self._hidden = self.buttons[shown:]
            # once the loop is back (the row's first resize comes while it is being shown)
            QTimer.singleShot(0, self, self._fill_menu)

    def _fill_menu(self) -> None:
        """The "More" menu: the actions of the buttons the row has no room for."""
        menu = self.more.menu()
        assert menu is not None  # (made with its menu)
        for action in menu.actions():  # (not clear(): PySide's deletes the actions, buttons' too)
            menu.removeAction(action)
        for button in self._hidden:
            action = button.defaultAction()
            if action is not None:
                menu.addAction(action)
