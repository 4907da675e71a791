"""The cache survives ``kill -9`` of a sync at any moment, and damaged files are handled as specified.

The kill runs: two synthetic catalogues of the same shape (size 300; seed 0 and seed 1: the same
ids, different content; the two big collections still go through ingest worker processes) are
served by two demo services in this process. A first ``catalogue-desktop sync`` completes; then
syncs towards the other catalogue are started in their own process group (so their ingest worker
processes die with it) and killed with SIGKILL at chosen points, each once (``STOPS``): while the
service holds the first request; for a big collection (ingested in a worker process) and a small
one, after its body was downloaded, with its first records written, with all of
them written before the commit, and just after the commit; and before the space is given back.
The process that reaches the point stops itself there (``sync_stops``) and the test kills the
group: no timing, so a busy machine neither moves nor misses a kill. The killed syncs run
``python -m catalogue_desktop sync`` in processes forked from a warm process that has imported the
package (``ZYGOTE``: the command's own code, without paying a second of imports each time); the
complete syncs around them are the real command. After every kill the store must open without
being moved aside, pass SQLite's quick check, and hold for every collection exactly one of the two
catalogues - every record id, position and stored record of one of them, never a mix and never
nothing - and for the collection named, the old one until its commit and the new one after it.

The damaged-file cases add to ``test_store.py`` (which covers truncated, random, text, foreign and
schema-version files and the lock held in either journal mode) only what it does not cover.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import select
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from catalogue_desktop.core.cache.schema import PAGE_SIZE
from catalogue_desktop.core.cache.store import FILE_NAME, Entry, Store, StoreError
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.service.client import CatalogueClient
from catalogue_desktop.core.sync.runner import Ingestor, sync_catalogue
from catalogue_desktop.demo.server import DemoServer
from catalogue_desktop.demo.synthetic import generate
from tests.core.cache.sync_stops import PHASES, SITECUSTOMIZE, STOP_FIFO
from tests.sqlite_lock import lock_held

SIZE = 300  # webinars 1.5 MB and series 0.7 MB: above the worker-process threshold (256 KB)
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
    """A reference store: the sync's own ingest, in threads of this process (no payload is above
    the threshold of worker processes here: starting two workers for each of the two references
    was 4.4 of their 5.4 CPU-seconds); the worker path is the killed syncs' and the commands'."""

    async def main() -> None:
        ingestor = Ingestor(threshold=1 << 62)
        try:
            async with CatalogueClient(base_url, retries=0) as client:
                report = await sync_catalogue(client, path, ingestor=ingestor)
        finally:
            ingestor.close()
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
    """A demo service that signals each request it serves (``requested``) and, while ``holding``,
    answers none until ``hold`` is set."""

    def __init__(self, payloads: dict[Kind, bytes]) -> None:
        super().__init__(payloads)
        self.requested = threading.Event()
        self.holding = False
        self.hold = threading.Event()

    def version(self, kind: Kind) -> object:  # type: ignore[override]
        self.requested.set()  # (called for every request to a collection, in the server's thread)
        if self.holding:
            self.hold.wait(60)
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
# then for each line on stdin (JSON: the command's arguments, a file for its stderr and the point to
# stop at) forks a child in a session of its own that runs ``python -m catalogue_desktop ARGS``
# (runpy: the command's entry point, as the interpreter runs it) armed to stop at that point
# (``sync_stops``; its ingest workers inherit the point), prints "pid N", reaps it, prints "exit N CODE".
ZYGOTE = """
    import importlib, json, os, pkgutil, runpy, sys
    import catalogue_desktop, catalogue_desktop.cli
    from tests.core.cache import sync_stops
    for package in ("catalogue_desktop.core", "catalogue_desktop.cli"):
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(getattr(module, "__path__", []), package + "."):
            importlib.import_module(info.name)
    print("ready", flush=True)
    for line in sys.stdin:
        args, err, point = json.loads(line)
        pid = os.fork()
        if pid == 0:
            os.setsid()
            os.environ[sync_stops.STOP_AT] = point
            sync_stops.arm()
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

    def start(self, args: list[str], err: Path, point: str) -> int:
        """Fork a child running the command with ``args``, to stop at ``point``; its pid (and
        process group)."""
        if not self.ready:  # (its imports ran meanwhile)
            assert self.line(120) == ["ready"]
            self.ready = True
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps([args, str(err), point]) + "\n")
        self.proc.stdin.flush()
        word, pid = self.line(30)
        assert word == "pid"
        return int(pid)

    def stopped(self, fifo: int, pid: int, point: str) -> bool:
        """Wait until a process of ``pid``'s sync stopped at ``point`` (False: the sync ended
        without reaching it)."""
        assert self.proc.stdout is not None
        ready, _, _ = select.select([fifo, self.proc.stdout], [], [], 120)
        assert ready, f"no stop at {point} in 120 s"
        if fifo not in ready:
            return False
        line = os.read(fifo, 4096).decode()
        reached, process = line.split()
        assert reached == point and os.getpgid(int(process)) == pid, line
        return True

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
def stops(tmp_path: Path) -> Iterator[int]:
    """The FIFO a stopped sync writes to (``sync_stops.stop``): its read end. (The test holds a
    write end too, so that a reader never sees the end of the file between two stops.)"""
    fifo = tmp_path / "stops"
    os.mkfifo(fifo)
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    writer = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
    try:
        yield reader
    finally:
        os.close(writer)
        os.close(reader)


