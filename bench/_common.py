"""Shared helpers of the benchmark suite: demo servers, pre-filled caches, isolated environments,
child processes that print one JSON line, statistics.

Everything here runs in the orchestrating process (``bench/run.py``); the measuring harnesses
(``bench/_gui.py``, ``bench/_coldstart.py``) run in child processes with an isolated HOME.
"""

from __future__ import annotations

import json
import os
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
OUT = HERE / "out"  # git-ignored
PATHS = {
    k: f"/v1/{k}" for k in ("certificates", "courses", "experts", "roles", "situations", "topics", "webinars")
} | {"series": "/v1/webinars/series"}


SERVER_NICENESS = 10  # the demo service stands in for a remote one (see ``serve``)


def serve(size: int) -> tuple[subprocess.Popen[str], str]:
    """``catalogue-desktop serve-demo --size N`` on a free loopback port: (process, base URL).

    The service runs at nice 10: it stands in for a remote service, which would not take the
    measured programs' CPU. At normal priority, sending and compressing 80 MB on the same 2
    cores added 20-35 ms to the window's worst stall during a sync (N=10,000, alternating runs:
    40-56 ms with the service at normal priority, 19-22 ms with it at nice 10)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "catalogue_desktop", "serve-demo", "--port", "0", "--size", str(size)],
        stdout=subprocess.PIPE,
        text=True,
    )
    if hasattr(os, "setpriority"):  # POSIX
        os.setpriority(os.PRIO_PROCESS, proc.pid, SERVER_NICENESS)
    assert proc.stdout is not None
    line = proc.stdout.readline()  # "Serving demo catalogue on http://127.0.0.1:PORT/v1 ..."
    if " on " not in line:
        proc.kill()
        raise RuntimeError(f"serve-demo --size {size} did not start: {line!r}")
    return proc, line.split(" on ", 1)[1].split("/v1", 1)[0]


def stop(proc: subprocess.Popen[Any]) -> None:
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def payload_bytes(base_url: str) -> dict[str, int]:
    """Uncompressed JSON bytes of each collection as the service sends it."""
    sizes = {}
    for kind, path in PATHS.items():
        with urllib.request.urlopen(base_url + path, timeout=600) as response:
            sizes[kind] = len(response.read())
    return sizes


def isolated_env(home: Path) -> dict[str, str]:
    """Offscreen Qt; HOME / XDG dirs in a temp dir so QSettings and caches never leak."""
    env = dict(os.environ)
    for sub in ("config", "cache", "data"):
        (home / sub).mkdir(parents=True, exist_ok=True)
    env.update(
        HOME=str(home),
        XDG_CONFIG_HOME=str(home / "config"),
        XDG_CACHE_HOME=str(home / "cache"),
        XDG_DATA_HOME=str(home / "data"),
        QT_QPA_PLATFORM="offscreen",
        CATALOGUE_DESKTOP_CACHE_DIR=str(home / "cache" / "catalogue-desktop"),
    )
    # Bytecode is written and used, as after an install: any value of this variable, even "0",
    # makes Python compile every changed module again at each start.
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("DISPLAY", None)
    env.pop("WAYLAND_DISPLAY", None)
    return env


def prefill(size: int, base_url: str, log: list[str]) -> tuple[Path, dict[str, int], float]:
    """A cache dir filled by ``catalogue-desktop sync`` once per N (reused while the marker says it
    is complete): (dir, payload bytes per kind, seconds the sync took, 0 when reused)."""
    cache = OUT / f"cache-{size}"
    marker = cache / "bench-prefill.json"
    if marker.exists():
        info = json.loads(marker.read_text())
        if info.get("size") == size and (cache / "catalogue.sqlite3").exists():
            return cache, info["payload"], 0.0
    shutil.rmtree(cache, ignore_errors=True)
    cache.mkdir(parents=True)
    cmd = [
        sys.executable,
        "-m",
        "catalogue_desktop",
        "sync",
        "--base-url",
        base_url,
        "--cache-dir",
        str(cache),
        "--max-size",
        "2048",
    ]
    log.append("catalogue-desktop " + " ".join(cmd[3:]).replace(base_url, "URL"))
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=1800)
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"prefill sync --size {size} failed: {done.stdout[-2000:]}{done.stderr[-2000:]}")
    payload = payload_bytes(base_url)
    marker.write_text(json.dumps({"size": size, "payload": payload, "sync_seconds": seconds}))
    return cache, payload, seconds


def copy_cache(src: Path, dst: Path, *, forget_validators: bool = False) -> Path:
    """A private copy of a pre-filled cache (the store file only; WAL checkpointed first)."""
    dst.mkdir(parents=True, exist_ok=True)
    with sqlite3.connect(src / "catalogue.sqlite3") as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copy(src / "catalogue.sqlite3", dst / "catalogue.sqlite3")
    if forget_validators:  # the next refresh downloads and ingests everything again
        with sqlite3.connect(dst / "catalogue.sqlite3") as db:
            db.execute("UPDATE collections SET etag = NULL, last_modified = NULL")
    return dst


def child(args: list[str], env: dict[str, str], timeout: float = 900) -> dict[str, Any]:
    """Run ``python ARGS`` and parse its last stdout line as JSON."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, timeout=timeout)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(
            f"child {args} failed ({done.returncode}):\n{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
        )
    out = json.loads(lines[-1])
    out.setdefault("process_wall", wall)
    # CPU time (user + system) of the child: less sensitive than wall time to a busy machine
    out.setdefault("process_cpu", after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return out


def median(values: list[float]) -> float:
    return statistics.median(values)


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100)."""
    ordered = sorted(values)
    if not ordered:
        return float("nan")
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]
