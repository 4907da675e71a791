"""The SQLite store on real files: snapshots, chunked rows, WAL readers, recovery and locking."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.cache import store as store_module
from catalogue_desktop.core.cache.location import default_cache_dir, store_file
from catalogue_desktop.core.cache.pages import PAGE_FORMAT, PAGE_ROWS, PackedLinks
from catalogue_desktop.core.cache.schema import SCHEMA_VERSION
from catalogue_desktop.core.cache.store import (
    ENV_CACHE_DIR,
    FILE_NAME,
    Entry,
    SnapshotInfo,
    Store,
    StoreError,
)
from catalogue_desktop.core.records.kinds import Kind
from tests.sqlite_lock import lock_held

T = Kind.TOPICS


def entry(pos: int, record_id: int | None = None, title: str | None = None) -> Entry:
    rid = pos + 100 if record_id is None else record_id
    title = title if title is not None else f"Topic {rid}"
    row = json.dumps([title, None, rid])
    data = json.dumps({"topicId": rid, "title": title}).encode()
    return Entry(pos, rid, row, "[]", data)


def put(store: Store, kind: Kind, entries: list[Entry], **kw: Any) -> int:
    kw.setdefault("etag", None)
    kw.setdefault("last_modified", None)
    kw.setdefault("checked_at", "2026-01-01T00:00:00Z")
    return store.replace_snapshot(kind, entries, **kw)


def all_rows(store: Store, kind: Kind, chunk: int = 5000) -> list[list[Any]]:
    return [item for part in store.iter_rows(kind, chunk=chunk) for item in part]


@pytest.fixture
def path(tmp_path: Path) -> Path:
    return tmp_path / "cache" / FILE_NAME


@pytest.fixture
def store(path: Path) -> Iterator[Store]:
    with Store(path) as s:
        yield s


def run_python(code: str, *args: str, timeout: float = 30) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


# -- a fresh store ----------------------------------------------------------------------------------


def test_fresh_store_creates_the_schema(path: Path, store: Store) -> None:
    assert path.is_file() and store.recovered is None
    db = sqlite3.connect(path)
    try:
        tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        version = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0]
        mode = db.execute("PRAGMA journal_mode").fetchone()[0]
    finally:
        db.close()
    assert {"meta", "collections", "snapshots", "records", "rows", "row_pages"} <= tables
    assert version == str(SCHEMA_VERSION)
    assert mode == "wal"
    for kind in Kind:
        state = store.state(kind)
        assert state.kind is kind and not state.has_data and state.records == 0
        assert all_rows(store, kind) == []
        assert list(store.entries(kind)) == []
        assert store.record_data(kind, 1) is None
        assert store.snapshot_info(kind) == SnapshotInfo(
            problem_count=0, problems=[], changes=None, stats=None
        )
    assert set(store.states()) == set(Kind)


def test_reopening_keeps_the_data(path: Path) -> None:
    with Store(path) as s:
        put(s, T, [entry(0), entry(1)], etag='"a"')
    with Store(path) as s:
        assert s.recovered is None
        assert s.state(T).records == 2 and s.state(T).etag == '"a"'


# -- snapshots --------------------------------------------------------------------------------------


def test_replace_snapshot_then_read_it_back(store: Store) -> None:
    entries = [entry(0, 5, "Tax"), entry(1, 3, "Audit"), entry(2, 9, "Ethics")]
    snap = put(
        store,
        T,
        entries,
        etag='"v1"',
        last_modified="Mon, 02 Nov 2026 10:00:00 GMT",
        checked_at="2026-11-02T10:00:00Z",
        problems=[{"collection": "topics", "message": "m"}],
        changes={"added": [5], "removed": [], "changed": []},
        stats={"valid": 3},
    )
    state = store.state(T)
    assert state.snapshot == snap and state.has_data
    assert (state.records, state.rejected) == (3, 0)
    assert (state.etag, state.last_modified) == ('"v1"', "Mon, 02 Nov 2026 10:00:00 GMT")
    assert state.fetched_at == state.checked_at == "2026-11-02T10:00:00Z"
    assert state.last_status == "updated" and state.last_error is None
    assert all_rows(store, T) == [
        [0, ["Tax", None, 5], []],
        [1, ["Audit", None, 3], []],
        [2, ["Ethics", None, 9], []],
    ]
    assert json.loads(store.record_data(T, 3) or b"") == {"topicId": 3, "title": "Audit"}
    assert store.record_data(T, 4) is None
    assert store.record_data(Kind.ROLES, 3) is None  # other collections are separate
    assert list(store.entries(T)) == entries
    info = store.snapshot_info(T)
    assert info.problem_count == 1 and info.problems == [{"collection": "topics", "message": "m"}]
    assert info.changes == {"added": [5], "removed": [], "changed": []}
    assert info.stats == {"valid": 3}
    assert info.created_at == "2026-11-02T10:00:00Z"


def test_rejected_records_make_the_status_partial(store: Store) -> None:
    put(store, T, [entry(0), entry(2)], rejected=1)
    state = store.state(T)
    assert (state.records, state.rejected, state.last_status) == (2, 1, "partial")
    assert [r[0] for r in all_rows(store, T)] == [0, 2]


def test_empty_snapshot_is_data(store: Store) -> None:
    put(store, T, [])
    state = store.state(T)
    assert state.has_data and state.records == 0
    assert all_rows(store, T) == []


def test_record_data_with_repeated_ids_gives_the_first(store: Store) -> None:
    put(store, T, [entry(0, 1, "first"), entry(1, 2), entry(2, 1, "second")])
    assert json.loads(store.record_data(T, 1) or b"")["title"] == "first"


@pytest.mark.parametrize("count", [0, 1, 2, 3, 4, 6, 7, 10])
@pytest.mark.parametrize("chunk", [1, 3, 5000])
def test_iter_rows_in_chunks_keeps_the_order(store: Store, count: int, chunk: int) -> None:
    entries = [entry(i * 2, 1000 - i) for i in range(count)]  # gaps in pos, ids descending
    put(store, T, entries)
    parts = list(store.iter_rows(T, chunk=chunk))
    assert all(0 < len(p) <= chunk for p in parts)
    assert [len(p) for p in parts[:-1]] == [chunk] * (len(parts) - 1)
    assert len(parts) == -(-count // chunk)
    flat = [item for p in parts for item in p]
    assert [item[0] for item in flat] == [e.pos for e in entries]
    assert [item[1][2] for item in flat] == [e.record_id for e in entries]


def test_rows_with_awkward_text_survive(store: Store) -> None:
    titles = ['quote " and \\ backslash', "comma, ] bracket", "ünïcødé ✓ \u2028", ""]
    put(store, T, [entry(i, i, t) for i, t in enumerate(titles)])
    assert [r[1][0] for r in all_rows(store, T, chunk=2)] == titles


def test_previous_snapshot_kept_and_the_one_before_deleted(path: Path, store: Store) -> None:
    first = put(store, T, [entry(0, 1, "one")])
    second = put(store, T, [entry(0, 1, "two")])
    assert [e.data for e in store.entries(T, previous=True)] == [entry(0, 1, "one").data]
    third = put(store, T, [entry(0, 1, "three")])
    assert len({first, second, third}) == 3
    assert [json.loads(e.data)["title"] for e in store.entries(T)] == ["three"]
    assert [json.loads(e.data)["title"] for e in store.entries(T, previous=True)] == ["two"]
    db = sqlite3.connect(path)
    try:
        snaps = sorted(r[0] for r in db.execute("SELECT id FROM snapshots WHERE collection='topics'"))
        held = sorted({r[0] for r in db.execute("SELECT snapshot FROM records")})
        listed = sorted({r[0] for r in db.execute("SELECT snapshot FROM rows")})
    finally:
        db.close()
    assert snaps == [second, third]
    assert held == listed == [second, third]


def test_collections_do_not_disturb_each_other(store: Store) -> None:
    put(store, T, [entry(0)])
    put(store, Kind.ROLES, [entry(0), entry(1)])
    put(store, T, [entry(0), entry(1), entry(2)])
    assert store.state(Kind.ROLES).records == 2 and store.state(T).records == 3
    assert list(store.entries(Kind.ROLES, previous=True)) == []


def test_mark_unchanged_keeps_the_snapshot_and_moves_the_check_time(store: Store) -> None:
    snap = put(store, T, [entry(0)], etag='"a"', last_modified="LM1", checked_at="2026-01-01T00:00:00Z")
    store.mark_unchanged(T, etag=None, last_modified=None, checked_at="2026-01-02T00:00:00Z")
    state = store.state(T)
    assert state.snapshot == snap and state.records == 1
    assert (state.etag, state.last_modified) == ('"a"', "LM1")  # kept when the 304 sends none
    assert state.fetched_at == "2026-01-01T00:00:00Z" and state.checked_at == "2026-01-02T00:00:00Z"
    assert state.last_status == "unchanged"
    store.mark_unchanged(T, etag='"b"', last_modified=None, checked_at="2026-01-03T00:00:00Z")
    assert store.state(T).etag == '"b"'


def test_mark_failed_keeps_the_snapshot_and_the_reason(store: Store) -> None:
    snap = put(store, T, [entry(0)], etag='"a"', checked_at="2026-01-01T00:00:00Z")
    store.mark_failed(T, "the service answered HTTP 500", "2026-01-02T00:00:00Z")
    state = store.state(T)
    assert state.snapshot == snap and state.records == 1 and state.etag == '"a"'
    assert state.last_status == "failed"
    assert state.last_error == "the service answered HTTP 500"
    assert state.last_error_at == "2026-01-02T00:00:00Z"
    assert state.checked_at == "2026-01-01T00:00:00Z"  # no successful contact
    assert len(all_rows(store, T)) == 1
    store.mark_unchanged(T, etag=None, last_modified=None, checked_at="2026-01-03T00:00:00Z")
    assert store.state(T).last_error is None
    store.mark_failed(T, "again", "2026-01-04T00:00:00Z")
    put(store, T, [entry(0), entry(1)])
    state = store.state(T)
    assert state.last_error is None and state.last_error_at is None and state.last_status == "updated"


def test_mark_failed_on_a_collection_never_stored(store: Store) -> None:
    store.mark_failed(Kind.COURSES, "cannot connect", "2026-01-01T00:00:00Z")
    state = store.state(Kind.COURSES)
    assert not state.has_data and state.last_status == "failed" and state.last_error == "cannot connect"


def test_a_failing_write_rolls_back_to_the_old_snapshot(store: Store) -> None:
    snap = put(store, T, [entry(0, 1, "kept")])

    def broken() -> Iterator[Entry]:
        yield entry(0, 2, "new")
        raise RuntimeError("the worker died")

    with pytest.raises(RuntimeError):
        put(store, T, broken())  # type: ignore[arg-type]
    with pytest.raises(StoreError, match="cannot write the cache"):
        put(store, T, [entry(0, 3), entry(0, 4)])  # same position twice
    assert store.state(T).snapshot == snap
    assert [json.loads(e.data)["title"] for e in store.entries(T)] == ["kept"]
    assert list(store.entries(T, previous=True)) == []


def test_problems_are_capped_but_counted(store: Store) -> None:
    problems = [{"collection": "topics", "record": i, "message": "bad"} for i in range(1500)]
    put(store, T, [entry(0)], rejected=1500, problems=problems)
    info = store.snapshot_info(T)
    assert info.problem_count == 1500
    assert len(info.problems) == store_module._MAX_PROBLEMS
    assert info.problems[0] == problems[0]


# -- concurrent readers (WAL) -------------------------------------------------------------------------


def test_a_second_connection_reads_while_one_writes(path: Path, store: Store) -> None:
    put(store, T, [entry(0, 1, "old")])
    seen: list[Any] = []
    with Store(path, busy_timeout=0.2) as reader:

        def entries() -> Iterator[Entry]:
            yield entry(0, 1, "new")
            # mid-transaction: the reader sees the old snapshot, without waiting for a lock
            seen.append([r[1][0] for r in all_rows(reader, T)])
            seen.append(reader.state(T).records)
            yield entry(1, 2, "newer")

        put(store, T, entries())  # type: ignore[arg-type]
        assert seen == [["old"], 1]
        assert [r[1][0] for r in all_rows(reader, T)] == ["new", "newer"]


def test_another_process_reads_while_we_write(path: Path, store: Store) -> None:
    put(store, T, [entry(0, 1, "old")])
    reader = """
        import sys
        from catalogue_desktop.core.records.kinds import Kind
        from catalogue_desktop.core.cache.store import Store
        with Store(sys.argv[1], busy_timeout=0.5) as s:
            print([r[1][0] for part in s.iter_rows(Kind.TOPICS) for r in part], s.recovered)
    """
    out: list[subprocess.CompletedProcess[str]] = []

    def entries() -> Iterator[Entry]:
        yield entry(0, 1, "new")
        out.append(run_python(reader, str(path)))

    put(store, T, entries())  # type: ignore[arg-type]
    (result,) = out
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['old'] None"
    result = run_python(reader, str(path))
    assert result.stdout.strip() == "['new'] None"


def test_we_read_while_another_process_writes(path: Path, store: Store) -> None:
    put(store, T, [entry(0, 1, "old")])
    with (
        lock_held(path, "BEGIN IMMEDIATE", "UPDATE collections SET etag = 'changing'", finish="COMMIT"),
        Store(path, busy_timeout=0.2) as reader,
    ):
        assert reader.state(T).etag is None
        assert [r[1][0] for r in all_rows(reader, T)] == ["old"]
    assert store.state(T).etag == "changing"


# -- unusable files are moved aside -------------------------------------------------------------------


def _filled(path: Path) -> None:
    with Store(path) as s:
        for kind in Kind:
            put(s, kind, [entry(i, i, "x" * 300) for i in range(200)])
    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()


def _truncated(path: Path) -> None:
    _filled(path)
    with open(path, "r+b") as f:
        f.truncate(path.stat().st_size // 2)


def _random(path: Path) -> None:
    path.write_bytes(os.urandom(8192))


def _text(path: Path) -> None:
    path.write_text("this is not a database\n" * 100)


def _foreign(path: Path) -> None:
    db = sqlite3.connect(path)
    try:
        db.execute("CREATE TABLE photos (id INTEGER PRIMARY KEY, data BLOB)")
        db.execute("INSERT INTO photos VALUES (1, x'00')")
        db.commit()
    finally:
        db.close()


def _schema_version(value: str | None) -> Any:
    def make(path: Path) -> None:
        with Store(path) as s:
            put(s, T, [entry(0)])
        db = sqlite3.connect(path)
        try:
            if value is None:
                db.execute("DELETE FROM meta")
            else:
                db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (value,))
            db.commit()
        finally:
            db.close()

    return make


BAD_FILES = {
    "truncated store": (_truncated, "malformed"),
    "random bytes": (_random, "not a database"),
    "text file": (_text, "not a database"),
    "foreign SQLite file": (_foreign, "not a Catalogue Desktop cache"),
    "newer schema_version": (_schema_version("99"), "schema version 99"),
    # An older layout (1: row and links in ``records`` next to the full JSON) is not migrated.
    "older schema_version": (_schema_version("1"), "schema version 1"),
    "unreadable schema_version": (_schema_version("two"), "schema version -1"),
    "no schema_version": (_schema_version(None), "schema version -1"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_unusable_file_is_moved_aside_and_a_fresh_store_started(path: Path, case: str) -> None:
    make, reason = BAD_FILES[case]
    path.parent.mkdir(parents=True)
    make(path)
    original = path.read_bytes()
    with Store(path) as s:
        asides = sorted(path.parent.glob(f"{FILE_NAME}.unusable-*"))
        main = [a for a in asides if not a.name.endswith(("-wal", "-shm"))]
        assert len(main) == 1, asides
        aside = main[0]
        assert aside.read_bytes() == original
        message = s.recovered
        assert message is not None
        assert str(path) in message and str(aside) in message and reason in message
        assert not s.state(T).has_data
        put(s, T, [entry(0, 1, "fresh")])
        assert [r[1][0] for r in all_rows(s, T)] == ["fresh"]
    with Store(path) as again:
        assert again.recovered is None and again.state(T).records == 1


def test_repeated_recoveries_never_overwrite_an_earlier_aside_file(path: Path) -> None:
    path.parent.mkdir(parents=True)
    contents = [b"first bad file " * 100, b"second bad file " * 100, b"third bad file " * 100]
    messages = []
    for content in contents:  # well within one second: the time stamps are equal
        path.write_bytes(content)
        with Store(path) as s:
            messages.append(s.recovered)
    asides = sorted(path.parent.glob(f"{FILE_NAME}.unusable-*"))
    assert sorted(a.read_bytes() for a in asides) == sorted(contents)
    assert len(set(messages)) == 3


def test_an_empty_file_is_simply_initialised(path: Path) -> None:
    path.parent.mkdir(parents=True)
    path.write_bytes(b"")
    with Store(path) as s:
        assert s.recovered is None
        put(s, T, [entry(0)])
    assert not list(path.parent.glob("*.unusable-*"))


# -- locks and unwritable places ----------------------------------------------------------------------


@pytest.mark.parametrize("journal", ["rollback-journal", "wal"])
def test_a_store_locked_by_another_process_is_a_store_error_and_not_moved(path: Path, journal: str) -> None:
    with Store(path) as s:
        put(s, T, [entry(0, 1, "mine")])
    with lock_held(path, "BEGIN EXCLUSIVE", journal="DELETE" if journal == "rollback-journal" else "-"):
        if journal == "rollback-journal":  # readers are shut out too: opening fails
            with pytest.raises(StoreError) as info:
                Store(path, busy_timeout=0.2)
        else:  # WAL: reading works, writing is refused
            with Store(path, busy_timeout=0.2) as s:
                assert s.state(T).records == 1
                with pytest.raises(StoreError) as info:
                    put(s, T, [entry(0, 2, "theirs")])
    message = str(info.value)
    assert str(path) in message and "locked" in message
    assert "Traceback" not in message
    assert not list(path.parent.glob("*.unusable-*"))
    with Store(path) as s:
        assert s.recovered is None
        assert [r[1][0] for r in all_rows(s, T)] == ["mine"]


def test_cache_dir_that_cannot_be_created_is_a_store_error(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache directory should be")
    with pytest.raises(StoreError, match="cannot create the cache directory"):
        Store(blocker / "sub" / FILE_NAME)


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root ignores permissions")
def test_read_only_cache_dir_is_a_store_error(tmp_path: Path) -> None:
    cache = tmp_path / "ro"
    cache.mkdir()
    cache.chmod(0o500)
    try:
        with pytest.raises(StoreError):
            Store(cache / FILE_NAME)
    finally:
        cache.chmod(0o700)


def test_store_file_that_is_a_directory_is_a_store_error(tmp_path: Path) -> None:
    (tmp_path / FILE_NAME).mkdir()
    with pytest.raises(StoreError):
        Store(tmp_path / FILE_NAME)
    assert (tmp_path / FILE_NAME).is_dir()


def test_cache_dir_honours_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(ENV_CACHE_DIR, str(tmp_path / "from-env"))
    assert default_cache_dir() == tmp_path / "from-env"
    assert store_file() == tmp_path / "from-env" / FILE_NAME
    assert store_file(tmp_path / "explicit") == tmp_path / "explicit" / FILE_NAME
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv(ENV_CACHE_DIR, "~/tilde")
    assert default_cache_dir() == tmp_path / "tilde"
    monkeypatch.delenv(ENV_CACHE_DIR)
    assert default_cache_dir() != tmp_path / "tilde"
    assert default_cache_dir().is_absolute()


@pytest.mark.parametrize(("count", "chunk"), [(0, 3), (1, 3), (7, 3), (9, 3), (10, 1000)])
def test_iter_columns_gives_what_iter_rows_gives_as_parallel_lists(
    store: Store, count: int, chunk: int
) -> None:
    entries = [entry(i * 2, 1000 - i) for i in range(count)]
    put(store, T, entries)
    columns = list(store.iter_columns(T, chunk=chunk))
    assert [len(positions) for positions, _, _ in columns] == [len(p) for p in store.iter_rows(T, chunk)]
    as_rows = [
        [pos, row, links]
        for positions, rows, links in columns
        for pos, row, links in zip(positions, rows, links, strict=True)
    ]
    assert as_rows == [item for part in store.iter_rows(T, chunk=chunk) for item in part]
    assert [pos for pos, _, _ in as_rows] == [e.pos for e in entries]


# -- packed row pages -------------------------------------------------------------------------------


def _db(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path, isolation_level=None)


def _execute(path: Path, *statements: str) -> None:
    """Change the file behind the store's back, on a connection of its own."""
    db = _db(path)
    try:
        for sql in statements:
            db.execute(sql)
    finally:
        db.close()


