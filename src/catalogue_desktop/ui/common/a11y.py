"""Names for the buttons Qt makes inside widgets (a table's corner, a line edit's clear button,
the toolbar's and menu bar's overflow arrows), which a screen reader would otherwise announce as
"button".

Done after the window is ready, not while it starts: ``findChildren`` hands each child to Python
as its most derived type, and looking those up made PySide create every type of QtWidgets
(QFileDialog, QMessageBox, ...: ``qt_compat``'s notes).
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QLineEdit, QWidget

_BY_OBJECT_NAME = {
    "qt_tableview_cornerbutton": "Select all rows",
    "qt_toolbar_ext_button": "More toolbar actions",
    "qt_menubar_ext_button": "More menus",
}


def name_inner_buttons(root: QWidget) -> None:
    """Give each unnamed, textless button inside ``root`` a name saying what it does. Only the
    buttons that can get one are handed to Python (Qt matches the object names, and a line
    edit's own buttons are its direct children): all ~50 of the window's took ~3 ms."""
    buttons = [b for name in _BY_OBJECT_NAME for b in root.findChildren(QAbstractButton, name)]
    direct = Qt.FindChildOption.FindDirectChildrenOnly
    for edit in root.findChildren(QLineEdit):
        buttons += edit.findChildren(QAbstractButton, "", direct)
    for button in buttons:
        if button.accessibleName() or button.text():
            continue
        name = _BY_OBJECT_NAME.get(button.objectName())
        parent = button.parentWidget()
        if name is None and isinstance(parent, QLineEdit):
            what = parent.accessibleName() or "the text"
            name = f"Clear {what.lower() if what[:1].isupper() and what[1:2].islower() else what}"
        if name is not None:
            button.setAccessibleName(name)
