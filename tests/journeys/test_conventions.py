"""Conventions of a desktop app: an Edit menu with the platform's keys, each setting in one place,
quick open reaching every menu action, saved searches that keep a tab only when asked and whose
query can be edited, and no developer's text in front of the user."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QGuiApplication, QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QApplication,
    QCheckBox,
    QDialogButtonBox,
    QGroupBox,
    QLabel,
    QLineEdit,
    QTableWidget,
    QTreeView,
    QTreeWidget,
)

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.finder.palette import Palette
from tests.journeys.hands import click_row, click_tab, key, menu_items, press, type_query, when_dialog_opens

CTRL = Qt.KeyboardModifier.ControlModifier


def _palette_items(window: Any, text: str) -> Palette:
    key(window.current_tab().view, Qt.Key.Key_K, CTRL)
    palette = QApplication.activeModalWidget()
    assert isinstance(palette, Palette) and palette.windowTitle() == "Quick open", palette
    QTest.keyClicks(palette.line, text)
    palette.update_hits()
    return palette


def test_the_edit_menu_copies_and_selects_all_rows_with_the_platforms_keys(start: Any) -> None:
    window = start(finder_ready=False).window
    assert menu_items(window, "Edit") == ["Copy", "Select All", "Find…"]
    for act, standard in (
        (window.menu_actions.copy_action, QKeySequence.StandardKey.Copy),
        (window.menu_actions.select_all_action, QKeySequence.StandardKey.SelectAll),
        (window.menu_actions.find_action, QKeySequence.StandardKey.Find),
    ):
        assert act.shortcuts() == QKeySequence.keyBindings(standard), act.text()
    tab = click_tab(window, Kind.TOPICS)
    click_row(tab, 0)
    key(tab.view, Qt.Key.Key_A, CTRL)
    assert len(tab.view.selectionModel().selectedRows()) == tab.model.rowCount()
    QGuiApplication.clipboard().clear()
    key(tab.view, Qt.Key.Key_C, CTRL)
    lines = QGuiApplication.clipboard().text().strip().splitlines()
    assert len(lines) == tab.model.rowCount() + 1  # a header line, then every row


def test_the_currency_is_set_in_one_place_preferences(start: Any) -> None:
    session = start(finder_ready=False)
    window = session.window
    assert not any("Currency" in item for item in menu_items(window, "Catalogue"))
    tab = click_tab(window, Kind.WEBINARS)
    fee = column_index(Kind.WEBINARS, "fee")
    plain = tab.model.index(0, fee).data()

    def set_currency(dialog: Any) -> None:
        field = next(e for e in dialog.findChildren(QLineEdit) if e.accessibleName() == "Currency of fees")
        field.selectAll()
        QTest.keyClicks(field, "eur")
        press(dialog, "OK")

    assert when_dialog_opens(set_currency) is not None
    key(tab.view, Qt.Key.Key_Comma, CTRL)  # Preferences…
    assert tab.model.index(0, fee).data() == f"EUR\u00a0{plain}"
    assert session.settings.currency == "EUR"


def test_quick_open_reaches_every_menu_action(start: Any) -> None:
    window = start().window
    click_tab(window, Kind.WEBINARS)
    palette = _palette_items(window, "pref")
    assert palette.model.items and palette.model.items[0].title == "Preferences…"
    palette.reject()
    palette = _palette_items(window, "offer")
    titles = [i.title for i in palette.model.items]
    for wanted in ("Offer sheet (PDF)…", "Print offer sheet…", "Calendar file (.ics)…", "Copy for email"):
        assert wanted in titles, titles
    palette.reject()
    palette = _palette_items(window, "")
    listed = {i.title for i in palette.model.items}
    listed |= {a.text() for a in window.findChildren(QAction) if not a.isEnabled()}  # (Back: no history)
    for menu in ("File", "Edit", "View", "Go", "Searches", "Catalogue", "Help"):
        for item in menu_items(window, menu):
            last = item.split(" ▸ ")[-1]
            submenu = any(other.startswith(item + " ▸ ") for other in menu_items(window, menu))
            assert submenu or last in listed, (menu, item)
    palette.reject()
    palette = _palette_items(window, "details pane")
    QTest.keyClick(palette.line, Qt.Key.Key_Return)  # runs the menu's own action
    QApplication.processEvents()
    assert not window.menu_actions.details_action.isChecked()


def _save_search(window: Any, name: str, keep_tab: bool) -> None:
    def fill(dialog: Any) -> None:
        field = dialog.findChild(QLineEdit, "search-name")
        field.selectAll()
        QTest.keyClicks(field, name)
        box = dialog.findChild(QCheckBox, "search-keeps-tab")
        assert not box.isChecked()  # the tab is saved only if the user asks
        if keep_tab:
            QTest.mouseClick(box, Qt.MouseButton.LeftButton)
        press(dialog, "OK")

    when_dialog_opens(fill)
    key(window.current_tab().view, Qt.Key.Key_D, CTRL)


def _run_saved(window: Any, name: str) -> None:
    menu = next(a.menu() for a in window.menuBar().actions() if a.text() == "&Searches")
    menu.aboutToShow.emit()
    next(a for a in menu.actions() if a.text().startswith(name)).trigger()
    QApplication.processEvents()


def test_a_saved_search_keeps_its_tab_only_when_asked_and_organize_edits_its_query(start: Any) -> None:
    session = start()
    window = session.window
    click_tab(window, Kind.COURSES)
    type_query(window, "ethics")
    _save_search(window, "ethics anywhere", keep_tab=False)
    _save_search(window, "ethics courses", keep_tab=True)
    saved = {s["name"]: s for s in window.search_book.all()}  # (kept in the catalogue's store)
    assert not saved["ethics anywhere"]["tab"] and saved["ethics courses"]["tab"] == "courses"
    click_tab(window, Kind.WEBINARS)
    type_query(window, "")
    _run_saved(window, "ethics anywhere")
    # (kept as the query "ethics" was read as: plain words are saved as their equivalent query)
    assert saved["ethics anywhere"]["query"] == window.query_box.equivalent("ethics")
    assert window.current_kind() is Kind.WEBINARS
    assert window.query_box.text() == saved["ethics anywhere"]["query"]
    _run_saved(window, "ethics courses")
    assert window.current_kind() is Kind.COURSES

    def edit(dialog: Any) -> None:
        listing = dialog.findChild(QTreeWidget, "saved-searches")
        listing.setCurrentItem(listing.topLevelItem(0))

        def type_and_ok(d: Any) -> None:
            d.findChild(QLineEdit).setText("ethics cpe:yes")
            press(d, "OK")

        when_dialog_opens(type_and_ok)
        press(dialog, "Edit query…")
        assert "ethics cpe:yes" in listing.topLevelItem(0).text(2)
        press(dialog, "Close")

    opened = when_dialog_opens(edit)
    window.menu_actions.organize_searches_action.trigger()
    assert opened
    assert window.search_book.all()[0]["query"] == window.query_box.equivalent("ethics cpe:yes")


def test_certificates_speak_in_words_not_codes(start: Any) -> None:
    window = start(finder_ready=False).window
    tab = click_tab(window, Kind.CERTIFICATES)
    seen_problem = False
    for row in range(tab.model.rowCount()):
        click_row(tab, row)
        page = tab.detail.current_page()
        tree = page.findChild(QTreeView, "levels")
        model = tree.model()
        for r in range(model.rowCount()):
            name = model.index(r, 0).data().split(" — ", 1)[0]  # (a narrow pane: "name — details")
            assert "selection" not in name and "options min" not in name, name
            assert name.startswith(f"Level {r + 1}")
            details = model.index(r, 1).data()
            assert "type" not in details or "codes the service does not explain" in details, details
        note = page.findChild(QLabel, "certificate_problems")
        if note is not None and note.isVisible():
            seen_problem = True
            assert "levels[" not in note.text() and "(not in this catalogue)" in note.text(), note.text()
    assert seen_problem  # the demo has certificates naming courses it does not list


def test_preferences_speak_plainly_and_an_unknown_code_shows_its_label(start: Any) -> None:
    window = start().window
    texts: list[str] = []

    def read(dialog: Any) -> None:
        texts.extend(b.title() for b in dialog.findChildren(QGroupBox))
        texts.extend(w.text() for w in dialog.findChildren(QLabel))
        table = dialog.findChild(QTableWidget, "type-labels")
        texts.extend(f"{table.item(r, 0).text()}={table.item(r, 1).text()}" for r in range(table.rowCount()))
        dialog.findChild(QDialogButtonBox).rejected.emit()

    when_dialog_opens(read)
    window.menu_actions.preferences_action.trigger()
    assert texts and not any("spec" in t.lower().split() for t in texts), texts
    assert "3=Type 3" in texts and "1=On demand" in texts


def test_money_has_one_format_and_is_never_cut(start: Any) -> None:
    session = start(finder_ready=False, currency="USD")
    window = session.window
    tab = click_tab(window, Kind.CERTIFICATES)
    fee = column_index(Kind.CERTIFICATES, "fee")
    width = tab.view.horizontalHeader().sectionSize(fee)
    metrics = tab.view.fontMetrics()
    for row in range(tab.model.rowCount()):
        text = tab.model.index(row, fee).data()
        if text:
            assert text.startswith("USD\u00a0") and not text.endswith(".00"), text
            assert metrics.horizontalAdvance(text) + 8 <= width, (text, width)
