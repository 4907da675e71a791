"""Column widths that give the title the room: on Dates at 1366x768 the title is not squeezed to
~120 px beside a wide Start (the columns further right scroll instead), and after a restart
with a currency every fee still fits its column ("USD 1,095", not "USD 59…": a width saved for
plain numbers, narrowed by hand) while the title again takes the room the others leave."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QPointF, Qt
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import click_tab

TITLE, START, FEE = (column_index(OCCASIONS, key) for key in ("title", "start", "fee"))


def _sized(window: Any, width: int, height: int) -> None:
    window.show()
    window.resize(width, height)
    QApplication.processEvents()


def _fees_fit(tab: Any) -> None:
    header = tab.view.horizontalHeader()
    metrics = tab.view.fontMetrics()
    fees = [str(tab.model.index(r, FEE).data() or "") for r in range(tab.model.rowCount())]
    widest = max(fees, key=metrics.horizontalAdvance)
    assert metrics.horizontalAdvance(widest) + 8 <= header.sectionSize(FEE), (widest, header.sectionSize(FEE))


def _drag_edge(tab: Any, column: int, by: int) -> None:
    """Drag the right edge of ``column``'s header ``by`` px (to the left: negative), as a mouse."""
    header = tab.view.horizontalHeader()
    edge = header.sectionViewportPosition(column) + header.sectionSize(column) - 1
    y = header.height() // 2
    target = header.viewport()
    left, none = Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier
    for kind, x, buttons in (
        (QEvent.Type.MouseButtonPress, edge, left),
        (QEvent.Type.MouseMove, edge + by // 2, left),
        (QEvent.Type.MouseMove, edge + by, left),
        (QEvent.Type.MouseButtonRelease, edge + by, Qt.MouseButton.NoButton),
    ):
        point = QPointF(x, y)
        event = QMouseEvent(kind, point, target.mapToGlobal(point), left, buttons, none)
        QApplication.sendEvent(target, event)
    QApplication.processEvents()


def _title_has_the_room(tab: Any) -> None:
    header = tab.view.horizontalHeader()
    title, start = header.sectionSize(TITLE), header.sectionSize(START)
    assert title >= start, (title, start)  # titles read before a wide date cuts them
    room = tab.view.viewport().width()
    for column in (TITLE, START, FEE):  # what a person reads first stays in view
        right = header.sectionViewportPosition(column) + header.sectionSize(column)
        assert 0 < right <= room, (column, right, room)


def test_the_title_gets_the_room_and_a_restart_keeps_every_fee_whole(start: Any, qtbot: Any) -> None:
    window = start().window  # plain numbers: the fee column as narrow as "1,095"
    _sized(window, 1366, 768)
    tab = click_tab(window, OCCASIONS)
    qtbot.waitUntil(lambda: tab.view.horizontalHeader().sectionSize(TITLE) >= 150)
    _title_has_the_room(tab)
    _fees_fit(tab)
    fee = tab.view.horizontalHeader().sectionSize(FEE)
    _drag_edge(tab, FEE, -(fee // 2))  # the person narrows the fees (plain numbers are short)
    assert tab.view.horizontalHeader().sectionSize(FEE) < fee
    click_tab(window, Kind.WEBINARS)
    window.close()

    again = start(currency="USD").window  # a restart, fees now with their currency
    _sized(again, 1366, 768)
    tab = click_tab(again, OCCASIONS)
    QApplication.processEvents()
    assert str(tab.model.index(0, FEE).data()).startswith("USD")
    qtbot.waitUntil(lambda: tab.view.horizontalHeader().sectionSize(TITLE) >= 150)
    _fees_fit(tab)
    _title_has_the_room(tab)
