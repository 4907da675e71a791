"""A script run in a fresh interpreter, for what only a fresh process shows (what is imported or
made first, a Qt quirk before any window exists): its last line of output read back as JSON."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any


def run_json(code: str, *, offscreen: bool = True, timeout: float = 60) -> tuple[Any, str]:
    """Run ``code`` with ``python -c``; fail with its error output unless it exits 0; return the
    JSON value of its last line of output, and its error output."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"} if offscreen else None
    result = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1]), result.stderr
