"""Catalogue ▸ Add a catalogue…: a name and an address (``catalogue_menu`` opens it)."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QWidget

from catalogue_desktop.core.connection.profiles import Profiles
from catalogue_desktop.core.records.errors import CatalogueError


class AddCatalogue(QDialog):
    """A name and an address; the new catalogue gets a cache folder of its own."""

    def __init__(self, profiles: Profiles, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Add a catalogue")
        self.profiles = profiles
        self.added: str | None = None
        form = QFormLayout(self)
        self.name = QLineEdit()
        self.name.setAccessibleName("Name of the catalogue")
        self.name.setPlaceholderText("e.g. production, staging")
        self.url = QLineEdit()
        self.url.setAccessibleName("Service address")
        self.url.setPlaceholderText("https://catalogue.example.com")
        wide = self.fontMetrics().horizontalAdvance("https://catalogue.example.com/service") + 24
        for edit in (self.name, self.url):  # room for an address as typed, the hints shown whole
            edit.setMinimumWidth(wide)
        self.problem = QLabel()
        self.problem.setWordWrap(True)
        form.addRow("Name:", self.name)
        form.addRow("Address (before /v1):", self.url)
        form.addRow(self.problem)
        ok_cancel = QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        buttons = QDialogButtonBox(ok_cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)

    def accept(self) -> None:
        from catalogue_desktop.core.service.failures import normalise_base_url

        try:
            url = normalise_base_url(self.url.text())
            self.added = self.profiles.add(self.name.text(), url).name
            self.profiles.save()
        except CatalogueError as exc:
            self.problem.setText(str(exc))
            return
        except OSError as exc:
            self.problem.setText(f"cannot save the catalogues: {exc.strerror}")
            return
        super().accept()
