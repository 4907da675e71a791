"""Caches opened defensively (issue 35): a store file someone tampered with (a recursive view in
place of a table, a trigger, a table without a column the app reads) is reported like a corrupt
file, moved aside unchanged (or, read-only, refused and left as it is), never a hang; a statement
past its budget of steps ends in an error."""

from __future__ import annotations

import os
import sqlite3
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from catalogue_desktop.core.cache import guarded
from catalogue_desktop.core.cache.store import FILE_NAME, Store
from catalogue_desktop.core.records.errors import StoreError
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.sync.ingest import ingest
from tests.cli_process import run_cli

AT = "2026-11-24T12:00:00Z"
FOREVER = "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n)"


def _edit(path: Path, *statements: str) -> None:
    db = sqlite3.connect(path, isolation_level=None)
    try:
        for statement in statements:
            db.execute(statement)
    finally:
        db.close()


TAMPERED: dict[str, tuple[Callable[[Path], None], str]] = {
    "rows is a recursive view": (
        lambda path: _edit(
            path,
            "DROP TABLE rows",
            f"CREATE VIEW rows AS {FOREVER} SELECT i AS snapshot, i AS pos, '[]' AS row, '[]' AS links,"
            " NULL AS facts FROM n",
        ),
        "it holds a view ('rows')",
    ),
    "collections is a recursive view": (  # (the release before issue 35: ``find`` never ended)
        lambda path: _edit(
            path,
            "DROP TABLE collections",
            f"CREATE VIEW collections AS {FOREVER} SELECT 'webinars' AS name, i AS snapshot, i AS previous,"
            " NULL AS etag, NULL AS last_modified, NULL AS fetched_at, NULL AS checked_at,"
            " NULL AS last_status, NULL AS last_error, NULL AS last_error_at FROM n",
        ),
        "it holds a view ('collections')",
    ),
    "meta is a recursive view": (
        lambda path: _edit(
            path,
            "DROP TABLE meta",
            f"CREATE VIEW meta AS {FOREVER} SELECT 'schema_version' AS key, i AS value FROM n",
        ),
        "it holds a view ('meta')",
    ),
    "a trigger planted": (
        lambda path: _edit(
            path,
            "CREATE TRIGGER slow AFTER UPDATE ON collections BEGIN SELECT randomblob(1); END",
        ),
        "it holds a trigger ('slow')",
    ),
    "records without its record_id column": (
        lambda path: _edit(
            path,
            "DROP INDEX records_by_id",
            "ALTER TABLE records DROP COLUMN record_id",
        ),
        "its records table has no record_id column",
    ),
    "history missing": (lambda path: _edit(path, "DROP TABLE history"), "its history table is missing"),
}


@pytest.fixture
def cache(tmp_path: Path, sample: dict[Kind, bytes]) -> Iterator[Path]:
    """A cache folder whose store holds the demo sample (made by the ingest, as a sync makes it)."""
    folder = tmp_path / "cache"
    for kind in Kind:
        assert ingest(str(folder / FILE_NAME), kind.value, sample[kind], None, None, AT).status == "updated"
    yield folder
    folder.chmod(stat.S_IRWXU)


@pytest.mark.parametrize("case", sorted(TAMPERED))
def test_a_tampered_store_is_moved_aside_unchanged_and_a_fresh_one_started(cache: Path, case: str) -> None:
    tamper, reason = TAMPERED[case]
    path = cache / FILE_NAME
    tamper(path)
    original = path.read_bytes()
    with Store(path) as s:
        assert s.recovered is not None and reason in s.recovered and "moved to" in s.recovered
        assert not s.state(Kind.WEBINARS).has_data
    (aside,) = [p for p in cache.glob(f"{FILE_NAME}.unusable-*") if not p.name.endswith(("-wal", "-shm"))]
    assert aside.read_bytes() == original


@pytest.mark.parametrize("case", ["collections is a recursive view", "records without its record_id column"])
def test_find_on_a_tampered_cache_ends_with_the_corrupt_cache_message(
    cache: Path, case: str, env: dict[str, str], tmp_path: Path
) -> None:
    tamper, reason = TAMPERED[case]
    tamper(cache / FILE_NAME)
    result = run_cli("find", "--cache-dir", str(cache), "--kind", "webinars", "tax", env=env, cwd=tmp_path)
    assert "could not be used" in result.stderr and reason in result.stderr and "moved to" in result.stderr
    assert result.returncode == 1 and "never synced" in result.stderr  # (the fresh cache is empty)


def test_find_on_a_tampered_cache_it_cannot_write_refuses_it_and_leaves_it(
    cache: Path, env: dict[str, str], tmp_path: Path
) -> None:
    if os.geteuid() == 0:
        pytest.skip("root ignores permissions")
    tamper, reason = TAMPERED["collections is a recursive view"]
    tamper(cache / FILE_NAME)
    original = (cache / FILE_NAME).read_bytes()
    cache.chmod(stat.S_IRUSR | stat.S_IXUSR)
    result = run_cli("find", "--cache-dir", str(cache), "--kind", "webinars", "tax", env=env, cwd=tmp_path)
    assert result.returncode != 0
    assert (
        "could not be used" in result.stderr and reason in result.stderr and "left as it is" in result.stderr
    )
    assert (cache / FILE_NAME).read_bytes() == original
    assert [p.name for p in cache.iterdir()] == [FILE_NAME]


@pytest.mark.parametrize("case", ["rows is a recursive view", "records without its record_id column"])
def test_a_tampered_store_opened_read_only_is_refused_and_left_as_it_is(cache: Path, case: str) -> None:
    tamper, reason = TAMPERED[case]
    tamper(cache / FILE_NAME)
    original = (cache / FILE_NAME).read_bytes()
    with pytest.raises(StoreError) as info:
        Store(cache / FILE_NAME, read_only=True)
    assert "could not be used" in str(info.value) and reason in str(info.value)
    assert "left as it is" in str(info.value)
    assert (cache / FILE_NAME).read_bytes() == original
    assert not list(cache.glob("*.unusable-*"))


def test_a_statement_past_its_budget_of_steps_is_a_damaged_cache_not_a_hang(cache: Path) -> None:
    with Store(cache / FILE_NAME) as s:
        assert s.state(Kind.WEBINARS).records > 0
        # tampered while open (after the checks): a recursive view where ``rows`` was
        TAMPERED["rows is a recursive view"][0](cache / FILE_NAME)
        s._db.budget = 20 * guarded.STEP_INTERVAL  # (the default ends such a view in tens of seconds)
        with pytest.raises(StoreError, match="is damaged"):
            list(s.entries(Kind.WEBINARS))
        with pytest.raises(StoreError, match="never ended"):
            s.data_by_id(Kind.WEBINARS)


def test_the_budget_counts_each_statement_from_its_start() -> None:
    db = guarded.connect(":memory:")
    try:
        db.budget = 10 * guarded.STEP_INTERVAL
        with pytest.raises(sqlite3.OperationalError, match="interrupted"):
            db.execute(f"{FOREVER} SELECT count(*) FROM n").fetchone()
        for _ in range(50):  # many statements within budget, each counted afresh
            assert db.execute(f"{FOREVER} SELECT max(i) FROM (SELECT i FROM n LIMIT 20000)").fetchone() == (
                20000,
            )
        with db.unbounded():
            assert db.execute(
                f"{FOREVER} SELECT count(*) FROM (SELECT i FROM n LIMIT 2000000)"
            ).fetchone() == (2000000,)
    finally:
        db.close()
