"""Saved searches: a query under a name, and its tab only if the user asks (Searches menu; Ctrl+D
saves the current one), kept in the catalogue's store (``ui.searches.book``: the command
line's ``watch`` sees them); edit the query, rename, delete and watch them in "Organize
searches…", or watch one from Searches ▸ Watch (its news then show in What's new, ``ui.searches``).

A search is saved as its equivalent query (plain words read into the query language: ``texas
courses`` is kept as ``state:TX kind:course``), so its meaning never drifts as the catalogue's
vocabulary or the reading's rules change; the Save dialog shows what will be kept.

``SavedSearches`` is the Searches menu's and its dialogs' object; what it needs of the window is
``SearchesWindow``, and of the saved searches themselves ``SearchShelf``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QMenu, QWidget

from catalogue_desktop.ui.common.plain_text import plain_tooltip

if TYPE_CHECKING:
    from PySide6.QtGui import QAction

    from catalogue_desktop.core.query.engine import Finder
    from catalogue_desktop.core.records.kinds import ListKind
    from catalogue_desktop.ui.browse.collection_tab import CollectionTab
    from catalogue_desktop.ui.common.settings import Settings


class SearchBox(Protocol):
    """The window's query box (``ui.finder.query_box.QueryBox``): what a saved search reads and
    sets."""

    def text(self) -> str: ...
    def set_text(self, text: str) -> None: ...
    def equivalent(self, text: str) -> str: ...  # the query the box's words read as
    @property
    def words_as_typed(self) -> bool: ...


class SearchShelf(Protocol):
    """The saved searches (``ui.searches.book.SearchBook``): ``{"name", "query", "tab",
    "watched"}`` dicts."""

    def all(self) -> list[dict[str, Any]]: ...
    def save(self, name: str, query: str, tab: str) -> None: ...
    def remove(self, name: str) -> None: ...
    def rename(self, name: str, new: str) -> None: ...
    def set_watched(self, name: str, watched: bool, finder: Finder | None = None) -> None: ...


class SearchActions(Protocol):
    """The window's actions the Searches menu lists (``ui.shell.menus.WindowActions``)."""

    @property
    def save_search_action(self) -> QAction: ...
    @property
    def organize_searches_action(self) -> QAction: ...


class SearchesWindow(Protocol):
    """What the saved searches need of the window (``ui.shell.main_window.MainWindow``)."""

    @property
    def query_box(self) -> SearchBox: ...
    @property
    def search_book(self) -> SearchShelf: ...
    @property
    def menu_actions(self) -> SearchActions: ...
    @property
    def settings(self) -> Settings: ...
    def current_kind(self) -> ListKind: ...
    def tab_kinds(self) -> tuple[ListKind, ...]: ...
    def show_tab(self, kind: ListKind) -> CollectionTab: ...
    def show_message(self, text: str, timeout_ms: int = 8000) -> None: ...
    def finder_engine(self) -> Finder | None: ...


