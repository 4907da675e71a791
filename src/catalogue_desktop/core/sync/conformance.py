"""The conformance report: how far the service's data departs from the spec, and where.

Covers rejected records, unknown fields, nulls per field, enum-like codes seen (Webinar.type,
Course.level), duplicate ids and dangling references between collections. Writes nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from catalogue_desktop.core.listing import rows as listing
from catalogue_desktop.core.records.decode import ID_ATTRS, Decoded, decode_collection
from catalogue_desktop.core.records.errors import CatalogueError
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.core.service.client import CatalogueClient


async def check_service(client: CatalogueClient, kinds: Iterable[Kind] = ALL_KINDS) -> dict[str, Any]:
    """Fetch and decode every collection (nothing is stored) and report on conformance."""

    async def one(kind: Kind) -> tuple[Kind, Decoded | str]:
        try:
            result = await client.fetch(kind)
            assert result.body is not None
            return kind, await asyncio.to_thread(decode_collection, kind, result.body)
        except CatalogueError as exc:
            return kind, str(exc)

    return build_report(dict(await asyncio.gather(*(one(k) for k in kinds))))


def build_report(results: dict[Kind, Decoded | str]) -> dict[str, Any]:
    """JSON-able report; ``conformant`` when every collection decoded with no problem.

    Dangling references are listed but do not count against it: the courses endpoint lists only
    upcoming courses, so certificates may name courses it does not list."""
    collections: dict[str, Any] = {}
    problems: list[dict[str, Any]] = []
    ids: dict[Kind, set[int]] = {}
    for kind, result in results.items():
        if isinstance(result, str):
            collections[kind.value] = {"error": result}
            continue
        stats = result.stats
        ids[kind] = {getattr(r, ID_ATTRS[kind]) for _, r in result.records}
        collections[kind.value] = {
            "error": None,
            "records": result.total,
            "rejected": result.rejected,
            "unknown_fields": dict(stats.unknown_fields),
            "nulls": dict(sorted(stats.nulls.items())),
            "codes": {name: dict(c) for name, c in stats.codes.items()},
            "duplicate_ids": stats.duplicate_ids,
        }
        problems.extend(p.to_json() for p in result.problems)
    dangling = _dangling(results, ids)
    failed = any(isinstance(r, str) for r in results.values())
    return {
        "conformant": not (failed or problems),
        "collections": collections,
        "problems": problems,
        "dangling": dangling,
    }


def _dangling(results: dict[Kind, Decoded | str], ids: dict[Kind, set[int]]) -> list[dict[str, Any]]:
    out = []
    for kind, result in results.items():
        if isinstance(result, str):
            continue
        targets = listing.LINK_KINDS.get(kind, ())
        for _, record in result.records:
            for target, linked in zip(targets, listing.links(kind, record), strict=False):
                if target not in ids:
                    continue  # that collection failed: nothing to compare with
                for target_id in linked:
                    if target_id not in ids[target]:
                        out.append(
                            {
                                "collection": kind.value,
                                "record_id": getattr(record, ID_ATTRS[kind]),
                                "refers_to": target.value,
                                "missing_id": target_id,
                            }
                        )
    return out
