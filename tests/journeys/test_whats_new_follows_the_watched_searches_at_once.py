"""A person opens What's new ("No watched searches yet"), saves a search and ticks it in Searches ▸
Watch: the open panel says at once that it is watched and has nothing new yet, as after a
refresh; renamed, it goes by its new name; unwatched, the panel says none is watched again
(issue 39, second pass: the panel kept saying "No watched searches yet" until a refresh)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox, QLineEdit, QMenu, QToolBar

from catalogue_desktop.core.records.kinds import OCCASIONS
from tests.journeys.hands import click_tab, screen_sized, status_text, type_query, when_dialog_opens


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

    window.search_book.rename("Chicago dates", "Dates in Chicago")  # (as Organize searches ▸ Rename)
    qtbot.waitUntil(lambda: _panel(session)[1] == ["Dates in Chicago — nothing new"], timeout=5000)

    _watch_item(window, "Dates in Chicago").trigger()  # unticked
    qtbot.waitUntil(lambda: "No watched searches yet" in _panel(session)[0], timeout=5000)
    assert _panel(session)[1] == []
