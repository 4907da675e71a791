"""``catalogue-desktop check``: how far the service's data conforms to the spec."""

from __future__ import annotations

import argparse
import json
from typing import Any

from catalogue_desktop.cli import connection
from catalogue_desktop.cli.common import service_client
from catalogue_desktop.cli.output import say


def run(args: argparse.Namespace) -> int:
    import asyncio

    from catalogue_desktop.core.sync.conformance import check_service

    with connection.service(args) as (base_url, connection_of, _profile):

        async def fetch() -> dict[str, Any]:
            async with service_client(args, base_url, connection_of) as client:
                return await check_service(client)

        report = asyncio.run(fetch())
    if args.json:
        print(json.dumps(report, indent=2, default=str))
    else:
        say(format_report(report))
    return 0 if report["conformant"] else 1


def format_report(report: dict[str, Any], limit: int = 30) -> str:
    """The report as text for a terminal."""
    lines = ["Conformant: yes" if report["conformant"] else "Conformant: no", ""]
    said: dict[str, str] = {}  # an error said in full once (a refused certificate: 600 characters)
    for name, c in report["collections"].items():
        if c.get("error"):
            first = said.setdefault(c["error"], name)
            lines.append(
                f"{name:13} FAILED: " + (c["error"] if first == name else f"the same failure as {first}")
            )
            continue
        line = f"{name:13} {c['records']:>7} records, {c['rejected']} rejected"
        if c["duplicate_ids"]:
            line += f", duplicate ids: {_clip(c['duplicate_ids'])}"
        lines.append(line)
        if c["unknown_fields"]:
            lines.append(f"{'':13} unknown fields: {_counts(c['unknown_fields'])}")
        for code, counts in c["codes"].items():
            lines.append(f"{'':13} {code} codes seen: {_counts(counts)}")
        if c["nulls"]:
            lines.append(f"{'':13} null or absent: {_counts(c['nulls'])}")
    if report["problems"]:
        lines += ["", f"Problems ({len(report['problems'])}):"]
        for p in report["problems"][:limit]:
            where = f"{p['collection']}[{p['record']}]" if p["record"] is not None else p["collection"]
            if p.get("record_id") is not None:
                where += f" (id {p['record_id']})"
            lines.append(f"  {where} {p['field'] or ''}: {p['message']}")
        if len(report["problems"]) > limit:
            lines.append(f"  ... and {len(report['problems']) - limit} more (use --json for all)")
    if report["dangling"]:
        lines += ["", f"Dangling references ({len(report['dangling'])}):"]
        for d in report["dangling"][:limit]:
            lines.append(
                f"  {d['collection']} {d['record_id']} -> {d['refers_to']} {d['missing_id']} (not listed)"
            )
    off_zone = report.get("off_zone") or []
    if off_zone:
        lines += ["", f"Times off their location's zone ({len(off_zone)}):"]
        for z in off_zone[:limit]:
            lines.append(
                f"  course {z['course_id']} location {z['location_id']} ({z['city']}, {z['state']}) "
                f"{z['field']} {z['value']}: {z['message']}"
            )
        if len(off_zone) > limit:
            lines.append(f"  ... and {len(off_zone) - limit} more (use --json for all)")
    return "\n".join(lines)


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{k} ({v})" for k, v in counts.items())


def _clip(values: list[Any], n: int = 10) -> str:
    text = ", ".join(map(str, values[:n]))
    return text + (f" ... (+{len(values) - n})" if len(values) > n else "")
