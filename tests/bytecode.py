"""The bytecode of a run made once, before the xdist workers start (``tests/conftest.py``).

On a clean clone nothing is compiled yet, and every worker compiles the package and rewrites
every test module's asserts (pytest's rewritten bytecode) at collection, all at the same time:
the same work three times (-n 3), about 40 CPU-seconds of the run's. Here the process that
starts the workers does it once, in one process per core, and writes the files the workers then
read: ``__pycache__/*.pyc`` for the package and the tests' helpers, pytest's own
``*-pytest-*.pyc`` for the test modules and conftest files.

Only speed depends on this: a file written here is the one the import system or pytest would
write (pytest's own functions make it, and both check it against the source before using it);
if pytest's private functions change, test modules are left to the workers to rewrite, as before.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import py_compile
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import pytest

_config: pytest.Config | None = None  # (read by the forked processes)


def compile_once(config: pytest.Config, root: Path) -> None:
    """Compile ``src/`` and ``tests/`` (``root``'s) in one process per core, if xdist is to
    start workers; otherwise (``-n 0``) the run compiles what it imports, once, as before."""
    global _config
    workers = getattr(config.option, "numprocesses", 0) or 0
    if os.environ.get("PYTEST_XDIST_WORKER") or not isinstance(workers, int) or workers < 2:
        return
    if getattr(config.option, "dist", "no") == "no" or config.option.collectonly:
        return
    files = sorted(str(path) for folder in ("src", "tests") for path in (root / folder).rglob("*.py"))
    cores = min(os.cpu_count() or 1, workers)
    chunks = [files[i::cores] for i in range(cores)]
    _config = config
    try:
        # (fork: the processes have ``config`` without pickling it; nothing else runs yet)
        with ProcessPoolExecutor(cores, mp_context=multiprocessing.get_context("fork")) as pool:
            list(pool.map(_compile, chunks))
    finally:
        _config = None


def _compile(paths: Sequence[str]) -> None:
    for path in paths:
        name = os.path.basename(path)
        if name == "conftest.py" or (name.startswith("test_") and name.endswith(".py")):
            _rewrite(Path(path))
        else:
            with contextlib.suppress(py_compile.PyCompileError, OSError):  # (the import reports it)
                py_compile.compile(path, doraise=True)


def _rewrite(path: Path) -> None:
    """Write the asserts-rewritten bytecode pytest's import hook would write for ``path``."""
    try:
        from _pytest.assertion import rewrite

        assert _config is not None
        state = _config.stash[rewrite.assertstate_key]
        pyc = rewrite.get_cache_dir(path) / (path.name[:-3] + rewrite.PYC_TAIL)
        if rewrite._read_pyc(path, pyc) is not None or not rewrite.try_makedirs(pyc.parent):
            return
        key, code = rewrite._rewrite_test(path, _config)
        rewrite._write_pyc(state, code, key, pyc)
    except Exception:  # (another pytest's private functions, a syntax error: the worker rewrites it)
        return
