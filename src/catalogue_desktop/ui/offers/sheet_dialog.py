"""The offer sheet's one small dialog: which occasions (in words), the title, grouped by course or
by month, and the paper (A4 or Letter; the locale's by default)."""

from __future__ import annotations

from typing import Any, NamedTuple

from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

from catalogue_desktop.ui.offers.sheet_pdf import PAPERS, default_paper

GROUPS = (("By course", "course"), ("By month", "month"))


class SheetOptions(NamedTuple):
    title: str
    group: str  # "course" or "month"
    paper: str  # "A4" or "Letter"


class SheetDialog(QDialog):
    """Asks the offer sheet's title, grouping and paper."""

    def __init__(self, parent: QWidget | None, words: str, action: str) -> None:
        super().__init__(parent)
        self.setWindowTitle("Offer sheet")
        layout = QVBoxLayout(self)
        what = QLabel(f"An offer sheet of {words}.")
        what.setObjectName("offer-sheet-what")
        layout.addWidget(what)
        form = QFormLayout()
        self.title = QLineEdit("Offer")
        self.title.setPlaceholderText("e.g. Offer for Whitfield & Crane LLP")
        self.title.setAccessibleName("Title of the offer sheet")
        self.title.selectAll()
        form.addRow("&Title:", self.title)
        self.group = QComboBox()
        for label, value in GROUPS:
            self.group.addItem(label, value)
        self.group.setAccessibleName("Group the occasions")
        form.addRow("&Group:", self.group)
        self.paper = QComboBox()
        self.paper.addItems(list(PAPERS))
        self.paper.setCurrentText(default_paper())
        self.paper.setAccessibleName("Paper size")
        form.addRow("&Paper:", self.paper)
        layout.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.go = buttons.addButton(action, QDialogButtonBox.ButtonRole.AcceptRole)
        self.go.setDefault(True)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout.addWidget(buttons)

    def options(self) -> SheetOptions:
        return SheetOptions(
            self.title.text().strip() or "Offer", str(self.group.currentData()), self.paper.currentText()
        )

    @classmethod
    def ask(cls, parent: QWidget | None, words: str, action: str) -> Any:
        """The options chosen, or None if cancelled."""
        dialog = cls(parent, words, action)
        try:
            return dialog.options() if dialog.exec() else None
        finally:
            dialog.deleteLater()
