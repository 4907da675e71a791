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

The same goes for Hypothesis's constants: at a worker's first property test, Hypothesis reads every
module of the package for the literals it then draws among (about 1.8 CPU-seconds for ``src/``),
keeping them in ``.hypothesis/constants`` by each file's digest, which a clean clone lacks: the
three workers would each read the whole package. They are written here by Hypothesis's own
function, keyed as it keys them; if that function changes, the workers read the modules, as before.
"""

from __future__ import annotations

import contextlib
import importlib.util
import multiprocessing
import os
import py_compile
import types
import warnings
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
    with contextlib.suppress(Exception):  # (imported once, before the processes fork)
        import hypothesis.internal.constants_ast  # noqa: F401
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
            if not _compiled(path):
                with contextlib.suppress(py_compile.PyCompileError, OSError):  # (the import reports it)
                    py_compile.compile(path, doraise=True)
            if f"{os.sep}tests{os.sep}" not in path:  # (Hypothesis reads no test's constants)
                _constants(path)


def _compiled(path: str) -> bool:
    """Whether ``path``'s bytecode is already the one the import system would use: its header
    names this Python's magic number and the source's modification time and size, as the import
    system checks (a warm run compiles nothing again)."""
    try:
        source = os.stat(path)
        with open(importlib.util.cache_from_source(path), "rb") as pyc:
            header = pyc.read(16)
    except (OSError, NotImplementedError, ValueError):
        return False
    return header == b"".join(
        (
            importlib.util.MAGIC_NUMBER,
            (0).to_bytes(4, "little"),  # (flags: checked against the source's time and size)
            (int(source.st_mtime) & 0xFFFFFFFF).to_bytes(4, "little"),
            (source.st_size & 0xFFFFFFFF).to_bytes(4, "little"),
        )
    )


def _constants(path: str) -> None:
    """Write the cache of Hypothesis's constants of the module at ``path`` (its own function; the
    warning it gives when called while pytest starts is about this very cost, paid here once)."""
    try:
        from hypothesis.errors import HypothesisSideeffectWarning
        from hypothesis.internal.constants_ast import constants_from_module

        module = types.ModuleType(os.path.basename(path)[:-3])
        module.__file__ = path
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", HypothesisSideeffectWarning)
            constants_from_module(module)
    except Exception:  # (another Hypothesis: the worker reads the module)
        return


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
