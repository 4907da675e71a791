"""The cache survives ``kill -9`` of a sync at any moment, and damaged files are handled as specified.

The kill runs: two synthetic catalogues of the same shape (size 300; seed 0 and seed 1: the same
ids, different content; the two big collections still go through ingest worker processes) are
served by two demo services in this process. A first ``catalogue-desktop sync`` completes; then,
20 times, a sync towards the other catalogue is started in its own process group (so its ingest
worker processes die with it) and killed with SIGKILL after a delay in the i-th of 20 equal parts
of 1.25 times a measured sync's duration (at random within each; the parts in a random order).
The delay counts from the sync's first request to the service (the readiness signal: from then on
it may write), not from the process's start, so no kill is spent on Python's start-up, however busy
the machine. The killed syncs run ``python -m catalogue_desktop sync`` in processes forked from a
warm process that has imported the package (``ZYGOTE``: the command's own code, without paying a
second of imports each time); the complete syncs around them are the real command. After every
kill the store must open without being moved aside, pass SQLite's quick check, and hold for every
collection exactly one of the two catalogues - every record id, position and stored record of one
of them, never a mix and never nothing.

The damaged-file cases add to ``test_store.py`` (which covers truncated, random, text, foreign and
schema-version files and the lock held in either journal mode) only what it does not cover.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import select
import signal
import sqlite3
import statistics
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

import pytest

from catalogue_desktop.core.cache.schema import PAGE_SIZE
from catalogue_desktop.core.cache.store import FILE_NAME, Entry, Store, StoreError
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.service.client import CatalogueClient
from catalogue_desktop.core.sync.runner import sync_catalogue
from catalogue_desktop.demo.server import DemoServer
from catalogue_desktop.demo.synthetic import generate
from tests.sqlite_lock import lock_held

SIZE = 300  # webinars 1.5 MB and series 0.7 MB: above the worker-process threshold (256 KB)
RUNS = 20  # stratified over the sync's duration (below): no gap between kills over 10% of it
REACH = 1.25  # the kills reach past the measured duration: a busy machine makes some syncs slower
T = Kind.TOPICS

Fingerprint = tuple[int, str]  # (record count, digest of every (pos, id, data) in order)


def fingerprint(store: Store, kind: Kind) -> Fingerprint:
    digest = hashlib.blake2b(digest_size=16)
    count = 0
    for e in store.entries(kind):
        digest.update(f"{e.pos}:{e.record_id}:".encode())
        digest.update(e.data)
        count += 1
    return count, digest.hexdigest()


def fingerprints(path: Path) -> dict[Kind, Fingerprint]:
    with Store(path) as s:
        assert s.recovered is None, s.recovered
        return {kind: fingerprint(s, kind) for kind in Kind}


def sync_in_process(base_url: str, path: Path) -> None:
    async def main() -> None:
        async with CatalogueClient(base_url, retries=0) as client:
            report = await sync_catalogue(client, path)
        assert report.ok, report

    asyncio.run(main())


def group_gone(pgid: int, timeout: float = 10.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        except PermissionError:  # pragma: no cover - a reused id: ours are gone
            return True
        time.sleep(0.01)
    return False


class WatchedServer(DemoServer):
    """A demo service that signals each request it serves (``requested``): the readiness signal."""

    def __init__(self, payloads: dict[Kind, bytes]) -> None:
        super().__init__(payloads)
        self.requested = threading.Event()

    def version(self, kind: Kind) -> object:  # type: ignore[override]
        self.requested.set()  # (called for every request to a collection, in the server's thread)
        return super().version(kind)


@pytest.fixture(scope="module")
def services() -> Iterator[list[WatchedServer]]:
    servers = [WatchedServer(generate(SIZE, seed)) for seed in (0, 1)]
    for server in servers:
        server.start()
    try:
        yield servers
    finally:
        for server in servers:
            server.stop()


@pytest.fixture
def env() -> dict[str, str]:
    proxies = ("http_proxy", "https_proxy", "all_proxy")
    return {k: v for k, v in os.environ.items() if k.lower() not in proxies}


def sync_args(base_url: str, cache: Path) -> list[str]:
    return ["sync", "--base-url", base_url, "--cache-dir", str(cache), "--json"]


def cli_sync(base_url: str, cache: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    """The real command, as a user starts it (its own process group)."""
    return subprocess.Popen(
        [sys.executable, "-m", "catalogue_desktop", *sync_args(base_url, cache)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
        start_new_session=True,
    )


# A warm process: imports the package's command-line and core modules once (no Qt, no threads),
# then for each line on stdin (JSON: the command's arguments and a file for its stderr) forks a
# child in a session of its own that runs ``python -m catalogue_desktop ARGS`` (runpy: the
# command's entry point, as the interpreter runs it), prints "pid N", reaps it, prints "exit N CODE".
ZYGOTE = """
    import importlib, json, os, pkgutil, runpy, sys
    import catalogue_desktop, catalogue_desktop.cli
    for package in ("catalogue_desktop.core", "catalogue_desktop.cli"):
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(getattr(module, "__path__", []), package + "."):
            importlib.import_module(info.name)
    print("ready", flush=True)
    for line in sys.stdin:
        args, err = json.loads(line)
        pid = os.fork()
        if pid == 0:
            os.setsid()
            null = os.open(os.devnull, os.O_RDWR)
            os.dup2(null, 0)
            os.dup2(null, 1)
            os.dup2(os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 2)
            sys.argv = ["catalogue-desktop", *args]
            code = 70
            try:
                runpy.run_module("catalogue_desktop", run_name="__main__", alter_sys=True)
                code = 0
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else 1
            finally:
                os._exit(code)
        print("pid", pid, flush=True)
        _, status = os.waitpid(pid, 0)
        print("exit", pid, os.waitstatus_to_exitcode(status), flush=True)
