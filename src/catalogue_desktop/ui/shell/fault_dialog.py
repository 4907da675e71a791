"""The "Something went wrong" window (``faults``): what went wrong and how often, the details
(secrets taken out), Copy details, and where the log is. Not modal: the main window goes on."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QApplication,
    QDialog,
    QDialogButtonBox,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

import catalogue_desktop
from catalogue_desktop.ui.shell.fault_log import redacted

TITLE = "Something went wrong"


class FaultDialog(QDialog):
    """The window that says something went wrong: what, how often, the details, the log."""

    def __init__(self, parent: QWidget, log_path: str) -> None:
        super().__init__(parent)
        self.setObjectName("fault-dialog")
        self.setWindowTitle(TITLE)
        self.setModal(False)
        self.headline = QLabel()
        self.headline.setWordWrap(True)
        self.headline.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.place = QLabel(
            "The window goes on; what you were doing may not have finished. The details are kept "
            f"in the log: {log_path} (Help ▸ Report a problem… copies them with what else helps)."
        )
        self.place.setWordWrap(True)
        self.place.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details = QPlainTextEdit()
        self.details.setReadOnly(True)
        self.details.setAccessibleName("Details of what went wrong")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        self.copy_button = QPushButton("&Copy details")
        self.copy_button.setAccessibleName("Copy details")
        buttons.addButton(self.copy_button, QDialogButtonBox.ButtonRole.ActionRole)
        self.copy_button.clicked.connect(self.copy_details)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.headline)
        layout.addWidget(self.details, 1)
        layout.addWidget(self.place)
        layout.addWidget(buttons)
        self.resize(640, 360)
        self.log_path = log_path

    def show_fault(self, what: str, details: str, count: int) -> None:
        again = f" ({count} problems since the window opened)" if count > 1 else ""
        self.headline.setText(f"{TITLE}: {redacted(what)[:300]}{again}")
        self.details.setPlainText(redacted(details))

    def copy_details(self) -> None:
        text = (
            f"Catalogue Desktop {catalogue_desktop.__version__}\n{self.headline.text()}\n\n"
            f"{self.details.toPlainText()}\nLog: {self.log_path}\n"
        )
        QApplication.clipboard().setText(text)
        self.copy_button.setText("Copied")
