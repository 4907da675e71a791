"""Store files opened defensively: a file's layout checked before its tables are read, and every
statement bounded.

A cache file is data from the disk: whoever can write it can plant a view where a table is
expected (``CREATE VIEW rows AS WITH RECURSIVE ...``: a ``find`` that never ends), a trigger, or a
table without a column the app reads. ``refuse_planted`` refuses a file holding anything but
tables and indexes before any of its tables is read; ``check_tables`` that each table the app uses
is a plain table with the columns it reads. Both raise ``Unusable``: the file is then moved aside
(or, opened read-only, refused) like a corrupt one, never changed.

``connect`` opens a ``BoundedConnection``: a progress handler interrupts any statement past
``STEP_BUDGET`` steps of SQLite's virtual machine, counted from the statement's ``execute``, so
that damage the checks do not see still ends in an error ("interrupted"), not a hang. The budget
is far above what the app's own statements take (see ``STEP_BUDGET``); the store's maintenance
(``VACUUM``, which copies the whole file) runs ``unbounded``.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

# SQLite calls the handler every STEP_INTERVAL steps. The app's largest statements on 10,000
# webinars with 10,000 withdrawn (measured: the withdrawn records read back 530,000 steps, the
# history's rows for the finder 340,000, the snapshot's entries 200,000) grow with the rows: tens
# of millions at 100,000 and a full 200 MB history, 10-40 times below the budget. A recursive
# view ran 10 million steps a second on the 2-core test machine: the budget ends one in ~40 s.
STEP_INTERVAL = 100_000
STEP_BUDGET = 400_000_000


class Unusable(Exception):
    """The file is not a usable store of this app (corrupt, foreign, other schema version, tampered)."""


class BoundedConnection(sqlite3.Connection):
    """A connection whose statements are interrupted past ``budget`` steps each."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.budget = STEP_BUDGET
        self._calls = 0
        self.set_progress_handler(self._progress, STEP_INTERVAL)

    def _progress(self) -> bool:
        self._calls += 1
        return self._calls * STEP_INTERVAL > self.budget  # True: SQLite interrupts the statement

    # Each statement's count starts at its ``execute`` (a cursor still being read counts on).
    def execute(self, sql: str, parameters: Any = (), /) -> sqlite3.Cursor:
        self._calls = 0
        return super().execute(sql, parameters)

    def executemany(self, sql: str, parameters: Any, /) -> sqlite3.Cursor:
        self._calls = 0
        return super().executemany(sql, parameters)

    def executescript(self, sql_script: str, /) -> sqlite3.Cursor:
        self._calls = 0
        return super().executescript(sql_script)

    @contextmanager
    def unbounded(self) -> Iterator[None]:
        """No budget meanwhile: the store's own maintenance on a file already checked."""
        self.set_progress_handler(None, 0)
        try:
            yield
        finally:
            self._calls = 0
            self.set_progress_handler(self._progress, STEP_INTERVAL)


def connect(database: str | Path, *, uri: bool = False, timeout: float = 5.0) -> BoundedConnection:
    """A ``BoundedConnection`` to ``database`` in autocommit mode (transactions are explicit)."""
    db = sqlite3.connect(database, timeout=timeout, isolation_level=None, uri=uri, factory=BoundedConnection)
    assert isinstance(db, BoundedConnection)
    return db


def refuse_planted(db: sqlite3.Connection) -> None:
    """``Unusable`` if the file holds a view, a trigger or a virtual table: this app makes none, and
    each runs code of the file's author when a table is read or written."""
    for kind, name, sql in db.execute("SELECT type, name, sql FROM sqlite_master"):
        if kind in ("view", "trigger"):
            raise Unusable(f"it holds a {kind} ({_name(name)}), which this app never makes")
        if kind == "table" and str(sql or "").lstrip()[:14].upper() == "CREATE VIRTUAL":
            raise Unusable(f"its table {_name(name)} is a virtual table, which this app never makes")


def check_tables(db: sqlite3.Connection, expected: Mapping[str, frozenset[str]]) -> None:
    """``Unusable`` unless each table of ``expected`` is a table holding (at least) its columns."""
    kinds = dict(db.execute("SELECT name, type FROM sqlite_master"))
    for table, columns in expected.items():
        if kinds.get(table) != "table":
            found = f"is a {kinds[table]}" if table in kinds else "is missing"
            raise Unusable(f"its {table} table {found}")
        missing = columns - {row[1] for row in db.execute(f'PRAGMA table_info("{table}")')}
        if missing:
            raise Unusable(f"its {table} table has no {', '.join(sorted(missing))} column")


def layout(statements: Iterable[str]) -> dict[str, frozenset[str]]:
    """Each table ``statements`` (``CREATE TABLE``s) make, with its columns: what to expect."""
    db = sqlite3.connect(":memory:")
    try:
        for statement in statements:
            db.executescript(statement)
        tables = [name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return {
            table: frozenset(row[1] for row in db.execute(f'PRAGMA table_info("{table}")'))
            for table in tables
        }
    finally:
        db.close()


def _name(name: object) -> str:
    """A name read from the file, quoted and cut short (it is the file author's text)."""
    return ascii(str(name)[:60])
