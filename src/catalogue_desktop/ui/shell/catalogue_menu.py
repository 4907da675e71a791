"""The Catalogue menu: the catalogues (profiles) to switch between, adding one, and the connection
of the one open, between the entries the window adds around them (``menus``: Refresh above,
Service URL and Preferences below): one menu for the catalogue, not a File ▸ Catalogue submenu
beside a Catalogue menu of other things. The session does the switching (``chosen``) and picks
up an edited connection (``connection_changed``); this module only asks. Its dialogs are imported
when first opened (``add_catalogue``, ``connection_dialog``): their Qt classes' enums cost start-up
time."""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from catalogue_desktop.core.connection.profiles import Profiles
from catalogue_desktop.ui.common.settings import Settings


class CatalogueMenu(QMenu):
    """The menu; its list of catalogues filled from ``profiles.json`` each time it opens."""

    chosen = Signal(str)  # the name of the catalogue to open
    connection_changed = Signal()  # the open catalogue's connection settings were saved

    def __init__(self, settings: Settings, window: QWidget) -> None:
        """``settings``: where ``profiles.json`` lies; ``window``: the one its dialogs open over."""
        super().__init__("&Catalogue", window)
        self.setObjectName("catalogue-menu")
        self.settings = settings
        self.window_ = window
        self.current: str | None = None  # the catalogue open (``set_current``)
        self._listed: list[QAction] = []  # the catalogues, as last filled
        self.addSeparator()
        self.add_action = self.addAction("Add a catalogue…", self.add_catalogue)
        self.addAction("Connection of this catalogue…", self.edit_connection)
        self.aboutToShow.connect(self.fill)

    def set_current(self, name: str) -> None:
        """The catalogue ``name`` is the one open (ticked; its connection is the one edited)."""
        self.current = name

    def _profiles(self) -> Profiles:
        return Profiles.load(self.settings.profiles_path)

    def fill(self) -> None:
        """The catalogues, the open one ticked, listed above "Add a catalogue…"."""
        for act in self._listed:
            self.removeAction(act)
            act.deleteLater()
        current = self.current
        self._listed = []
        for profile in self._profiles().profiles:
            where = "the bundled demo catalogue" if profile.demo else (profile.base_url or "no address yet")
            act = QAction(f"{profile.name} — {where}", self)
            act.setCheckable(True)
            act.setChecked(profile.name == current)
            act.triggered.connect(lambda _=False, name=profile.name: self.chosen.emit(name))
            self._listed.append(act)
        self.insertActions(self.add_action, self._listed)

    def add_catalogue(self) -> None:
        from PySide6.QtWidgets import QDialog

        from catalogue_desktop.ui.shell.add_catalogue import AddCatalogue

        dialog = AddCatalogue(self._profiles(), self.window_)
        if dialog.exec() == QDialog.DialogCode.Accepted and dialog.added:
            self.chosen.emit(dialog.added)

    def edit_connection(self) -> None:
        from PySide6.QtWidgets import QDialog

        from catalogue_desktop.ui.shell.connection_dialog import ConnectionDialog

        dialog = ConnectionDialog(self.settings.profiles_path, self.current, self.window_)
        if dialog.exec() == QDialog.DialogCode.Accepted:
            self.connection_changed.emit()
