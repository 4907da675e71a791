"""Benchmark: full sync of a synthetic catalogue against its lower bound, measured side by side.

For each size N (webinars; other kinds in proportion) it starts ``catalogue-desktop serve-demo
--size N`` in its own process, then runs, alternately and each in a fresh process:

* baseline: fetch the eight collections with httpx (concurrently, gzip) and
  ``TypeAdapter(list[Model]).validate_json`` each body: the bare minimum a sync must do;
* sync: ``core.sync.runner.sync_catalogue`` into an empty store (fetch, tolerant decode, listing rows,
  links, SQLite snapshot), with a 5 ms asyncio timer measuring the longest event-loop stall.

Prints medians of wall time, their ratio, peak RSS (the event-loop process and its worker
processes) and the longest stall.  Usage: ``python bench/sync_bench.py [--sizes 1000 10000]
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


def run_baseline(base_url: str) -> dict[str, float]:
    import httpx
    from pydantic import TypeAdapter

    from catalogue_desktop.core.records.decode import MODELS
    from catalogue_desktop.core.records.kinds import Kind

    adapters = {k: TypeAdapter(list[m]) for k, m in MODELS.items()}

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


def _child(mode: str, base_url: str) -> dict[str, float]:
    out = subprocess.run(
        [sys.executable, __file__, "--child", mode, base_url], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--child", nargs=2, metavar=("MODE", "URL"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        mode, url = args.child
        print(json.dumps(run_baseline(url) if mode == "baseline" else run_sync(url)))
        return 0
    print(f"sync benchmark: python {sys.version.split()[0]}, {os.cpu_count()} cores, median of {args.repeat}")
    header = (
        f"{'N':>7} {'MB':>6} {'baseline s':>10} {'sync s':>7} {'ratio':>6} "
        f"{'stall ms':>8} {'RSS MB':>7} {'worker RSS MB':>13} {'base RSS MB':>11}"
    )
    print(header)
    import _common as C  # not in the --child processes: their imports are not measured

    for size in args.sizes:
        server, url = C.serve(size)
        try:
            base, sync = [], []
            for _ in range(args.repeat):
                base.append(_child("baseline", url))
                sync.append(_child("sync", url))
        finally:
            C.stop(server)
        assert all(s["ok"] for s in sync), "a sync did not succeed"
        b = statistics.median(r["wall"] for r in base)
        s = statistics.median(r["wall"] for r in sync)
        print(
            f"{size:>7} {base[0]['bytes'] / 1e6:>6.1f} {b:>10.3f} {s:>7.3f} {s / b:>6.2f} "
            f"{max(r['stall'] for r in sync) * 1000:>8.1f} "
            f"{statistics.median(r['rss'] for r in sync):>7.0f} "
            f"{statistics.median(r['worker_rss'] for r in sync):>13.0f} "
            f"{statistics.median(r['rss'] for r in base):>11.0f}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
