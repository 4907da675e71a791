"""Turn one fetched payload into a stored snapshot: decode, rows, links, diff, one transaction.

``ingest`` is a plain function of picklable arguments returning a small JSON-able report, so that
the sync can run it in a worker process (pydantic holds the GIL: a thread would freeze the loop)
and never ship records back to the event loop's process.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from pydantic_core import to_json as _to_json

from catalogue_desktop.core.cache.store import Entry, Store
from catalogue_desktop.core.listing import rows as listing
from catalogue_desktop.core.listing.facts import FACTS
from catalogue_desktop.core.records.decode import ID_ATTRS, DecodeError, decode_collection, gc_paused
from catalogue_desktop.core.records.diff import diff_snapshots
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.records.problems import Problem
from catalogue_desktop.core.sync.report import IngestReport

MAX_REPORTED_PROBLEMS = 1000


def ingest(
    store_file: str,
    kind_value: str,
    payload: bytes | Path,
    etag: str | None,
    last_modified: str | None,
    checked_at: str,
) -> IngestReport:
    """Decode ``payload`` and, when it holds usable records, make it the current snapshot.

    ``payload`` may be a file holding the body (it is deleted): handing a worker process a path
    instead of pickling tens of MB through a pipe keeps the event loop's process responsive.
    """
    started = time.perf_counter()
    kind = Kind(kind_value)
    if isinstance(payload, Path):
        body_file = payload
        try:
            payload = body_file.read_bytes()
            body_file.unlink()
        except OSError as exc:
            return IngestReport(kind.value, "failed", error=f"cannot read the downloaded body: {exc}")
    # Another worker may be writing a big snapshot: wait for it rather than fail. The cyclic GC stays off
    # throughout: the decoded records are millions of live, acyclic objects, and its passes over them while
    # rows, pages and the diff are made are costly (see docs/decisions.md, "Downloads, ingest and the cache").
    with Store(store_file, busy_timeout=600.0) as store, gc_paused():
        report = _ingest(store, kind, payload, etag, last_modified, checked_at)
        if report.status == "failed":
            store.mark_failed(kind, report.error or "failed", checked_at)
    report.seconds = time.perf_counter() - started
    return report


def _ingest(
    store: Store,
    kind: Kind,
    payload: bytes,
    etag: str | None,
    last_modified: str | None,
    checked_at: str,
) -> IngestReport:
    try:
        decoded = decode_collection(kind, payload)
    except DecodeError as exc:
        return IngestReport(kind.value, "failed", error=str(exc))
    problems = decoded.problems
    state = store.state(kind)
    if decoded.total and not decoded.records:
        return _failed(
            kind, decoded.total, problems, f"all {decoded.total} records were rejected; kept the cached copy"
        )
    if not decoded.total and state.records:
        return _failed(
            kind,
            0,
            problems,
            f"the service sent an empty list where the cache holds {state.records}"
            f" {kind.value}; kept the cached copy",
        )

    entries = _entries(kind, decoded.records)
    changes = None
    if state.has_data:
        if decoded.problems:  # records rejected now may keep their cached version
            old: dict[int | None, Entry] = {}
            for entry in store.entries(kind):
                old.setdefault(entry.record_id, entry)  # ids repeat: the first copy, as lookups
            entries.extend(_carry_over(kind, decoded.problems, old, problems))
            entries.sort(key=lambda e: e.pos)
        changes = diff_snapshots(
            store.data_by_id(kind),
            ((e.record_id, e.data) for e in entries if e.record_id is not None),
        )
    problem_dicts = [p.to_json() for p in problems]
    # (a record kept from an older listing has no facts yet: the snapshot is listed again later)
    version = listing.LISTING_VERSION if all(e.facts is not None for e in entries) else None
    store.replace_snapshot(
        kind,
        entries,
        etag=etag,
        last_modified=last_modified,
        checked_at=checked_at,
        rejected=decoded.rejected,
        problems=problem_dicts,
        changes=changes,
        stats=decoded.stats.to_json(),
        listing=version,
    )
    return IngestReport(
        kind.value,
        "partial" if decoded.rejected else "updated",
        records=len(entries),
        rejected=decoded.rejected,
        problems=problem_dicts[:MAX_REPORTED_PROBLEMS],
        changes=changes,
        stats=decoded.stats.to_json(),
    )


def _json(value: object) -> str:
    """``value`` (a row, links or facts: JSON types only) as JSON text, by pydantic-core's
    serializer (a third of the time of ``json.dumps``; compact), or by ``json.dumps`` where that
    one refuses (a string holding a lone surrogate)."""
    try:
        return _to_json(value).decode()
    except ValueError:
        return json.dumps(value, ensure_ascii=False)


def _entries(kind: Kind, records: list[tuple[int, Any]]) -> list[Entry]:
    """Each record's entry, in one pass: its row, links and facts (as JSON, and as values for the
    packed pages) and its JSON as the model writes it (``model_dump_json(by_alias=True)``)."""
    now_ms = int(time.time() * 1000)
    id_attr = ID_ATTRS[kind]
    row_of, links_of, facts_of = listing.ROWS[kind], listing.links, FACTS[kind]
    entries = []
    for pos, record in records:
        row, links, fact = row_of(record, now_ms), links_of(kind, record), facts_of(record)
        entries.append(
            Entry(
                pos,
                getattr(record, id_attr),
                _json(row),
                _json(links),
                record.__pydantic_serializer__.to_json(record, by_alias=True),
                _json(fact),
                (row, links, fact),
            )
        )
    return entries


def _carry_over(
    kind: Kind, rejected: list[Problem], old: dict[int | None, Entry], problems: list[Problem]
) -> list[Entry]:
    """Rejected records the cache already held in a good version keep that version."""
    kept = []
    done: set[int] = set()
    for p in list(rejected):
        if p.record is None or p.record in done or not isinstance(p.record_id, int):
            continue
        previous = old.get(p.record_id)
        if previous is None or p.field == kind.id_field:
            continue
        done.add(p.record)
        kept.append(
            Entry(p.record, previous.record_id, previous.row, previous.links, previous.data, previous.facts)
        )
        problems.append(
            Problem(
                kind.value, p.record, p.record_id, None, "rejected in this refresh; kept the cached version"
            )
        )
    return kept


def _failed(kind: Kind, total: int, problems: list[Problem], error: str) -> IngestReport:
    return IngestReport(
        kind.value,
        "failed",
        rejected=total,
        error=error,
        problems=[p.to_json() for p in problems[:MAX_REPORTED_PROBLEMS]],
    )
