"""Facets appear once their indexes are ready, whatever tab the window opens on."""

from __future__ import annotations

from typing import Any

from catalogue_desktop.core.records.kinds import OCCASIONS
from tests.journeys.hands import click_tab, preferences_ok

PREPARING = "Preparing the"


def test_restarted_on_dates_the_facets_appear_without_choosing_another_tab(start: Any, qtbot: Any) -> None:
    first = start()
    window = first.window
    window.facet_dock.show()
    click_tab(window, OCCASIONS)
    window.close()

    again = start(finder_ready=False).window
    assert again.current_kind() is OCCASIONS
    panel = again.facet_panel
    qtbot.waitUntil(
        lambda: PREPARING not in panel.heading.text() and panel.model.rowCount() > 0, timeout=10000
    )
    assert panel.heading.text().startswith("Dates:")


def test_preferences_ok_on_dates_brings_the_facets_back(start: Any, qtbot: Any) -> None:
    window = start().window
    window.facet_dock.show()
    click_tab(window, OCCASIONS)
    panel = window.facet_panel
    qtbot.waitUntil(lambda: PREPARING not in panel.heading.text(), timeout=5000)
    preferences_ok(qtbot, window)
    qtbot.waitUntil(
        lambda: PREPARING not in panel.heading.text() and panel.model.rowCount() > 0, timeout=10000
    )
    assert window.current_kind() is OCCASIONS
