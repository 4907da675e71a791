"""Resource bounds: requests in flight, body sizes, and the photo cache's size on disk.

Complements tests/core/service/test_client.py (which covers the catalogue-response caps: Content-Length,
chunked, decoded gzip, endless bodies) and tests/ui/detail/test_images.py (LRU order, dimension and byte
caps of single images): here the server counts what is really in flight, a photo stream without
an end is cut at the photo cap, and a long run of distinct photos never grows the cache directory
past its limit.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.records.errors import TooLarge
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.core.service.client import CatalogueClient
from catalogue_desktop.core.sync.runner import sync_catalogue
from catalogue_desktop.demo.server import load_sample
from catalogue_desktop.ui.detail.images import ImageCache
from tests.faultserver import FaultServer

SAMPLE = load_sample()


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as s:
        yield s


def slow_catalogue(server: FaultServer, delay: float = 0.15) -> None:
    """Every collection answers after ``delay``: requests overlap unless something bounds them."""
    for kind in ALL_KINDS:
        server.set(kind.path, "slow_headers", delay=delay, body=SAMPLE[kind])


# -- requests in flight ------------------------------------------------------------------------


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_the_server_never_sees_more_requests_than_max_concurrency(server: FaultServer, limit: int) -> None:
    slow_catalogue(server)

    async def main() -> list[Any]:
        async with CatalogueClient(server.base_url, max_concurrency=limit, retries=0) as client:
            return list(await asyncio.gather(*(client.fetch(kind) for kind in ALL_KINDS)))

    results = asyncio.run(main())
    assert [r.kind for r in results] == list(ALL_KINDS) and all(r.body for r in results)
    assert len(server.requests) == 8
    assert server.max_in_flight == limit  # bounded, and the bound is actually used
    assert server.in_flight == 0


def test_a_sync_of_all_collections_keeps_the_bound(server: FaultServer, tmp_path: Path) -> None:
    """The app's path (sync_catalogue: fetch, spool, ingest) obeys the client's bound too."""
    slow_catalogue(server)
    store_file = tmp_path / "catalogue.sqlite3"

    async def main() -> Any:
        async with CatalogueClient(server.base_url, max_concurrency=2, retries=0) as client:
            return await sync_catalogue(client, store_file)

    report = asyncio.run(main())
    assert {o.status for o in report.collections.values()} == {"updated"}
    assert server.max_in_flight == 2
    with Store(store_file) as store:
        assert store.state(Kind.WEBINARS).records == 60


def test_without_a_tight_bound_requests_do_overlap(server: FaultServer) -> None:
    """Control: the counter sees overlap when the client allows it (the test above can fail)."""
    slow_catalogue(server, delay=0.3)

    async def main() -> None:
        async with CatalogueClient(server.base_url, max_concurrency=8, retries=0) as client:
            await asyncio.gather(*(client.fetch(kind) for kind in ALL_KINDS))

    asyncio.run(main())
    assert server.max_in_flight > 2


def test_retries_do_not_exceed_the_bound(server: FaultServer) -> None:
    """Failing collections retried with backoff still share the same slots."""
    for kind in ALL_KINDS:
        server.set(
            kind.path,
            "sequence",
            steps=[
                ("slow_headers", {"delay": 0.1, "status": 503, "body": b""}),
                ("slow_headers", {"delay": 0.1, "body": SAMPLE[kind]}),
            ],
        )

    async def main() -> None:
        async with CatalogueClient(server.base_url, max_concurrency=2, retries=1, backoff=0.0) as client:
            await asyncio.gather(*(client.fetch(kind) for kind in ALL_KINDS))

    asyncio.run(main())
    assert len(server.requests) == 16
    assert server.max_in_flight == 2


# -- photo size cap -------------------------------------------------------------------------------


@pytest.mark.parametrize("compressed", [False, True])
def test_an_endless_photo_is_cut_at_the_photo_cap(server: FaultServer, compressed: bool) -> None:
    """No Content-Length and no end (plain, or a gzip bomb): the body stops at the cap, fast."""
    server.set("/img/endless.jpg", "endless", chunk=16384, gzip=compressed)

    async def main() -> None:
        async with CatalogueClient(server.base_url, retries=0) as client:
            await client.fetch_bytes(server.url("/img/endless.jpg"), max_bytes=300_000)

    with pytest.raises(TooLarge) as info:
        asyncio.run(main())
    assert info.value.limit == 300_000 and "exceeded" in str(info.value)
    deadline = time.monotonic() + 5
    while server.in_flight and time.monotonic() < deadline:  # the server notices the hang-up
        time.sleep(0.02)
    assert server.in_flight == 0


# -- the photo cache on disk ------------------------------------------------------------------------


def photo(i: int, size: int = 20_000) -> bytes:
    """Distinct, incompressible bytes (the cache stores what it is given)."""
    return i.to_bytes(4, "big") + os.urandom(size - 4)


def disk_bytes(directory: Path) -> int:
    return sum(p.stat().st_size for p in directory.iterdir() if p.is_file())


def test_a_long_session_of_photos_never_grows_the_cache_past_its_limit(
    server: FaultServer, tmp_path: Path
) -> None:
    """100 distinct photos downloaded one after another (as the detail pane does while someone
    browses), each stored: after every one the directory stays within the limit, the newest are
    kept, the oldest evicted (except one looked at again and again), nothing half-written is left."""
    limit = 120_000
    count = 100
    directory = tmp_path / "images"
    cache = ImageCache(directory, max_bytes=limit)
    bodies = {}
    for i in range(count):
        bodies[i] = photo(i, 15_000 + (i % 7) * 2_000)
        server.set(f"/img/{i}.jpg", "json", body=bodies[i], content_type="image/jpeg")

    async def main() -> None:
        async with CatalogueClient(server.base_url, retries=0) as client:
            for i in range(count):
                url = server.url(f"/img/{i}.jpg")
                data = await client.fetch_bytes(url, max_bytes=5 * 1024 * 1024)
                assert data == bodies[i]
                await asyncio.to_thread(cache.put, url, data)
                on_disk = disk_bytes(directory)
                assert on_disk <= limit, (i, on_disk)
                assert cache.total_bytes == on_disk, (i, cache.total_bytes, on_disk)
                # The first photo is shown again and again (a favourite expert): it stays.
                assert cache.get(server.url("/img/0.jpg")) == bodies[0], i

    asyncio.run(main())
    last = server.url(f"/img/{count - 1}.jpg")
    assert last in cache and cache.get(last) == bodies[count - 1]
    assert server.url("/img/1.jpg") not in cache and server.url("/img/50.jpg") not in cache
    files = list(directory.iterdir())
    assert all(p.name.endswith(".img") for p in files), [p.name for p in files]
    assert len(files) >= limit // 30_000  # it is a cache, not an empty directory
    assert len(server.requests) == count
    # A restart with a smaller limit: the next photo brings the directory under the new limit.
    smaller = ImageCache(directory, max_bytes=limit // 2)
    assert smaller.total_bytes == disk_bytes(directory)
    smaller.put("http://example.org/next.jpg", photo(1000))
    assert disk_bytes(directory) <= limit // 2
    assert "http://example.org/next.jpg" in smaller


def test_a_photo_bigger_than_the_whole_cache_is_not_stored(tmp_path: Path) -> None:
    cache = ImageCache(tmp_path / "images", max_bytes=50_000)
    cache.put("http://example.org/a.jpg", photo(1))
    cache.put("http://example.org/huge.jpg", photo(2, 60_000))
    assert "http://example.org/huge.jpg" not in cache
    assert "http://example.org/a.jpg" in cache  # not evicted for something that never fits
    assert disk_bytes(tmp_path / "images") == 20_000
