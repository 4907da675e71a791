"""PySide's own Python support modules, compiled once and kept, not compiled again at every start;
and the regular expressions they compile as they load.

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

The same modules then compile 16 regular expressions as they load, three of them ~6,000
characters each (the signature parser's and the ``.pyi`` generator's): another ~130 M
instructions, Python's ``re`` parsing them in Python. ``re`` caches them per process only. So
within the same import ``re.compile`` is answered from the cache too: what ``re``'s compiler hands
to ``_sre.compile`` (the flags, the compiled code as a list of ints, the groups and their names)
is kept per pattern and flags, and given to ``_sre.compile`` again, which checks the code as it
does for ``re``'s own. Kept only for CPython 3.11 (``re._compiler.compile``'s steps are repeated
here; another Python compiles them as before), the cache tied to ``sys.version`` and
``_sre.MAGIC``: any other version's cache is not used.

Measured on PySide6 6.11.3 (Python 3.11); ``tests/qt_compat/test_support_code.py`` shows that a
second start compiles none of them nor their patterns, and that what they do (signatures) still
works.
"""

from __future__ import annotations

import builtins
import importlib
import marshal
import os
import re
import sys
import zlib
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from types import CodeType
from typing import Any

PREFIX = "shibokensupport/"  # (the names the bootstrap compiles its files under)
_FORMAT = 2
CACHE_FILE = (
    Path(__file__).resolve().parent
    / "__pycache__"
    / f"shibokensupport.{sys.implementation.cache_tag}.marshal{marshal.version}.bin"
)
# re's compiler and _sre (no type stubs: private modules), where their steps are known
_PATTERNS_KEPT = sys.implementation.name == "cpython" and sys.version_info[:2] == (3, 11)
_sre = importlib.import_module("_sre") if _PATTERNS_KEPT else None
_re_compiler = importlib.import_module("re._compiler") if _PATTERNS_KEPT else None
_re_parser = importlib.import_module("re._parser") if _PATTERNS_KEPT else None
_VERSION = (sys.version, getattr(_sre, "MAGIC", None))

Pattern = tuple[int, list[int], int, dict[str, int], tuple[str | None, ...]]


class _Cache:
    """What is kept: file name -> (length, CRC-32 of the source, code); and (pattern, flags) ->
    what ``_sre.compile`` takes besides the pattern."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.entries, self.patterns = _read(path)
        self.compiled: list[str] = []  # (file names compiled while importing: written after)
        self.reused: list[str] = []
        self.patterns_compiled = 0
        self.patterns_reused = 0

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

    def re_compile(self, pattern: Any, flags: Any = 0) -> Any:
        """``re.compile``, the pattern made from what was kept (see the module doc)."""
        if isinstance(pattern, re.Pattern) or not isinstance(pattern, (str, bytes)):
            return _REAL_RE_COMPILE(pattern, flags)
        flags = int(flags)
        if flags & (re.DEBUG | re.TEMPLATE):
            return _REAL_RE_COMPILE(pattern, flags)
        kept = self.patterns.get((pattern, flags))
        if kept is not None:
            try:
                made = _sre.compile(pattern, *kept)  # type: ignore[union-attr]
            except (TypeError, ValueError, RuntimeError, OverflowError):
                del self.patterns[(pattern, flags)]
            else:
                self.patterns_reused += 1
                return made
        steps = _compile_steps(pattern, flags)
        self.patterns[(pattern, flags)] = steps
        self.patterns_compiled += 1
        return _sre.compile(pattern, *steps)  # type: ignore[union-attr]

    def write(self) -> None:
        """Keep the code objects when one was compiled (see the module doc: as ``.pyc`` files)."""
        if not (self.compiled or self.patterns_compiled) or sys.dont_write_bytecode:
            return
        temporary = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(exist_ok=True)
            temporary.write_bytes(marshal.dumps((_FORMAT, _VERSION, self.entries, self.patterns)))
            os.replace(temporary, self.path)
        except (OSError, ValueError):
            with suppress(OSError):
                temporary.unlink()


def _compile_steps(pattern: str | bytes, flags: int) -> Pattern:
    """What ``re._compiler.compile`` (CPython 3.11) hands to ``_sre.compile`` after the pattern."""
    parsed = _re_parser.parse(pattern, flags)  # type: ignore[union-attr]
    code = _re_compiler._code(parsed, flags)  # type: ignore[union-attr]
    groupindex = dict(parsed.state.groupdict)
    indexgroup: list[str | None] = [None] * parsed.state.groups
    for name, index in groupindex.items():
        indexgroup[index] = name
    # (ints: the opcodes are int subclasses, which marshal cannot write)
    return (
        flags | parsed.state.flags,
        [int(op) for op in code],
        parsed.state.groups - 1,
        groupindex,
        tuple(indexgroup),
    )


_REAL_COMPILE = builtins.compile
_REAL_RE_COMPILE = re.compile
last: _Cache | None = None  # (the last import's cache: what it compiled and reused, for tests)


@contextmanager
def compiled_once(path: Path | None = None) -> Iterator[None]:
    """Within: the built-in ``compile`` answers PySide's support files from the cache at ``path``
    (default ``CACHE_FILE``), and ``re.compile`` their patterns; after: the real ones back, and
    the cache written if it grew."""
    global last
    cache = _Cache(CACHE_FILE if path is None else path)
    last = cache
    builtins.compile = cache.compile
    if _PATTERNS_KEPT:
        re.compile = cache.re_compile
    try:
        yield
    finally:
        builtins.compile = _REAL_COMPILE
        re.compile = _REAL_RE_COMPILE
    cache.write()


def _read(path: Path) -> tuple[dict[str, tuple[int, int, Any]], dict[tuple[Any, int], Pattern]]:
    """The entries of the cache file at ``path``; none when it is missing, damaged, of another
    format or of another Python."""
    try:
        data = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}, {}
    if not (
        isinstance(data, tuple)
        and len(data) == 4
        and data[0] == _FORMAT
        and data[1] == _VERSION
        and isinstance(data[2], dict)
        and isinstance(data[3], dict)
    ):
        return {}, {}
    entries: dict[str, tuple[int, int, Any]] = {}
    for name, entry in data[2].items():
        if (
            isinstance(name, str)
            and isinstance(entry, tuple)
            and len(entry) == 3
            and isinstance(entry[0], int)
            and isinstance(entry[1], int)
            and isinstance(entry[2], CodeType)
        ):
            entries[name] = entry
    patterns: dict[tuple[Any, int], Pattern] = {}
    for key, steps in data[3].items():
        if (
            isinstance(key, tuple)
            and len(key) == 2
            and isinstance(key[0], (str, bytes))
            and isinstance(key[1], int)
            and isinstance(steps, tuple)
            and len(steps) == 5
        ):
            patterns[key] = steps
    return entries, patterns
