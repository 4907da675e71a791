"""sync_catalogue over real HTTP on loopback (the demo service and the fault server), into real stores."""

from __future__ import annotations

import asyncio
import json
import os
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.core.service.client import CatalogueClient
from catalogue_desktop.core.service.priority import BACKGROUND_NICENESS
from catalogue_desktop.core.sync.runner import (
    PROCESS_THRESHOLD,
    Ingestor,
    SyncReport,
    sync_catalogue,
)
from catalogue_desktop.demo.server import DemoServer
from catalogue_desktop.demo.synthetic import generate
from tests.faultserver import FaultServer

OUTCOME_KEYS = {"status", "records", "rejected", "error", "fetched_at", "checked_at"}


@pytest.fixture
def store_file(tmp_path: Path) -> Path:
    return tmp_path / "cache" / "catalogue.sqlite3"


def sync(base_url: str, store_file: Path, ingestor: Ingestor | None = None, **kw: Any) -> SyncReport:
    async def main() -> SyncReport:
        async with CatalogueClient(base_url, retries=0, read_timeout=20) as client:
            return await sync_catalogue(client, store_file, ingestor=ingestor, **kw)

    return asyncio.run(main())


def count(payload: bytes) -> int:
    return len(json.loads(payload))


def stored_ids(store_file: Path, kind: Kind) -> list[int | None]:
    with Store(store_file) as s:
        return [e.record_id for e in s.entries(kind)]


# -- against the demo service -------------------------------------------------------------------------