def _page_count(path: Path, snapshot: int) -> int:
    db = _db(path)
    try:
        return db.execute("SELECT count(*) FROM row_pages WHERE snapshot = ?", (snapshot,)).fetchone()[0]
    finally:
        db.close()


@pytest.mark.parametrize("count", [0, 1, PAGE_ROWS - 1, PAGE_ROWS, PAGE_ROWS + 1, 2 * PAGE_ROWS + 7])
@pytest.mark.parametrize("chunk", [1, 3, PAGE_ROWS, 2000])
def test_pages_give_the_rows_in_order_in_chunks_of_any_size(
    path: Path, store: Store, count: int, chunk: int
) -> None:
    entries = [entry(i * 2, 5000 - i) for i in range(count)]
    snap = put(store, T, entries)
    assert _page_count(path, snap) == -(-count // PAGE_ROWS)
    if chunk == 1 and count > PAGE_ROWS:
        return  # covered by the other chunk sizes; one row per chunk is slow for nothing
    columns = list(store.iter_columns(T, chunk=chunk))
    assert [len(p) for p, _, _ in columns[:-1]] == [chunk] * (len(columns) - 1)
    assert len(columns) == -(-count // chunk)
    assert [p for part, _, _ in columns for p in part] == [e.pos for e in entries]
    assert [r for _, rows, _ in columns for r in rows] == [json.loads(e.row) for e in entries]
    assert [link for _, _, links in columns for link in links] == [[] for _ in entries]


def _tamper_rows(path: Path, snapshot: int) -> None:
    """Change the JSON listing behind the pages' back: what is read shows which one was used."""
    db = _db(path)
    try:
        db.execute("UPDATE rows SET row = json_set(row, '$[0]', 'from rows') WHERE snapshot = ?", (snapshot,))
    finally:
        db.close()


def _titles(store: Store) -> list[str]:
    return [row[0] for _, rows, _ in store.iter_columns(T, 5000) for row in rows]


BAD_PAGES = {
    "a flipped byte": "UPDATE row_pages SET data = CAST(substr(data, 1, 20) || x'ff'"
    " || substr(data, 22) AS BLOB) WHERE page = 1",
    "text, not UTF-8": "UPDATE row_pages SET data = substr(data, 1, 20) || x'ff' WHERE page = 1",
    "another format": "UPDATE row_pages SET format = 'marshal-0' WHERE page = 1",
    "not a page": "UPDATE row_pages SET data = x'deadbeef', crc = 2343432205 WHERE page = 1",
    "a missing page": "DELETE FROM row_pages WHERE page = 1",
    "text for a blob": "UPDATE row_pages SET data = 'abc' WHERE page = 1",
}


@pytest.mark.parametrize("case", sorted(BAD_PAGES))
def test_a_damaged_page_falls_back_to_the_rows_from_there_on(path: Path, store: Store, case: str) -> None:
    entries = [entry(i, 100 + i) for i in range(3 * PAGE_ROWS)]
    snap = put(store, T, entries)
    _tamper_rows(path, snap)
    assert set(_titles(store)) == {f"Topic {100 + i}" for i in range(3 * PAGE_ROWS)}  # pages
    _execute(path, BAD_PAGES[case])
    titles = _titles(store)
    assert len(titles) == 3 * PAGE_ROWS
    assert titles[:PAGE_ROWS] == [f"Topic {100 + i}" for i in range(PAGE_ROWS)]  # page 0 is sound
    assert set(titles[PAGE_ROWS:]) == {"from rows"}  # the rest from ``rows``, none twice
    positions = [p for part, _, _ in store.iter_columns(T, 5000) for p in part]
    assert positions == list(range(3 * PAGE_ROWS))


def test_a_replaced_snapshot_keeps_no_pages_but_its_rows_stay_readable(path: Path, store: Store) -> None:
    first = put(store, T, [entry(0, 1, "one")])
    second = put(store, T, [entry(0, 2, "two")])
    assert _page_count(path, first) == 0 and _page_count(path, second) == 1
    assert [e.row for e in store.entries(T, previous=True)] == [entry(0, 1, "one").row]
    assert _titles(store) == ["two"]


def test_a_version_2_store_is_upgraded_in_place(path: Path) -> None:
    with Store(path) as s:
        snap = put(s, T, [entry(i, 100 + i) for i in range(PAGE_ROWS + 5)], etag='"e"')
        put(s, Kind.ROLES, [])
        expected = list(s.iter_columns(T, 5000))
    db = _db(path)  # what version 2 wrote: no row_pages
    try:
        db.execute("DROP TABLE row_pages")
        db.execute("UPDATE meta SET value = '2' WHERE key = 'schema_version'")
    finally:
        db.close()
    _tamper_rows(path, snap)  # the upgrade packs the rows as they are in ``rows``
    with Store(path) as s:
        assert s.recovered is None
        assert s.state(T).etag == '"e"' and s.state(T).records == PAGE_ROWS + 5
        upgraded = list(s.iter_columns(T, 5000))
    assert _page_count(path, snap) == 2
    assert [p for p, _, _ in upgraded] == [p for p, _, _ in expected]
    assert {row[0] for _, rows, _ in upgraded for row in rows} == {"from rows"}
    db = _db(path)
    try:
        assert db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0] == str(
            SCHEMA_VERSION
        )
    finally:
        db.close()


def _linked_entry(pos: int) -> Entry:
    rid = 100 + pos
    return Entry(
        pos,
        rid,
        json.dumps([f"Topic {rid}", None, rid]),
        json.dumps([[pos, pos + 1], []]),
        json.dumps({"topicId": rid}).encode(),
    )


def test_packed_links_come_a_page_at_a_time_and_unpack_to_the_links(path: Path, store: Store) -> None:
    entries = [_linked_entry(i) for i in range(2 * PAGE_ROWS + 3)]
    put(store, T, entries)
    pages = list(store.iter_columns(T, chunk=7, packed_links=True))
    assert [len(p) for p, _, _ in pages] == [PAGE_ROWS, PAGE_ROWS, 3]  # pages as stored
    assert all(isinstance(links, PackedLinks) and len(links) == len(p) for p, _, links in pages)
    unpacked = [link for _, _, links in pages for link in links.unpack()]
    assert unpacked == [json.loads(e.links) for e in entries]
    assert unpacked == [link for _, _, links in store.iter_columns(T, chunk=7) for link in links]
    _tamper_rows(path, 0)  # no effect: the fallback below reads snapshot rows
    _execute(path, "DELETE FROM row_pages")
    from_rows = list(store.iter_columns(T, chunk=700, packed_links=True))
    assert [len(p) for p, _, _ in from_rows] == [700, 700, 603]  # no pages: ``chunk`` rows
    assert all(type(links) is list for _, _, links in from_rows)
    assert [link for _, _, links in from_rows for link in links] == unpacked


@pytest.mark.parametrize("damage", ["another format", "a missing page 0"])
def test_pages_this_app_cannot_read_are_packed_again_when_the_store_opens(path: Path, damage: str) -> None:
    with Store(path) as s:
        snap = put(s, T, [_linked_entry(i) for i in range(PAGE_ROWS + 1)])
        put(s, Kind.ROLES, [])  # no rows: nothing to pack
    db = _db(path)
    try:
        if damage == "another format":  # e.g. a Python whose marshal differs
            db.execute("UPDATE row_pages SET format = 'marshal-0'")
        else:
            db.execute("DELETE FROM row_pages WHERE page = 0")
    finally:
        db.close()
    _tamper_rows(path, snap)
    with Store(path) as s:
        assert s.recovered is None
        assert {row[0] for _, rows, _ in s.iter_columns(T, 5000) for row in rows} == {"from rows"}
    db = _db(path)
    try:
        formats = db.execute(
            "SELECT page, format FROM row_pages WHERE snapshot = ? ORDER BY page", (snap,)
        ).fetchall()
    finally:
        db.close()
    assert formats == [(0, PAGE_FORMAT), (1, PAGE_FORMAT)]


def test_packing_does_not_wait_for_another_process_writing(path: Path) -> None:
    with Store(path) as s:
        snap = put(s, T, [_linked_entry(i) for i in range(3)])
    _execute(path, "DELETE FROM row_pages")
    with lock_held(path, "BEGIN IMMEDIATE", "UPDATE collections SET etag = 'changing'"):
        started = time.monotonic()
        s = Store(path, busy_timeout=30)  # waiting for the writer would take 30 s
        assert time.monotonic() - started < 10
        assert s.recovered is None and _page_count(path, snap) == 0
        assert [row[0] for _, rows, _ in s.iter_columns(T) for row in rows] == [
            "Topic 100",
            "Topic 101",
            "Topic 102",
        ]
        assert s._db.execute("PRAGMA busy_timeout").fetchone()[0] == 30_000
        s.close()
    with Store(path):
        pass
    assert _page_count(path, snap) == 1  # packed at the next open


def test_a_store_whose_rows_cannot_be_packed_still_opens_and_reads(path: Path) -> None:
    with Store(path) as s:
        snap = put(s, T, [_linked_entry(i) for i in range(3)])
    _execute(path, "DELETE FROM row_pages", "UPDATE rows SET row = 'not json' WHERE pos = 1")
    with Store(path) as s:  # packing fails; opening does not, and nothing is moved aside
        assert s.recovered is None and s.state(T).snapshot == snap
        assert _page_count(path, snap) == 0
