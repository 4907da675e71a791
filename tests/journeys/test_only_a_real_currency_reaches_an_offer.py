"""A seller is asked the fees' currency and types a word: only an ISO 4217 code reaches what a
customer reads. "dollars" is asked again, naming the codes it may mean (USD, CAD, AUD...); "usd"
is taken. A value stored before from such input ("DOLLARS") is never used: after a restart the
tables show plain numbers, the first offer's question names it, and Preferences shows it with
why it is not used; Preferences' OK refuses a word that is not a currency, "euro" is EUR."""

from __future__ import annotations

import re
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QInputDialog, QLabel, QLineEdit

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import OCCASIONS
from catalogue_desktop.ui.offers.sheet_dialog import SheetDialog
from tests.journeys.hands import answer_dialogs, answer_offer, click_tab, key, status_text, when_dialog_opens

FEE = column_index(OCCASIONS, "fee")


def _restarted_with_dollars_stored(start: Any) -> Any:
    first = start(finder_ready=False)
    first.settings.currency = "DOLLARS"  # (typed at an earlier version's question)
    first.settings.sync()
    first.window.close()
    return start(finder_ready=False)


def test_a_word_is_asked_again_and_a_stored_one_is_never_used(start: Any, qtbot: Any) -> None:
    session = _restarted_with_dollars_stored(start)
    window = session.window
    dates = click_tab(window, OCCASIONS)
    qtbot.waitUntil(lambda: dates.model.rowCount() > 0, timeout=10000)
    fees = [str(dates.model.index(r, FEE).data() or "") for r in range(dates.model.rowCount())]
    assert "1,495" in fees and not any("DOLLARS" in fee for fee in fees)  # plain numbers

    asked: list[str] = []

    def seller(dialog: Any) -> None:
        if isinstance(dialog, QInputDialog):
            asked.append(dialog.labelText())
            field = dialog.findChild(QLineEdit)
            assert field is not None
            field.selectAll()
            QTest.keyClicks(field, "dollars" if len(asked) == 1 else "usd")
            QTest.keyClick(field, Qt.Key.Key_Return)
            return
        if isinstance(dialog, SheetDialog):
            QTest.keyClicks(dialog.title, "Acme")
        answer_offer(dialog)

    answer_dialogs(seller)
    QTest.mouseClick(dates.offer_buttons["copy"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: status_text(window).startswith("Copied"), timeout=20000)
    assert len(asked) == 2, asked
    assert asked[0].startswith(
        "The currency set before is not used: “DOLLARS” may be several currencies: USD"
    )
    assert asked[1].startswith("“dollars” may be several currencies: USD (US dollar), CAD (Canadian dollar)")
    text = QApplication.clipboard().text()
    assert re.search(r" — USD\s\d[\d,]* — ", text) and "DOLLARS" not in text, text
    assert session.settings.currency == "USD" and window.formatter.currency == "USD"


def test_preferences_show_a_stored_word_and_refuse_one_typed(start: Any, qtbot: Any) -> None:
    session = _restarted_with_dollars_stored(start)
    window = session.window
    seen: list[str] = []

    def preferences(dialog: Any) -> None:
        field = next(e for e in dialog.findChildren(QLineEdit) if e.accessibleName() == "Currency of fees")
        problem = dialog.findChild(QLabel, "currency-problem")
        assert field.text() == "DOLLARS" and problem.isVisible()
        seen.append(problem.text())
        ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
        field.setFocus()
        QTest.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        QTest.keyClicks(field, "bucks")
        QTest.mouseClick(ok, Qt.MouseButton.LeftButton)
        assert dialog.isVisible() and dialog.tabs.currentIndex() == 0  # refused, said under the field
        seen.append(problem.text())
        QTest.keyClick(field, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
        QTest.keyClicks(field, "euro")
        assert not problem.isVisible()
        QTest.mouseClick(ok, Qt.MouseButton.LeftButton)

    assert when_dialog_opens(preferences) is not None
    key(window.current_tab().view, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)  # Preferences…
    qtbot.waitUntil(lambda: len(seen) == 2 and QApplication.activeModalWidget() is None, timeout=5000)
    assert seen[0].startswith("“DOLLARS” may be several currencies: USD (US dollar)")
    assert "fees are shown as plain numbers and offers ask for it" in seen[0]
    assert seen[1].startswith("“bucks” may be several currencies: USD")
    assert session.settings.currency == "EUR" and window.formatter.currency == "EUR"
