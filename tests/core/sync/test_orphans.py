"""No process of a sync stays behind when it is killed (``kill -9``, a crash): its ingest workers
and multiprocessing's resource tracker end within seconds of it (``core.sync.workers``).

Before: one ``kill -9`` of ``catalogue-desktop sync`` mid-way left 3 processes (2 workers, the
resource tracker) idle forever. Each test starts the real thing as a subprocess, waits until its
worker processes run, kills it (that process alone, not its group) and counts what is left.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest

from catalogue_desktop.demo.server import DemoServer
from catalogue_desktop.demo.synthetic import generate

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="kill -9 is a POSIX notion")
GRACE = 10.0  # s: "within a few seconds" of the parent's death, with room for a loaded machine


@pytest.fixture(scope="module")
def big_service() -> Iterator[DemoServer]:
    """Payloads well above the size ingested in a worker process (256 KiB)."""
    with DemoServer(generate(3000, 0)) as server:
        yield server


def descendants_when_working(
    proc: subprocess.Popen[bytes], workers: int = 2, timeout: float = 60.0
) -> list[psutil.Process]:
    """``proc``'s descendants, once ``workers`` sync worker processes run among them."""
    parent = psutil.Process(proc.pid)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert proc.poll() is None, "the process ended before its workers were seen"
        try:
            found = parent.children(recursive=True)
            spawned = [p for p in found if "spawn_main" in " ".join(p.cmdline())]
        except psutil.NoSuchProcess:
            continue
        if len(spawned) >= workers:
            return found
        time.sleep(0.01)
    raise AssertionError(f"no {workers} worker processes within {timeout} s")


def left_behind(processes: list[psutil.Process], grace: float = GRACE) -> list[str]:
    """Those of ``processes`` still alive after ``grace`` seconds (zombies count as gone)."""
    deadline = time.monotonic() + grace
    while True:
        alive = []
        for p in processes:
            try:
                if p.is_running() and p.status() != psutil.STATUS_ZOMBIE:
                    alive.append(f"{p.pid} {' '.join(p.cmdline())[:100]}")
            except psutil.NoSuchProcess:
                pass
        if not alive or time.monotonic() > deadline:
            for p in processes:  # whatever the outcome, leave nothing running on the machine
                with contextlib.suppress(psutil.NoSuchProcess):
                    p.kill()
            return alive
        time.sleep(0.05)


def kill_mid_way(command: list[str], env: dict[str, str], *, wait_for: bytes = b"") -> list[str]:
    """Run ``command``, kill it once its workers run (and it printed the line ``wait_for``), and
    say which of its descendants are still alive a few seconds later."""
    proc = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE if wait_for else subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        if wait_for:
            assert proc.stdout is not None
            assert proc.stdout.readline().strip() == wait_for
        processes = descendants_when_working(proc)
        names = " ".join(" ".join(p.cmdline()) for p in processes)
        assert "resource_tracker" in names  # the one that outlived the workers' pipes before
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
        return left_behind(processes)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        for stream in (proc.stdout, proc.stderr):
            if stream is not None:
                stream.close()


def test_killing_a_cli_sync_mid_way_leaves_no_process(big_service: DemoServer, tmp_path: Path) -> None:
    command = [
        sys.executable,
        "-m",
        "catalogue_desktop",
        "sync",
        "--base-url",
        big_service.base_url,
        "--cache-dir",
        str(tmp_path / "cache"),
    ]
    assert kill_mid_way(command, dict(os.environ)) == []


def test_killing_the_window_mid_refresh_leaves_no_process(big_service: DemoServer, tmp_path: Path) -> None:
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "HOME": str(tmp_path),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    command = [
        sys.executable,
        "-m",
        "catalogue_desktop",
        "--base-url",
        big_service.base_url,
        "--cache-dir",
        str(tmp_path / "cache"),
    ]
    assert kill_mid_way(command, env) == []


@pytest.mark.parametrize("how", ["kernel_signal", "watch"])
def test_each_guard_alone_ends_the_workers(how: str, tmp_path: Path) -> None:
    """The Linux parent-death signal, and the portable watching thread (what macOS and Windows
    have), each end a worker on its own: a pool's workers outlive a killed parent without them."""
    if how == "kernel_signal" and not sys.platform.startswith("linux"):
        pytest.skip("the parent-death signal is Linux's")
    other = "watch" if how == "kernel_signal" else "kernel_signal"
    script = textwrap.dedent(f"""
        import functools, multiprocessing, os, sys, time
        from concurrent.futures import ProcessPoolExecutor
        from catalogue_desktop.core.sync.workers import die_with_parent

        if __name__ == "__main__":
            guard = functools.partial(die_with_parent, {other}=False)
            pool = ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("spawn"),
                                       initializer=guard)
            for f in [pool.submit(time.sleep, 0.5) for _ in range(2)]:
                f.result()
            print("ready", flush=True)
            time.sleep(120)
    """)
    path = tmp_path / "pool.py"
    path.write_text(script)
    # (killed once the workers ran their initializer: a worker that starts after its parent died
    # is the watching thread's, whose sentinel is ready from the start)
    assert kill_mid_way([sys.executable, str(path)], dict(os.environ), wait_for=b"ready") == []