class SavedSearches:
    """Save the current search (Ctrl+D), open, watch and organize the saved ones (see the module
    doc); ``parent``: the window the dialogs open over."""

    def __init__(self, window: SearchesWindow, parent: QWidget) -> None:
        self.window = window
        self.parent = parent

    def save_current(self) -> None:
        """Ask a name, and whether the search should also open the current tab (not unless asked),
        and save the current query (same name: replaced)."""
        window = self.window
        from PySide6.QtWidgets import QCheckBox, QDialog, QDialogButtonBox, QFormLayout, QLineEdit

        typed = window.query_box.text().strip()
        if not typed:
            window.show_message("Type a query first: a saved search remembers a query")
            return
        query = window.query_box.equivalent(typed).strip()
        kind = window.current_kind()
        dialog = QDialog(self.parent)
        dialog.setWindowTitle("Save search")
        name_edit = QLineEdit(typed[:60])
        name_edit.setObjectName("search-name")
        name_edit.setAccessibleName("Name of the search")
        name_edit.selectAll()
        keep_tab = QCheckBox(f"Also switch to the {kind.label} tab when it is opened")
        keep_tab.setObjectName("search-keeps-tab")
        keep_tab.setToolTip("Unticked, the search runs on whatever tab is shown")
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel
        )
        buttons.accepted.connect(dialog.accept)
        buttons.rejected.connect(dialog.reject)
        form = QFormLayout(dialog)
        if query != typed:  # plain words: what is kept is the query they were read as
            form.addRow("Typed:", _plain_label(typed))
            saved_as = _plain_label(query)
            saved_as.setObjectName("search-query")
            form.addRow("Saved as:", saved_as)
            kept = (
                "The words are kept as words to find, as searched now."
                if window.query_box.words_as_typed
                else "The query the words were read as is kept, so the search always means the same."
            )
            form.addRow(_note(kept))
        else:
            shown = _plain_label(query)
            shown.setObjectName("search-query")
            form.addRow("Query:", shown)
        form.addRow("Name:", name_edit)
        form.addRow(keep_tab)
        form.addRow(buttons)
        ok = dialog.exec()
        name = name_edit.text().strip()
        if not ok or not name:
            return
        window.search_book.save(name, query, kind.value if keep_tab.isChecked() else "")
        window.show_message(f"Saved search “{name}”")

    def apply(self, search: dict[str, Any]) -> None:
        """Show the search's tab with its query."""
        window = self.window
        kind = next((k for k in window.tab_kinds() if k.value == search.get("tab")), None)
        if kind is not None:
            window.show_tab(kind)
        window.query_box.set_text(search["query"])

    def fill_menu(self, menu: QMenu) -> None:
        window = self.window
        menu.clear()
        menu.addAction(window.menu_actions.save_search_action)
        menu.addAction(window.menu_actions.organize_searches_action)
        searches = window.search_book.all()
        if searches:
            menu.addSeparator()
        labels = {k.value: k.label for k in window.tab_kinds()}
        for search in searches:
            tab = labels.get(search.get("tab", ""))
            act = menu.addAction(f"{search['name']}  —  {tab}" if tab else search["name"])
            act.setToolTip(plain_tooltip(search["query"]))
            act.triggered.connect(lambda _checked=False, s=search: self.apply(s))
        if searches:
            watch = menu.addMenu("Watch")  # a watched search's news show in What's new
            watch.setToolTipsVisible(True)
            for search in searches:
                act = watch.addAction(search["name"])
                act.setCheckable(True)
                act.setChecked(bool(search.get("watched")))
                act.setToolTip("Show what newly matches after each refresh, in What's new")
                act.toggled.connect(lambda on, s=search: self.set_watched(s["name"], on))

    def set_watched(self, name: str, watched: bool) -> None:
        window = self.window
        window.search_book.set_watched(name, watched, window.finder_engine())
        window.show_message(
            f"Watching “{name}”: its news show in What's new" if watched else f"Not watching “{name}”"
        )

    def organize(self) -> None:
        """A list of the saved searches with Open, Rename and Delete; each row's Watch box ticks
        whether its news show in What's new (a column of its own, labelled)."""
        window = self.window
        from PySide6.QtWidgets import (
            QDialog,
            QDialogButtonBox,
            QHeaderView,
            QInputDialog,
            QPushButton,
            QTreeWidget,
            QTreeWidgetItem,
            QVBoxLayout,
        )

        dialog = QDialog(self.parent)
        dialog.setWindowTitle("Organize searches")  # (the menu item's name)
        dialog.resize(620, 360)
        listing = QTreeWidget(dialog)
        listing.setObjectName("saved-searches")
        listing.setAccessibleName("Saved searches")
        listing.setHeaderLabels(["Watch", "Name", "Query"])
        listing.headerItem().setToolTip(0, "Ticked: its news show in What's new after each refresh")
        listing.setRootIsDecorated(False)
        listing.setUniformRowHeights(True)
        listing.setAllColumnsShowFocus(True)
        header = listing.header()
        header.setStretchLastSection(True)
        for column in (0, 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        name_role = Qt.ItemDataRole.UserRole

        def fill() -> None:
            listing.blockSignals(True)
            listing.clear()
            for search in window.search_book.all():
                item = QTreeWidgetItem(["", search["name"], search["query"]])
                item.setData(0, name_role, search["name"])
                item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
                watched = bool(search.get("watched"))
                item.setCheckState(0, Qt.CheckState.Checked if watched else Qt.CheckState.Unchecked)
                item.setData(0, Qt.ItemDataRole.AccessibleTextRole, f"Watch “{search['name']}”")
                item.setToolTip(0, "Ticked: its news show in What's new after each refresh")
                item.setToolTip(2, plain_tooltip(search["query"]))
                listing.addTopLevelItem(item)
            listing.blockSignals(False)

        def ticked(item: QTreeWidgetItem, column: int) -> None:
            if column == 0:
                self.set_watched(str(item.data(0, name_role)), item.checkState(0) == Qt.CheckState.Checked)

        def selected() -> str | None:
            item = listing.currentItem()
            return None if item is None else str(item.data(0, name_role))

        def rename() -> None:
            name = selected()
            if name is None:
                return
            new, ok = QInputDialog.getText(dialog, "Rename search", "New name:", text=name)
            new = new.strip()
            if ok and new and new != name:
                window.search_book.rename(name, new)
                fill()

        def edit_query() -> None:
            name = selected()
            found = next((s for s in window.search_book.all() if s["name"] == name), None)
            if found is None or name is None:
                return
            query, ok = QInputDialog.getText(
                dialog, "Edit search", f"Query of “{name}”:", text=found["query"]
            )
            if ok and query.strip():  # (plain words: kept as the query they read as)
                window.search_book.save(
                    name, window.query_box.equivalent(query.strip()), found.get("tab") or ""
                )
                fill()

        def delete() -> None:
            name = selected()
            if name is not None:
                window.search_book.remove(name)
                fill()

        def open_() -> None:
            name = selected()
            found = next((s for s in window.search_book.all() if s["name"] == name), None)
            if found is not None:
                dialog.accept()
                self.apply(found)

        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, parent=dialog)
        for text, slot in (
            ("Open", open_),
            ("Edit query…", edit_query),
            ("Rename…", rename),
            ("Delete", delete),
        ):
            button = QPushButton(text)
            button.clicked.connect(slot)
            buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(dialog.reject)
        listing.itemActivated.connect(lambda _item, _column: open_())
        listing.itemChanged.connect(ticked)
        layout = QVBoxLayout(dialog)
        layout.addWidget(listing)
        layout.addWidget(buttons)
        fill()
        dialog.exec()
        window.settings.sync()


def _note(text: str) -> QLabel:
    """A line of explanation under the query, muted (still readable: WCAG AA)."""
    from catalogue_desktop.ui.common.colors import muted

    note = _plain_label(text)
    note.setObjectName("search-note")
    palette = note.palette()
    palette.setColor(note.foregroundRole(), muted(palette))
    note.setPalette(palette)
    return note


def _plain_label(text: str) -> QLabel:
    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    return label
