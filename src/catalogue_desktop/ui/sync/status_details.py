"""The whole of a status: a dialog with the full text, selectable, and a Copy button.

Opened from the status area's Details buttons (imported then, not at start-up). The text is shown
as plain text: it quotes the service (reasons, rejected records' fields).
"""

from __future__ import annotations

from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)


class StatusDetails(QDialog):
    """``title`` and the whole ``text``; Copy puts the text on the clipboard."""

    def __init__(self, title: str, text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("statusDetails")
        self.setWindowTitle(title)
        self.resize(640, 320)
        self.text = text
        self.view = QPlainTextEdit(readOnly=True)
        self.view.setPlainText(text)
        self.view.setLineWrapMode(QPlainTextEdit.LineWrapMode.WidgetWidth)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = QPushButton("Copy")
        self.copy_button.setObjectName("copyDetails")
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(lambda _checked=False: self.copy())
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.view, 1)
        layout.addWidget(buttons)

    def copy(self) -> None:
        QGuiApplication.clipboard().setText(self.text)
        self.copy_button.setText("Copied")


def show_details(parent: QWidget, title: str, text: str) -> StatusDetails:
    """Open the dialog (not modal: the window stays usable); it is deleted once closed."""
    from PySide6.QtCore import Qt

    dialog = StatusDetails(title, text, parent)
    dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
    dialog.show()
    return dialog
