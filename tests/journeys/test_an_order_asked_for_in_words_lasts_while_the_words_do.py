"""An order asked for in words ("cheapest first") lasts as long as the words are in the box: when
they no longer ask for one, the tab is back in the order it had (its default, or the one the user
chose with a header click), and the words' order is never remembered as the tab's. Before the
fix, Dates stayed sorted by fee after the words were gone, and opened by fee after a restart."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import OCCASIONS
from tests.journeys.hands import click_tab, type_query

START = column_index(OCCASIONS, "start")
FEE = column_index(OCCASIONS, "fee")
CITY = column_index(OCCASIONS, "city")
UP = Qt.SortOrder.AscendingOrder


def _indicator(tab: Any) -> tuple[int, Qt.SortOrder]:
    header = tab.view.horizontalHeader()
    return header.sortIndicatorSection(), header.sortIndicatorOrder()


def _in_order_of(tab: Any, column: int) -> bool:
    """The rows, as shown, go up by ``column``'s values (blanks last) and are not all alike."""
    model = tab.model
    values = [model.data(model.index(r, column), Qt.ItemDataRole.UserRole) for r in range(model.rowCount())]
    present = [v for v in values if v is not None]
    blanks_last = values[: len(present)] == present
    return blanks_last and present == sorted(present) and len(set(map(str, present))) > 1


def _click_header(tab: Any, column: int) -> None:
    header = tab.view.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    QTest.mouseClick(
        header.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(x, 5)
    )
    QApplication.processEvents()


def test_the_words_order_goes_with_the_words_and_is_never_remembered(start: Any, qtbot: Any) -> None:
    window = start().window
    tab = click_tab(window, OCCASIONS)
    assert _indicator(tab) == (START, UP) and _in_order_of(tab, START)

    type_query(window, "washington cheapest first")
    qtbot.waitUntil(lambda: _indicator(tab) == (FEE, UP) and _in_order_of(tab, FEE), timeout=5000)

    type_query(window, "chicago")  # the words no longer ask for an order
    qtbot.waitUntil(lambda: _indicator(tab) == (START, UP), timeout=5000)
    assert _in_order_of(tab, START)

    type_query(window, "cheapest first")
    qtbot.waitUntil(lambda: _indicator(tab) == (FEE, UP), timeout=5000)
    type_query(window, "")  # the box cleared
    qtbot.waitUntil(lambda: _indicator(tab) == (START, UP), timeout=5000)
    assert _in_order_of(tab, START)

    type_query(window, "most expensive")  # closed while the words ask for an order
    qtbot.waitUntil(lambda: _indicator(tab) == (FEE, Qt.SortOrder.DescendingOrder), timeout=5000)
    window.close()

    again = start().window
    assert again.current_kind() is OCCASIONS
    tab = again.current_tab()
    type_query(again, "")
    qtbot.waitUntil(lambda: tab.model.rowCount() > 0 and _indicator(tab) == (START, UP), timeout=5000)
    assert _in_order_of(tab, START)  # by start, as before the words: the words' order was not kept


def test_a_header_click_outlasts_the_words_and_a_restart(start: Any, qtbot: Any) -> None:
    window = start().window
    tab = click_tab(window, OCCASIONS)
    _click_header(tab, CITY)  # the user's own order
    assert _indicator(tab) == (CITY, UP)

    type_query(window, "cheapest first")
    qtbot.waitUntil(lambda: _indicator(tab) == (FEE, UP), timeout=5000)
    type_query(window, "")
    qtbot.waitUntil(lambda: _indicator(tab) == (CITY, UP), timeout=5000)
    assert _in_order_of(tab, CITY)

    type_query(window, "cheapest first")
    qtbot.waitUntil(lambda: _indicator(tab) == (FEE, UP), timeout=5000)
    _click_header(tab, START)  # chosen while the words ask for fee: the user's order from now on
    assert _indicator(tab) == (START, UP)
    type_query(window, "")
    assert _indicator(tab) == (START, UP)
    _click_header(tab, CITY)
    window.close()

    again = start().window
    tab = again.current_tab()
    qtbot.waitUntil(lambda: tab.model.rowCount() > 0, timeout=5000)
    assert _indicator(tab) == (CITY, UP) and _in_order_of(tab, CITY)
