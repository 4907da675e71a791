"""File ▸ Catalogue: the catalogues (profiles) to switch between, adding one, and the connection
of the one open. The session does the switching (``chosen``) and picks up an edited connection
(``connection_changed``); this module only asks."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QMenu, QWidget

from catalogue_desktop.core.connection.profiles import Profiles
from catalogue_desktop.core.records.errors import CatalogueError


class CatalogueMenu(QMenu):
    """The submenu; filled from ``profiles.json`` each time it opens."""

    chosen = Signal(str)  # the name of the catalogue to open
    connection_changed = Signal()  # the open catalogue's connection settings were saved

    def __init__(self, window: Any) -> None:
        super().__init__("C&atalogue", window)
        self.setObjectName("catalogue-menu")
        self.window_ = window
        self.current: str | None = None  # the catalogue open (``set_current``)
        self.aboutToShow.connect(self.fill)

    def set_current(self, name: str) -> None:
        """The catalogue ``name`` is the one open (ticked; its connection is the one edited)."""
        self.current = name

    def _profiles(self) -> Profiles:
        return Profiles.load(self.window_.settings.profiles_path)

    def fill(self) -> None:
        self.clear()
        current = self.current
        for profile in self._profiles().profiles:
            where = "the bundled demo catalogue" if profile.demo else (profile.base_url or "no address yet")
            act = QAction(f"{profile.name} — {where}", self)
            act.setCheckable(True)
            act.setChecked(profile.name == current)
            act.triggered.connect(lambda _=False, name=profile.name: self.chosen.emit(name))
            self.addAction(act)
        self.addSeparator()
        self.addAction("Add a catalogue…", self.add_catalogue)
        self.addAction("Connection of this catalogue…", self.edit_connection)

    def add_catalogue(self) -> None:
        dialog = AddCatalogue(self._profiles(), self.window_)
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.added:
            self.chosen.emit(dialog.added)

    def edit_connection(self) -> None:
        from catalogue_desktop.ui.shell.connection_dialog import ConnectionDialog

        dialog = ConnectionDialog(self.window_.settings.profiles_path, self.current, self.window_)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.connection_changed.emit()


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
