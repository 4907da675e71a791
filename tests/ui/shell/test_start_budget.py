"""The start-up budget (``ui.shell.start_budget``): the shipped command, started on a cached
catalogue, paints its first page of rows before importing any module the budget keeps for after
the first paint. Counted, not timed: which modules were loaded when the rows were on screen."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from catalogue_desktop.ui.shell.start_budget import NOT_BEFORE_FIRST_PAINT, too_early
from tests.ui.shell.shipped_command import exit_when_ready


def test_the_first_page_is_painted_before_any_module_kept_for_later(
    filled_cache: Path, tmp_path: Path
) -> None:
    report = exit_when_ready(filled_cache, tmp_path)  # once its first page is painted
    assert report["rows_shown"] > 0  # the first page is on screen
    modules = report["modules"]
    assert "PySide6.QtWidgets" in modules and "catalogue_desktop.ui.shell.main_window" in modules
    early = [
        f"{name}: {reason}"
        for name in modules
        for banned, reason in NOT_BEFORE_FIRST_PAINT.items()
        if name == banned or name.startswith(banned + ".")
    ]
    assert early == [], "imported before the first paint, against ui/shell/start_budget.py:\n" + "\n".join(
        early
    )
    assert report["too_early"] == []
    # no thread before the first paint: Qt's raster fills are not handed to its GUI thread pool
    # (qt_compat.paint_threads; a bare QMainWindow starts none either)
    assert report["threads"] in (1, None)


def test_a_module_of_the_budget_loaded_before_the_paint_is_named() -> None:
    assert too_early(
        ["zoneinfo", "zoneinfo._common", "zones", "json", "catalogue_desktop.core.offers.logged"]
    ) == [
        "catalogue_desktop.core.offers.logged",
        "zoneinfo",
        "zoneinfo._common",
    ]


@pytest.mark.parametrize(
    "name", sorted(n for n in NOT_BEFORE_FIRST_PAINT if n.startswith("catalogue_desktop."))
)
def test_each_module_of_ours_in_the_budget_exists(name: str) -> None:
    """A module renamed or moved must be renamed in the budget too, or the check would pass
    without checking anything."""
    assert importlib.util.find_spec(name) is not None, name


def test_each_entry_says_why() -> None:
    assert all(len(reason.split()) >= 4 for reason in NOT_BEFORE_FIRST_PAINT.values())
