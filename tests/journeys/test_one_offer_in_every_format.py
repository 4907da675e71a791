"""A new seller offers one customer the same occasions as a PDF, a calendar file and an e-mail
copy, in the real window, as a person does: it is one offer throughout. The offer dialog opens
the second time with the customer and note given the first time (selected: typing replaces
them), the e-mail copy (Ctrl+C, no dialog) carries the same title, note, customer zone and
experts as the other formats, and Go ▸ Offers lists one offer with its three formats."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.offers import logged
from catalogue_desktop.core.records.kinds import OCCASIONS
from catalogue_desktop.ui.offers.sheet_dialog import SheetDialog
from tests.journeys.hands import answer_dialogs, click_row, click_tab, key, status_text
from tests.journeys.test_offers_speak_with_one_voice import TITLE, Seller, _row


class FirstSeller(Seller):
    """Types the customer, a note and the customer's zone the first time; notes what each offer
    dialog opened with."""

    def __init__(self) -> None:
        super().__init__()
        self.opened: list[tuple[str, str, str]] = []

    def __call__(self, dialog: Any) -> None:
        if isinstance(dialog, SheetDialog):
            self.opened.append((dialog.title.text(), dialog.title.selectedText(), dialog.note.toPlainText()))
            if not self.opened[1:]:
                QTest.keyClicks(dialog.title, "Acme")
                QTest.keyClicks(dialog.note, "Two seats, as agreed")
                dialog.zone.setCurrentIndex(dialog.zone.findData("America/Chicago"))
            QTest.mouseClick(dialog.go, Qt.MouseButton.LeftButton)
            return
        super().__call__(dialog)


def _webinar_row(tab: Any, title: str) -> int:
    return next(r for r in range(tab.model.rowCount()) if tab.model.index(r, TITLE).data() == title)


def test_the_same_customer_in_three_formats_is_one_offer(start: Any, qtbot: Any, saved: list[Path]) -> None:
    session = start(currency="USD")
    window = session.window
    tab = click_tab(window, OCCASIONS)
    click_row(tab, _row(tab, "Federal Tax Institute", "Chicago", "12/14/26"))
    webinar = _webinar_row(tab, "Ethics of Generative AI in Law Practice")
    click_row(tab, webinar, Qt.KeyboardModifier.ControlModifier)
    seller = FirstSeller()
    answer_dialogs(seller)
    for what in ("pdf", "ics"):
        before = status_text(window)
        QTest.mouseClick(tab.offer_buttons[what], Qt.MouseButton.LeftButton)
        qtbot.waitUntil(lambda b=before: status_text(window) != b, timeout=20000)
        assert status_text(window).startswith("Wrote"), status_text(window)
    assert seller.opened == [
        ("Offer for ", "", ""),
        ("Offer for Acme", "Acme", "Two seats, as agreed"),  # typing replaces them ("Offer for " kept)
    ]
    key(tab.view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier)  # copy for e-mail: asks too
    qtbot.waitUntil(lambda: status_text(window).startswith("Copied"), timeout=10000)
    assert seller.opened[2] == (
        "Offer for Acme",
        "Acme",
        "Two seats, as agreed",
    )  # the last answers

    mail = QApplication.clipboard().mimeData()
    text, html = mail.text(), mail.html()
    assert text.startswith("Offer for Acme\n\nTwo seats, as agreed\n\n")
    assert "<p>Offer for Acme</p><p>Two seats, as agreed</p>" in html
    (line,) = [x for x in text.splitlines() if x.startswith("Ethics of Generative AI")]
    assert "12:00 PM – 1:30 PM CST" in line  # 1 PM EST, in the customer's zone as chosen
    assert "Experts: Margaret L. Okafor" in line
    assert "<th>Experts</th>" in html and "Margaret L. Okafor" in html

    with Store(session.store_file) as store:  # Go ▸ Offers' list
        (offer,) = logged.offers(store)
    assert offer.title == "Offer for Acme" and offer.note == "Two seats, as agreed"
    pdf, ics = saved
    assert [(w.format, w.where) for w in offer.written] == [
        ("pdf", str(pdf)),
        ("ics", str(ics)),
        ("email", "clipboard"),
    ]


def test_the_first_save_dialogs_open_in_the_home_folder_without_documents(
    start: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    home = tmp_path / "home"  # a fresh user's: no Documents folder
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.chdir(tmp_path)  # the program's working folder
    proposed: list[Path] = []

    def save(parent: Any, caption: str, name: str, filters: str, *rest: Any) -> tuple[str, str]:
        proposed.append(Path(name))
        return "", ""  # cancelled

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    window = start(currency="USD").window
    tab = click_tab(window, OCCASIONS)
    click_row(tab, 0)
    answer_dialogs(Seller())
    QTest.mouseClick(tab.offer_buttons["pdf"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: len(proposed) == 1, timeout=20000)
    window.menu_actions.export_action.trigger()  # File ▸ Export visible rows…
    qtbot.waitUntil(lambda: len(proposed) == 2, timeout=20000)
    assert [p.parent for p in proposed] == [home, home]
    (home / "Documents").mkdir()
    window.menu_actions.export_action.trigger()  # the documents folder once there is one
    qtbot.waitUntil(lambda: len(proposed) == 3, timeout=20000)
    assert proposed[2].parent == home / "Documents"
