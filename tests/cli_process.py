"""The command line run as a person runs it: ``python -m catalogue_desktop ARGS`` in a fresh
process, its output as text, and never a traceback."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path


def run_cli(
    *args: str,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = 120,
    stdin: str | None = None,
    stdout_too: bool = True,
) -> subprocess.CompletedProcess[str]:
    """Run the command; no traceback on stderr (nor on stdout, unless ``stdout_too`` is False)."""
    result = subprocess.run(
        [sys.executable, "-m", "catalogue_desktop", *args],
        capture_output=True,
        text=True,
        encoding="utf-8",
        env=None if env is None else dict(env),
        timeout=timeout,
        cwd=cwd,
        input=stdin,
        check=False,
    )
    assert "Traceback" not in result.stderr, result.stderr
    if stdout_too:
        assert "Traceback" not in result.stdout, result.stdout
    return result
