"""The shipped command run as a person starts it: ``python -m catalogue_desktop --offline`` on a
cached catalogue, in a process of its own, closed once it is ready (``EXIT_WHEN_READY``), its
report read back. Shared by the entry point's tests (``test_app``) and the start-up budget's
(``test_start_budget``)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from catalogue_desktop.ui.shell.app import EXIT_WHEN_READY


def exit_when_ready(cache: Path, home: Path, value: str = "1") -> dict[str, Any]:
    """``catalogue-desktop --offline`` on ``cache`` with ``EXIT_WHEN_READY=value`` (``1``: once
    its first page is painted; ``all``: once every cached row is read), its home, settings,
    caches and data under ``home``: the JSON report it prints last (the rows shown, every
    module loaded by then...)."""
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        EXIT_WHEN_READY: value,
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
