"""The sales desk's figures (issue 21, section 4) for ``bench/run.py``: the Dates tab built from the
loaded catalogue, the query per keystroke on it, the offer sheet of 50 occasions and the calendar
file of 1,000, in the real window (``bench/_dates.py``, a child process), and beside them the
command line's ``export offerings`` (whole processes, for reference).

``python bench/offers_bench.py [--size N]`` runs it alone on ``bench/out/cache-N`` (filled by
``run.py``) and prints the table rows and details; ``--outputs`` only the outputs in one process
(``_offers_outputs.py``: the sheet of 50, the .ics of 1,000, the .xlsx of 10,000; no cache needed).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import _common as C  # noqa: E402

PY = "python"
CLI_QUERY = "city:denver starts:2027-10 fee:<1300"  # the finder bench's same-location query


def measure(size: int, cache: Path, repeat: int, home: Path, commands: list[str]) -> dict[str, Any]:
    env = C.isolated_env(home)
    # The desk logs the offers it makes in the cache: on a copy, so that the next run's cold start
    # does not find an open offer (and check it) in the shared pre-filled cache.
    work = C.copy_cache(cache, C.OUT / "tmp" / f"dates-{size}")
    commands.append(f"{PY} bench/_dates.py --cache COPY-OF-bench/out/cache-{size} --repeat {repeat}")
    out = C.child([str(HERE / "_dates.py"), "--cache", str(work), "--repeat", str(repeat)], env, timeout=1800)
    keys = [k["ms"] for k in out["keys"]]
    builds = out["build"]
    out.update(
        size=size,
        shown_ms=C.median([b["shown_ms"] for b in builds]),
        done_ms=C.median([b["done_ms"] for b in builds]),
        max_gap_ms=max(b["max_gap_ms"] for b in builds),
        max_step_ms=max(b["max_step_ms"] for b in builds),
        key_median=C.median(keys),
        key_p95=C.percentile(keys, 95),
        key_max=max(keys),
        facets_median=C.median(out["facets_ms"]),
        facets_max=max(out["facets_ms"]),
        pdf_median=C.median(out["offer_pdf"]["runs_ms"][1:]),
        pdf_first=out["offer_pdf"]["runs_ms"][0],
        ics_median=C.median(out["offer_ics"]["runs_ms"][1:]),
        ics_first=out["offer_ics"]["runs_ms"][0],
        copy_median=C.median(out["offer_copy"]["runs_ms"][1:]),
    )
    out["cli"] = cli(cache, env, repeat, commands)
    commands.append(f"{PY} bench/_offers_outputs.py --size 4000 --repeat {repeat}")
    out["outputs"] = C.child(
        [str(HERE / "_offers_outputs.py"), "--size", "4000", "--repeat", str(repeat)], env
    )
    return out


def cli(cache: Path, env: dict[str, str], repeat: int, commands: list[str]) -> dict[str, Any]:
    """``catalogue-desktop export offerings`` in fresh processes (reading the cache included)."""
    out: dict[str, Any] = {}
    for fmt in ("ics", "pdf", "json"):
        args = [
            "-m",
            "catalogue_desktop",
            "export",
            "offerings",
            "--cache-dir",
            str(cache),
            "--format",
            fmt,
            "--query",
            CLI_QUERY,
            "--output",
            str(C.OUT / f"offer.{fmt}"),
        ]
        commands.append(
            f"{PY} -m catalogue_desktop export offerings --cache-dir bench/out/cache-N "
            f"--format {fmt} --query '{CLI_QUERY}' --output bench/out/offer.{fmt}"
        )
        runs, said = [], ""
        for _ in range(repeat):
            started = time.perf_counter()
            done = subprocess.run(
                [sys.executable, *args], env=env, capture_output=True, text=True, timeout=600, check=True
            )
            runs.append(time.perf_counter() - started)
            said = done.stderr.strip().splitlines()[-1]
        found = re.search(r"Wrote ([\d,]+) occasions", said)
        out[fmt] = {
            "runs_s": runs,
            "median_s": C.median(runs),
            "said": said,
            "occasions": int(found.group(1).replace(",", "")) if found else None,
        }
    return out


def rows(d: dict[str, Any]) -> list[tuple[str, str, str, str, str, bool | str]]:
    """(what, figure, baseline, ratio, goal, verdict) for RESULTS.md's table."""
    n = f"N={d['size']:,}"
    return [
        (
            f"Dates tab built from the loaded catalogue, {n} ({d['dates_rows']:,} occasions; "
            f"median of {len(d['build'])} rebuilds)",
            f"shown after {d['shown_ms']:,.0f} ms (the offerings' other indexes, for queries, done at "
            f"{d['done_ms']:,.0f} ms); longest event-loop gap {d['max_gap_ms']:.0f} ms (longest step "
            f"{d['max_step_ms']:.0f} ms)",
            "—",
            "—",
            "< 300 ms, no stall > 50 ms",
            d["shown_ms"] < 300 and d["max_gap_ms"] < 50,
        ),
        (
            f"query per keystroke on Dates (key to view, tab titles "
            f"counted), {n} ({len(d['keys'])} keystrokes)",
            f"median {d['key_median']:.1f} ms, p95 {d['key_p95']:.1f} ms (max {d['key_max']:.0f}); facets "
            f"once typing pauses: median {d['facets_median']:.0f} ms",
            "—",
            "—",
            "median < 16 ms",
            d["key_median"] < 16,
        ),
        (
            f"offer sheet PDF of 50 occasions from the Dates tab, {n} (occasions, layout, A4 PDF written)",
            f"median {d['pdf_median']:.0f} ms (first {d['pdf_first']:.0f} ms)",
            "—",
            "—",
            "< 1 s",
            d["pdf_median"] < 1000 and d["pdf_first"] < 1000,
        ),
        (
            f".ics of 1,000 occasions from the Dates tab, {n} (occasions, calendar text, file written)",
            f"median {d['ics_median']:.0f} ms (first {d['ics_first']:.0f} ms)",
            "—",
            "—",
            "< 1 s",
            d["ics_median"] < 1000 and d["ics_first"] < 1000,
        ),
        *outputs_rows(d["outputs"]),
    ]


