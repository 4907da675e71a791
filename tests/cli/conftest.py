"""What the command-line tests share: the demo sample synced once per session, copied into a test
that needs a synced cache to start from (issue 37: the first ``sync`` of a test that is about
another command was a CLI process each time; ``sync`` itself is tested in ``test_commands.py``)."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from catalogue_desktop.core.cache.store import FILE_NAME
from catalogue_desktop.core.service.client import CatalogueClient
from catalogue_desktop.core.sync.runner import sync_catalogue
from catalogue_desktop.demo.server import DemoServer, load_sample


def synced(url: str, cache: Path) -> None:
    """The cache ``sync --base-url url --cache-dir cache`` fills, filled in-process by the function
    that command calls."""

    async def main() -> bool:
        async with CatalogueClient(url, retries=0) as client:
            return (await sync_catalogue(client, cache / FILE_NAME)).ok

    cache.mkdir(parents=True, exist_ok=True)
    assert asyncio.run(main())


@pytest.fixture(scope="session")
def _demo_synced_once(tmp_path_factory: pytest.TempPathFactory) -> Path:
    cache = tmp_path_factory.mktemp("demo-synced")
    with DemoServer(load_sample()) as server:
        synced(server.base_url, cache)
    return cache


@pytest.fixture
def demo_cache(_demo_synced_once: Path, tmp_path: Path) -> Path:
    """``tmp_path / "cache"``: the demo sample synced (from any demo service of the sample: the
    validators are the payloads' digests, so its next sync is "unchanged")."""
    cache = tmp_path / "cache"
    shutil.copytree(_demo_synced_once, cache)
    return cache
