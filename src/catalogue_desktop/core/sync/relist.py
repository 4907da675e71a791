"""List a stored snapshot again: rows, links and facts made anew from its records.

A snapshot stored by an older version of the app (``listing.LISTING_VERSION``: before facts and
date offsets) still holds every record as it was accepted; ``relist`` decodes them again and
replaces the listing in one transaction, so an upgrade needs no refresh from the service (sales
work offline). Like ``ingest``, a plain function of picklable arguments for a worker process.
"""

from __future__ import annotations

import json
import time
from typing import Any

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.listing import rows as listing
from catalogue_desktop.core.listing.facts import facts
from catalogue_desktop.core.records.decode import DecodeError, decode_collection, gc_paused
from catalogue_desktop.core.records.kinds import Kind


def relist(store_file: str, kind_value: str) -> dict[str, Any]:
    """List ``kind``'s current snapshot again; a small report (records, seconds, error)."""
    started = time.perf_counter()
    kind = Kind(kind_value)
    with Store(store_file, busy_timeout=600.0) as store, gc_paused():
        snapshot = store.state(kind).snapshot
        if snapshot is None:
            return {"kind": kind.value, "records": 0, "seconds": 0.0, "error": None}
        entries = list(store.entries(kind))
        payload = b"[" + b",".join(e.data for e in entries) + b"]"
        try:
            decoded = decode_collection(kind, payload)
        except DecodeError as exc:  # cannot happen to data this app stored; keep what is there
            return {"kind": kind.value, "records": 0, "seconds": 0.0, "error": str(exc)}
        now_ms = int(time.time() * 1000)
        items = []
        for index, record in decoded.records:
            entry = entries[index]
            items.append(
                (
                    entry.pos,
                    json.dumps(listing.row(kind, record, now_ms), ensure_ascii=False),
                    json.dumps(listing.links(kind, record)),
                    json.dumps(facts(kind, record), ensure_ascii=False),
                )
            )
        version = listing.LISTING_VERSION if len(items) == len(entries) else None
        store.relisted(kind, snapshot, items, version or 0)
    return {
        "kind": kind.value,
        "records": len(items),
        "seconds": time.perf_counter() - started,
        "error": None if version else f"{len(entries) - len(items)} records could not be read again",
    }


def relist_stale(store_file: str) -> list[dict[str, Any]]:
    """List again, in this process, every kind listed by an older version (the command line)."""
    with Store(store_file) as store:
        stale = store.stale_listings(listing.LISTING_VERSION)
    return [relist(store_file, kind.value) for kind in stale]
