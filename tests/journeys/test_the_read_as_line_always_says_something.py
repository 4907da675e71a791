"""A query typed in the query language (``state:IL fee:<1500``) is read as written: the line under
the box says so, instead of an empty strip under the box."""

from __future__ import annotations

from typing import Any

from PySide6.QtWidgets import QLabel

from catalogue_desktop.core.records.kinds import Kind
from tests.journeys.hands import click_tab, type_query


def _line(window: Any) -> list[str]:
    """The texts the line under the box shows (its visible labels, left to right)."""
    row = window.query_box.line
    shown = [w for w in row.findChildren(QLabel) if w.isVisible() and w.text()]
    return [w.text() for w in sorted(shown, key=lambda w: w.x())]


def test_a_query_in_the_language_is_said_to_be_read_as_written(start: Any) -> None:
    window = start().window
    window.show()
    click_tab(window, Kind.COURSES)
    type_query(window, "state:IL fee:<1500")
    assert window.current_tab().model.rowCount() > 0
    assert _line(window) == ["The query language, as written"], _line(window)
    type_query(window, "state:IL zzyzx")
    assert _line(window) == ["The query language, as written, and the words “zzyzx”"], _line(window)
    type_query(window, "")
    assert any("Ask in plain words" in t for t in _line(window)), _line(window)
