"""The churn bench (issue 35): a service that replaces all its webinars by other ones at every sync,
and the cache file's size after each sync.

The synthetic catalogue (``demo.synthetic.generate(size, 1)``) is served over loopback by the demo
service (``DemoServer``, in this process); before each sync its webinars are served again with
their ids moved, so that every webinar of the last sync is removed and as many new ones added:

* ``fresh``: new ids at every sync (1,000,000 x the sync's number added): nothing ever comes back;
* ``swap``: two sets in turn (A, B, A, B...): each sync brings back the records the one before
  removed, with the same JSON.

Each sync is the one the window and ``catalogue-desktop sync`` run (``core.sync.runner.
sync_catalogue``: the download, the ingest in worker processes, the history written, and whatever
the code does after). After each: the file's bytes (the store and its ``-wal``), its pages and
free pages, the history's rows. Only ``sync_catalogue``, ``CatalogueClient``, ``DemoServer`` and
``generate`` are used, so the same script measures older code (run it with that checkout's venv).

Usage: ``python bench/churn.py [--syncs 20] [--size 10000] [--mode fresh|swap] [--json]``; prints a
Markdown table (or one JSON object). ``--store FILE --start K``: sync into FILE and keep it, the
first sync numbered K: an older checkout's store carried on by newer code (its upgrade measured).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sqlite3
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.service.client import CatalogueClient
from catalogue_desktop.core.sync.runner import sync_catalogue
from catalogue_desktop.demo.server import DemoServer
from catalogue_desktop.demo.synthetic import generate

MB = 1024 * 1024


def _webinars(webinars: list[dict[str, Any]], offset: int) -> bytes:
    return json.dumps([dict(w, webinarId=w["webinarId"] + offset) for w in webinars]).encode()


def _sync(base_url: str, store_file: Path) -> dict[str, str]:
    async def main() -> dict[str, str]:
        async with CatalogueClient(base_url, retries=0, read_timeout=120, max_bytes=2048 * MB) as client:
            report = await sync_catalogue(client, store_file)
        return {kind.value: outcome.status for kind, outcome in report.collections.items()}

    return asyncio.run(main())


def _measure(store_file: Path) -> dict[str, Any]:
    wal = Path(str(store_file) + "-wal")
    db = sqlite3.connect(f"file:{store_file}?mode=ro", uri=True)
    try:
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        free = db.execute("PRAGMA freelist_count").fetchone()[0]
        rows = db.execute("SELECT count(*) FROM history").fetchone()[0]
    finally:
        db.close()
    return {
        "file_mb": store_file.stat().st_size / MB,
        "wal_mb": (wal.stat().st_size if wal.exists() else 0) / MB,
        "pages": pages,
        "free_pages": free,
        "history_rows": rows,
    }


def run(
    syncs: int, size: int, mode: str, log: Any = None, store: Path | None = None, start: int = 1
) -> dict[str, Any]:
    """``syncs`` syncs numbered from ``start``, into ``store`` (kept; default: a temporary one)."""
    payloads = generate(size, 1)
    webinars = json.loads(payloads[Kind.WEBINARS])
    steps: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp, DemoServer(payloads) as server:
        store_file = store or Path(tmp) / "catalogue.sqlite3"
        first = _sync(server.base_url, store_file)  # the whole catalogue (unchanged in a kept store)
        assert all(status in ("updated", "unchanged") for status in first.values()), first
        for n in range(start, start + syncs):
            offset = 1_000_000 * (n if mode == "fresh" else n % 2)
            server.set_payload(Kind.WEBINARS, _webinars(webinars, offset))
            started = time.perf_counter()
            status = _sync(server.base_url, store_file)[Kind.WEBINARS.value]
            seconds = time.perf_counter() - started
            assert status == "updated", status
            step = {"sync": n, "seconds": seconds} | _measure(store_file)
            steps.append(step)
            if log:
                log(
                    f"sync {n}: {step['file_mb'] + step['wal_mb']:.1f} MB "
                    f"({step['free_pages']:,} of {step['pages']:,} pages free), {seconds:.1f} s"
                )
    return {"syncs": syncs, "size": size, "mode": mode, "steps": steps}


def table(result: dict[str, Any]) -> str:
    lines = [
        f"{result['syncs']} syncs, each replacing all {result['size']:,} webinars ({result['mode']}):",
        "",
        "| sync | file + WAL (MB) | pages free | history rows | sync (s) |",
        "|---:|---:|---:|---:|---:|",
    ]
    for s in result["steps"]:
        lines.append(
            f"| {s['sync']} | {s['file_mb'] + s['wal_mb']:.1f} | {s['free_pages']:,} of {s['pages']:,} "
            f"| {s['history_rows']:,} | {s['seconds']:.1f} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--syncs", type=int, default=20)
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--mode", choices=["fresh", "swap"], default="fresh")
    parser.add_argument("--json", action="store_true", help="print one JSON object, not a table")
    parser.add_argument("--store", type=Path, help="sync into this store file and keep it")
    parser.add_argument("--start", type=int, default=1, help="the first sync's number (a kept store's next)")
    args = parser.parse_args()
    result = run(
        args.syncs,
        args.size,
        args.mode,
        log=lambda text: print(text, file=sys.stderr, flush=True),
        store=args.store,
        start=args.start,
    )
    print(json.dumps(result) if args.json else table(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
