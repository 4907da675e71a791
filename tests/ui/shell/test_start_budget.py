"""The start-up budget (``ui.shell.start_budget``): the shipped command, started on a cached
catalogue, paints its first page of rows before importing any module the budget keeps for after
the first paint. Counted, not timed: which modules were loaded when the rows were on screen."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.ui.shell.app import EXIT_WHEN_READY
from catalogue_desktop.ui.shell.start_budget import NOT_BEFORE_FIRST_PAINT, too_early


def _first_paint(cache: Path, home: Path) -> dict[str, Any]:
    """``catalogue-desktop --offline`` on ``cache``, closed once its first page is painted
    (``EXIT_WHEN_READY=1``): its report, with every module loaded by then."""
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        EXIT_WHEN_READY: "1",
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / "config"),
        "XDG_CACHE_HOME": str(home / "cache"),
        "XDG_DATA_HOME": str(home / "data"),
    }
    command = [sys.executable, "-m", "catalogue_desktop", "--offline", "--base-url", "http://127.0.0.1:9"]
    result = subprocess.run(
        [*command, "--cache-dir", str(cache)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    report: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return report


def test_the_first_page_is_painted_before_any_module_kept_for_later(
    filled_cache: Path, tmp_path: Path
) -> None:
    report = _first_paint(filled_cache, tmp_path)
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
