"""One window shared by the tests of a module (issue 37: a window's start, its first refresh and its
close cost 0.1-0.4 CPU-seconds, more than most tests' own work).

Import into a test module: ``from tests.ui.shared_window import *  # noqa: F403`` (the fixtures
``module_loop``, ``module_folder`` and ``qloop``: ``qloop`` there hands every test of the module
the module's loop, on which the shared window's tasks run), then make the window in a
module-scoped fixture with ``module_session`` and give each test a function-scoped fixture that
resets the window to what its start showed and asserts it did (``window_state``: compared with
the state taken right after the start). A test that changes what a reset cannot put back keeps a
window of its own (``make_session``).

The shared window keeps the settings, profiles, keyring and cache of the module's own folder
(``module_folder``): its ``Settings`` holds the QSettings file it was made with, and the tests'
own fixtures (settings and keyring in each test's folder) change only what later windows read.
"""

from __future__ import annotations

import asyncio
import gc
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtWidgets import QApplication, QDockWidget

from catalogue_desktop.core.cache.store import ENV_CACHE_DIR
from catalogue_desktop.core.records.kinds import ALL_KINDS
from tests.ui.conftest import close_loop, close_session, open_loop, started_session

__all__ = ["demo_shown", "module_folder", "module_loop", "qloop"]


@pytest.fixture(scope="module")
def module_loop(qapp: Any) -> Iterator[asyncio.AbstractEventLoop]:
    """The module's qasync loop (conftest's ``qloop``, made once for the module)."""
    loop = open_loop(qapp)
    try:
        yield loop
    finally:
        close_loop(qapp, loop)


@pytest.fixture
def qloop(module_loop: asyncio.AbstractEventLoop) -> Iterator[asyncio.AbstractEventLoop]:
    """Every test of the module on the module's loop, made current again (a loop closed by a test
    of another module leaves none running); as conftest's ``qloop``, the garbage of the test before
    is freed first and the test's own after it, on the GUI thread."""
    asyncio.set_event_loop(module_loop)
    asyncio.events._set_running_loop(module_loop)
    gc.collect()
    yield module_loop
    gc.collect()


