"""A profiles.json and a settings file edited by hand into nonsense (issue 35): the window still
opens, on the defaults, and its status says once what was wrong and where the file was kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from catalogue_desktop.core.records.kinds import Kind
from tests.journeys.hands import click_tab


def test_the_window_opens_on_defaults_and_says_what_was_wrong(
    start: Any, _private_settings_and_cache: Path
) -> None:
    folder = _private_settings_and_cache / "catalogue-desktop"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "profiles.json").write_text('{"profiles": 5}')
    (folder / "catalogue-desktop.ini").write_text(
        "[window]\nlast_tab=1000000000000\n[tabs]\ncourses\\sort_column=99999999999\n", encoding="utf-8"
    )
    window = start().window
    assert window.isVisible()
    said = window.status.message.text()
    assert f'{folder / "profiles.json"}: its "profiles" is a number, not a list; kept aside as' in said
    assert "window/last_tab = '1000000000000' is not a whole number" in said
    assert list(folder.glob("profiles.json.bad-*"))
    click_tab(window, Kind.COURSES)
    assert window.current_tab().kind is Kind.COURSES
