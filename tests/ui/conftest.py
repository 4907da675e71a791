"""Shared fixtures of the window tests: a qasync loop on the Qt loop, the demo service over
loopback, a temporary cache (empty or pre-filled) and QSettings redirected to a temporary dir.

No test here touches the real user settings or cache.
"""

from __future__ import annotations

import asyncio
import gc
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings

from catalogue_desktop.core.cache.store import ENV_CACHE_DIR, FILE_NAME
from catalogue_desktop.core.records.kinds import Kind

_CLOSED_LOOPS: list[Any] = []
FILLED_AT = "2026-01-05T09:30:00Z"  # when the pre-filled cache was "fetched"
# The offscreen platform plugin warns when a main window's size hints change; not an app problem.
OFFSCREEN_NOISE = "This plugin does not support propagateSizeHints"
# ... and when a popup (the query box's completion) is shown: it cannot raise it or grab keys.
POPUP_NOISE = pytest.mark.qt_log_ignore(
    OFFSCREEN_NOISE,
    "This plugin does not support raise",
    "This plugin does not support grabbing the keyboard",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:  # the window tests, in tests/ui and below
            item.add_marker(pytest.mark.qt_log_ignore(OFFSCREEN_NOISE))


@pytest.fixture(autouse=True)
def _private_settings_and_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """QSettings (INI and native, user and system scope) and the default cache go to tmp."""
    settings_dir = tmp_path / "qsettings"
    for fmt in (QSettings.Format.IniFormat, QSettings.Format.NativeFormat):
        for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
            QSettings.setPath(fmt, scope, str(settings_dir))
    monkeypatch.setenv(ENV_CACHE_DIR, str(tmp_path / "default-cache"))
    monkeypatch.setenv("CATALOGUE_DESKTOP_LOG_DIR", str(tmp_path / "log"))  # (ui.shell.fault_log)
    yield settings_dir


@pytest.fixture(autouse=True)
def _no_keys_held() -> Iterator[None]:
    """Each test starts with no modifier key held: after QTest's Ctrl+key click, Qt 6.11 keeps
    Ctrl as held (``QGuiApplication.keyboardModifiers``), and a later test's ``selectRow`` then
    toggles the row instead of selecting it. A key event without modifiers puts them back."""
    yield
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QWidget

    held = QGuiApplication.instance() is not None and QGuiApplication.keyboardModifiers()
    if held and held != Qt.KeyboardModifier.NoModifier:
        probe = QWidget()
        QTest.keyRelease(probe, Qt.Key.Key_Control)
        probe.deleteLater()


@pytest.fixture
def qloop(qapp: Any) -> Iterator[asyncio.AbstractEventLoop]:
    """A qasync loop on the already running Qt loop: qtbot.wait* drives coroutines."""
    loop = open_loop(qapp)
    try:
        yield loop
    finally:
        close_loop(qapp, loop)


def open_loop(qapp: Any) -> asyncio.AbstractEventLoop:
    """A qasync loop on the running Qt loop, made the current one (``qloop``; a module's shared
    window has one for the module: ``tests/ui/shared_window.py``)."""
    import qasync

    gc.collect()  # garbage of earlier tests (Qt objects with timers) is freed here, not in a worker
    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    return loop


def close_loop(qapp: Any, loop: Any) -> None:
    """Cancel the loop's tasks, close it and kill its Qt timers; the loop is kept alive."""
    for task in asyncio.all_tasks(loop):
        task.cancel()
    qapp.processEvents()
    asyncio.events._set_running_loop(None)
    loop._QEventLoop__is_running = False
    loop.close()
    asyncio.set_event_loop(None)
    # The loop's timer object still holds Qt timers (qasync kills them lazily). Kill them
    # here and keep the loop alive: if the garbage collector freed it later from a worker
    # thread (an ingest thread of the next test), Qt would stop the timers from the wrong
    # thread ("Timers cannot be stopped from another thread") and crash.
    timer = loop._timer
    for timer_id in list(timer._SimpleTimer__callbacks):
        timer.killTimer(timer_id)
    timer._SimpleTimer__callbacks.clear()
    _CLOSED_LOOPS.append(loop)
    gc.collect()  # free this test's Qt objects now, on the GUI thread


def loop_passes(qtbot: Any, passes: int = 3) -> None:
    """Wait until the Qt loop has gone ``passes`` times through what was queued (a zero timer fired,
    then another queued behind what that pass queued): whatever was posted, scheduled on a zero
    timer or handed to qasync before has run. For "nothing happens" checks, instead of a sleep."""
    from PySide6.QtCore import QTimer

    fired = [0]

    def again() -> None:
        fired[0] += 1
        if fired[0] < passes:
            QTimer.singleShot(0, again)

    QTimer.singleShot(0, again)
    qtbot.waitUntil(lambda: fired[0] >= passes, timeout=10000)


@pytest.fixture
def cache_dir(tmp_path: Path) -> Path:
    path = tmp_path / "cache"
    path.mkdir()
    return path


@pytest.fixture(scope="session")
def filled_store_template(tmp_path_factory: pytest.TempPathFactory, sample: dict[Kind, bytes]) -> Path:
    """A store holding the whole demo sample, as if fetched at ``FILLED_AT``."""
    path = tmp_path_factory.mktemp("filled") / FILE_NAME
    _store_sample(path, sample)
    return path


def _store_sample(path: Path, sample: dict[Kind, bytes]) -> None:
    from catalogue_desktop.core.sync.ingest import ingest

    for kind, payload in sample.items():
        report = ingest(str(path), kind.value, payload, None, None, FILLED_AT)
        assert report.status == "updated", report


@pytest.fixture
def filled_cache(cache_dir: Path, filled_store_template: Path) -> Path:
    """A cache dir whose store already holds the demo sample (for a real, non-demo service)."""
    shutil.copy(filled_store_template, cache_dir / FILE_NAME)
    return cache_dir


SMALL_PAGES = 16  # rows per stored page in ``paged_cache``


@pytest.fixture(scope="session")
def paged_store_template(tmp_path_factory: pytest.TempPathFactory, sample: dict[Kind, bytes]) -> Path:
    """The store of ``filled_store_template``, written in pages of ``SMALL_PAGES`` rows (not
    1,000): the loader reads a page per chunk, so each collection takes several (60 webinars: 4)."""
    from catalogue_desktop.core.cache import pages as store_pages

    path = tmp_path_factory.mktemp("paged") / FILE_NAME
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store_pages, "PAGE_ROWS", SMALL_PAGES)
        _store_sample(path, sample)
    return path


