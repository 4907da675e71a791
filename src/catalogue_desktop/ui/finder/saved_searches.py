"""Saved searches: a query under a name, and its tab only if the user asks (Searches menu; Ctrl+D
saves the current one), remembered in the settings; edit the query, rename and delete them in
"Organize searches…"."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QMenu

from catalogue_desktop.ui.common.plain_text import plain_tooltip


def save_current(window: Any) -> None:
    """Ask a name, and whether the search should also open the current tab (not unless asked),
    and save the current query (same name: replaced)."""
    from PySide6.QtWidgets import QCheckBox, QDialog, QDialogButtonBox, QFormLayout, QLineEdit

    query = window.query_box.text().strip()
    if not query:
        window.show_message("Type a query first: a saved search remembers a query")
        return
    kind = window.current_kind()
    dialog = QDialog(window)
    dialog.setWindowTitle("Save search")
    name_edit = QLineEdit(query[:60])
    name_edit.setObjectName("search-name")
    name_edit.setAccessibleName("Name of the search")
    name_edit.selectAll()
    keep_tab = QCheckBox(f"Also switch to the {kind.label} tab when it is opened")
    keep_tab.setObjectName("search-keeps-tab")
    keep_tab.setToolTip("Unticked, the search runs on whatever tab is shown")
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    form = QFormLayout(dialog)
    form.addRow("Query:", _plain_label(query))
    form.addRow("Name:", name_edit)
    form.addRow(keep_tab)
    form.addRow(buttons)
    ok = dialog.exec()
    name = name_edit.text().strip()
    if not ok or not name:
        return
    searches = [s for s in window.settings.saved_searches() if s["name"] != name]
    search = {"name": name, "query": query}
    if keep_tab.isChecked():
        search["tab"] = kind.value
    searches.append(search)
    window.settings.set_saved_searches(searches)
    window.settings.sync()
    window.show_message(f"Saved search “{name}”")


def _plain_label(text: str) -> Any:
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLabel

    label = QLabel(text)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setWordWrap(True)
    return label


def apply(window: Any, search: dict[str, str]) -> None:
    """Show the search's tab with its query."""
    kind = next((k for k in window.tab_kinds() if k.value == search.get("tab")), None)
    if kind is not None:
        window.show_tab(kind)
    window.query_box.set_text(search["query"])


def fill_menu(window: Any, menu: QMenu) -> None:
    menu.clear()
    menu.addAction(window.menu_actions.save_search_action)
    menu.addAction(window.menu_actions.organize_searches_action)
    searches = window.settings.saved_searches()
    if searches:
        menu.addSeparator()
    labels = {k.value: k.label for k in window.tab_kinds()}
    for search in searches:
        tab = labels.get(search.get("tab", ""))
        act = menu.addAction(f"{search['name']}  —  {tab}" if tab else search["name"])
        act.setToolTip(plain_tooltip(search["query"]))
        act.triggered.connect(lambda _checked=False, s=search: apply(window, s))


def organize(window: Any) -> None:
    """A list of the saved searches with Open, Rename and Delete."""
    from PySide6.QtWidgets import (
        QDialog,
        QDialogButtonBox,
        QInputDialog,
        QListWidget,
        QListWidgetItem,
        QPushButton,
        QVBoxLayout,
    )

    dialog = QDialog(window)
    dialog.setWindowTitle("Saved searches")
    dialog.resize(520, 360)
    listing = QListWidget(dialog)
    listing.setAccessibleName("Saved searches")

    def fill() -> None:
        listing.clear()
        for search in window.settings.saved_searches():
            item = QListWidgetItem(f"{search['name']}  —  {search['query']}")
            item.setData(256, search["name"])
            listing.addItem(item)

    def selected() -> str | None:
        item = listing.currentItem()
        return None if item is None else str(item.data(256))

    def rename() -> None:
        name = selected()
        if name is None:
            return
        new, ok = QInputDialog.getText(dialog, "Rename search", "New name:", text=name)
        new = new.strip()
        if ok and new and new != name:
            window.settings.set_saved_searches(_renamed(window.settings.saved_searches(), name, new))
            fill()

    def edit_query() -> None:
        name = selected()
        found = next((s for s in window.settings.saved_searches() if s["name"] == name), None)
        if found is None or name is None:
            return
        query, ok = QInputDialog.getText(dialog, "Edit search", f"Query of “{name}”:", text=found["query"])
        if ok and query.strip():
            window.settings.set_saved_searches(
                _with_query(window.settings.saved_searches(), name, query.strip())
            )
            fill()

    def delete() -> None:
        name = selected()
        if name is not None:
            window.settings.set_saved_searches(
                [s for s in window.settings.saved_searches() if s["name"] != name]
            )
            fill()

    def open_() -> None:
        name = selected()
        found = next((s for s in window.settings.saved_searches() if s["name"] == name), None)
        if found is not None:
            dialog.accept()
            apply(window, found)

    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, parent=dialog)
    for text, slot in (("Open", open_), ("Edit query…", edit_query), ("Rename…", rename), ("Delete", delete)):
        button = QPushButton(text)
        button.clicked.connect(slot)
        buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
    buttons.rejected.connect(dialog.reject)
    listing.itemActivated.connect(lambda _item: open_())
    layout = QVBoxLayout(dialog)
    layout.addWidget(listing)
    layout.addWidget(buttons)
    fill()
    dialog.exec()
    window.settings.sync()


def _renamed(searches: list[dict[str, str]], old: str, new: str) -> list[dict[str, str]]:
    """The searches with ``old`` named ``new`` (one already named ``new`` is replaced)."""
    return [{**s, "name": new} if s["name"] == old else s for s in searches if s["name"] != new]


def _with_query(searches: list[dict[str, str]], name: str, query: str) -> list[dict[str, str]]:
    return [{**s, "query": query} if s["name"] == name else s for s in searches]
