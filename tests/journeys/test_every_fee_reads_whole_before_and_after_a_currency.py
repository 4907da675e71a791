"""A new seller reads the fees on Dates at 1024x700 (details shown) and at 1366x768: each fee
whole ("149", not "14…") and its column in view beside the vertical scroll bar. They choose a
currency in Preferences: every fee still whole ("USD 1,295", not "USD 1,…"), on Dates and on every
other tab with a fee (Courses' ranges: "USD 995 – USD 1,295"). After a restart at 1024 the same:
"USD 1,095" whole and the Fee heading in view (not "USD" alone beyond the table's edge)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QLineEdit, QStyle

from catalogue_desktop.core.listing.rows import COLUMNS, ColumnType, column_index
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import click_row, click_tab, screen_sized

SIZES = ((1024, 700), (1366, 768))
FEE = column_index(OCCASIONS, "fee")
WITH_FEES = (Kind.WEBINARS, Kind.SERIES, Kind.COURSES, Kind.CERTIFICATES)


def _fees_cut(tab: Any, column: int, where: str, *, in_view: bool) -> list[str]:
    """What a person sees wrong in ``column``: a value drawn with "…" (wider than its cell less
    the cell's text margins), or (``in_view``) the column beyond the table's right edge."""
    view = tab.view
    header = view.horizontalHeader()
    problems = []
    if in_view:
        right = header.sectionViewportPosition(column) + header.sectionSize(column)
        room = view.viewport().width()
        if right > room:
            problems.append(f"{where}: the fee column ends at {right}, the table at {room}")
    margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    metrics = view.fontMetrics()
    for row in range(tab.model.rowCount()):
        text = str(tab.model.index(row, column).data() or "")
        if metrics.horizontalAdvance(text) + 2 * margin > header.sectionSize(column):
            problems.append(f"{where}: {text!r} is cut in {header.sectionSize(column)} px")
    return problems


def _dates_fees(window: Any, when: str) -> list[str]:
    problems = []
    for width, height in SIZES:
        screen_sized(window, width, height)
        tab = click_tab(window, OCCASIONS)
        click_row(tab, 0)  # the details shown beside
        QApplication.processEvents()
        assert tab.detail.isVisible()
        assert tab.view.verticalScrollBar().isVisible()  # (99 rows: the bar takes its room)
        problems += _fees_cut(tab, FEE, f"{when} {width}x{height} Dates", in_view=True)
    return problems


def _other_fees(window: Any, when: str) -> list[str]:
    problems = []
    for width, height in SIZES:
        screen_sized(window, width, height)
        for kind in WITH_FEES:
            tab = click_tab(window, kind)
            QApplication.processEvents()
            for i, column in enumerate(COLUMNS[kind]):
                if column.type in (ColumnType.MONEY, ColumnType.MONEY_RANGE):
                    problems += _fees_cut(tab, i, f"{when} {width}x{height} {kind.value}", in_view=False)
    return problems


def _choose_currency(window: Any, code: str) -> None:
    """Catalogue ▸ Preferences…, type ``code`` as the currency of fees, OK."""

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            QTimer.singleShot(20, answer)
            return
        field = next(e for e in dialog.findChildren(QLineEdit) if e.accessibleName() == "Currency of fees")
        field.setFocus()
        QTest.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        QTest.keyClicks(field, code)
        box = dialog.findChild(QDialogButtonBox)
        assert box is not None
        QTest.mouseClick(box.button(QDialogButtonBox.StandardButton.Ok), Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, answer)
    window.menu_actions.preferences_action.trigger()
    QApplication.processEvents()


def test_every_fee_reads_whole_before_and_after_a_currency_and_a_restart(start: Any, qtbot: Any) -> None:
    window = start().window
    assert not _dates_fees(window, "first start")
    assert not _other_fees(window, "first start")

    _choose_currency(window, "USD")
    qtbot.waitUntil(lambda: window.settings.currency == "USD")
    tab = click_tab(window, OCCASIONS)
    assert all(str(tab.model.index(r, FEE).data() or "USD").startswith("USD") for r in range(20))
    fees = [str(tab.model.index(r, FEE).data() or "") for r in range(tab.model.rowCount())]
    assert "USD\xa01,295" in fees  # (four digits with their currency: the widest the demo has)
    assert not _dates_fees(window, "with USD")
    assert not _other_fees(window, "with USD")
    courses = click_tab(window, Kind.COURSES)
    ranges = [str(courses.model.index(r, column_index(Kind.COURSES, "fee")).data()) for r in range(20)]
    assert any(" – USD\xa0" in text for text in ranges), ranges  # "USD 995 – USD 1,295"
    window.close()

    again = start().window  # a restart: the widths saved, the currency remembered
    assert not _dates_fees(again, "after a restart")
    assert not _other_fees(again, "after a restart")
