"""PySide's own Python support modules, compiled once and kept, not compiled again at every start.

Why: shiboken6 carries its support modules (``shibokensupport``: the signature parser and
mapping, the ``.pyi`` generator, the feature switch; ~20 files) as a zip of *sources* inside its
library, and at every first import of PySide its bootstrap (``signature_bootstrap.py``,
``EmbeddableZipImporter.exec_module``) compiles each one from source, ``compile(f.read(),
filename, "exec")``: ~130 M instructions of a start (valgrind cachegrind; a bare PySide program
with an empty ``QMainWindow`` is ~634 M in all, a fifth of it this), ~25-40 ms of CPU. Python
caches its own modules' bytecode (``__pycache__``); these are never cached. PySide's way out,
``SBK_EMBED=0``, unpacks them as files into its installed package, which the app does not change.

So while PySide is first imported (``compiled_once``, around ``qt_compat.pyside_import``'s
``import PySide6.QtCore``), the built-in ``compile`` answers a call for one of those files with a
code object kept in a cache file, keyed by the file's name, length and CRC-32 of its source (a
changed PySide compiles again), beside this module's own bytecode, and Python's tag and
``marshal`` version in its name and header; the real ``compile`` is put back after. A file
compiled meanwhile (the first start, a new PySide) is written to the cache afterwards, as Python
writes ``.pyc`` files: not with ``sys.dont_write_bytecode``, silently not where it cannot write
(a read-only install or a bundle: each start compiles then, as PySide does). A cache that cannot
be read is ignored. Other calls of ``compile`` meanwhile are passed on (``dont_inherit`` set
unless given: the bootstrap's own calls inherit no ``__future__`` flags, and this module's must
not leak into them).

Measured on PySide6 6.11.3 (Python 3.11); ``tests/qt_compat/test_support_code.py`` shows that a
second start compiles none of them and that what they do (signatures) still works.
"""

from __future__ import annotations

import builtins
import marshal
import os
import sys
import zlib
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import CodeType
from typing import Any

PREFIX = "shibokensupport/"  # (the names the bootstrap compiles its files under)
_FORMAT = 1
CACHE_FILE = (
    Path(__file__).resolve().parent
    / "__pycache__"
    / f"shibokensupport.{sys.implementation.cache_tag}.marshal{marshal.version}.bin"
)


class _Cache:
    """The code objects kept: file name -> (length, CRC-32 of the source, code)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries = _read(path)
        self.compiled: list[str] = []  # (file names compiled while importing: written after)
        self.reused: list[str] = []

    def compile(self, source: Any, filename: Any, mode: str, *args: Any, **kwargs: Any) -> Any:
        if (
            mode != "exec"
            or args
            or kwargs
            or not isinstance(filename, str)
            or not filename.startswith(PREFIX)
            or not isinstance(source, bytes)
        ):
            kwargs.setdefault("dont_inherit", True)
            return _REAL_COMPILE(source, filename, mode, *args, **kwargs)
        key = (len(source), zlib.crc32(source))
        kept = self.entries.get(filename)
        if kept is not None and kept[:2] == key:
            self.reused.append(filename)
            return kept[2]
        code = _REAL_COMPILE(source, filename, mode, dont_inherit=True)
        self.entries[filename] = (*key, code)
        self.compiled.append(filename)
        return code

    def write(self) -> None:
        """Keep the code objects when one was compiled (see the module doc: as ``.pyc`` files)."""
        if not self.compiled or sys.dont_write_bytecode:
            return
        temporary = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(exist_ok=True)
            temporary.write_bytes(marshal.dumps((_FORMAT, self.entries)))
            os.replace(temporary, self.path)
        except (OSError, ValueError):
            with suppress(OSError):
                temporary.unlink()


_REAL_COMPILE = builtins.compile
last: _Cache | None = None  # (the last import's cache: what it compiled and reused, for tests)


@contextmanager
def compiled_once(path: Path | None = None) -> Iterator[None]:
    """Within: the built-in ``compile`` answers PySide's support files from the cache at ``path``
    (default ``CACHE_FILE``); after: the real one back, and the cache written if it grew."""
    global last
    cache = _Cache(CACHE_FILE if path is None else path)
    last = cache
    builtins.compile = cache.compile
    try:
        yield
    finally:
        builtins.compile = _REAL_COMPILE
    cache.write()


def _read(path: Path) -> dict[str, tuple[int, int, Any]]:
    """The entries of the cache file at ``path``; none when it is missing, damaged or of another
    format."""
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not (isinstance(data, tuple) and len(data) == 2 and data[0] == _FORMAT and isinstance(data[1], dict)):
        return {}
    entries: dict[str, tuple[int, int, Any]] = {}
    for name, entry in data[1].items():
        if (
            isinstance(name, str)
            and isinstance(entry, tuple)
            and len(entry) == 3
            and isinstance(entry[0], int)
            and isinstance(entry[1], int)
            and isinstance(entry[2], CodeType)
        ):
            entries[name] = entry
    return entries