def outputs_rows(o: dict[str, Any]) -> list[tuple[str, str, str, str, str, bool | str]]:
    """The outputs alone, in one process (``_offers_outputs.py``): sheet, calendar, spreadsheet."""
    out = []
    for key, what, goal in (
        ("sheet_50", "offer sheet PDF of 50 occasions (letterhead, zones, measured fee column)", 1000),
        ("ics_1000", ".ics of 1,000 occasions (text)", 1000),
        ("xlsx_10000", "offer .xlsx of 10,000 occasions (typed cells, XlsxWriter; `workbook`)", 3000),
    ):
        r = o[key]
        out.append(
            (
                f"{what}, in one process",
                f"median {r['median_ms']:,.0f} ms (first {r['first_ms']:,.0f} ms), {r['bytes']:,} bytes",
                "—",
                "—",
                f"< {goal / 1000:g} s",
                r["median_ms"] < goal and r["first_ms"] < goal,
            )
        )
    return out


def details(d: dict[str, Any]) -> list[str]:
    fb = d["first_build"]
    cli_runs = "; ".join(
        f"{fmt} {v['median_s']:.2f} s ({v['occasions'] if v['occasions'] is not None else '?'} occasions)"
        for fmt, v in d["cli"].items()
    )
    return [
        f"* Sales desk, N={d['size']:,} (`bench/_dates.py`: the offline window on the pre-filled cache, "
        "the Dates tab current): Dates rebuilt by `FinderIndexer.rebuild_offerings()` once every table "
        "was indexed (as after a refresh of courses, series or webinars), timed from the call to the "
        "tab's rows painted; a 5 ms PreciseTimer notes the event loop's longest gap meanwhile. Per run "
        "(ms): shown "
        + ", ".join(f"{b['shown_ms']:.0f}" for b in d["build"])
        + "; all done "
        + ", ".join(f"{b['done_ms']:.0f}" for b in d["build"])
        + "; longest gap "
        + ", ".join(f"{b['max_gap_ms']:.0f}" for b in d["build"])
        + f". At start-up, from ready to "
        f"Dates built (every kind's table first): {fb['ready_to_dates_s']:.1f} s, the offerings' job "
        f"{fb['offerings_ms']:,.0f} ms of work, longest step {fb['offerings_max_step_ms']:.0f} ms. "
        f"Rows shown: {d['dates_shown']:,} of {d['dates_rows']:,} (past ones hidden).",
        "  * Keystrokes: the interact phase's typing into the query box with the Dates tab current; "
        "per key = key handling + the debounced query (the Dates rows, every tab's count in its title, "
        "the clause counts) + repaint; the facet panel is counted once typing pauses "
        f"(`FACETS_DELAY_MS`), measured apart per query typed: median {d['facets_median']:.0f} ms, "
        f"max {d['facets_max']:.0f} ms. Offers: `DatesTab.offer()` with its dialogs answered at once, "
        f"first run and median of the next; copy for e-mail of 1,000: median {d['copy_median']:.0f} ms. "
        f"Stale-data warnings met: {d['stale_warnings']}.",
        f"  * The command line, fresh processes, median of {len(next(iter(d['cli'].values()))['runs_s'])} "
        f"(reading the cache's courses, series and webinars included): `export offerings --query "
        f"'{CLI_QUERY}'` " + cli_runs + ".",
    ]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--outputs", action="store_true", help="only the outputs, in one process")
    args = parser.parse_args()
    cache = C.OUT / f"cache-{args.size}"
    commands: list[str] = []
    if args.outputs:
        env = C.isolated_env(C.OUT / "home")
        found = C.child(
            [str(HERE / "_offers_outputs.py"), "--size", "4000", "--repeat", str(args.repeat)], env
        )
        for row in outputs_rows(found):
            print(" | ".join(str(x) for x in row))
        sys.exit(0)
    result = measure(args.size, cache, args.repeat, C.OUT / "home", commands)
    for row in rows(result):
        print(" | ".join(str(x) for x in row))
    print("\n".join(details(result)))
    print(json.dumps({k: v for k, v in result.items() if k not in ("keys",)}, default=str)[:2000])
