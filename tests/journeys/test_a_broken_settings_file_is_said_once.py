"""A profiles.json and a settings file edited by hand into nonsense (issue 35): the window still
opens, on the defaults, and its status says once what was wrong and where the file was kept."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.records.kinds import Kind
from tests.journeys.conftest import NOISE
from tests.journeys.hands import click_tab, preferences_ok


@pytest.mark.qt_log_ignore(  # (Qt's own words on the junk @Variant values; the journeys' noise)
    "QVariant::load: unknown user type", "Trying to construct an instance of an invalid type", *NOISE
)
def test_the_window_opens_on_defaults_and_says_what_was_wrong(
    qtbot: Any, start: Any, _private_settings_and_cache: Path
) -> None:
    folder = _private_settings_and_cache / "catalogue-desktop"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "profiles.json").write_text('{"profiles": 5}')
    (folder / "catalogue-desktop.ini").write_text(
        "[window]\nlast_tab=1000000000000\ndetail_split=1, 2, 3\ngeometry=@ByteArray(junk)\n"
        "state=@Variant(\\0\\0\\0\\x7f\\0\\0\\0)\ndetails_shown=a, b\n"
        "[tabs]\ncourses\\sort_column=99999999999\ncourses\\header=@ByteArray(\\xff\\xff)\n"
        "[offers]\nmax_age_days=99999999999999999999999\ncustomer_zone=Mars/Base\npaper=a, b\n"
        "[display]\nevent_zones=1, 2\ncurrency=x, y\n"
        "[types]\n1\\label=a, b\n1\\on_demand=@Variant(junk)\n"
        "[finder]\nsaved=" + "[" * 100_000 + "\n",
        encoding="utf-8",
    )
    window = start(finder_ready=False).window
    assert window.isVisible()
    said = window.status.message.text()
    assert f'{folder / "profiles.json"}: its "profiles" is a number, not a list; kept aside as' in said
    assert "window/last_tab = '1000000000000' is not a whole number" in said
    assert list(folder.glob("profiles.json.bad-*"))
    click_tab(window, Kind.COURSES)
    assert window.current_tab().kind is Kind.COURSES
    preferences_ok(qtbot, window)  # Preferences open on these values, and OK writes sane ones
    assert window.isVisible()
