"""Preferences keeps what the user chose, nothing else (issue 39, point 17): OK on the webinar types
as shown writes no label ("Type 3" is what a code without one shows, not a choice); a label typed
in is written and shown after a restart. The settings file is read back as a file."""

from __future__ import annotations

import configparser
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox, QTableWidget

from catalogue_desktop.core.records.kinds import Kind
from tests.journeys.hands import click_tab, when_dialog_opens


def _types_section(window: Any) -> dict[str, str]:
    """``[types]`` of the settings file, as the file holds it."""
    window.settings.sync()
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read(Path(window.settings.q.fileName()), encoding="utf-8")
    return dict(parser["types"]) if parser.has_section("types") else {}


def _label_of(dialog: Any, code: str) -> Any:
    table = dialog.findChild(QTableWidget, "type-labels")
    row = next(r for r in range(table.rowCount()) if table.item(r, 0).text() == code)
    return table.item(row, 1)


def _ok(dialog: Any) -> None:
    ok = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Ok)
    QTest.mouseClick(ok, Qt.MouseButton.LeftButton)


def test_ok_on_the_types_as_shown_keeps_no_label_and_a_typed_one_is_kept(start: Any) -> None:
    window = start().window
    shown: list[str] = []

    def look_and_ok(dialog: Any) -> None:
        shown.append(_label_of(dialog, "3").text())
        _ok(dialog)

    when_dialog_opens(look_and_ok)
    window.menu_actions.preferences_action.trigger()  # OK, nothing changed
    assert shown == ["Type 3"]  # (the demo's webinars have a type 3 that no label explains)
    written = _types_section(window)
    assert "Type 3" not in written.values() and not written, written  # defaults stay defaults

    def relabel(dialog: Any) -> None:
        _label_of(dialog, "3").setText("Recorded replay")
        _ok(dialog)

    when_dialog_opens(relabel)
    window.menu_actions.preferences_action.trigger()
    assert _types_section(window).get("3\\label") == "Recorded replay"
    window.close()

    again = start().window  # a restart: the label chosen is shown, the defaults still apply
    tab = click_tab(again, Kind.WEBINARS)
    texts = {tab.model.index(r, c).data() for r in range(tab.model.rowCount()) for c in range(3)}
    assert "Recorded replay" in texts and "On demand" in texts
