"""A person opens What's new ("No watched searches yet"), saves a search and ticks it in Searches ▸
Watch: the open panel says at once that it is watched and has nothing new yet, as after a
refresh; renamed, it goes by its new name; unwatched, the panel says none is watched again
(issue 39, second pass: the panel kept saying "No watched searches yet" until a refresh)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QDialogButtonBox,
    QInputDialog,
    QLineEdit,
    QMenu,
    QPushButton,
    QToolBar,
    QTreeWidget,
)

from catalogue_desktop.core.records.kinds import OCCASIONS
from tests.journeys.hands import (
    answer_dialogs,
    click_tab,
    screen_sized,
    status_text,
    type_query,
    when_dialog_opens,
)


def _watch_item(window: Any, name: str) -> Any:
    """Searches ▸ Watch ▸ ``name`` (the menu filled as when it opens)."""
    menu = window.menu_actions.searches_menu
    menu.aboutToShow.emit()
    watch = next(a.menu() for a in menu.actions() if a.text() == "Watch")
    assert isinstance(watch, QMenu)
    return next(a for a in watch.actions() if a.text() == name)


def _panel(session: Any) -> tuple[str, list[str]]:
    dock = session.watcher.dock
    tree = dock.tree
    heads = [tree.topLevelItem(i).text(0) for i in range(tree.topLevelItemCount()) if tree.isVisible()]
    return dock.summary.text(), heads


def test_whats_new_follows_the_watched_searches_at_once(start: Any, qtbot: Any) -> None:
    session = start()
    window = session.window
    screen_sized(window, 1024, 700)
    click_tab(window, OCCASIONS)
    toolbar = window.findChild(QToolBar, "toolbar-main")
    QTest.mouseClick(toolbar.widgetForAction(session.watcher.action), Qt.MouseButton.LeftButton)
    qtbot.waitUntil(session.watcher.dock.isVisible, timeout=2000)
    qtbot.waitUntil(lambda: "No watched searches yet" in _panel(session)[0], timeout=5000)

    type_query(window, "city:chicago")

    def answer(dialog: Any) -> None:
        dialog.findChild(QLineEdit, "search-name").setText("Chicago dates")
        ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        QTest.mouseClick(ok, Qt.MouseButton.LeftButton)

    done = when_dialog_opens(answer)
    window.menu_actions.save_search_action.trigger()  # Searches ▸ Save search… (Ctrl+D)
    assert done

    _watch_item(window, "Chicago dates").trigger()  # ticked
    assert "Watching “Chicago dates”" in status_text(window)
    qtbot.waitUntil(lambda: "No watched searches" not in _panel(session)[0], timeout=5000)
    summary, heads = _panel(session)
    assert summary == "Nothing new for the 1 watched search.", summary
    assert heads == ["Chicago dates — nothing new"], heads

    seen: list[list[str]] = []

    def organize(dialog: Any) -> None:  # Organize searches: Rename… the search, then Close
        if isinstance(dialog, QInputDialog):
            dialog.setTextValue("Dates in Chicago")
            dialog.accept()
        elif not seen:
            seen.append(_panel(session)[1])
            listing = dialog.findChild(QTreeWidget, "saved-searches")
            listing.setCurrentItem(listing.topLevelItem(0))
            rename = next(b for b in dialog.findChildren(QPushButton) if b.text() == "Rename…")
            QTimer.singleShot(0, lambda: QTest.mouseClick(rename, Qt.MouseButton.LeftButton))
        else:
            qtbot.waitUntil(lambda: _panel(session)[1] != seen[0], timeout=5000)
            seen.append(_panel(session)[1])  # (the panel, while the dialog is still open)
            dialog.reject()

    answer_dialogs(organize)
    window.menu_actions.organize_searches_action.trigger()  # Searches ▸ Organize searches…
    assert seen[-1] == ["Dates in Chicago — nothing new"], seen

    _watch_item(window, "Dates in Chicago").trigger()  # unticked
    qtbot.waitUntil(lambda: "No watched searches yet" in _panel(session)[0], timeout=5000)
    assert _panel(session)[1] == []
