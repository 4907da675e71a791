"""Fixtures for the UI component tests (item models, detail panes, image loader).

Import with ``from tests.ui.fixtures_components import *  # noqa: F403``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QLocale

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.listing.rowset import CatalogueIndex, RowSet
from catalogue_desktop.core.records.decode import decode_record
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.sync.ingest import ingest
from catalogue_desktop.paths import resource_path
from catalogue_desktop.ui.common.formatting import Formatter

__all__ = [
    "DemoCatalogue",
    "async_loop",
    "demo",
    "demo_store_path",
    "en_formatter",
    "load_rowsets",
]


def load_rowsets(store: Store) -> dict[Kind, RowSet]:
    rowsets = {}
    for kind in Kind:
        rowset = RowSet(kind)
        for chunk in store.iter_rows(kind):
            rowset.extend(chunk)
        rowsets[kind] = rowset
    return rowsets


class DemoCatalogue:
    """The bundled demo sample, ingested into a store: rows, index and full records."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.store = Store(path)
        self.rowsets = load_rowsets(self.store)
        self.index = CatalogueIndex(self.rowsets)
        self.raw = {
            kind: json.loads(resource_path("demo", f"{kind.value}.json").read_text("utf-8")) for kind in Kind
        }

    def record(self, kind: Kind, record_id: int) -> Any:
        data = self.store.record_data(kind, record_id)
        assert data is not None, (kind, record_id)
        return decode_record(kind, data)

    def first_id(self, kind: Kind) -> int:
        return self.rowsets[kind].record_id(0)

    def course_title(self, course_id: int) -> str | None:
        return self.index.title(Kind.COURSES, course_id)

    def close(self) -> None:
        self.store.close()


@pytest.fixture(scope="session")
def demo_store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("demo_store") / "catalogue.sqlite3"
    for kind in Kind:
        payload = resource_path("demo", f"{kind.value}.json").read_bytes()
        report = ingest(str(path), kind.value, payload, None, None, "2026-01-01T00:00:00Z")
        assert report.status == "updated", report
    return path


@pytest.fixture
def demo(demo_store_path: Path) -> Iterator[DemoCatalogue]:
    catalogue = DemoCatalogue(demo_store_path)
    yield catalogue
    catalogue.close()


@pytest.fixture
def en_formatter(qapp: Any) -> Formatter:
    return Formatter(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))


@pytest.fixture
def async_loop(qloop: asyncio.AbstractEventLoop) -> asyncio.AbstractEventLoop:
    """A qasync loop running on the Qt event loop, so that qtbot.waitSignal drives coroutines:
    conftest's ``qloop``, whose teardown kills the loop's Qt timers and keeps the closed loop alive
    (a closed loop freed later by the GC on a worker thread left its timers registered with the
    GUI thread, and the next test's event loop crashed on them)."""
    return qloop
