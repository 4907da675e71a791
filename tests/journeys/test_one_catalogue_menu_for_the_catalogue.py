"""One menu named Catalogue, holding what concerns the catalogue (issue 39, point 15): the window
had a File ▸ Catalogue submenu (the catalogues, adding one, the connection) and a Catalogue menu of
other things (Refresh, Service URL, Preferences) — one name, two menus. Now the menu bar's
Catalogue menu holds them all, each catalogue listed once however often it is opened."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu

from tests.journeys.hands import key, menu_items, until


def _open_menu(window: Any, title: str) -> list[tuple[str, bool]]:
    """Click ``title`` on the menu bar; the items of the menu that opens (text, ticked); Escape."""
    bar = window.menuBar()
    top = next(a for a in bar.actions() if a.text().replace("&", "") == title)
    QTest.mouseClick(
        bar, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, bar.actionGeometry(top).center()
    )
    until(lambda: isinstance(QApplication.activePopupWidget(), QMenu))
    menu = QApplication.activePopupWidget()
    assert isinstance(menu, QMenu)
    items = [(a.text().replace("&", ""), a.isChecked()) for a in menu.actions() if not a.isSeparator()]
    key(menu, Qt.Key.Key_Escape)
    until(lambda: QApplication.activePopupWidget() is None)
    return items


def test_the_catalogue_menu_is_one_menu_with_the_catalogues_refresh_and_preferences(start: Any) -> None:
    session = start(finder_ready=False)
    window = session.window
    window.show()
    titles = [a.text().replace("&", "") for a in window.menuBar().actions()]
    assert titles.count("Catalogue") == 1, titles
    for menu in titles:
        assert not any(item.split(" ▸ ")[0] == "Catalogue" for item in menu_items(window, menu)), menu
    first = _open_menu(window, "Catalogue")
    texts = [text for text, _ticked in first]
    assert texts[0] == "Refresh"
    listed = [text for text in texts if " — " in text]  # the catalogues: "name — where"
    assert listed and len(listed) == len(set(listed)), texts
    ticked = [text for text, on in first if on]
    assert ticked == [next(t for t in listed if t.startswith(f"{session.profile.name} — "))], first
    for wanted in ("Add a catalogue…", "Connection of this catalogue…", "Service URL…", "Preferences…"):
        assert wanted in texts, texts
    assert texts.index(listed[-1]) < texts.index("Add a catalogue…") < texts.index("Preferences…")
    assert _open_menu(window, "Catalogue") == first  # opened again: each catalogue still once
