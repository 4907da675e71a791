"""The fast exit: exit handlers run, output is flushed, the code is kept, the interpreter's
teardown is skipped (unless a thread still runs); and it imports no Qt (every command ends in it)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.fixture
def env() -> dict[str, str]:
    return {
        k: v for k, v in os.environ.items() if k.lower() not in ("http_proxy", "https_proxy", "all_proxy")
    }


def _leave(env: dict[str, str], body: str) -> subprocess.CompletedProcess[str]:
    code = (
        "import atexit, sys, threading, time\n"
        "from catalogue_desktop.qt_compat.fast_exit import leave\n" + body
    )
    return subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60, check=False
    )


def test_leave_runs_exit_handlers_flushes_output_and_keeps_the_code(env: dict[str, str]) -> None:
    """``leave`` skips only the interpreter's teardown: exit handlers run (PySide's among them),
    buffered output is written, the exit code is the one given."""
    result = _leave(
        env,
        "atexit.register(print, 'handler ran')\n"
        "sys.stdout.write('x' * 200_000)\n"
        "print('to stderr', file=sys.stderr)\n"
        "leave(3)\n",
    )
    assert result.returncode == 3
    assert result.stdout == "x" * 200_000 + "handler ran\n"
    assert result.stderr == "to stderr\n"


def test_leave_skips_the_interpreter_s_teardown(env: dict[str, str]) -> None:
    """What the fast exit is for: objects still alive are not torn down one by one (a normal
    exit finalizes them; ``leave`` does not)."""
    body = "class Held:\n    def __del__(self):\n        sys.stdout.write('torn down\\n')\nheld = Held()\n"
    assert _leave(env, body + "sys.exit(0)\n").stdout == "torn down\n"  # the teardown it skips
    result = _leave(env, body + "leave(0)\n")
    assert (result.returncode, result.stdout) == (0, "")


def test_leave_waits_for_a_thread_still_running(env: dict[str, str], tmp_path: Path) -> None:
    """A non-daemon thread still at work (a write, say) is waited for, as a normal exit does."""
    done = tmp_path / "done"
    result = _leave(
        env,
        "def work():\n"
        "    time.sleep(0.3)\n"
        f"    open({str(done)!r}, 'w').write('written')\n"
        "threading.Thread(target=work).start()\n"
        "leave(4)\n",
    )
    assert result.returncode == 4, result.stderr
    assert done.read_text() == "written"


def test_the_fast_exit_imports_no_qt(env: dict[str, str]) -> None:
    """Every command (``sync``, ``export``, ``--version``) ends through it: it must not load Qt,
    nor the Qt layer (whose package answers PySide's probe by importing PySide)."""
    code = (
        "import json, sys\n"
        "import catalogue_desktop.qt_compat.fast_exit\n"
        "print(json.dumps(sorted(sys.modules)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=60, check=False
    )
    loaded = json.loads(result.stdout)
    assert not [name for name in loaded if name.split(".")[0] in ("PySide6", "shiboken6", "qasync")]
    assert "catalogue_desktop.ui" not in loaded
