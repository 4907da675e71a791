"""Watched searches in the window, as a user meets them: saved searches moved from the settings
into the catalogue's store, a search watched from the Searches menu, a refresh over loopback that
brings a new, a dearer and a withdrawn course, the badge, the notice, What's new (a click opens
the record; looking marks the news seen)."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.common.settings import Settings
from catalogue_desktop.ui.searches.book import set_settings_searches, settings_searches
from tests.ui.conftest import wait_rows_loaded


def _watch_action(window: Any, name: str) -> Any:
    menu = window.menu_actions.searches_menu
    menu.aboutToShow.emit()
    watch = next(a.menu() for a in menu.actions() if a.menu() is not None and a.text() == "Watch")
    return next(a for a in watch.actions() if a.text() == name)


def test_a_watched_search_shows_what_a_refresh_brought(
    make_session: Any, demo_server: Any, qtbot: Any, cache_dir: Any
) -> None:
    old = Settings()
    set_settings_searches(old, [{"name": "Chicago courses", "query": "city:chicago", "tab": "courses"}])
    old.sync()
    session = make_session(base_url=demo_server.base_url)
    window = session.window
    watcher = session.watcher
    session.finder.indexer.finish_now()

    # moved from the settings into the store, once: the command line sees it too
    assert [s["name"] for s in window.search_book.all()] == ["Chicago courses"]
    assert settings_searches(Settings()) == []
    assert [s.name for s in window.search_book.searches()] == ["Chicago courses"]

    action = _watch_action(window, "Chicago courses")
    assert not action.isChecked()
    action.trigger()
    (search,) = window.search_book.searches()
    assert search.watched and search.baseline["courses"]
    assert window.menu_actions.searches_menu.title() == "&Searches"  # nothing new yet

    # the service's next version: a new Chicago course, one dearer, one withdrawn
    courses = json.loads(demo_server.payload(Kind.COURSES))
    chicago = [c for c in courses if any(loc.get("city") == "Chicago" for loc in c["locations"])]
    dearer, withdrawn = chicago[0], chicago[1]
    for loc in dearer["locations"]:
        loc["fee"] += 75
    courses.remove(withdrawn)
    fresh = dict(json.loads(json.dumps(chicago[2])), courseId=99700, title="New in Chicago")
    courses.append(fresh)
    demo_server.set_payload(Kind.COURSES, json.dumps(courses).encode())
    with qtbot.waitSignal(watcher.news_arrived, timeout=20000):
        qtbot.keyClick(window, Qt.Key.Key_F5)
    wait_rows_loaded(qtbot, session)
    # (the news of each kind arrive as its table is made again: all three once the courses' is)
    qtbot.waitUntil(lambda: watcher.unseen == 3, timeout=20000)
    assert window.menu_actions.searches_menu.title() == "&Searches (3)"
    assert watcher.action.text() == "What's new (3)"
    notice = session.notifier.notice
    assert notice.isVisibleTo(window) and "3 news for “Chicago courses”" in notice.text()
    assert not watcher.dock.isVisible()

    notice.linkActivated.emit("whats-new")  # the notice opens What's new; looking marks them seen
    assert watcher.dock.isVisible()
    listed = watcher.dock.records()
    assert ("New", Kind.COURSES, 99700) in listed
    assert ("Changed", Kind.COURSES, dearer["courseId"]) in listed
    assert ("No longer matching or withdrawn", Kind.COURSES, withdrawn["courseId"]) in listed
    head = watcher.dock.tree.topLevelItem(0)
    assert head.text(0) == "Chicago courses — 1 new, 1 changed, 1 gone"
    assert "New in Chicago" in head.child(0).child(0).text(0)
    assert head.child(2).child(0).text(0).startswith(f"{withdrawn['title']} — withdrawn ")
    assert watcher.unseen == 0 and watcher.action.text() == "What's new"
    assert window.menu_actions.searches_menu.title() == "&Searches"
    (seen,) = window.search_book.searches()
    assert 99700 in seen.baseline["courses"] and withdrawn["courseId"] not in seen.baseline["courses"]

    # a click opens the record in its tab
    row = watcher.dock.tree.topLevelItem(0).child(1).child(0)
    watcher.dock.tree.itemClicked.emit(row, 0)
    QApplication.processEvents()
    assert window.current_tab() is window.tab(Kind.COURSES)
    assert window.tab(Kind.COURSES).selected_record_id() == dearer["courseId"]

    # the next refresh brings nothing: no word, no badge
    arrived: list[int] = []
    watcher.news_arrived.connect(arrived.append)
    with qtbot.waitSignal(watcher.evaluated, timeout=20000):
        qtbot.keyClick(window, Qt.Key.Key_F5)
    assert arrived == [] and watcher.unseen == 0

    # unwatched from the Organize dialog's tick is the same as from the menu
    _watch_action(window, "Chicago courses").trigger()
    assert not window.search_book.searches()[0].watched