@pytest.fixture(scope="module")
def module_folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The module's folder: the shared window's settings (QSettings), profiles, keyring, default
    cache and fault log go there (set here, before the tests' own fixtures run: a module fixture
    is made first)."""
    folder = tmp_path_factory.mktemp("shared_window")
    for fmt in (QSettings.Format.IniFormat, QSettings.Format.NativeFormat):
        for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
            QSettings.setPath(fmt, scope, str(folder / "qsettings"))
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHON_KEYRING_BACKEND", "tests.keyring_backend.FileKeyring")
        patch.setenv("CATALOGUE_TEST_KEYRING", str(folder / "test-keyring.json"))
        patch.setenv("CATALOGUE_DESKTOP_CONFIG_DIR", str(folder / "config"))
        patch.setenv(ENV_CACHE_DIR, str(folder / "default-cache"))
        patch.setenv("CATALOGUE_DESKTOP_LOG_DIR", str(folder / "log"))
        yield folder


@contextmanager
def module_session(request: pytest.FixtureRequest, **options: Any) -> Iterator[Any]:
    """For a module fixture: a started session (``make_session``'s options), closed at the
    module's end, on the module's loop and folder."""
    request.getfixturevalue("module_folder")
    loop = request.getfixturevalue("module_loop")
    asyncio.set_event_loop(loop)
    asyncio.events._set_running_loop(loop)
    bot = qtbot_of(request)
    session = started_session(bot, **options)
    try:
        yield session
    finally:
        asyncio.set_event_loop(loop)
        asyncio.events._set_running_loop(loop)
        close_session(bot, session)


@contextmanager
def offline_ready(request: pytest.FixtureRequest, cache_dir: Path) -> Iterator[tuple[Any, dict[str, Any]]]:
    """For a module fixture: a window offline on ``cache_dir``, its finder ready, every tab made
    (as a test's first look at a tab makes it); and its state then (``window_state``)."""
    with module_session(
        request, base_url="http://127.0.0.1:9", offline=True, wait="ready", cache_dir=str(cache_dir)
    ) as session:
        session.finder.indexer.finish_now()
        for kind in session.window.tab_kinds():
            session.window.tab(kind)
        QApplication.processEvents()
        yield session, window_state(session)


@contextmanager
def shown_on_demo(request: pytest.FixtureRequest) -> Iterator[tuple[Any, dict[str, Any]]]:
    """For a journeys module's fixture: ``offline_ready`` on a copy of the demo sample's store
    (``filled_store_template``) in the module's folder, the window shown, as a journey's
    ``start()`` has it; and its state then (``window_state``)."""
    from catalogue_desktop.core.cache.store import FILE_NAME

    template = request.getfixturevalue("filled_store_template")
    cache = request.getfixturevalue("module_folder") / "cache"
    cache.mkdir()
    shutil.copy(template, cache / FILE_NAME)
    with offline_ready(request, cache) as (session, _before_shown):
        session.window.show()
        QApplication.processEvents()
        yield session, window_state(session)


@pytest.fixture(scope="module")
def demo_shown(request: pytest.FixtureRequest) -> Iterator[tuple[Any, dict[str, Any]]]:
    """A journeys module's shared window (``shown_on_demo``): offline on the demo sample, its
    finder ready, every tab made, shown; and its state then (``window_state``)."""
    with shown_on_demo(request) as shared:
        yield shared


def as_started(shared: tuple[Any, dict[str, Any]]) -> Any:
    """For a module's ``session`` fixture: the shared window as its start showed it
    (``put_back``), asserted equal to the window's state after its start; its session."""
    found, fresh = shared
    put_back(found, fresh)
    assert_as_started(found, fresh)
    return found


def put_back(session: Any, fresh: dict[str, Any]) -> None:
    """An offline window as its start showed it (``fresh``, its ``window_state`` then): the query
    box emptied, the finder's tables built, no popup (completions) shown, each tab whose rows
    differ shown once (a tab follows the query when shown), no row selected, the first tab shown,
    the status bar's line the start's.
    The caller asserts it (``assert_as_started``)."""
    window = session.window
    window.query_box.clear()
    session.finder.indexer.finish_now()
    close_popups()
    QApplication.processEvents()  # (the rows the query kept, then the selection kept on them)
    for kind, facts in window_state(session)["tabs"].items():
        if facts["rows"] != fresh["tabs"][kind]["rows"]:  # a tab follows the query when shown
            window.show_tab(kind)
            QApplication.processEvents()
    for kind in window.tab_kinds():
        tab = window.made_tab(kind)
        if tab is not None:
            tab.view.selectionModel().clear()  # (the current row too)
            tab.detail.clear()
    window.show_tab(window.tab_kinds()[0])
    if window.statusBar().currentMessage() != fresh["status line"]:  # (the start's, as it showed it)
        window.show_message(fresh["status line"], 0)
    QApplication.processEvents()


def qtbot_of(request: pytest.FixtureRequest) -> Any:
    """pytest-qt's ``qtbot`` for a module fixture (its waits; ``qtbot`` itself is a test's)."""
    from pytestqt.qtbot import QtBot

    return QtBot(request)


def close_popups() -> None:
    """Hide the popups a test left open (the query box's completions)."""
    for widget in QApplication.topLevelWidgets():
        if widget.isVisible() and widget.windowType() == Qt.WindowType.Popup:
            widget.hide()


def window_state(session: Any) -> dict[str, Any]:
    """What a test of a shared window may change and a reset must bring back: the tab shown, the
    query, each made tab's rows (ids in order), selection, sort and details, the collections'
    statuses, the status bar's line and details, whether the box's words are searched as typed,
    the banner, the docks, the windows open besides it and the settings' values. (Not the
    back/forward history: a test that reads it keeps a window of its own.)"""
    window = session.window
    tabs = {}
    for kind in window.tab_kinds():
        tab = window.made_tab(kind)
        if tab is None:
            continue
        model = tab.model
        selected = tab.view.selectionModel().selectedRows() if tab.view.selectionModel() else []
        tabs[kind] = {
            "rows": [model.record_id(r) for r in range(model.rowCount())],
            "count": tab.count_label.text(),
            "selected": sorted(i.row() for i in selected),
            "sort": (model.sort_column, model.sort_order),
            "details": tab.detail.current,
        }
    statuses = {kind: (window.status.status(kind), window.status.text(kind)) for kind in ALL_KINDS}
    others = sorted(
        f"{type(w).__name__} {w.objectName()}"
        for w in QApplication.topLevelWidgets()
        if w.isVisible() and w is not window and w.window() is not window
    )
    settings = session.settings.q
    return {
        "tab": window.current_kind(),
        "query": window.query_box.text(),
        "tabs": tabs,
        "statuses": statuses,
        "status details": window.status.more.isChecked(),
        "status line": window.statusBar().currentMessage(),
        "words as typed": window.query_box.words_as_typed,
        "banner": window.banner.isVisible(),
        "docks": {d.objectName(): d.isVisible() for d in window.findChildren(QDockWidget)},
        "open": others,
        "settings": {key: settings.value(key) for key in settings.allKeys()},
    }


def assert_as_started(session: Any, fresh: dict[str, Any]) -> None:
    """The window's state (``window_state``) is ``fresh``, the state its start left; else each
    difference is said."""
    state = window_state(session)
    said = []
    for key, value in fresh.items():
        if key == "tabs":
            for kind, facts in value.items():
                now = state["tabs"].get(kind, {})
                said += [
                    f"{kind} {fact}: {now.get(fact)!r:.300} (at the start: {was!r:.300})"
                    for fact, was in facts.items()
                    if now.get(fact) != was
                ]
            said += [f"{kind} tab made" for kind in state["tabs"] if kind not in value]
        elif state[key] != value:
            said.append(f"{key}: {state[key]!r:.500} (at the start: {value!r:.500})")
    assert not said, "the shared window is not as its start left it:\n" + "\n".join(said)
