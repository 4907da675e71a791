"""Benchmark: a sync of a synthetic catalogue against its lower bound, measured side by side.

For each size N (webinars; other kinds in proportion) it starts ``catalogue-desktop serve-demo
--size N`` in its own process and a second service holding the *next* version of the same
catalogue (``--child serve-changed``: 1% of each collection's records changed, their title and
some webinars' fee, and 0.2% of the webinars replaced by new ones). Then, alternately, each in a
fresh process, a round of:

* baseline: fetch the eight collections with httpx (concurrently, gzip) and
  ``TypeAdapter(list[Model]).validate_json`` each body: the bare minimum a sync must do. Timed
  inside (after its imports) for (a), and from outside (spawn to exit) for (b) and (c);
* (a) sync: ``core.sync.runner.sync_catalogue`` into an empty store (fetch, tolerant decode,
  listing rows, facts, links, SQLite snapshot), with a 5 ms asyncio timer measuring the longest
  event-loop stall; timed inside, like the baseline's inside time;
* (b) cli: the shipped command ``catalogue-desktop sync --base-url URL --cache-dir EMPTY`` in a
  fresh process, spawn to exit (interpreter start and imports included), against a fresh bare
  fetch + validate process;
* (c) resync: the same command over a copy of a cache holding the previous version, against the
  changed service: every collection downloaded again (new ETags), diffed, history rows written;
  against a fresh bare process fetching and validating the changed version.

Prints medians of wall time (and of CPU time, user + system of the process and its workers: less
sensitive to a busy machine), their ratios, peak RSS and the longest stall. Uses only the command
line and ``sync_catalogue`` / ``CatalogueClient`` / ``decode.MODELS`` / ``demo.server.DemoServer``,
so it runs on older code too. Usage: ``python bench/sync_bench.py [--sizes 1000 10000]
[--repeat 3]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


async def _stall_monitor(stop: asyncio.Event, period: float = 0.005) -> float:
    worst = 0.0
    last = time.perf_counter()
    while not stop.is_set():
        await asyncio.sleep(period)
        now = time.perf_counter()
        worst = max(worst, now - last - period)
        last = now
    return worst


def _peak_rss_mb(who: int) -> float:
    return resource.getrusage(who).ru_maxrss / 1024


MODEL_NAMES = {
    "webinars": "Webinar",
    "series": "Series",
    "courses": "Course",
    "certificates": "Certificate",
    "experts": "Expert",
    "topics": "Topic",
    "roles": "Role",
    "situations": "Situation",
}


def run_baseline(base_url: str) -> dict[str, float]:
    import httpx
    from pydantic import TypeAdapter

    from catalogue_desktop.core.records import models
    from catalogue_desktop.core.records.kinds import Kind

    # The models only (not the app's decode module, which builds more than this needs).
    adapters = {Kind(k): TypeAdapter(list[getattr(models, name)]) for k, name in MODEL_NAMES.items()}

    async def fetch_all() -> dict[Kind, bytes]:
        async with httpx.AsyncClient(timeout=60) as client:

            async def one(kind: Kind) -> tuple[Kind, bytes]:
                response = await client.get(base_url + kind.path)
                return kind, response.content

            return dict(await asyncio.gather(*(one(k) for k in Kind)))

    started = time.perf_counter()
    bodies = asyncio.run(fetch_all())
    fetched = time.perf_counter()
    for kind, body in bodies.items():
        adapters[kind].validate_json(body)
    done = time.perf_counter()
    return {
        "wall": done - started,
        "fetch": fetched - started,
        "validate": done - fetched,
        "bytes": sum(len(b) for b in bodies.values()),
        "rss": _peak_rss_mb(resource.RUSAGE_SELF),
    }


def run_sync(base_url: str) -> dict[str, float]:
    from catalogue_desktop.core.service.client import CatalogueClient
    from catalogue_desktop.core.sync.runner import sync_catalogue

    async def main(store: Path) -> tuple[float, float, bool]:
        stop = asyncio.Event()
        monitor = asyncio.create_task(_stall_monitor(stop))
        await asyncio.sleep(0.05)
        started = time.perf_counter()
        # As the app does: the client (SSL context, ~0.1 s) is built off the loop's thread.
        client = await asyncio.to_thread(CatalogueClient, base_url)
        async with client:
            report = await sync_catalogue(client, store)
        wall = time.perf_counter() - started
        stop.set()
        return wall, await monitor, report.ok

    with tempfile.TemporaryDirectory() as tmp:
        wall, stall, ok = asyncio.run(main(Path(tmp) / "catalogue.sqlite3"))
    return {
        "wall": wall,
        "stall": stall,
        "ok": float(ok),
        "rss": _peak_rss_mb(resource.RUSAGE_SELF),
        "worker_rss": _peak_rss_mb(resource.RUSAGE_CHILDREN),
    }


CHANGED_SHARE = 0.01  # of each collection's records changed in the next version


def changed_version(bodies: dict[str, bytes], seed: int = 2) -> dict[str, bytes]:
    """The next version of the catalogue (collection path -> compact JSON): ``CHANGED_SHARE`` of
    each collection's records changed (title; every other webinar's fee too), a fifth of that
    number of webinars replaced by new ones (added and removed)."""
    import random

    rng = random.Random(seed)
    out = {}
    for path, body in bodies.items():
        records = json.loads(body)
        for i in rng.sample(range(len(records)), max(1, int(len(records) * CHANGED_SHARE))):
            record = records[i] = dict(records[i])
            if isinstance(record.get("title"), str):
                record["title"] += " (revised)"
            if i % 2 and isinstance(record.get("fee"), int):
                record["fee"] += 10
        if path.endswith("/webinars"):
            top = max(r["webinarId"] for r in records if isinstance(r.get("webinarId"), int))
            for k, i in enumerate(rng.sample(range(len(records)), int(len(records) * CHANGED_SHARE / 5))):
                records[i] = dict(records[i], webinarId=top + 1 + k, title=f"{records[i]['title']} (new)")
        out[path] = json.dumps(records, ensure_ascii=False, separators=(",", ":")).encode()
    return out


def serve_changed(base_url: str) -> None:
    """``--child serve-changed URL``: serve the next version of the catalogue at ``URL`` (fetched
    from it) until killed; prints its base URL first."""
    import urllib.request

    from catalogue_desktop.core.records.kinds import Kind
    from catalogue_desktop.demo.server import DemoServer

    bodies = {}
    for kind in Kind:
        with urllib.request.urlopen(base_url + kind.path, timeout=600) as response:
            bodies[kind.path] = response.read()
    changed = changed_version(bodies)
    if hasattr(os, "nice"):
        os.nice(10)  # as ``_common.serve``: it stands in for a remote service
    server = DemoServer({kind: changed[kind.path] for kind in Kind}).start()
    print(f"Serving the changed catalogue on {server.base_url}/v1", flush=True)
    while True:
        time.sleep(3600)


def serve_webinars(base_url: str) -> None:
    """``--child serve-webinars URL``: serve the webinars of the catalogue at ``URL`` (the same
    body) and every other collection empty, until killed; prints its base URL first. The figure
    of issue 40 ("full sync of 10,000 webinars"): one big collection, so one worker's ingest is
    the whole sync and nothing overlaps it, where the 8 collections' ingest is shared by two
    workers and the bare side validates the 8 bodies one after the other."""
    import urllib.request

    from catalogue_desktop.core.records.kinds import Kind
    from catalogue_desktop.demo.server import DemoServer

    with urllib.request.urlopen(base_url + Kind.WEBINARS.path, timeout=600) as response:
        webinars = response.read()
    if hasattr(os, "nice"):
        os.nice(10)  # as ``_common.serve``: it stands in for a remote service
    server = DemoServer({kind: webinars if kind is Kind.WEBINARS else b"[]" for kind in Kind}).start()
    print(f"Serving the webinars alone on {server.base_url}/v1", flush=True)
    while True:
        time.sleep(3600)


def _env() -> dict[str, str]:
    """The children's environment: bytecode written and used, as after an install (any value of
    PYTHONDONTWRITEBYTECODE makes every fresh process compile each module it imports again)."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def _serve_changed(base_url: str, mode: str = "serve-changed") -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen(
        [sys.executable, __file__, "--child", mode, base_url],
        stdout=subprocess.PIPE,
        text=True,
        env=_env(),
    )
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if " on " not in line:
        proc.kill()
        raise RuntimeError(f"the {mode} service did not start: {line!r}")
    return proc, line.split(" on ", 1)[1].split("/v1", 1)[0]