def test_first_sync_updates_all_eight_then_nothing_changes(
    demo_server: DemoServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    seen: list[Kind] = []
    first = sync(demo_server.base_url, store_file, on_outcome=lambda kind, outcome: seen.append(kind))
    assert set(first.collections) == set(Kind) and sorted(seen, key=ALL_KINDS.index) == list(ALL_KINDS)
    for kind, outcome in first.collections.items():
        assert outcome.status == "updated", (kind, outcome)
        assert outcome.records == count(sample[kind]) and outcome.rejected == 0
        assert outcome.error is None and outcome.fetched_at == outcome.checked_at
        assert outcome.changes is None  # nothing to compare with yet
    assert first.ok
    with Store(store_file) as s:
        for kind in Kind:
            state = s.state(kind)
            assert state.records == count(sample[kind])
            assert state.etag is not None and state.etag.startswith(demo_server.etag(kind).rstrip('"'))
            assert [r[0] for part in s.iter_rows(kind) for r in part] == list(range(state.records))

    second = sync(demo_server.base_url, store_file)
    assert {o.status for o in second.collections.values()} == {"unchanged"}
    for kind, outcome in second.collections.items():
        assert outcome.records == count(sample[kind])
        assert outcome.fetched_at == first.collections[kind].fetched_at
    assert second.ok
    assert second.to_json()["changes"] == {}


def test_a_changed_collection_is_updated_with_its_changes(
    demo_server: DemoServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    sync(demo_server.base_url, store_file)
    topics = json.loads(sample[Kind.TOPICS])
    removed = topics.pop()["topicId"]
    topics[0] = topics[0] | {"title": "Renamed topic"}
    topics.append({"topicId": 999_001, "title": "Brand new"})
    demo_server.set_payload(Kind.TOPICS, json.dumps(topics).encode())

    report = sync(demo_server.base_url, store_file)
    outcome = report.collections[Kind.TOPICS]
    assert outcome.status == "updated" and outcome.records == len(topics)
    assert outcome.changes is not None
    assert outcome.changes["added"] == [999_001] and outcome.changes["removed"] == [removed]
    (changed,) = outcome.changes["changed"]
    assert changed["id"] == topics[0]["topicId"]
    assert changed["fields"]["title"][1] == "Renamed topic"
    others = {k: o.status for k, o in report.collections.items() if k is not Kind.TOPICS}
    assert set(others.values()) == {"unchanged"}
    data = report.to_json()
    assert list(data["changes"]) == ["topics"] and data["changes"]["topics"] == outcome.changes


# -- against the fault server -------------------------------------------------------------------------


def test_second_sync_sends_if_none_match_and_gets_304s(
    fault_server: FaultServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    first = sync(fault_server.base_url, store_file)
    assert {o.status for o in first.collections.values()} == {"updated"}
    for kind in Kind:
        (request,) = fault_server.requests_for(kind.path)
        assert "if-none-match" not in request.headers
    second = sync(fault_server.base_url, store_file)
    assert {o.status for o in second.collections.values()} == {"unchanged"}
    for kind in Kind:
        requests = fault_server.requests_for(kind.path)
        assert len(requests) == 2
        assert requests[1].headers["if-none-match"] == f'"{kind.value}-1"'
        assert second.collections[kind].records == count(sample[kind])
    with Store(store_file) as s:
        assert {s.state(k).last_status for k in Kind} == {"unchanged"}


def test_one_endpoint_failing_leaves_the_others_and_keeps_its_old_snapshot(
    fault_server: FaultServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    sync(fault_server.base_url, store_file)
    before = stored_ids(store_file, Kind.COURSES)
    fault_server.set(Kind.COURSES.path, "status", status=500)
    fault_server.set(Kind.ROLES.path, "json", body=[{"roleId": 1, "title": "Only role"}], etag='"roles-2"')

    report = sync(fault_server.base_url, store_file)
    courses = report.collections[Kind.COURSES]
    assert courses.status == "failed"
    assert courses.error is not None and "500" in courses.error
    assert courses.records == count(sample[Kind.COURSES])  # what the store still holds
    assert report.collections[Kind.ROLES].status == "updated"
    assert report.collections[Kind.ROLES].records == 1
    rest = {k: o.status for k, o in report.collections.items() if k not in (Kind.COURSES, Kind.ROLES)}
    assert set(rest.values()) == {"unchanged"}
    assert not report.ok
    assert stored_ids(store_file, Kind.COURSES) == before
    with Store(store_file) as s:
        state = s.state(Kind.COURSES)
        assert state.last_status == "failed" and "500" in (state.last_error or "")
        assert state.records == len(before)
    data = report.to_json()
    assert data["collections"]["courses"]["status"] == "failed"
    assert "500" in data["collections"]["courses"]["error"]


def test_html_page_with_200_fails_as_not_json(fault_server: FaultServer, store_file: Path) -> None:
    sync(fault_server.base_url, store_file)
    fault_server.set(Kind.EXPERTS.path, "html200")
    report = sync(fault_server.base_url, store_file, kinds=[Kind.EXPERTS])
    outcome = report.collections[Kind.EXPERTS]
    assert list(report.collections) == [Kind.EXPERTS]
    assert outcome.status == "failed"
    assert outcome.error is not None and "HTML" in outcome.error and "JSON" in outcome.error
    assert outcome.records > 0


def test_first_sync_failure_has_no_data(fault_server: FaultServer, store_file: Path) -> None:
    fault_server.set(Kind.SERIES.path, "not_array")
    report = sync(fault_server.base_url, store_file, kinds=[Kind.SERIES])
    outcome = report.collections[Kind.SERIES]
    assert outcome.status == "failed" and outcome.records == 0 and "array" in (outcome.error or "")
    with Store(store_file) as s:
        assert not s.state(Kind.SERIES).has_data


def test_partial_payload_is_partial(fault_server: FaultServer, store_file: Path) -> None:
    body = [
        {"webinarId": 1, "title": "Fine"},
        {"webinarId": 2, "fee": "free"},
        {"webinarId": 3, "experts": [{"expertId": "x"}]},
        {"webinarId": 4},
    ]
    fault_server.set(Kind.WEBINARS.path, "json", body=body)
    report = sync(fault_server.base_url, store_file, kinds=[Kind.WEBINARS])
    outcome = report.collections[Kind.WEBINARS]
    assert (outcome.status, outcome.records, outcome.rejected, outcome.error) == ("partial", 2, 2, None)
    assert stored_ids(store_file, Kind.WEBINARS) == [1, 4]
    assert not report.ok
    data = report.to_json()
    assert set(data) == {"collections", "changes", "problems"}
    assert set(data["collections"]) == {"webinars"}
    assert set(data["collections"]["webinars"]) == OUTCOME_KEYS
    assert data["collections"]["webinars"]["status"] == "partial"
    problems = sorted(data["problems"], key=lambda p: p["record"])
    assert [(p["collection"], p["record"], p["record_id"], p["field"]) for p in problems] == [
        ("webinars", 1, 2, "fee"),
        ("webinars", 2, 3, "experts[0].expertId"),
    ]
    assert all(isinstance(p["message"], str) and p["message"] for p in problems)
    json.dumps(data)  # JSON-able as it stands


def test_report_to_json_shape_for_every_collection(fault_server: FaultServer, store_file: Path) -> None:
    fault_server.set(Kind.TOPICS.path, "status", status=503)
    data = sync(fault_server.base_url, store_file).to_json()
    assert set(data) == {"collections", "changes", "problems"}
    assert set(data["collections"]) == {k.value for k in Kind}
    for name, outcome in data["collections"].items():
        assert set(outcome) == OUTCOME_KEYS, name
        assert isinstance(outcome["records"], int) and isinstance(outcome["rejected"], int)
    assert data["collections"]["topics"]["status"] == "failed"
    assert data["collections"]["topics"]["fetched_at"] is None
    assert data["collections"]["webinars"]["status"] == "updated"
    assert data["changes"] == {} and data["problems"] == []
    assert json.loads(json.dumps(data)) == data


def test_sudden_empty_list_keeps_the_cache(
    fault_server: FaultServer, sample: dict[Kind, bytes], store_file: Path
) -> None:
    sync(fault_server.base_url, store_file, kinds=[Kind.ROLES])
    fault_server.set(Kind.ROLES.path, "json", body=[], etag='"roles-empty"')
    outcome = sync(fault_server.base_url, store_file, kinds=[Kind.ROLES]).collections[Kind.ROLES]
    assert outcome.status == "failed" and "empty list" in (outcome.error or "")
    assert outcome.records == count(sample[Kind.ROLES])
    assert len(stored_ids(store_file, Kind.ROLES)) == count(sample[Kind.ROLES])


def test_unreachable_service_fails_every_collection(store_file: Path) -> None:
    from tests.faultserver import refused_port

    report = sync(f"http://127.0.0.1:{refused_port()}", store_file)
    assert {o.status for o in report.collections.values()} == {"failed"}
    assert all("cannot connect" in (o.error or "") for o in report.collections.values())


# -- the worker-process path --------------------------------------------------------------------------


def test_large_payloads_go_through_a_worker_process(store_file: Path) -> None:
    payloads = generate(500, seed=7)
    assert len(payloads[Kind.WEBINARS]) > PROCESS_THRESHOLD
    ingestor = Ingestor(workers=1, threshold=64 * 1024)
    try:
        with DemoServer(payloads) as server:
            report = sync(server.base_url, store_file, ingestor=ingestor)
        pool = ingestor._pool
        assert pool is not None, "no worker process was used"
        processes = list(pool._processes.values())  # type: ignore[union-attr]
        assert processes and all(p.is_alive() for p in processes)
        if hasattr(os, "nice"):  # workers run below the window's CPU priority
            assert pool.submit(os.nice, 0).result(timeout=30) == min(19, os.nice(0) + BACKGROUND_NICENESS)
    finally:
        ingestor.close()
    assert ingestor._pool is None
    for process in processes:
        process.join(timeout=5)
        assert not process.is_alive()
    for kind, outcome in report.collections.items():
        assert outcome.status == "updated", (kind, outcome)
        assert outcome.records == count(payloads[kind])
    with Store(store_file) as s:
        webinars = json.loads(payloads[Kind.WEBINARS])
        assert [e.record_id for e in s.entries(Kind.WEBINARS)] == [w["webinarId"] for w in webinars]
        first = json.loads(s.record_data(Kind.WEBINARS, webinars[0]["webinarId"]) or b"")
        assert first["title"] == webinars[0]["title"]
    assert not list(store_file.parent.glob("incoming-*"))  # no spooled bodies left behind


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="a thread's own niceness: Linux")
def test_ingest_workers_are_born_below_normal_priority() -> None:
    """The thread that starts the workers runs below normal priority, so that each worker is born
    there (on Linux a process inherits the niceness of the thread that started it): its
    interpreter's start and imports before the initializer run low too. Lowered once, not twice."""
    ingestor = Ingestor(workers=1)
    try:
        asyncio.run(ingestor.prewarm())
        assert ingestor._starter is not None and ingestor._pool is not None
        own = os.getpriority(os.PRIO_PROCESS, 0)
        starter = ingestor._starter.submit(
            lambda: os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        ).result(timeout=30)
        assert starter == min(19, own + BACKGROUND_NICENESS)
        assert ingestor._pool.submit(os.nice, 0).result(timeout=60) == min(19, own + BACKGROUND_NICENESS)
        (worker,) = ingestor._pool._processes.values()  # type: ignore[union-attr]
        assert os.getpriority(os.PRIO_PROCESS, worker.pid) == min(19, own + BACKGROUND_NICENESS)
    finally:
        ingestor.close()


def test_ingestor_close_without_use_is_harmless() -> None:
    ingestor = Ingestor()
    ingestor.close()
    ingestor.close()
    assert ingestor._pool is None
