"""The conformance report: how far the service's data departs from the spec, and where.

Covers rejected records, unknown fields, nulls per field, enum-like codes seen (Webinar.type,
Course.level), duplicate ids, dangling references between collections, and course dates whose
written UTC offset is not their location's zone's on that date (``zones.check``). Writes nothing.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from catalogue_desktop.core.listing import rows as listing
from catalogue_desktop.core.records.decode import ID_ATTRS, Decoded, decode_collection
from catalogue_desktop.core.records.errors import CatalogueError
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.core.records.zones import check as zone_check
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
    courses = results.get(Kind.COURSES)
    off_zone = _off_zone(courses.records) if courses is not None and not isinstance(courses, str) else []
    failed = any(isinstance(r, str) for r in results.values())
    return {
        "conformant": not (failed or problems),
        "collections": collections,
        "problems": problems,
        "dangling": dangling,
        "off_zone": off_zone,
    }


def _off_zone(records: Iterable[tuple[int, Any]]) -> list[dict[str, Any]]:
    """Course dates written with an offset that is not their location's zone's on that date
    (listed, not counted against conformance: the service may mean the offset)."""
    out = []
    for _, course in records:
        for loc in course.locations or ():
            for field, moment in (("startDate", loc.start_date), ("endDate", loc.end_date)):
                found = zone_check(moment, loc.state) if moment is not None else None
                if found is not None and not found.ok:
                    out.append(
                        {
                            "course_id": course.course_id,
                            "location_id": loc.location_id,
                            "city": loc.city,
                            "state": loc.state,
                            "field": field,
                            "value": moment.isoformat(),
                            "zone": found.zone,
                            "message": found.mismatch,
                        }
                    )
    return out


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