def _child(mode: str, base_url: str) -> dict[str, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, base_url],
        capture_output=True,
        text=True,
        check=True,
        env=_env(),
    )
    process_wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    result = json.loads(out.stdout.strip().splitlines()[-1])
    result["process_wall"] = process_wall
    result["process_cpu"] = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return result


def _cli_sync(base_url: str, cache_dir: Path) -> dict[str, float]:
    """``catalogue-desktop sync`` in a fresh process, spawn to exit: wall, CPU (with its workers),
    and the changes it reported (``Changes in KIND: A added, R removed, C changed``)."""
    import re

    cmd = [sys.executable, "-m", "catalogue_desktop", "sync", "--base-url", base_url]
    cmd += ["--cache-dir", str(cache_dir), "--max-size", "2048"]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=1800, env=_env())
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(
            f"catalogue-desktop sync failed ({done.returncode}):\n{done.stdout[-3000:]}{done.stderr[-3000:]}"
        )
    changes = re.findall(r"^Changes in \S+: (\d+) added, (\d+) removed, (\d+) changed", done.stdout, re.M)
    return {
        "process_wall": wall,
        "process_cpu": after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime,
        "changed_records": float(sum(int(n) for c in changes for n in c)),
        "changed_collections": float(len(changes)),
    }


