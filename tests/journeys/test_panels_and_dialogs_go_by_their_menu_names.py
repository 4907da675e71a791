"""A newcomer looks for the panels in the View menu and finds What's new beside Changes (it was
only on the toolbar), and the dialog opened by Searches ▸ Organize searches… is called what the
menu called it (it said "Saved searches")."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QApplication, QDialog

from tests.journeys.hands import answer_dialogs, menu_items


def test_whats_new_is_in_the_view_menu_beside_changes(start: Any, qtbot: Any) -> None:
    window = start(finder_ready=False).window
    window.show()
    QApplication.processEvents()
    items = menu_items(window, "View")
    assert items[items.index("Changes") + 1] == "What's new"


def test_organize_searches_opens_a_dialog_of_that_name(start: Any, qtbot: Any) -> None:
    window = start(finder_ready=False).window
    window.show()
    QApplication.processEvents()
    assert "Organize searches…" in menu_items(window, "Searches")
    titles: list[str] = []

    def close(dialog: QDialog) -> None:
        titles.append(dialog.windowTitle())
        dialog.reject()

    answer_dialogs(close)
    searches = window.menu_actions.searches_menu
    searches.aboutToShow.emit()  # (filled when shown)
    item = next(a for a in searches.actions() if a.text() == "Organize searches…")
    item.trigger()  # (the menu item chosen)
    qtbot.waitUntil(lambda: bool(titles), timeout=5000)
    assert titles == ["Organize searches"]
