"""The small dialogs, as a new user met them (issue 39, point 15): the offer's zone list named UTC
twice ("UTC — UTC"), "Add a catalogue" had fields too narrow for their own hints ("e.g.
production, s…"), and Organize searches' watch boxes had no label (a tick beside each search,
said only in a tooltip). Each is opened here as a person does, from its menu."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QComboBox, QInputDialog, QLineEdit, QTreeWidget

from catalogue_desktop.core.records.kinds import OCCASIONS
from tests.journeys.hands import (
    answer_dialogs,
    choose_in_next_popup_menu,
    click_row,
    click_tab,
    press_continue,
    type_query,
    until,
    when_dialog_opens,
)


def _menu_entry(window: Any, title: str, entry: str) -> None:
    """Click ``title`` on the menu bar, then its entry ``entry``."""
    chosen = choose_in_next_popup_menu(entry)
    bar = window.menuBar()
    top = next(a for a in bar.actions() if a.text().replace("&", "") == title)
    QTest.mouseClick(
        bar, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, bar.actionGeometry(top).center()
    )
    until(lambda: bool(chosen))


def test_the_offer_zone_list_names_each_zone_once(start: Any) -> None:
    window = start().window
    window.show()
    tab = click_tab(window, OCCASIONS)
    click_row(tab, 0)
    zones: list[str] = []

    def answer(dialog: Any) -> None:
        if press_continue(dialog):  # the data's age: make the offer all the same
            return
        if isinstance(dialog, QInputDialog):  # the fees' currency: the one proposed
            dialog.accept()
            return
        box = next(
            c for c in dialog.findChildren(QComboBox) if c.accessibleName() == "Time zone for online events"
        )
        zones.extend(box.itemText(i) for i in range(box.count()))
        dialog.reject()

    answer_dialogs(answer)
    window.menu_actions.offer_actions[0].trigger()  # File ▸ Offer ▸ Offer sheet (PDF)…
    until(lambda: bool(zones))
    assert len(zones) == len(set(zones)), zones
    for text in zones:
        words = [part.strip() for part in text.split(" — ")]
        assert len(words) == len(set(words)), f"{text!r} says the same twice"
    assert "UTC" in zones, zones


def test_add_a_catalogue_shows_its_hints_and_an_address_whole(start: Any) -> None:
    window = start(finder_ready=False).window
    window.show()
    seen: dict[str, tuple[int, int]] = {}

    def look(dialog: Any) -> None:
        for edit in dialog.findChildren(QLineEdit):
            metrics = edit.fontMetrics()
            room = edit.contentsRect().width() - 8  # (the frame's and the text's margins)
            needs = max(
                metrics.horizontalAdvance(edit.placeholderText()),
                metrics.horizontalAdvance("https://catalogue.example.com"),
            )
            seen[edit.accessibleName()] = (room, needs)
        dialog.reject()

    when_dialog_opens(look)
    _menu_entry(window, "Catalogue", "Add a catalogue…")
    until(lambda: bool(seen))
    assert set(seen) == {"Name of the catalogue", "Service address"}
    for name, (room, needs) in seen.items():
        assert room >= needs, f"{name}: {room} px for {needs}"


def test_organize_searches_labels_the_watch_column(start: Any) -> None:
    window = start().window
    window.show()
    type_query(window, "ethics")
    when_dialog_opens(lambda dialog: dialog.accept())
    window.menu_actions.save_search_action.trigger()  # Ctrl+D, OK
    assert window.search_book.all()
    shown: dict[str, Any] = {}

    def look(dialog: Any) -> None:
        listing = dialog.findChild(QTreeWidget, "saved-searches")
        assert listing is not None, "no list of searches with headings"
        header = listing.headerItem()
        shown["headings"] = [header.text(c) for c in range(listing.columnCount())]
        item = listing.topLevelItem(0)
        shown["row"] = [item.text(c) for c in range(listing.columnCount())]
        row = listing.visualItemRect(item)  # tick its Watch box, as a person does
        box = QPoint(listing.header().sectionViewportPosition(0) + 12, row.center().y())
        QTest.mouseClick(listing.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, box)
        QApplication.processEvents()
        shown["ticked"] = item.checkState(0) == Qt.CheckState.Checked
        dialog.reject()

    when_dialog_opens(look)
    _menu_entry(window, "Searches", "Organize searches…")
    until(lambda: "ticked" in shown)
    assert shown["headings"][0] == "Watch" and all(shown["headings"]), shown
    assert shown["row"][1] == window.search_book.all()[0]["name"]
    assert shown["ticked"] and window.search_book.all()[0]["watched"]
