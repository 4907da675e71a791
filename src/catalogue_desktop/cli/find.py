"""``catalogue-desktop find``: evaluate queries on the cached catalogue, offline."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import TextIO

from catalogue_desktop.cli import find_output
from catalogue_desktop.cli.common import open_store
from catalogue_desktop.cli.connection import offline_cache
from catalogue_desktop.cli.output import say
from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.formats.drawn_text import terminal_text
from catalogue_desktop.core.query.fields import OFFERINGS, TABLES
from catalogue_desktop.core.query.order import ordered
from catalogue_desktop.core.query.syntax import parse
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.searches.stored import (
    OFFERING_SOURCES,
    NothingToFind,
    kinds_needed,
    load,
    local_now,
    read_all,
    relist_stale,
)


def run(args: argparse.Namespace) -> int:
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    with open_store(*offline_cache(args), reading=True) as store:
        return find(
            store,
            args.queries,
            args.find_kinds,
            as_json=args.json,
            out=sys.stdout,
            err=sys.stderr,
            explain=args.explain,
            literal=args.words,
        )


def find(
    store: Store,
    queries: Sequence[str],
    tables: Sequence[str] | None,
    *,
    as_json: bool,
    out: TextIO,
    err: TextIO,
    now: datetime | None = None,
    explain: bool = False,
    literal: bool = False,
) -> int:
    """Evaluate each of ``queries`` on ``tables`` (default: every kind and the offerings, or the
    kind the query names: ``courses``, ``kind:course``) and write the results to ``out`` (errors
    in text mode to ``err``); the exit status: 0 when every query parsed, 2 when one did not.
    Raises ``NothingToFind`` when no table asked for was synced. Plain words are read first
    (``core.query.reading``: ``illinois cpe`` is ``state:IL cpe:yes``; ``explain`` says how),
    unless ``literal``; the rows come in the order the query asks (``sort:fee``)."""
    asked = list(dict.fromkeys(tables or ()))
    tables = asked or list(TABLES)
    now = now or local_now()
    readings = read_all(store, queries, now, table=asked[0] if len(asked) == 1 else None, literal=literal)
    parsed = [parse(r.query) for r in readings]
    shown = [asked or ([r.table] if r.table else tables) for r in readings]
    needed = list(dict.fromkeys(t for ts in shown for t in ts))
    kinds = kinds_needed(needed, [p for p in parsed if p.ok])
    unsynced = _unsynced(store, tables)
    if len(unsynced) == len(tables):
        what = "nothing was ever" if set(tables) == set(TABLES) else f"{' and '.join(tables)} were never"
        raise NothingToFind(f"{what} synced into {store.path}; run 'catalogue-desktop sync' first")

    def note(text: str) -> None:
        say(f"catalogue-desktop: {text}", err)

    for name in unsynced:
        note(f"{name} were never synced into this cache: none are found")
    catalogue = None
    if any(p.ok for p in parsed):
        relist_stale(store, kinds, note)
        catalogue = load(store, kinds, needed)
    failed = False
    for number, (p, reading, its_tables) in enumerate(zip(parsed, readings, shown, strict=True), 1):
        if explain and not as_json:
            out.write(terminal_text(find_output.explain(reading)))
        if p.error is not None:
            failed = True
            if as_json:
                out.write(find_output.json_error(p.text, p.error) + "\n")
            else:
                say(find_output.error_text(p.text, p.error, number), err)
            continue
        assert catalogue is not None
        outcomes = {t: catalogue.finder.evaluate(p, t, now) for t in its_tables}
        rows = {
            t: ordered(catalogue.table(t), o.bits, reading.sort, o.child_bits) for t, o in outcomes.items()
        }
        gone = find_output.withdrawn(catalogue, p, its_tables, now)
        if as_json:
            out.write(find_output.json_line(catalogue, reading.text, outcomes, gone, reading, rows) + "\n")
        else:
            block = find_output.text_block(
                catalogue, reading.text, outcomes, number, len(parsed), gone, reading, rows
            )
            out.write(terminal_text(block))
    return 2 if failed else 0


def _unsynced(store: Store, tables: Iterable[str]) -> list[str]:
    synced = {k.value for k in Kind if store.state(k).has_data}
    return [t for t in tables if not synced & set(OFFERING_SOURCES if t == OFFERINGS else (t,))]
