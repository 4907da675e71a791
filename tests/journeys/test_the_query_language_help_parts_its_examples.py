"""Help ▸ Query language: each example of a row reads as one (the first row's three questions
ran together as "illinois cpe next month texas courses under 1500 cle webinars by okafor")."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QTextBrowser

from tests.journeys.hands import when_dialog_opens


def test_the_first_row_shows_three_questions_apart(start: Any) -> None:
    window = start(finder_ready=False).window
    window.show()
    help_menu = next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == "Help")
    item = next(a for a in help_menu.actions() if a.text().replace("&", "").startswith("Query language"))
    read: list[str] = []

    def look(dialog: Any) -> None:
        read.append(dialog.findChild(QTextBrowser).toPlainText())
        dialog.reject()

    done = when_dialog_opens(look)
    item.trigger()
    assert done and read, "Help ▸ Query language did not open"
    text = " ".join(read[0].split())
    assert "illinois cpe next month · texas courses under 1500 · cle webinars by okafor" in text, text[:300]
    assert "next month texas" not in text
