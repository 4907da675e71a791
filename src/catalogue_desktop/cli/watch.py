"""``catalogue-desktop watch``: watched searches and their news, offline, e.g. from a scheduled task
that mails the output."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from catalogue_desktop.cli.common import open_store
from catalogue_desktop.cli.connection import offline_cache
from catalogue_desktop.cli.output import say
from catalogue_desktop.core.cache.store import utc_now
from catalogue_desktop.core.records.kinds import Kind

if TYPE_CHECKING:
    from catalogue_desktop.core.searches.news import News


def run(args: argparse.Namespace) -> int:
    from catalogue_desktop.core.searches import news as watching

    sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
    with open_store(*offline_cache(args)) as store:
        if args.action == "add":
            if len(args.words) != 2:
                say(
                    "catalogue-desktop watch add: expected NAME QUERY (quote a query of several words)",
                    sys.stderr,
                )
                return 2
            name, query = args.words
            search = watching.watch(store, name, query, args.watch_kind, utc_now())
            count = sum(len(ids) for ids in search.baseline.values())
            say(f"Watching “{search.name}”: {search.query} ({count} matching now; news from here on)")
            return 0
        if args.action == "remove":
            if len(args.words) != 1:
                say("catalogue-desktop watch remove: expected NAME", sys.stderr)
                return 2
            if not store.searches.remove(args.words[0]):
                say(f"catalogue-desktop: no saved search named “{args.words[0]}”", sys.stderr)
                return 1
            say(f"Removed “{args.words[0]}”")
            return 0
        searches = store.searches.all()
        if args.action == "list":
            for s in searches:
                where = Kind(s.kind).label if s.kind else "all kinds"
                mark = "watched" if s.watched else "saved"
                seen = f", seen {s.seen_at}" if s.seen_at else ""
                say(f"{s.name}\t{s.query}\t{where}\t{mark}{seen}")
            return 0
        items = watching.news(store, searches)
        if args.json:
            print(json.dumps([item.to_json() for item in items], ensure_ascii=False, indent=1))
        else:
            say(_text(items) if items else "No watched searches (catalogue-desktop watch add NAME QUERY).")
        if args.mark_seen:
            watching.mark_seen(store, items, utc_now())
    return 0


def _text(items: list[News]) -> str:
    lines = []
    for item in items:
        lines.append(
            f"{item.search.name} — {item.search.query}: "
            + ("nothing new" if not item.count else f"{item.count} news")
        )
        for word, part in (("new", item.new), ("changed", item.changed), ("gone", item.gone)):
            for kind, ids in part.items():
                lines.append(
                    f"  {word} {kind}: {', '.join(map(str, ids[:20]))}{' …' if len(ids) > 20 else ''}"
                )
    return "\n".join(lines)