def _copy_store(src: Path, dst: Path) -> None:
    import shutil
    import sqlite3

    dst.mkdir(parents=True)
    with sqlite3.connect(src / "catalogue.sqlite3") as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    shutil.copy(src / "catalogue.sqlite3", dst / "catalogue.sqlite3")


def measure(url: str, repeat: int, log: list[str] | None = None) -> dict[str, Any]:
    """One alternating run at the service ``url``: ``repeat`` rounds of baseline, (a), (b), (c)
    (each round's order rotated, so that none always goes first). Returns the runs and medians."""
    if log is not None:
        log += [
            "python bench/sync_bench.py --child baseline URL   # bare: httpx fetch + "
            "TypeAdapter.validate_json of the 8 bodies; timed inside (a), spawn to exit (b, c)",
            "python bench/sync_bench.py --child sync URL   # (a) sync_catalogue into an empty store",
            "catalogue-desktop sync --base-url URL --cache-dir EMPTY --max-size 2048   # (b)",
            "python bench/sync_bench.py --child serve-changed URL   # URL2: 1% of each collection changed",
            "catalogue-desktop sync --base-url URL2 --cache-dir COPY-OF-PREVIOUS --max-size 2048   # (c)",
            "python bench/sync_bench.py --child serve-webinars URL   # URL3: the webinars alone, the rest []",
            "python bench/sync_bench.py --child baseline URL3   # bare: fetch + validate_json, webinars",
            "catalogue-desktop sync --base-url URL3 --cache-dir EMPTY --max-size 2048   # (w)",
        ]
    runs: dict[str, list[dict[str, float]]] = {
        k: [] for k in ("baseline", "sync", "cli", "baseline2", "resync", "wbaseline", "webinars")
    }
    changed, url2 = _serve_changed(url)
    alone, url3 = _serve_changed(url, "serve-webinars")
    try:
        with tempfile.TemporaryDirectory(prefix="sync-bench-") as tmp:
            previous = Path(tmp) / "previous"
            _cli_sync(url, previous)  # the cache a refresh finds (not timed)
            steps = ["baseline", "sync", "cli", "baseline2", "resync", "wbaseline", "webinars"]
            for r in range(repeat):
                for step in steps[r % len(steps) :] + steps[: r % len(steps)]:
                    if step in ("baseline", "sync"):
                        runs[step].append(_child(step, url))
                    elif step == "baseline2":
                        runs[step].append(_child("baseline", url2))
                    elif step == "wbaseline":
                        runs[step].append(_child("baseline", url3))
                    elif step == "cli":
                        runs[step].append(_cli_sync(url, Path(tmp) / f"empty-{r}"))
                    elif step == "webinars":
                        runs[step].append(_cli_sync(url3, Path(tmp) / f"webinars-{r}"))
                    else:
                        copy = Path(tmp) / f"copy-{r}"
                        _copy_store(previous, copy)
                        runs[step].append(_cli_sync(url2, copy))
    finally:
        for proc in (changed, alone):
            proc.kill()
            proc.wait()
    assert all(s["ok"] for s in runs["sync"]), "a sync did not succeed"
    assert all(x["changed_collections"] == 8 for x in runs["resync"]), (
        "a re-sync did not change all 8 collections"
    )

    def med(step: str, key: str) -> float:
        return statistics.median(x[key] for x in runs[step])

    m = {
        "base_wall": med("baseline", "wall"),
        "sync_wall": med("sync", "wall"),
        "base_process": med("baseline", "process_wall"),
        "cli_process": med("cli", "process_wall"),
        "base2_process": med("baseline2", "process_wall"),
        "resync_process": med("resync", "process_wall"),
        "base_cpu": med("baseline", "process_cpu"),
        "sync_cpu": med("sync", "process_cpu"),
        "cli_cpu": med("cli", "process_cpu"),
        "base2_cpu": med("baseline2", "process_cpu"),
        "resync_cpu": med("resync", "process_cpu"),
        "wbase_process": med("wbaseline", "process_wall"),
        "webinars_process": med("webinars", "process_wall"),
        "wbase_cpu": med("wbaseline", "process_cpu"),
        "webinars_cpu": med("webinars", "process_cpu"),
    }
    ratios = {
        "a": m["sync_wall"] / m["base_wall"],
        "b": m["cli_process"] / m["base_process"],
        "c": m["resync_process"] / m["base2_process"],
        "a_cpu": m["sync_cpu"] / m["base_cpu"],
        "b_cpu": m["cli_cpu"] / m["base_cpu"],
        "c_cpu": m["resync_cpu"] / m["base2_cpu"],
        "w": m["webinars_process"] / m["wbase_process"],
        "w_cpu": m["webinars_cpu"] / m["wbase_cpu"],
    }
    return {
        **runs,
        **m,
        "ratios": ratios,
        "bytes": runs["baseline"][0]["bytes"],
        "changed_records": statistics.median(x["changed_records"] for x in runs["resync"]),
        "stall": max(x["stall"] for x in runs["sync"]),
    }


