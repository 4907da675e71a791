"""Journeys through the real main window, as a person makes them: the window started on the demo
catalogue (offline, from a pre-filled cache), then keys typed and widgets clicked with QTest.

The fixtures are the window tests' (``tests/ui/conftest.py``): settings and cache in the test's
own folder, the demo sample, a session closed after the test. The hands that act on the window
are in ``hands.py``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QFileDialog

from tests.ui.conftest import (  # noqa: F401  (fixtures shared with the window tests)
    OFFSCREEN_NOISE,
    _no_keys_held,
    _private_settings_and_cache,
    cache_dir,
    filled_cache,
    filled_store_template,
    make_session,
    qloop,
)

OFFLINE = "http://127.0.0.1:9"  # no service: the cached demo catalogue only
NOISE = (
    OFFSCREEN_NOISE,
    "This plugin does not support raise",
    "This plugin does not support grabbing the keyboard",
    "This plugin does not support setting window opacity",
)


@pytest.fixture(autouse=True)
def _no_poll_outlives_its_test() -> Any:
    from tests.journeys.hands import stop_polls

    yield
    stop_polls()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    for item in items:
        if here in Path(str(item.fspath)).parents:
            item.add_marker(pytest.mark.qt_log_ignore(*NOISE))


@pytest.fixture
def start(request: pytest.FixtureRequest, qtbot: Any) -> Any:
    """``start()``: the window on the cached demo catalogue, every row shown and the finder's
    tables built (as a few seconds after a start); call again for a restart (same settings).

    ``finder_ready=False`` for a journey that reads nothing the tables make (the query box and its
    words, facets, the palette, the Dates tab and its count, offers from Dates): the window as soon
    as its rows are read; the tables are built meanwhile, and a short journey ends before paying
    for them (~0.2 CPU-s a start). The journeys that need them fail without the wait."""

    request.getfixturevalue("filled_cache")
    new_session = request.getfixturevalue("make_session")

    def started(*, finder_ready: bool = True, **options: Any) -> Any:
        session = new_session(base_url=OFFLINE, offline=True, wait="ready", **options)
        if finder_ready:
            qtbot.waitUntil(lambda: not session.finder.indexer.busy, timeout=10000)
            QApplication.processEvents()
        return session

    return started


@pytest.fixture
def saved(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[Path]:
    """The save dialogs answer the name they propose, in the test's folder; the paths noted."""
    paths: list[Path] = []

    def save(parent: Any, caption: str, name: str, filters: str, *rest: Any) -> tuple[str, str]:
        paths.append(tmp_path / Path(name).name)
        return str(paths[-1]), filters.split(";;")[-1]

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save)
    return paths
