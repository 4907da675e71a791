"""Another process holding a lock on a SQLite file, for as long as a ``with`` block runs."""

import subprocess
import sys
import textwrap
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

_HOLDER = """
    import sqlite3, sys
    path, journal, begin, finish, *statements = sys.argv[1:]
    db = sqlite3.connect(path, isolation_level=None)
    if journal != "-":
        db.execute(f"PRAGMA journal_mode={journal}")
    db.execute(begin)
    for sql in statements:
        db.execute(sql)
    print("held", flush=True)
    sys.stdin.readline()
    db.execute(finish)
    db.close()
"""


@contextmanager
def lock_held(
    path: Path, begin: str, *statements: str, journal: str = "-", finish: str = "ROLLBACK"
) -> Iterator[None]:
    """Run ``begin`` (and ``statements``) in another process; ``finish`` it when the block ends."""
    args = [str(path), journal, begin, finish, *statements]
    with subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(_HOLDER), *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as proc:
        assert proc.stdout is not None and proc.stdin is not None
        try:
            assert proc.stdout.readline().strip() == "held"
            yield
        finally:
            proc.stdin.write("\n")
            proc.stdin.flush()
        assert proc.wait(timeout=10) == 0