"""


class Zygote:
    """The warm process above, and the syncs it forks."""

    def __init__(self, env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-c", textwrap.dedent(ZYGOTE)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            text=True,
        )
        self.ready = False

    def line(self, timeout: float) -> list[str]:
        assert self.proc.stdout is not None
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        assert ready, f"the warm process said nothing in {timeout} s"
        return self.proc.stdout.readline().split()

    def start(self, args: list[str], err: Path) -> int:
        """Fork a child running the command with ``args``; its pid (and process group)."""
        if not self.ready:  # (its imports ran meanwhile)
            assert self.line(120) == ["ready"]
            self.ready = True
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps([args, str(err)]) + "\n")
        self.proc.stdin.flush()
        word, pid = self.line(30)
        assert word == "pid"
        return int(pid)

    def ended(self, pid: int, timeout: float = 120) -> int:
        """The exit status of child ``pid`` (negative: the signal that ended it)."""
        word, which, code = self.line(timeout)
        assert (word, int(which)) == ("exit", pid)
        return int(code)

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)
        if self.proc.stdout is not None:
            self.proc.stdout.close()


@pytest.fixture
def zygote(env: dict[str, str]) -> Iterator[Zygote]:
    warm = Zygote(env)
    try:
        yield warm
    finally:
        warm.close()


@pytest.mark.slow
def test_sigkill_during_sync_leaves_old_or_new_snapshot_never_a_mix(
    services: list[WatchedServer], tmp_path: Path, env: dict[str, str], zygote: Zygote
) -> None:
    # The two catalogues as the store holds them, from clean syncs.
    expected: list[dict[Kind, Fingerprint]] = []
    for i, server in enumerate(services):
        ref = tmp_path / f"ref{i}" / FILE_NAME
        sync_in_process(server.base_url, ref)
        expected.append(fingerprints(ref))
    differing = [k for k in Kind if expected[0][k] != expected[1][k]]
    # roles and situations come from fixed word lists (equal in both); the big ones must differ
    assert {Kind.WEBINARS, Kind.SERIES, Kind.COURSES, Kind.EXPERTS} <= set(differing), differing

    cache = tmp_path / "cache"
    path = cache / FILE_NAME
    errors = tmp_path / "stderr.txt"
    with cli_sync(services[0].base_url, cache, env) as proc:  # the real command fills the store
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()
    assert fingerprints(path) == expected[0]
    durations = []
    for seed in (1, 0):  # complete syncs from the warm process: from the first request to the end
        services[seed].requested.clear()
        pid = zygote.start(sync_args(services[seed].base_url, cache), errors)
        assert services[seed].requested.wait(60), errors.read_text()
        started = time.perf_counter()
        assert zygote.ended(pid) == 0, errors.read_text()
        durations.append(time.perf_counter() - started)
        assert fingerprints(path) == expected[seed]
    duration = statistics.median(durations)

    seed_value = int.from_bytes(os.urandom(4), "big")
    rng = random.Random(seed_value)
    held = 0  # the catalogue the store holds in full (after the last complete sync)
    killed_mid_sync = 0
    seen: dict[Kind, set[int]] = {kind: set() for kind in Kind}
    groups: list[int] = []
    # Stratified: run i is killed in the i-th of RUNS equal parts of the sync (in a random order),
    # so the kills cover it evenly (no gap between them over 2/RUNS of it; 50 uniform draws leave
    # one of ~8% on average).
    parts = rng.sample(range(RUNS), RUNS)
    for run, part in enumerate(parts):
        target = 1 - held if run % 5 else held ^ (run % 2)  # mostly towards the other catalogue
        delay = (part + rng.random()) / RUNS * duration * REACH
        services[target].requested.clear()
        pid = zygote.start(sync_args(services[target].base_url, cache), errors)
        assert services[target].requested.wait(60), errors.read_text()  # the sync has begun
        began = time.perf_counter()
        time.sleep(delay)
        with suppress(ProcessLookupError):
            os.killpg(pid, SIGKILL)
        code = zygote.ended(pid, timeout=30)
        if code == -SIGKILL:
            killed_mid_sync += 1
        elif target != held:  # a whole sync of the other catalogue: the next kills spread over
            # the typical one (a median: one slow sync on a busy machine, taken as the length,
            # sent later kills past the end of the faster syncs after it)
            durations.append(time.perf_counter() - began)
            duration = statistics.median(durations)
        groups.append(pid)  # orphaned workers are reaped by init, slowly: checked at the end
        err = errors.read_text()
        assert "Traceback" not in err, err
        where = f"run {run} (rng seed {seed_value}, delay {delay:.3f} s of {duration:.2f} s)"

        db = sqlite3.connect(path)
        try:
            assert db.execute("PRAGMA quick_check").fetchone()[0] == "ok", where
        finally:
            db.close()
        now = fingerprints(path)
        with Store(path) as s:
            states = s.states()
        for kind in Kind:
            assert now[kind] in (expected[0][kind], expected[1][kind]), f"{kind.value}: a mix, {where}"
            which = 0 if now[kind] == expected[0][kind] else 1
            seen[kind].add(which)
            assert states[kind].records == now[kind][0] > 0, where
        if all(now[k] == expected[target][k] for k in Kind):
            held = target

    assert all(group_gone(pgid, timeout=30) for pgid in groups), "processes outlived SIGKILL"
    # The kills were spread over the sync: many landed mid-sync, and both outcomes happened.
    summary = f"{killed_mid_sync} of {RUNS} killed mid-sync, seen {seen}, duration {duration:.2f} s"
    assert killed_mid_sync >= RUNS // 2, summary
    assert seen[Kind.WEBINARS] == {0, 1}, summary

    # Killed syncs leave downloaded bodies behind; the next sync clears the stale ones.
    leftovers = list(cache.glob("body-*"))
    assert leftovers, f"no kill landed between download and ingest: the kills were not spread; {summary}"
    old = time.time() - 2 * 3600
    for p in leftovers:
        os.utime(p, (old, old))
    with cli_sync(services[held].base_url, cache, env) as proc:
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()
    assert list(cache.glob("body-*")) == []
    assert fingerprints(path) == expected[held]


SIGKILL = signal.SIGKILL


# -- damaged files not covered by test_store.py ---------------------------------------------------------


def entry(pos: int, record_id: int, title: str = "t") -> Entry:
    return Entry(
        pos,
        record_id,
        f'["{title}", null, {record_id}]',
        "[]",
        f'{{"topicId": {record_id}, "title": "{title}"}}'.encode(),
    )


def filled(path: Path) -> None:
    with Store(path) as s:
        for kind in Kind:
            s.replace_snapshot(
                kind,
                [entry(i, i, "x" * 200) for i in range(300)],
                etag=None,
                last_modified=None,
                checked_at="2026-01-01T00:00:00Z",
            )
    db = sqlite3.connect(path)
    try:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        db.close()


def zeroed_header(path: Path) -> None:
    filled(path)
    with open(path, "r+b") as f:
        f.write(b"\0" * 4096)


def random_header_bytes(path: Path) -> None:
    filled(path)
    with open(path, "r+b") as f:
        f.write(os.urandom(100))


def zeroed_schema_pages(path: Path) -> None:
    """The header intact, the pages right after it (schema and table roots) zeroed."""
    filled(path)
    with open(path, "r+b") as f:
        f.seek(4096)
        f.write(b"\0" * 4096 * 4)


MOVED_ASIDE = {
    "zeroed header page": (zeroed_header, "not a database"),
    "random bytes over the header": (random_header_bytes, "not a database"),
    "zeroed schema pages": (zeroed_schema_pages, "malformed"),
}


@pytest.mark.parametrize("case", list(MOVED_ASIDE))
def test_damaged_beyond_opening_is_moved_aside(tmp_path: Path, case: str) -> None:
    make, reason = MOVED_ASIDE[case]
    path = tmp_path / FILE_NAME
    make(path)
    original = path.read_bytes()
    with Store(path) as s:
        message = s.recovered
        assert message is not None and reason in message
        assert all(not s.state(kind).has_data for kind in Kind)
    (aside,) = [p for p in tmp_path.glob(f"{FILE_NAME}.unusable-*") if not p.name.endswith(("-wal", "-shm"))]
    assert aside.read_bytes() == original
    assert str(path) in message and str(aside) in message
    with Store(path) as again:
        assert again.recovered is None


def test_a_torn_write_ahead_log_keeps_the_last_whole_transaction(tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    filled(path)
    script = """
        import sqlite3, sys, os
        db = sqlite3.connect(sys.argv[1], isolation_level=None)
        db.execute("PRAGMA wal_autocheckpoint=0")
        db.execute("BEGIN IMMEDIATE")
        db.execute("UPDATE collections SET etag = 'torn'")
        db.execute("DELETE FROM records WHERE snapshot = (SELECT snapshot FROM collections"
                   " WHERE name = 'topics')")
        db.execute("COMMIT")
        wal = sys.argv[1] + "-wal"
        os.truncate(wal, os.path.getsize(wal) // 2 + 7)
        os._exit(0)  # no clean close: the WAL stays torn, as after a power cut
    """
    subprocess.run([sys.executable, "-c", textwrap.dedent(script), str(path)], check=True, timeout=30)
    with Store(path) as s:
        assert s.recovered is None
        assert {s.state(kind).etag for kind in Kind} == {None}  # the torn commit is not applied
        assert {kind: sum(1 for _ in s.entries(kind)) for kind in Kind} == {kind: 300 for kind in Kind}


def test_damaged_data_pages_fail_only_their_collections_with_a_clear_error(tmp_path: Path) -> None:
    """The header and schema are fine, some record pages are zeroed: the file opens (it cannot be
    told from a good one without reading it all). Reading a damaged collection is a StoreError saying
    'damaged' (never a raw sqlite3 error); the others read and refresh normally; a refresh of a
    damaged one fails with that reason, without crashing the sync."""
    path = tmp_path / FILE_NAME
    filled(path)
    # The records' and rows' own data pages (leaves, overflow) in the file's 60-80%: not the
    # b-trees' inner pages nor the indexes' leaves, which every collection shares (how many
    # pages that is depends on the page size)
    with sqlite3.connect(path) as db:
        count = db.execute("PRAGMA page_count").fetchone()[0]
        data_pages = [
            n
            for (n,) in db.execute(
                "SELECT pageno FROM dbstat WHERE name IN ('records', 'rows')"
                " AND pagetype IN ('leaf', 'overflow')"
            )
            if 0.6 * count <= n < 0.8 * count
        ]
    db.close()
    assert data_pages
    with open(path, "r+b") as f:
        for n in data_pages:
            f.seek((n - 1) * PAGE_SIZE)
            f.write(b"\0" * PAGE_SIZE)
    damaged: list[Kind] = []
    with Store(path) as s:
        assert s.recovered is None
        for kind in Kind:
            try:
                assert sum(1 for _ in s.entries(kind)) == 300
            except StoreError as exc:
                assert "damaged" in str(exc) and str(path) in str(exc)
                damaged.append(kind)
                continue
            # the window's read: packed pages, or (a damaged page) the rows they repeat
            assert sum(len(rows) for _, rows, _ in s.iter_columns(kind)) == 300
    assert 0 < len(damaged) < len(Kind)

    from catalogue_desktop.core.sync.ingest import ingest

    refreshed: list[Kind] = []
    for kind in Kind:
        report = None
        try:
            report = ingest(str(path), kind.value, f'[{{"{kind.id_field}": 1}}]'.encode(), None, None, "x")
        except StoreError as exc:  # its records, or pages it replaces, are damaged
            assert "damaged" in str(exc) and str(path) in str(exc)
            continue
        assert kind not in damaged and report.status == "updated"
        refreshed.append(kind)
    assert refreshed


def test_a_store_locked_exclusively_is_a_store_error_for_the_sync_and_not_moved(tmp_path: Path) -> None:
    """Another process holds an EXCLUSIVE lock (rollback journal): the sync raises a StoreError
    saying so (the CLI prints it as one line), and the file is not moved aside."""
    path = tmp_path / FILE_NAME
    filled(path)
    with lock_held(path, "BEGIN EXCLUSIVE", journal="DELETE"):
        result = subprocess.run(
            [sys.executable, "-c", textwrap.dedent(SYNC_SCRIPT), str(path)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
    assert "Traceback" not in result.stderr, result.stderr
    assert result.stdout.startswith("StoreError: "), result.stdout + result.stderr
    assert "locked by another process" in result.stdout and str(path) in result.stdout
    assert not list(tmp_path.glob("*.unusable-*"))
    with Store(path) as s:
        assert s.recovered is None and s.state(T).records == 300


SYNC_SCRIPT = """
    import asyncio, sys
    from pathlib import Path
    from catalogue_desktop.core.cache import store
    from catalogue_desktop.core.service.client import CatalogueClient
    from catalogue_desktop.core.sync.runner import sync_catalogue
    store.Store.__init__.__kwdefaults__["busy_timeout"] = 0.3  # not 30 s of waiting in a test

    async def main():
        async with CatalogueClient("http://127.0.0.1:9", retries=0) as client:
            return await sync_catalogue(client, Path(sys.argv[1]))

    try:
        asyncio.run(main())
        print("no error")
    except store.StoreError as exc:
        print(f"StoreError: {exc}")
"""