def table(size: int, r: dict[str, Any]) -> str:
    """The figures of ``measure`` as a plain-text table."""
    q = r["ratios"]
    med = statistics.median
    rows = [
        f"N={size:,}: {r['bytes'] / 1e6:.1f} MB in 8 collections; medians of {len(r['sync'])} "
        "alternating rounds, fresh processes",
        f"  {'figure':<62} {'s':>6} {'bare s':>7} {'ratio':>6} {'CPU ratio':>9}",
        f"  {'(a) sync_catalogue in-process, empty store (after imports)':<62} "
        f"{r['sync_wall']:>6.2f} {r['base_wall']:>7.2f} {q['a']:>5.2f}x {'':>9}",
        f"  {'(b) catalogue-desktop sync, empty cache (spawn to exit)':<62} "
        f"{r['cli_process']:>6.2f} {r['base_process']:>7.2f} {q['b']:>5.2f}x {q['b_cpu']:>8.2f}x",
        f"  {'(c) catalogue-desktop sync over the previous version (ditto)':<62} "
        f"{r['resync_process']:>6.2f} {r['base2_process']:>7.2f} {q['c']:>5.2f}x {q['c_cpu']:>8.2f}x",
        f"  {'(w) catalogue-desktop sync of the webinars alone, empty cache (ditto)':<62} "
        f"{r['webinars_process']:>6.2f} {r['wbase_process']:>7.2f} {q['w']:>5.2f}x {q['w_cpu']:>8.2f}x",
        f"  (c) reported {r['changed_records']:.0f} records added, removed or changed; "
        f"(a) longest loop stall {r['stall'] * 1000:.0f} ms; RSS (a) "
        f"{med(s['rss'] for s in r['sync']):.0f} MB + workers "
        f"{med(s['worker_rss'] for s in r['sync']):.0f} MB, "
        f"bare {med(s['rss'] for s in r['baseline']):.0f} MB",
    ]
    return "\n".join(rows)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", nargs=2, metavar=("MODE", "URL"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        mode, url = args.child
        if mode == "serve-changed":
            serve_changed(url)
        if mode == "serve-webinars":
            serve_webinars(url)
        print(json.dumps(run_baseline(url) if mode == "baseline" else run_sync(url)))
        return 0
    load = os.getloadavg()[0]
    print(f"sync benchmark: python {sys.version.split()[0]}, {os.cpu_count()} cores, load {load:.1f}")
    sys.path.insert(0, str(HERE))
    import _common as C  # not in the --child processes: their imports are not measured

    for size in args.sizes:
        server, url = C.serve(size)
        try:
            print(table(size, measure(url, args.repeat)), flush=True)
        finally:
            C.stop(server)
    print(f"load at the end {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
