"""``catalogue-desktop history KIND ID``: what the syncs changed in one record, offline."""

from __future__ import annotations

import argparse
import json
import sys

from catalogue_desktop.cli.common import open_store
from catalogue_desktop.cli.connection import offline_cache
from catalogue_desktop.cli.output import say
from catalogue_desktop.core.records.errors import CatalogueError
from catalogue_desktop.core.records.history_words import as_text, describe
from catalogue_desktop.core.records.kinds import Kind


class UnknownRecord(CatalogueError):
    """Neither the cache nor its history knows the record asked for."""


def run(args: argparse.Namespace) -> int:
    kind = Kind(args.history_kind)
    with open_store(*offline_cache(args)) as store:
        events = store.history.events(kind, args.record_id)
        data = store.record_data(kind, args.record_id)
        withdrawn = next((w for w in store.history.withdrawn(kind) if w.record_id == args.record_id), None)
        if data is None and withdrawn is not None:
            data = withdrawn.data
        if data is None and not events:
            raise UnknownRecord(
                f"no {kind.singular} {args.record_id} in the cache {store.path}, nor in its history "
                f"(kept {store.history.span_days} days)"
            )
        days = store.history.span_days
    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    if args.json:
        print(json.dumps([e.to_json() for e in events], ensure_ascii=False, indent=1))
        return 0
    record = json.loads(data) if data else None
    title = (record or {}).get("title") or (record or {}).get("name") or ""
    head = f"{kind.singular.capitalize()} #{args.record_id}" + (f" {title}" if title else "")
    if withdrawn is not None:
        head += f" (withdrawn {withdrawn.at[:10]})"
    say(head)
    lines = as_text(describe(events, record))
    say("\n".join(f"  {line}" for line in lines) if lines else f"  no changes in the last {days} days")
    return 0
