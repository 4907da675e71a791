"""The history's benchmark (issue 29): what keeping each record's history costs, side by side with
the same code without it, in one run.

* Sync with and without history: a 10,000-webinar catalogue (``demo.synthetic.generate``)
  ingested (``core.sync.ingest``: decode, rows, facts, diff, snapshot written) into a store that
  holds the previous version, 1% of the webinars changed (fee, start date) and 0.2% replaced by
  new ones; "without" is the same code with ``history.record`` and the removed records' lookup
  made no-ops. Alternating, median of ``--rounds``. The download is left out: the history adds
  to the ingest only, so its share of a full sync is smaller still.
* A record's history shown: ``store.history.events`` and ``history_words.describe`` for a
  webinar changed in every one of 100 syncs (the detail pane's History section; median).
* ``changed:last30d`` at 100,000 webinars: the engine (``Finder.evaluate``, cold: nothing
  remembered) on a table with 100 daily syncs' history (1% changed each), beside
  ``starts:last30d`` on the same table.
* Watch evaluation: 20 watched searches on the 100,000 webinars after a sync (``core.searches.
  evaluate.news_in``: each search evaluated, compared with its baseline, the history read since
  its mark), and its longest single step (the window runs a step per event-loop pass).
* History size: 100 syncs of 10,000 webinars with 1% changing each, written as the store writes
  them (``history.record`` in the store's transaction); the history table and its indexes'
  pages (SQLite ``dbstat``).

Usage: ``python bench/history_bench.py [--rounds 5]``; prints a Markdown table.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from catalogue_desktop.core.cache import record_history
from catalogue_desktop.core.cache.saved_searches import SavedSearch
from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.query import timeline
from catalogue_desktop.core.query.engine import Finder
from catalogue_desktop.core.query.table import TableBuilder
from catalogue_desktop.core.records import history_words
from catalogue_desktop.core.records.diff import diff_snapshots
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.searches.evaluated import matches_in, news_steps
from catalogue_desktop.core.sync.ingest import ingest

NOW = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds").replace("+00:00", "Z")


def _version(webinars: list[dict[str, Any]], rng: random.Random, share: float = 0.01) -> list[dict[str, Any]]:
    """The next version: ``share`` of the webinars changed (fee; every third its start date too),
    a fifth of that number replaced by new ones."""
    out = [dict(w) for w in webinars]
    for i in rng.sample(range(len(out)), int(len(out) * share)):
        out[i]["fee"] = (out[i].get("fee") or 0) + rng.choice((10, 20, -10, 50))
        if i % 3 == 0 and out[i].get("startDate"):
            out[i]["startDate"] = out[i]["startDate"].replace("T1", "T0", 1)
    top = max(w["webinarId"] for w in out)
    for k, i in enumerate(rng.sample(range(len(out)), int(len(out) * share / 5))):
        out[i] = dict(out[i], webinarId=top + 1 + k, title=f"{out[i]['title']} (new)")
    return out


def bench_sync(rounds: int) -> dict[str, Any]:
    from catalogue_desktop.demo.synthetic import generate

    webinars = json.loads(generate(10_000, 1)[Kind.WEBINARS])
    v2 = _version(webinars, random.Random(2))
    payloads = json.dumps(webinars).encode(), json.dumps(v2).encode()
    record, lookup = record_history.record, record_history.data_by_id
    times: dict[str, list[float]] = {"with": [], "without": []}
    own: list[float] = []  # history's own time within a "with" ingest

    def timed(f: Any) -> Any:
        def run(*a: Any, **k: Any) -> Any:
            start = time.perf_counter()
            try:
                return f(*a, **k)
            finally:
                own[-1] += time.perf_counter() - start

        return run

    rows = 0
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(rounds * 2):
            mode = ("with", "without")[(r + r // 2) % 2]  # ABBA: neither always goes first
            path = str(Path(tmp) / f"s{r}.sqlite3")
            ingest(path, "webinars", payloads[0], None, None, _iso(NOW - timedelta(days=1)))
            if mode == "without":
                record_history.record = lambda *a, **k: 0  # type: ignore[assignment]
                record_history.data_by_id = lambda db, snapshot, record_ids: {}
            else:
                own.append(0.0)
                record_history.record, record_history.data_by_id = timed(record), timed(lookup)
            try:
                gc.collect()
                report = ingest(path, "webinars", payloads[1], None, None, _iso(NOW))
            finally:
                record_history.record, record_history.data_by_id = record, lookup
            times[mode].append(report.seconds)
            if mode == "with":
                with Store(path) as s:
                    rows = len(s.history.rows(Kind.WEBINARS))
    with_s, without_s = statistics.median(times["with"]), statistics.median(times["without"])
    share = statistics.median(o / t for o, t in zip(own, times["with"], strict=True))
    return {
        "with": with_s,
        "without": without_s,
        "ratio": with_s / without_s,
        "rows": rows,
        "runs": times,
        "own_ms": statistics.median(own) * 1000,
        "share": share,
    }


def _history_store(path: Path, n: int, syncs: int, share: float, days_apart: float = 1.0) -> Store:
    """A store whose history holds ``syncs`` syncs of ``n`` webinars, ``share`` of them changed
    each time (fee; every third the start date), written as ``replace_snapshot`` writes it."""
    rng = random.Random(n)
    store = Store(path)
    for s in range(syncs):
        at = _iso(NOW - timedelta(days=(syncs - 1 - s) * days_apart))
        changed = [
            {
                "id": rid,
                "fields": {"fee": [199 + s, 209 + s]}
                | (
                    {"startDate": ["2027-03-09T09:00:00.000-05:00", "2027-03-10T09:00:00.000-05:00"]}
                    if rid % 3 == 0
                    else {}
                ),
            }
            for rid in rng.sample(range(n), int(n * share))
        ]
        with store._transaction():
            record_history.record(
                store._db, "webinars", {"added": [], "removed": [], "changed": changed}, at, {}
            )
    return store


def bench_record_history() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        store = _history_store(Path(tmp) / "h.sqlite3", 10_000, 100, 0.01)
        with store._transaction():  # one webinar changed in every sync
            for s in range(100):
                at = _iso(NOW - timedelta(days=99 - s))
                change = {"id": 7, "fields": {"fee": [100 + s, 101 + s]}}
                record_history.record(
                    store._db, "webinars", {"added": [], "removed": [], "changed": [change]}, at, {}
                )
        record = {"webinarId": 7, "fee": 200}
        times = []
        for _ in range(21):
            start = time.perf_counter()
            events = store.history.events(Kind.WEBINARS, 7)
            lines = history_words.describe(events, record)
            times.append((time.perf_counter() - start) * 1000)
        store.close()
    return {"ms": statistics.median(times), "max": max(times), "events": len(events), "lines": len(lines)}


def _table_100k(rng: random.Random) -> Any:
    titles = ["Tax update", "Lease accounting", "Ethics in practice", "Deposition skills", "Audit analytics"]
    builder = TableBuilder("webinars")
    facts = []
    for i in range(100_000):
        start = NOW + timedelta(days=rng.randrange(-200, 200), hours=rng.randrange(24))
        facts.append(
            {
                "id": i,
                "title": f"{rng.choice(titles)} {i % 97}",
                "fee": rng.randrange(50, 600),
                "cleAccreditation": rng.random() < 0.5,
                "startDate": start.isoformat(timespec="milliseconds"),
            }
        )
    builder.add(facts)
    return builder.finish()


def _events_100k(rng: random.Random) -> list[timeline.TimedEvent]:
    events = []
    fee, both = frozenset({"fee"}), frozenset({"fee", "starts"})
    for s in range(100):
        ms = int((NOW - timedelta(days=99 - s)).timestamp() * 1000)
        for rid in rng.sample(range(100_000), 1000):
            events.append(timeline.TimedEvent(rid, ms, "changed", both if rid % 3 == 0 else fee))
    return events


def _cold(finder: Finder, query: str, repeat: int = 21) -> float:
    times = []
    for _ in range(repeat):
        finder.forget_answers()
        start = time.perf_counter()
        finder.evaluate(query, "webinars", NOW)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def bench_engine_and_watch() -> dict[str, Any]:
    rng = random.Random(100_000)
    table = _table_100k(rng)
    for _ in table.build():
        pass
    events = _events_100k(rng)
    gc.collect()
    gc.freeze()  # as the window does once its rows and tables are loaded: collections skip them
    start = time.perf_counter()
    index = timeline.HistoryIndex(table.ids, events)
    last, longest = time.perf_counter(), 0.0
    cpu_last, cpu_longest = time.process_time(), 0.0
    for _ in index.build():
        longest, last = max(longest, time.perf_counter() - last), time.perf_counter()
        cpu_longest, cpu_last = max(cpu_longest, time.process_time() - cpu_last), time.process_time()
    table.history = index
    index_ms = (time.perf_counter() - start) * 1000
    finder = Finder()
    finder.set_table(table)
    finder.evaluate("starts:2026 fee:<300 cle:yes tax", "webinars", NOW)  # indexes built
    out: dict[str, Any] = {
        "index_ms": index_ms,
        "index_step_ms": longest * 1000,
        "index_step_cpu_ms": cpu_longest * 1000,
        "events": len(events),
    }
    for query in ("changed:last30d", "changed:fee@last30d", "changed:starts@this-month", "starts:last30d"):
        out[query] = _cold(finder, query)
        out[query + " count"] = finder.evaluate(query, "webinars", NOW).count

    queries = [
        "tax",
        "fee:<300",
        "cle:yes fee:<200",
        "starts:next30d",
        "ethics -fee:>400",
        "lease starts:2027",
        "audit cle:no",
        "deposition fee:100..300",
        "changed:fee@last7d",
        "title:update starts:next3m",
    ] * 2
    with tempfile.TemporaryDirectory() as tmp:
        store = _history_store(Path(tmp) / "w.sqlite3", 100_000, 2, 0.01)
        mark = 0  # every search last looked at before the latest sync
        searches = []
        for i, query in enumerate(queries):
            draft = SavedSearch(f"s{i}", query, "webinars", watched=True)
            baseline = matches_in(finder, draft, NOW - timedelta(days=1))
            baseline = {k: v[: len(v) * 99 // 100] for k, v in baseline.items()}  # 1% newly match
            searches.append(SavedSearch(f"s{i}", query, "webinars", True, _iso(NOW), mark, baseline))
        totals, steps, cpu_steps = [], [], []
        for _ in range(5):
            finder.forget_answers()
            found: list[Any] = []
            start = time.perf_counter()
            last, cpu_last = start, time.process_time()
            longest = cpu_longest = 0.0
            for _step in news_steps(finder, store, searches, NOW, found):
                now, cpu = time.perf_counter(), time.process_time()
                longest, last = max(longest, now - last), now
                cpu_longest, cpu_last = max(cpu_longest, cpu - cpu_last), cpu
            totals.append((time.perf_counter() - start) * 1000)
            steps.append(longest * 1000)
            cpu_steps.append(cpu_longest * 1000)
        store.close()
    out["watch_ms"] = statistics.median(totals)
    out["watch_step_ms"] = statistics.median(steps)
    out["watch_step_cpu_ms"] = statistics.median(cpu_steps)
    out["watch_news"] = sum(item.count for item in found)
    return out


def bench_size() -> dict[str, Any]:
    from catalogue_desktop.demo.synthetic import generate

    webinars = {w["webinarId"]: w for w in json.loads(generate(10_000, 3)[Kind.WEBINARS])}
    rng = random.Random(3)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "size.sqlite3"
        store = Store(path)
        ids = list(webinars)
        for s in range(100):
            at = _iso(NOW - timedelta(days=99 - s))
            picked = rng.sample(ids, 100)
            old = {rid: json.dumps(webinars[rid]).encode() for rid in picked}
            for rid in picked:
                w = dict(webinars[rid])
                w["fee"] = (w.get("fee") or 0) + 10
                if rid % 3 == 0 and w.get("startDate"):
                    w["startDate"] = w["startDate"].replace("T1", "T0", 1)
                webinars[rid] = w
            new = [(rid, json.dumps(webinars[rid]).encode()) for rid in picked]
            changes = diff_snapshots(old, new)
            with store._transaction():
                record_history.record(store._db, "webinars", changes, at, {})
        pages = store._db.execute(
            "SELECT coalesce(sum(pgsize), 0) FROM dbstat"
            " WHERE name IN ('history', 'history_by_record', 'history_by_time')"
        ).fetchone()[0]
        rows = len(store.history.rows(Kind.WEBINARS))
        store.close()
    return {"bytes": pages, "rows": rows}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    started = time.perf_counter()
    figures: list[tuple[str, str, str, str, Callable[[], bool]]] = []
    sync = bench_sync(args.rounds)
    figures.append(
        (
            "full ingest of 10,000 webinars over the previous version, 1% changed (median of "
            f"{args.rounds}; {sync['rows']} history rows written)",
            f"{sync['with'] * 1000:,.0f} ms with history, of which the history's own"
            f" {sync['own_ms']:.1f} ms ({sync['share']:.2%})",
            f"{sync['without'] * 1000:,.0f} ms without ({sync['ratio']:.2f}x: the machine's noise)",
            "< 1.10x",
            lambda: sync["share"] < 0.10,
        )
    )
    shown = bench_record_history()
    figures.append(
        (
            f"a record's history read and put in words ({shown['events']} events, store of 100 syncs)",
            f"median {shown['ms']:.2f} ms (max {shown['max']:.2f})",
            "—",
            "< 20 ms",
            lambda: shown["ms"] < 20,
        )
    )
    engine = bench_engine_and_watch()
    for query in ("changed:last30d", "changed:fee@last30d", "changed:starts@this-month"):
        figures.append(
            (
                f"`{query}` on 100,000 webinars, engine, cold ({engine[query + ' count']:,} matches;"
                " history of 100 daily syncs, 1% changed each)",
                f"{engine[query]:.2f} ms",
                f"`starts:last30d` {engine['starts:last30d']:.2f} ms",
                "< 3 ms",
                lambda q=query: engine[q] < 3,  # type: ignore[misc]
            )
        )
    figures.append(
        (
            f"the history index of 100,000 webinars built ({engine['events']:,} events, 13 timelines)",
            f"{engine['index_ms']:.0f} ms in all, longest step {engine['index_step_ms']:.0f} ms"
            f" (CPU {engine['index_step_cpu_ms']:.0f} ms)",
            "—",
            "steps < 50 ms (the window builds it in idle time)",
            lambda: engine["index_step_ms"] < 50,
        )
    )
    figures.append(
        (
            "watch evaluation, 20 watched searches after a sync, 100,000 webinars"
            f" ({engine['watch_news']:,} news)",
            f"{engine['watch_ms']:.0f} ms (longest step {engine['watch_step_ms']:.0f} ms,"
            f" CPU {engine['watch_step_cpu_ms']:.0f} ms; medians of 5)",
            "—",
            "< 200 ms, steps < 50 ms",
            lambda: engine["watch_ms"] < 200 and engine["watch_step_ms"] < 50,
        )
    )
    size = bench_size()
    figures.append(
        (
            f"history after 100 syncs of 10,000 webinars, 1% changing each ({size['rows']:,} rows)",
            f"{size['bytes'] / 1e6:.2f} MB",
            "—",
            "< 50 MB",
            lambda: size["bytes"] < 50e6,
        )
    )
    print(
        f"Generated by `python bench/history_bench.py --rounds {args.rounds}` on "
        f"{datetime.now().strftime('%Y-%m-%d %H:%M')} in {time.perf_counter() - started:.0f} s.\n"
    )
    print("| what | figure | baseline | goal | result |")
    print("|---|---|---|---|---|")
    for what, figure, baseline, goal, ok in figures:
        print(f"| {what} | {figure} | {baseline} | {goal} | {'**pass**' if ok() else '**FAIL**'} |")
    print(
        f"\nsync runs (s): with {[round(t, 2) for t in sync['runs']['with']]}, "
        f"without {[round(t, 2) for t in sync['runs']['without']]}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