@pytest.fixture
def paged_cache(cache_dir: Path, paged_store_template: Path) -> Path:
    """A cache dir holding the demo sample in small pages (see ``paged_store_template``)."""
    shutil.copy(paged_store_template, cache_dir / FILE_NAME)
    return cache_dir


async def no_images(url: str, max_bytes: int) -> bytes:
    raise ConnectionError("tests do not download images")


@pytest.fixture
def make_session(qtbot: Any, qloop: Any, cache_dir: Path) -> Iterator[Callable[..., Any]]:
    """``make_session(base_url=..., offline=..., open=..., wait="ready"|"synced"|None)``:
    a started ``AppSession`` on ``cache_dir``; closed (client, store, window) after the test."""
    sessions: list[Any] = []

    def make(**options: Any) -> Any:
        options.setdefault("cache_dir", str(cache_dir))
        session = started_session(qtbot, **options)
        sessions.append(session)
        return session

    yield make
    for session in sessions:
        close_session(qtbot, session)


def started_session(
    qtbot: Any, *, wait: str | None = "synced", client_options: dict[str, Any] | None = None, **options: Any
) -> Any:
    """A started ``AppSession`` (``make_session``'s, or a module's shared window's)."""
    from catalogue_desktop.ui.shell.options import Options
    from catalogue_desktop.ui.shell.session import AppSession

    session = AppSession(
        Options(**options),
        client_options=client_options or {"retries": 0, "connect_timeout": 2.0, "read_timeout": 10.0},
        image_fetch=no_images,
    )
    if wait == "synced":
        with qtbot.waitSignal(session.synced, timeout=20000):
            session.start()
        wait_rows_loaded(qtbot, session)
    elif wait == "ready":
        with qtbot.waitSignal(session.ready, timeout=10000):
            session.start()
    else:
        session.start()
    return session


def close_session(qtbot: Any, session: Any) -> None:
    task = asyncio.ensure_future(session.aclose())
    qtbot.waitUntil(task.done, timeout=30000)  # (a bound: a worker cancelled mid-body, under load)
    task.result()  # aclose also deletes the window (deleteLater)


def wait_rows_loaded(qtbot: Any, session: Any) -> None:
    """Wait until the reloads after a refresh are done (no loader task pending)."""
    qtbot.waitUntil(lambda: session.loader.idle, timeout=10000)
