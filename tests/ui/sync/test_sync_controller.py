"""SyncController: the background refresh as Qt signals, over loopback."""

from __future__ import annotations

import asyncio
from typing import Any

from catalogue_desktop.core.cache.store import FILE_NAME, Store
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.ui.sync.sync_controller import SyncController


def close(qtbot: Any, controller: SyncController) -> None:
    task = asyncio.ensure_future(controller.aclose())
    qtbot.waitUntil(task.done, timeout=10000)
    task.result()


def test_a_refresh_reports_progress_and_one_outcome_per_collection(
    qtbot: Any, qloop: Any, demo_server: Any, cache_dir: Any
) -> None:
    store_file = cache_dir / FILE_NAME
    controller = SyncController(demo_server.base_url, store_file)
    started: list[Any] = []
    progress: list[tuple[Kind, int, Any]] = []
    outcomes: dict[Kind, Any] = {}
    controller.started.connect(started.append)
    controller.progress.connect(lambda k, n, t: progress.append((k, n, t)))
    controller.outcome.connect(outcomes.__setitem__)
    try:
        with qtbot.waitSignal(controller.finished, timeout=20000) as finished:
            assert controller.sync() is not None
            assert controller.running
            assert controller.sync() is None  # one refresh at a time
        report = finished.args[0]
        assert report.ok
        assert started == [list(ALL_KINDS)]
        assert set(outcomes) == set(ALL_KINDS)
        assert all(o.status == "updated" for o in outcomes.values())
        assert {k for k, n, _ in progress if n > 0} == set(ALL_KINDS)
        with Store(store_file) as store:
            assert store.state(Kind.WEBINARS).records == 60

        outcomes.clear()  # a second refresh: the service answers 304
        with qtbot.waitSignal(controller.finished, timeout=20000):
            controller.sync([Kind.TOPICS])
        assert list(outcomes) == [Kind.TOPICS]
        assert outcomes[Kind.TOPICS].status == "unchanged"
        assert controller.client is not None
    finally:
        close(qtbot, controller)
    assert controller.client is None
    assert controller.sync() is None  # closed


def test_an_unusable_address_is_reported_not_raised(qtbot: Any, qloop: Any, cache_dir: Any) -> None:
    controller = SyncController("ftp://example.org", cache_dir / FILE_NAME)
    errors: list[str] = []
    controller.error.connect(errors.append)
    try:
        with qtbot.waitSignal(controller.finished, timeout=10000) as finished:
            controller.sync()
        assert finished.args == [None]
        assert errors and "ftp" in errors[0]
    finally:
        close(qtbot, controller)
