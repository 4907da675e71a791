"""The cold start of two versions side by side in one alternation, for an issue's before/after:
``python bench/cold_ab.py --before OTHER/src [--rounds 5]``.

``OTHER/src`` is another checkout's ``src`` (e.g. ``git archive main src | tar -x -C /tmp/before``):
it runs with this venv, ``PYTHONPATH`` putting its package first. Each round runs, in turn, the
empty window (``_coldstart.py bare``), then the app before and after, to the first page painted
(``EXIT_WHEN_READY=1``) and to every cached row read (``=all``), as ``run.py``'s cold-start figures
do; the first round (the OS's file cache, the other checkout's bytecode) is dropped. Prints the
medians, their ratios to the empty window, the per-round (paired) ratios, CPU times and the load.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

import _common as C

HERE = Path(__file__).resolve().parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--before", required=True, type=Path, help="the other version's src folder")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--cache", type=Path, default=C.OUT / "cache-10000", help="a pre-filled cache")
    args = parser.parse_args()
    # a home per mode: sharing one, a start closed at another moment than the one before it
    # rewrote the settings file at its close (run.py's cold_start says why)
    home = C.OUT / "home-ab"
    app = [
        "-m",
        "catalogue_desktop",
        "--offline",
        "--cache-dir",
        str(args.cache),
        "--base-url",
        "http://127.0.0.1:9",
    ]
    runs: dict[str, list[dict[str, Any]]] = {}
    load_start = os.getloadavg()
    for i in range(args.rounds + 1):
        for mode in ("bare", "before", "after", "before_all", "after_all"):
            run_env = {**C.isolated_env(home / mode), "BENCH_T0": repr(time.time())}
            argv = [str(HERE / "_coldstart.py"), "bare"] if mode == "bare" else app
            if mode != "bare":
                run_env["CATALOGUE_DESKTOP_EXIT_WHEN_READY"] = "all" if mode.endswith("_all") else "1"
            if mode.startswith("before"):
                run_env["PYTHONPATH"] = str(args.before.resolve())
            started = time.perf_counter()
            out = C.child(argv, run_env, timeout=120)
            out["wall"] = time.perf_counter() - started
            if i:
                runs.setdefault(mode, []).append(out)
    load_end = os.getloadavg()
    wall = {mode: C.median([r["wall"] for r in rs]) for mode, rs in runs.items()}
    cpu = {mode: C.median([r["process_cpu"] for r in rs]) for mode, rs in runs.items()}
    paired = {
        mode: C.median([r["wall"] / b["wall"] for r, b in zip(rs, runs["bare"], strict=True)])
        for mode, rs in runs.items()
        if mode != "bare"
    }
    result = {
        "load_start": load_start,
        "load_end": load_end,
        "wall_ms": {k: v * 1000 for k, v in wall.items()},
        "ratio": {k: wall[k] / wall["bare"] for k in wall if k != "bare"},
        "paired_ratio": paired,
        "cpu_ms": {k: v * 1000 for k, v in cpu.items()},
        "cpu_ratio": {k: cpu[k] / cpu["bare"] for k in cpu if k != "bare"},
        "runs_ms": {k: [round(r["wall"] * 1000) for r in rs] for k, rs in runs.items()},
    }
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
