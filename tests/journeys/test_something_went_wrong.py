"""When something breaks anyway (issue 35): an exception in a slot the window runs is logged and
shown as "Something went wrong" (Copy details, the log's place), and the window goes on; Help ▸
Report a problem… puts versions, the catalogue, the connection doctor's summary and the log's
last lines on the clipboard, with no secret of the service's address."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.demo.server import DemoServer
from catalogue_desktop.ui.shell import dialogs
from catalogue_desktop.ui.sync.status_details import StatusDetails
from tests.journeys.hands import click_tab, quick_open, type_query

SECRET = "s3cret-Pw-4411"


@pytest.mark.qt_no_exception_capture
def test_an_exception_in_a_slot_is_logged_and_shown_and_the_window_goes_on(
    qtbot: Any, start: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    def broken_about(dialogs: Any) -> None:
        raise RuntimeError(f"about broke (token={SECRET})")

    monkeypatch.setattr(dialogs.Dialogs, "about", broken_about)
    window = start().window
    quick_open(qtbot, window, "About", first="Help")
    qtbot.waitUntil(lambda: window.findChild(object, "fault-dialog") is not None)
    dialog = window.findChild(object, "fault-dialog")
    qtbot.waitUntil(dialog.isVisible)
    assert dialog.windowTitle() == "Something went wrong" and not dialog.isModal()
    assert dialog.headline.text() == "Something went wrong: RuntimeError: about broke (token=***)"
    log = tmp_path / "log" / "catalogue-desktop.log"
    assert str(log) in dialog.place.text()
    written = log.read_text(encoding="utf-8")
    assert "RuntimeError: about broke (token=***)" in written and "in broken_about" in written
    assert "Traceback (most recent call last)" in written and SECRET not in written

    qtbot.mouseClick(dialog.copy_button, Qt.MouseButton.LeftButton)
    copied = QApplication.clipboard().text()
    assert "RuntimeError: about broke" in copied and f"Log: {log}" in copied and SECRET not in copied
    qtbot.keyClick(dialog, Qt.Key.Key_Escape)
    assert not dialog.isVisible()

    assert window.isVisible()  # and it still answers
    click_tab(window, Kind.COURSES)
    type_query(window, "city:chicago")
    qtbot.waitUntil(lambda: window.current_tab().model.rowCount() > 0)
    quick_open(qtbot, window, "About", first="Help")  # the same again: one dialog, counted
    qtbot.waitUntil(lambda: "(2 problems since the window opened)" in dialog.headline.text())
    assert dialog.isVisible() and len(window.findChildren(type(dialog))) == 1
    assert log.read_text(encoding="utf-8").count(" ERROR RuntimeError: about broke") == 2


def _report(qtbot: Any, window: Any) -> str:
    with qtbot.waitSignal(window.problem_report_requested, timeout=5000):
        quick_open(qtbot, window, "Report a problem", first="Help")
    qtbot.waitUntil(lambda: "Copied a problem report" in window.statusBar().currentMessage(), timeout=30000)
    copied = QApplication.clipboard().text()
    shown = [d for d in QApplication.topLevelWidgets() if isinstance(d, StatusDetails) and d.isVisible()]
    assert len(shown) == 1 and "copied to the clipboard" in shown[0].windowTitle()  # the "…" opens it
    assert shown[0].view.toPlainText() == copied  # what is sent, shown as it is
    shown[0].close()
    return copied


def test_report_a_problem_offline_runs_no_doctor_and_hides_the_address_secret(
    qtbot: Any, make_session: Any, filled_cache: Path
) -> None:
    session = make_session(base_url=f"http://alice:{SECRET}@127.0.0.1:9", offline=True, wait="ready")
    text = _report(qtbot, session.window)
    assert SECRET not in text
    heads = [line for line in text.splitlines() if line.startswith("== ")]
    assert heads[:3] == ["== Versions ==", "== Catalogue ==", "== Connection doctor =="]
    assert heads[3].startswith("== Last lines of the log (")
    assert "Catalogue Desktop " in text and "Python: 3." in text and "Qt: 6." in text
    assert "not run: offline mode (--offline) contacts nothing" in text
    assert "127.0.0.1:9 (offline mode)" in text


def test_report_a_problem_runs_the_doctor_off_the_gui_thread(
    qtbot: Any, make_session: Any, cache_dir: Path, sample: dict[Kind, bytes]
) -> None:
    with DemoServer(sample) as server:
        plain = server.base_url
        session = make_session(base_url=plain.replace("http://", f"http://bob:{SECRET}@"), wait="synced")
        text = _report(qtbot, session.window)
    assert SECRET not in text
    assert f"Connection check of {plain.replace('http://', 'http://bob:***@')}" in text  # user:***@
    assert "No problem found: the catalogue can be read through this path." in text
