"""Every toolbar action can be reached at every width: on Dates, the offers that do not fit the row
are in its "More" menu, which opens when clicked (a tool bar's "››" inside the tab did nothing),
with the details pane shown or hidden; the main toolbar shows all its buttons at 1024x700."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QApplication, QMenu, QToolBar, QToolButton

from catalogue_desktop.core.records.kinds import OCCASIONS
from catalogue_desktop.ui.offers.dates_tab import OFFER_BUTTONS
from tests.journeys.hands import answer_offer_dialogs, click_row, click_tab, key, until

SIZES = [(1024, 700), (1366, 768), (1920, 1080)]


def _sized(window: Any, width: int, height: int) -> None:
    window.show()
    window.resize(width, height)
    QApplication.processEvents()


def _buttons_in_view(tab: Any) -> set[str]:
    """The offers whose button a person sees whole on the tab."""
    inside = QRect(QPoint(0, 0), tab.size())
    shown = set()
    for what, button in tab.offer_buttons.items():
        box = QRect(button.mapTo(tab, QPoint(0, 0)), button.size())
        if button.isVisible() and inside.contains(box) and box.width() >= button.sizeHint().width():
            shown.add(what)
    return shown


def _when_popup_opens(act: Any) -> list[QMenu]:
    """Call ``act(menu)`` once the next popup menu is open (a menu button's menu runs its own
    loop: the click returns once it closed); returns [menu] once done."""
    done: list[QMenu] = []

    def poll() -> None:
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu):
            QTimer.singleShot(20, poll)
            return
        done.append(menu)
        act(menu)

    QTimer.singleShot(0, poll)
    return done


def _more_menu_entries(tab: Any) -> list[str]:
    """Click the row's "More" button (if it shows); the entries of the menu that opens."""
    more = next((b for b in tab.findChildren(QToolButton) if b.text() == "More" and b.isVisible()), None)
    if more is None:
        return []
    entries: list[str] = []

    def read(menu: QMenu) -> None:
        entries.extend(a.text() for a in menu.actions() if a.isVisible() and not a.isSeparator())
        menu.close()

    opened = _when_popup_opens(read)
    QTest.mouseClick(more, Qt.MouseButton.LeftButton)
    until(lambda: bool(opened))
    QApplication.processEvents()
    return entries


@pytest.mark.parametrize(("width", "height"), SIZES)
def test_every_offer_is_a_button_in_view_or_in_the_more_menu(start: Any, width: int, height: int) -> None:
    window = start().window
    _sized(window, width, height)
    tab = click_tab(window, OCCASIONS)
    click_row(tab, 0)
    texts = {what: text for what, text, _tip in OFFER_BUTTONS}
    for details in (True, False):
        if tab.detail.isVisible() != details:  # View ▸ Details pane (Ctrl+Shift+D)
            key(
                tab.view,
                Qt.Key.Key_D,
                Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
            )
        assert tab.detail.isVisible() == details
        shown = _buttons_in_view(tab)
        in_menu = _more_menu_entries(tab)
        reachable = shown | {what for what, text in texts.items() if text in in_menu}
        assert reachable == set(texts), (width, details, sorted(shown), in_menu)
        assert "Offer sheet (PDF)…" not in in_menu or not shown  # in order: the first ones show
        # no tool bar's "››" anywhere on the tab: it did nothing there when clicked
        assert not [b for b in tab.findChildren(QAbstractButton) if b.objectName() == "qt_toolbar_ext_button"]


def test_copy_for_email_from_the_more_menu_copies_the_occasion(start: Any) -> None:
    window = start(currency="USD").window
    _sized(window, 1024, 700)
    tab = click_tab(window, OCCASIONS)
    click_row(tab, 0)
    title = tab.model.index(0, 0).data()
    more = next(b for b in tab.findChildren(QToolButton) if b.text() == "More")
    assert more.isVisible()  # 1024 px: not every offer fits beside "Show past"
    QGuiApplication.clipboard().clear()

    answer_offer_dialogs()  # the data's age ("Continue"), then the offer's own dialog

    def choose(menu: QMenu) -> None:
        action = next(a for a in menu.actions() if a.text() == "Copy for email")
        point = menu.actionGeometry(action).center()
        QTest.mouseClick(menu, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, point)

    opened = _when_popup_opens(choose)
    QTest.mouseClick(more, Qt.MouseButton.LeftButton)
    until(lambda: bool(opened))
    until(lambda: title[:20] in QGuiApplication.clipboard().text())


@pytest.mark.parametrize(("width", "height"), SIZES[:2])
def test_the_main_toolbars_show_every_button_at_small_sizes(start: Any, width: int, height: int) -> None:
    window = start().window
    _sized(window, width, height)
    for bar in window.findChildren(QToolBar):
        if not bar.isVisible():
            continue
        extension = bar.findChild(QToolButton, "qt_toolbar_ext_button")
        assert extension is None or not extension.isVisible(), bar.windowTitle()
        for action in bar.actions():
            widget = bar.widgetForAction(action)
            if action.isVisible() and widget is not None and not action.isSeparator():
                assert widget.isVisible(), (bar.windowTitle(), action.text())
