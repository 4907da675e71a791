"""PySide's support modules (``shibokensupport``, compiled from source by its bootstrap at every
first import) are compiled once and kept: a second start compiles none of them, and what they do
(the signatures of Qt's functions) still works. Counted in fresh interpreters, not timed."""

from __future__ import annotations

import json
import marshal
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.qt_compat import support_code

# A start of the window's imports in a fresh interpreter, the support modules' cache at argv[1];
# every call of the real ``compile`` is counted (the cache's ``compile`` passes misses on to it).
_START = textwrap.dedent("""
    import builtins, json, sys
    from pathlib import Path
    compiled = []
    real = builtins.compile
    def counting(source, filename, *args, **kwargs):
        compiled.append(str(filename))
        return real(source, filename, *args, **kwargs)
    builtins.compile = counting
    from catalogue_desktop.qt_compat import support_code
    support_code._REAL_COMPILE = counting
    support_code.CACHE_FILE = Path(sys.argv[1])
    import catalogue_desktop.ui
    from PySide6.QtCore import QObject
    try:
        QObject().setObjectName(1)  # (the support modules' parser words the error)
    except TypeError as exc:
        error = str(exc)
    print(json.dumps({
        "support": sorted(n for n in compiled if n.startswith(support_code.PREFIX)),
        "reused": len(support_code.last.reused),
        "patterns": support_code.last.patterns_compiled,
        "patterns_reused": support_code.last.patterns_reused,
        "compile_back": builtins.compile is counting,
        "error": error,
    }))
""")


def _start(cache: Path, **env: str) -> dict[str, Any]:
    result = subprocess.run(
        [sys.executable, "-c", _START, str(cache)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        env={**_environ(), **env},
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def _environ() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def test_a_second_start_compiles_none_of_pyside_s_support_files(tmp_path: Path) -> None:
    cache = tmp_path / "support.bin"
    first = _start(cache)
    assert len(first["support"]) >= 10, first  # (PySide 6.11: ~20 files, each compiled)
    assert cache.is_file()
    second = _start(cache)
    assert second["support"] == []
    assert second["reused"] == len(first["support"])
    assert first["patterns"] >= 3 and second["patterns"] == 0  # (16 with PySide 6.11.3)
    assert second["patterns_reused"] == first["patterns"]
    assert second["compile_back"] and first["compile_back"]  # the real compile put back
    assert second["error"] == first["error"]
    assert "Supported signatures:\n  PySide6.QtCore.QObject.setObjectName(name: str, /)" in second["error"]


def test_a_damaged_cache_is_compiled_again_and_replaced(tmp_path: Path) -> None:
    cache = tmp_path / "support.bin"
    cache.write_bytes(b"\x00not marshal at all")
    first = _start(cache)
    assert len(first["support"]) >= 10
    assert _start(cache)["support"] == []


def test_nothing_is_written_without_bytecode(tmp_path: Path) -> None:
    cache = tmp_path / "support.bin"
    first = _start(cache, PYTHONDONTWRITEBYTECODE="1")
    assert len(first["support"]) >= 10
    assert not cache.exists()


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\x01",
        marshal.dumps((2, {})),
        marshal.dumps((1, {"x": 3})),
        marshal.dumps((2, ("3.0", 1), {}, {("a", 0): (0, [], 0, {}, ())})),  # (another Python)
    ],
)
def test_an_unreadable_cache_holds_nothing(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "c.bin"
    path.write_bytes(content)
    assert support_code._read(path) == ({}, {})


def test_a_kept_pattern_is_the_pattern_re_makes(tmp_path: Path) -> None:
    """Every pattern PySide's support modules compiled, made again from what was kept, is the one
    re makes: CPython's patterns are equal when their flags, text and compiled code are."""
    cache = tmp_path / "support.bin"
    _start(cache)
    entries, patterns = support_code._read(cache)
    assert entries and len(patterns) >= 3
    for (pattern, flags), steps in patterns.items():
        made = support_code._sre.compile(pattern, *steps)  # type: ignore[union-attr]
        expected = re.compile(pattern, flags)
        assert made == expected
        assert (made.groups, made.groupindex) == (expected.groups, expected.groupindex)
    assert re.compile("a(b)") != re.compile("a(c)")  # (equality looks at the code)
