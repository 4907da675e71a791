"""The status area is one line that says how old the catalogue is, in words ("Catalogue from
2 hours ago"); offline it says so once with the copy's date, not eight identical lines with sixteen
buttons; the collections are one click away (Details) and go away again."""

from __future__ import annotations

import socket
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QLabel, QPushButton

from catalogue_desktop.core.records.kinds import ALL_KINDS


def _one_line(label: QLabel) -> bool:
    return label.isVisible() and label.height() < 2 * label.fontMetrics().height()


def _shown_buttons(window: Any) -> list[str]:
    return [b.text() for b in window.status.findChildren(QPushButton) if b.isVisible()]


def _free_port() -> int:
    with socket.socket() as s:  # (bound, never listening: the connection is refused)
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_the_status_is_one_line_with_the_age_and_details_a_click_away(start: Any, qtbot: Any) -> None:
    window = start(finder_ready=False).window
    window.show()
    window.resize(1366, 768)
    QApplication.processEvents()
    line = window.status.findChild(QLabel, "statusLine")  # the line a person reads
    assert line is not None, "no status line"
    assert _one_line(line)
    assert line.text().startswith("Catalogue from ") and " ago" in line.text(), line.text()
    assert window.status_dock.height() <= 2 * line.fontMetrics().height() + 24, window.status_dock.height()

    def names() -> list[QLabel]:
        return [lbl for lbl in window.status.rows.findChildren(QLabel) if lbl.text() == "Webinars"]

    assert not [lbl for lbl in names() if lbl.isVisible()]  # (not made until Details is clicked)

    more = window.status.findChild(QPushButton, "statusMore")
    QTest.mouseClick(more, Qt.MouseButton.LeftButton)  # the collections, one click away
    QApplication.processEvents()
    assert names() and names()[0].isVisible() and window.status.rows.isVisible()
    assert "up to date" in window.status.shown_text(ALL_KINDS[0]) or "from cache" in window.status.shown_text(
        ALL_KINDS[0]
    )
    QTest.mouseClick(more, Qt.MouseButton.LeftButton)
    QApplication.processEvents()
    assert not names()[0].isVisible()


def test_offline_the_line_says_so_once_with_the_copy_s_date(
    make_session: Any, filled_cache: Any, qtbot: Any
) -> None:
    session = make_session(base_url=f"http://127.0.0.1:{_free_port()}", wait="ready")
    window = session.window
    window.show()
    window.resize(1024, 700)
    with qtbot.waitSignal(session.synced, timeout=15000):
        pass
    QApplication.processEvents()
    assert all(window.status.status(kind) == "failed" for kind in ALL_KINDS)
    line = window.status.findChild(QLabel, "statusLine")  # the line a person reads
    assert line is not None, "no status line"
    assert _one_line(line)
    assert line.text().startswith("Offline — showing the copy from "), line.text()
    assert _shown_buttons(window) == ["Try again", "Details"]  # not 8 x (Details…, Retry)
