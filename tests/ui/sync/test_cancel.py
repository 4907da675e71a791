"""Progress and Cancel: a refresh says per collection waiting, bytes received, validating, done;
Cancel stops it and every collection keeps its last good data. Against slow loopback servers."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import psutil
from PySide6.QtCore import Qt

from catalogue_desktop.core.cache.store import FILE_NAME, Store
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.demo.server import DemoServer
from catalogue_desktop.demo.synthetic import generate
from catalogue_desktop.ui.sync.sync_controller import SyncController
from tests.faultserver import FaultServer
from tests.ui.conftest import wait_rows_loaded

W = Kind.WEBINARS


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def close(qtbot: Any, controller: SyncController) -> None:
    task = asyncio.ensure_future(controller.aclose())
    qtbot.waitUntil(task.done, timeout=10000)
    task.result()


def snapshot(store_file: Path, kind: Kind) -> tuple[Any, list[bytes]]:
    with Store(store_file) as store:
        return store.state(kind).snapshot, [e.data for e in store.entries(kind)]


def record(controller: SyncController) -> list[tuple[Any, ...]]:
    events: list[tuple[Any, ...]] = []
    controller.started.connect(lambda kinds: events.extend(("waiting", k) for k in kinds))
    controller.progress.connect(lambda k, n, total: events.append(("receiving", k, n, total)))
    controller.phase.connect(lambda k, phase: events.append((phase, k)))
    controller.outcome.connect(lambda k, o: events.append(("done", k, o.status)))
    controller.cancelled.connect(lambda kinds: events.append(("cancelled", tuple(kinds))))
    return events


def test_each_collection_goes_waiting_receiving_validating_done(
    qtbot: Any, qloop: Any, demo_server: Any, cache_dir: Path
) -> None:
    controller = SyncController(demo_server.base_url, cache_dir / FILE_NAME)
    events = record(controller)
    try:
        with qtbot.waitSignal(controller.finished, timeout=20000):
            controller.sync()
    finally:
        close(qtbot, controller)
    for kind in ALL_KINDS:
        mine = [e[0] for e in events if e[1] is kind]
        assert mine[0] == "waiting" and mine[-1] == "done", (kind, mine)
        steps = [s for i, s in enumerate(mine) if i == 0 or s != mine[i - 1]]
        assert steps == ["waiting", "receiving", "validating", "done"], (kind, steps)
        received = [e[2] for e in events if e[0] == "receiving" and e[1] is kind]
        assert received == sorted(received) and received[-1] > 0


def test_cancel_while_receiving_keeps_the_cached_copy_and_leaves_no_file(
    qtbot: Any, qloop: Any, fault_server: FaultServer, sample: dict[Kind, bytes], cache_dir: Path
) -> None:
    store_file = cache_dir / FILE_NAME
    controller = SyncController(
        fault_server.base_url, store_file, client_options={"retries": 0, "read_timeout": 10.0}
    )
    events = record(controller)
    try:
        with qtbot.waitSignal(controller.finished, timeout=20000):
            controller.sync()
        before = snapshot(store_file, W)
        assert len(before[1]) == 60
        changed = sample[W].replace(b'"fee": 199', b'"fee": 249')
        fault_server.set(W.path, "slow_body", body=changed, chunk=512, interval=0.05)  # ~20 s
        events.clear()
        with qtbot.waitSignal(
            controller.progress, timeout=10000, check_params_cb=lambda kind, n, total: kind is W and n > 0
        ):
            controller.sync()
        others = set(ALL_KINDS) - {W}
        qtbot.waitUntil(lambda: {e[1] for e in events if e[0] == "done"} == others, timeout=10000)
        assert controller.cancel()
        with qtbot.waitSignal(controller.finished, timeout=10000) as finished:
            pass
        assert finished.args == [None]
        assert ("cancelled", (W,)) in events
        assert [e for e in events if e[0] == "done" and e[1] is W] == []
        assert snapshot(store_file, W) == before  # the last good data, untouched
        assert list(cache_dir.glob("body-*.json")) == []  # the half download is gone
        assert not controller.running and not controller.cancel()

        fault_server.set(W.path, "json", body=changed, etag='"w2"')  # the next refresh works
        with qtbot.waitSignal(controller.finished, timeout=20000) as again:
            controller.sync([W])
        assert again.args[0].collections[W].status == "updated"
        assert snapshot(store_file, W) != before
    finally:
        close(qtbot, controller)


def test_cancel_while_a_worker_validates_kills_it_and_keeps_the_cached_copy(
    qtbot: Any, qloop: Any, cache_dir: Path
) -> None:
    store_file = cache_dir / FILE_NAME
    # 300 records: the webinars' 1.5 MB are over the worker-process threshold (256 KB), so the
    # first sync starts the workers and the second hands its payload to them; the cancel comes in
    # the "validating" signal itself, before the payload's ingest can end, whatever its size
    with DemoServer(generate(300, 0)) as server:
        controller = SyncController(server.base_url, store_file)
        try:
            with qtbot.waitSignal(controller.finished, timeout=60000):
                controller.sync([W])
            before = snapshot(store_file, W)
            server.set_payload(W, generate(300, 1)[W])  # 1.5 MB: ingested by a worker process
            workers: list[Any] = []

            def validating(kind: Kind, phase: str) -> None:
                if kind is W and phase == "validating":
                    workers.extend(p.pid for p in controller._ingestor._pool._processes.values())
                    controller.cancel()

            controller.phase.connect(validating)
            with qtbot.waitSignal(controller.cancelled, timeout=60000) as cancelled:
                controller.sync([W])
            assert cancelled.args == [[W]]
            assert len(workers) == 2
            qtbot.waitUntil(lambda: not any(alive(pid) for pid in workers), timeout=5000)  # killed
            assert snapshot(store_file, W) == before
            controller.phase.disconnect(validating)
            with qtbot.waitSignal(controller.finished, timeout=60000) as again:
                controller.sync([W])  # new workers
            assert again.args[0].collections[W].status == "updated"
            assert snapshot(store_file, W) != before
        finally:
            close(qtbot, controller)


def test_the_window_s_cancel_button_stops_the_refresh_and_keeps_what_it_shows(
    make_session: Any, filled_cache: Path, fault_server: FaultServer, sample: dict[Kind, bytes], qtbot: Any
) -> None:
    session = make_session(base_url=fault_server.base_url)
    window = session.window
    tab = window.tab(W)
    shown = [tab.model.record_id(r) for r in range(tab.model.rowCount())]
    before = snapshot(session.store_file, W)
    assert not window.status.cancel_visible()
    fault_server.set(W.path, "slow_body", body=sample[W][:-1] + b", {}]", chunk=512, interval=0.05)
    window.sync_requested.emit()
    qtbot.waitUntil(lambda: window.status.text(W).startswith("receiving… "), timeout=10000)
    qtbot.waitUntil(
        lambda: all(window.status.status(k) == "current" for k in ALL_KINDS if k is not W), timeout=10000
    )
    assert window.status.cancel_visible()
    with qtbot.waitSignal(session.synced, timeout=10000):
        qtbot.mouseClick(window.status.cancel, Qt.MouseButton.LeftButton)
    wait_rows_loaded(qtbot, session)
    assert window.status.text(W).startswith("refresh cancelled — showing 60 from cache as of ")
    assert window.status.status(W) == "cached" and not window.status.cancel_visible()
    for kind in ALL_KINDS:
        if kind is not W:
            assert window.status.status(kind) == "current", (kind, window.status.text(kind))
    assert [tab.model.record_id(r) for r in range(tab.model.rowCount())] == shown
    assert snapshot(session.store_file, W) == before
    assert not window.banner.isVisible()