# Where the kills land: the service holding the first request (nothing written yet); then, for a big
# collection ingested by a worker process (webinars) and a small one (experts), each phase of its
# writing (``sync_stops``); then, every collection done, before the space is given back. What the
# store must then hold for the collection named: the catalogue it held before the sync ("old")
# until its commit, the one the sync fetched ("new") after it; the other collections either.
STOPS = [
    ("", "requested"),
    *((kind.value, phase) for kind in (Kind.WEBINARS, Kind.EXPERTS) for phase in PHASES),
    ("", "reclaim"),
]


def test_sigkill_during_sync_leaves_old_or_new_snapshot_never_a_mix(
    services: list[WatchedServer], tmp_path: Path, env: dict[str, str], stops: int
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

    # The killed syncs: forked from a warm process; they, and the ingest workers they spawn,
    # stop at the point named in their environment (``sync_stops``, through ``sitecustomize``).
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE)
    env = {
        **env,
        "PYTHONPATH": os.pathsep.join([str(site), env.get("PYTHONPATH", "")]),
        STOP_FIFO: str(tmp_path / "stops"),
    }
    zygote = Zygote(env)
    held = {kind: 0 for kind in Kind}  # the catalogue each collection holds
    seen: dict[Kind, set[int]] = {kind: set() for kind in Kind}
    groups: list[int] = []
    try:
        for run, (kind_value, phase) in enumerate(STOPS):
            named = Kind(kind_value) if kind_value else Kind.WEBINARS
            before, target = held[named], 1 - held[named]  # (the same: a 304, never written)
            where = f"run {run}: killed at {kind_value or 'the sync'}'s {phase}"
            service = services[target]
            service.requested.clear()
            if phase == "requested":
                service.hold.clear()
                service.holding = True
            try:
                pid = zygote.start(sync_args(service.base_url, cache), errors, f"{kind_value}:{phase}")
                if phase == "requested":  # its first request is held by the service: kill now
                    assert service.requested.wait(60), errors.read_text()
                else:
                    assert zygote.stopped(stops, pid, f"{kind_value}:{phase}"), (
                        f"{where}: never reached; {errors.read_text()}"
                    )
                os.killpg(pid, SIGKILL)
                assert zygote.ended(pid, timeout=30) == -SIGKILL, where
            finally:
                service.holding = False
                service.hold.set()
            groups.append(pid)  # orphaned workers are reaped by init, slowly: checked at the end
            err = errors.read_text()
            assert "Traceback" not in err, err

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
                held[kind] = 0 if now[kind] == expected[0][kind] else 1
                seen[kind].add(held[kind])
                assert states[kind].records == now[kind][0] > 0, where
            # the collection named keeps the old catalogue until its commit, then holds the new
            if phase == "requested":
                assert now == expected[before], where
            elif phase == "reclaim":
                assert now == expected[target], where
            else:
                assert held[named] == (target if phase == "committed" else before), where
    finally:
        zygote.close()

    assert all(group_gone(pgid, timeout=30) for pgid in groups), "processes outlived SIGKILL"
    assert seen[Kind.WEBINARS] == {0, 1}, seen

    # Killed syncs leave downloaded bodies behind; the next sync clears the stale ones.
    leftovers = list(cache.glob("body-*"))
    assert leftovers, "the kills after a download left no body behind"
    old = time.time() - 2 * 3600
    for p in leftovers:
        os.utime(p, (old, old))
    final = held[Kind.WEBINARS]
    with cli_sync(services[final].base_url, cache, env) as proc:
        _, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err.decode()
    assert list(cache.glob("body-*")) == []
    assert fingerprints(path) == expected[final]


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
    from catalogue_desktop.core.sync.runner import Ingestor, sync_catalogue
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
