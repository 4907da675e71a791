"""``catalogue-desktop sync``: refresh the cache from the service, and say what changed."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from catalogue_desktop.cli import connection
from catalogue_desktop.cli.common import open_store, service_client
from catalogue_desktop.cli.output import say

if TYPE_CHECKING:
    from catalogue_desktop.core.sync.runner import SyncReport


def run(args: argparse.Namespace) -> int:
    import asyncio

    from catalogue_desktop.core.sync.runner import sync_catalogue

    with connection.service(args) as (base_url, connection_of, profile):
        with open_store(connection.cache_base(args, profile)) as store:
            path = store.path

        async def fetch() -> SyncReport:
            async with service_client(args, base_url, connection_of) as client:
                return await sync_catalogue(client, path)

        report = asyncio.run(fetch())
    from catalogue_desktop.cli.offers import after_sync

    offers = after_sync(path)  # each open offer checked against the refreshed catalogue
    if args.json:
        print(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
    else:
        say(sync_text(report))
        if offers:
            say(offers)
        say(f"Cache: {path}")
    return 0 if report.ok else 1


def sync_text(report: SyncReport) -> str:
    from catalogue_desktop.core.records.diff import describe_fields

    lines = []
    said: dict[str, str] = {}  # an error said in full once (a refused certificate: 600 characters)
    for kind, o in report.collections.items():
        line = f"{kind.value:13} {o.status:9} {o.records:>7} records"
        if o.rejected:
            line += f", {o.rejected} rejected"
        if o.error:
            first = said.setdefault(o.error, kind.value)
            line += f" - {o.error}" if first == kind.value else f" - the same failure as {first}"
            if o.fetched_at:
                line += f" (kept the copy of {o.fetched_at})"
        lines.append(line)
    for kind, o in report.collections.items():
        c = o.changes
        if c and (c["added"] or c["removed"] or c["changed"]):
            lines.append(
                f"\nChanges in {kind.value}: {len(c['added'])} added, "
                f"{len(c['removed'])} removed, {len(c['changed'])} changed"
            )
            for entry in c["changed"][:20]:
                lines.append(f"  {entry['id']}: {describe_fields(entry['fields'])}")
    problems = [p for o in report.collections.values() for p in o.problems]
    if problems:
        lines.append(f"\nProblems ({len(problems)}):")
        from catalogue_desktop.core.records.problems import Problem

        lines += [f"  {Problem.from_json(p)}" for p in problems[:30]]
        if len(problems) > 30:
            lines.append(f"  ... and {len(problems) - 30} more (use --json for all)")
    return "\n".join(lines)
