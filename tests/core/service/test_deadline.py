"""The overall deadline per collection: a service that takes the connection but never answers (or
answers a trickle) is given up on, retries included, with the collection and the time waited named;
the cached copy stays. Real loopback servers (tests/faultserver.py)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.cache.store import FILE_NAME, Store
from catalogue_desktop.core.records.errors import TimedOut
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.service.client import DEFAULT_DEADLINE, CatalogueClient
from catalogue_desktop.core.sync.runner import sync_catalogue
from tests.faultserver import FaultServer

BODY = b'[{"webinarId": 1, "title": "Tax basics"}]'


def fetch_error(
    server: FaultServer, *, fetch_deadline: float | None = None, spool_dir: Path | None = None, **options: Any
) -> TimedOut:
    """The TimedOut of fetching webinars with a client made with ``options``."""

    async def main() -> None:
        async with CatalogueClient(server.base_url, **options) as client:
            await client.fetch(Kind.WEBINARS, spool_dir=spool_dir, deadline=fetch_deadline)

    with pytest.raises(TimedOut) as info:
        asyncio.run(main())
    return info.value


def test_the_default_deadline_is_a_minute() -> None:
    assert DEFAULT_DEADLINE == 60.0
    assert CatalogueClient("http://127.0.0.1:9").deadline == 60.0


def test_a_service_that_never_answers_is_given_up_at_the_deadline() -> None:
    with FaultServer() as server:
        server.set(Kind.WEBINARS.path, "slow_headers", delay=30.0, body=BODY)
        err = fetch_error(server, deadline=0.5, read_timeout=30.0, retries=0)
        port = server.port
    assert str(err) == (
        f"gave up on webinars after waiting 0.5 s for 127.0.0.1:{port} (the time "
        f"allowed per collection, retries included)"
    )
    assert err.kind is Kind.WEBINARS


def test_retries_count_against_the_deadline_and_the_last_failure_is_named() -> None:
    with FaultServer() as server:
        server.set(Kind.WEBINARS.path, "slow_headers", delay=30.0, body=BODY)
        err = fetch_error(server, deadline=1.2, read_timeout=0.4, retries=20, backoff=0.01)
        attempts = len(server.requests)
    assert 2 <= attempts < 21  # gave up in the middle of the retries, not after all of them
    text = str(err)
    assert text.startswith("gave up on webinars after waiting 1.2 s for 127.0.0.1:")
    assert text.endswith(f"{attempts - 1} earlier attempts: timed out after 0.4 s waiting for the service")


def test_a_trickling_body_is_given_up_and_its_spool_file_removed(tmp_path: Path) -> None:
    with FaultServer() as server:  # every byte well within the read timeout, the whole far beyond
        server.set(Kind.WEBINARS.path, "slow_body", body=b"[" + b"1," * 400 + b"1]", chunk=1, interval=0.02)
        err = fetch_error(server, deadline=0.6, spool_dir=tmp_path, read_timeout=5.0, retries=0)
    assert "gave up on webinars after waiting 0.6 s" in str(err)
    assert list(tmp_path.iterdir()) == []


def test_the_client_default_applies_and_a_fetch_may_choose_its_own() -> None:
    with FaultServer() as server:
        server.set(Kind.WEBINARS.path, "slow_headers", delay=30.0, body=BODY)
        assert "after waiting 0.3 s" in str(fetch_error(server, deadline=0.3, retries=0))
        assert "after waiting 0.4 s" in str(fetch_error(server, deadline=30.0, fetch_deadline=0.4, retries=0))


def test_a_sync_fails_only_the_hanging_collection_and_keeps_its_cached_copy(
    fault_server: FaultServer, tmp_path: Path
) -> None:
    store_file = tmp_path / FILE_NAME

    async def sync(deadline: float) -> Any:
        async with CatalogueClient(
            fault_server.base_url, retries=1, backoff=0.01, read_timeout=30, deadline=deadline
        ) as client:
            return await sync_catalogue(client, store_file)

    assert asyncio.run(sync(60.0)).ok
    with Store(store_file) as store:
        before = [e.record_id for e in store.entries(Kind.COURSES)]
    fault_server.set(Kind.COURSES.path, "slow_headers", delay=30.0)
    report = asyncio.run(sync(0.8))
    courses = report.collections[Kind.COURSES]
    assert courses.status == "failed" and courses.records == len(before)
    assert courses.error is not None
    assert courses.error.startswith("gave up on courses after waiting 0.8 s for 127.0.0.1:")
    assert {o.status for k, o in report.collections.items() if k is not Kind.COURSES} == {"unchanged"}
    with Store(store_file) as store:
        assert [e.record_id for e in store.entries(Kind.COURSES)] == before
        assert store.state(Kind.COURSES).last_error == courses.error
