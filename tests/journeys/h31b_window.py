# ruff: noqa: F811  (pytest fixtures imported from the window tests, then asked for by name)
"""What the layout, time and conventions journeys share: the window started on the cached demo
catalogue (offline), and a person's hands (clicks on tabs, rows and menus, keys).

The fixtures are the window tests' (``tests/ui/conftest.py``), imported by each test module:
settings and cache in the test's own folder, a session closed after the test.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMenu, QWidget

from tests.ui.conftest import (  # noqa: F401  (fixtures shared with the window tests)
    OFFSCREEN_NOISE,
    _no_keys_held,
    _private_settings_and_cache,
    cache_dir,
    filled_cache,
    filled_store_template,
    make_session,
    qloop,
)

OFFLINE = "http://127.0.0.1:9"  # no service: the cached demo catalogue only
NOISE = pytest.mark.qt_log_ignore(
    OFFSCREEN_NOISE,
    "This plugin does not support raise",
    "This plugin does not support grabbing the keyboard",
    "This plugin does not support setting window opacity",
)
ZONE = re.compile(r"(UTC[+−]\d\d:\d\d|\(UTC[+−]\d\d:\d\d\))$")  # a time's zone label, at its end


@pytest.fixture
def open_window(make_session: Any, filled_cache: Path, qtbot: Any) -> Any:
    """``open_window()``: the window on the cached demo catalogue, every row shown and the
    finder's tables built; call again for a restart (same settings)."""

    def started(**options: Any) -> Any:
        session = make_session(base_url=OFFLINE, offline=True, wait="ready", **options)
        qtbot.waitUntil(lambda: not session.finder.indexer.busy, timeout=10000)
        QApplication.processEvents()
        return session

    return started


def click_tab(window: Any, kind: Any) -> Any:
    """Click ``kind``'s tab on the tab bar; its tab."""
    bar = window.tab_widget.tabBar()
    index = window.tab_kinds().index(kind)
    QTest.mouseClick(
        bar, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, bar.tabRect(index).center()
    )
    QApplication.processEvents()
    assert window.current_kind() is kind
    return window.current_tab()


def click_row(tab: Any, row: int, column: int = 0) -> None:
    """Click a cell of the table (scrolled to it first, as a person would)."""
    index = tab.model.index(row, column)
    tab.view.scrollTo(index)
    QApplication.processEvents()
    rect = tab.view.visualRect(index)
    QTest.mouseClick(
        tab.view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, rect.center()
    )
    QApplication.processEvents()


def key(
    widget: QWidget, name: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
) -> None:
    """A key pressed in ``widget``'s window, which is the active one (as when a person types)."""
    if QApplication.activeWindow() is not widget.window():
        widget.window().activateWindow()
        QApplication.processEvents()
    QTest.keyClick(widget, name, modifier)
    QApplication.processEvents()


def type_query(window: Any, text: str) -> None:
    """Click into the query box, select what it holds, type ``text`` and Enter."""
    edit = window.query_box.edit
    QTest.mouseClick(edit, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(5, 5))
    QTest.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    QTest.keyClicks(edit, text)
    QTest.keyClick(edit, Qt.Key.Key_Return)
    QApplication.processEvents()


def menu_items(window: Any, title: str) -> list[str]:
    """The texts of a menu bar menu's items (submenus' items too, as "Sub ▸ Item")."""
    menu = next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == title)
    menu.aboutToShow.emit()  # menus filled when shown (Columns, Searches)

    def walk(m: QMenu, prefix: str) -> list[str]:
        out = []
        for act in m.actions():
            if act.isSeparator():
                continue
            text = prefix + act.text().replace("&", "")
            out.append(text)
            if act.menu() is not None:
                out += walk(act.menu(), text + " ▸ ")
        return out

    return walk(menu, "")


_POLLS: list[QTimer] = []  # every dialog poll still running: stopped when its test ends


def stop_polls() -> None:
    """Stop the polls whose dialog never opened: one firing after its test (during teardown, or
    at the interpreter's exit with its Python callable half torn down) crashed the run (exit
    status 139). The journeys' conftest calls this after every test."""
    for timer in _POLLS:
        timer.stop()
        timer.deleteLater()
    _POLLS.clear()


def when_dialog_opens(act: Any, timeout_ms: int = 5000) -> list[Any]:
    """Call ``act(dialog)`` once the next modal dialog (or message box) is open; returns
    [dialog] once done (empty if none opened)."""
    done: list[Any] = []
    waited = [0]
    timer = QTimer()
    timer.setInterval(20)
    _POLLS.append(timer)

    def poll() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            waited[0] += 20
            if waited[0] >= timeout_ms:
                timer.stop()
            return
        timer.stop()
        done.append(dialog)
        try:
            act(dialog)
        except BaseException:
            dialog.reject()  # a dialog that is not as expected: closed, the test fails (no hang)
            raise

    timer.timeout.connect(poll)
    timer.start()
    return done
