"""Test-wide settings (Qt runs offscreen, never on a real display; no proxy) and the servers many
test folders use: the demo sample, the demo service, a fault server primed with the sample."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from typing import Any

from catalogue_desktop.qt_compat.paint_threads import serial_fills

os.environ["QT_QPA_PLATFORM"] = "offscreen"
os.environ.setdefault("QT_QUICK_BACKEND", "software")
# A run starts hundreds of Python processes (the xdist workers, every command a test runs). Without
# bytecode files each of them compiles the package again (about 0.4 CPU-seconds per command) and
# each worker rewrites every test module's asserts again (about 15 CPU-seconds): keep the bytecode
# (``__pycache__``, ignored by git) even where the environment says not to write it. This file is
# read before the workers start, so they and every process a test starts inherit it.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

import pytest

sys.dont_write_bytecode = False
# The windows the tests make paint as the app's do: Qt's raster fills on the painting thread, no GUI
# thread pool to hand them to and wait on (``qt_compat.paint_threads``, set by ``ui.shell.app.run``,
# which the tests' windows do not go through). Read by Qt when the pool is first asked for.
serial_fills()


def pytest_configure(config: pytest.Config) -> None:
    """Before xdist starts its workers: the package and the tests compiled once (``tests/bytecode.py``)."""
    from pathlib import Path

    from hypothesis import settings

    from tests.bytecode import compile_once

    # No property test is held to Hypothesis's 200 ms deadline per example: it is a timed assert,
    # and a loaded machine (three workers on two cores) fails it for nothing the test checks. The
    # rest is the profile in force (Hypothesis's own "ci" where CI is set: derandomized).
    settings.register_profile("suite", settings(), deadline=None)
    settings.load_profile("suite")
    compile_once(config, Path(__file__).resolve().parent.parent)


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> None:
    """Loopback traffic must never go through a proxy configured on the machine."""
    for name in ("HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture(autouse=True)
def _test_keyring(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """Secrets go to a test keyring in the test's folder (``tests/keyring_backend.py``), never the
    user's; the settings (``profiles.json``) to the test's folder too."""
    from pathlib import Path

    root = str(Path(__file__).resolve().parent.parent)
    monkeypatch.setenv("PYTHON_KEYRING_BACKEND", "tests.keyring_backend.FileKeyring")
    monkeypatch.setenv("CATALOGUE_TEST_KEYRING", str(tmp_path / "test-keyring.json"))
    monkeypatch.setenv("CATALOGUE_DESKTOP_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")])))


@pytest.fixture
def env(tmp_path: Any) -> dict[str, str]:
    """The environment of a ``catalogue-desktop`` command a test runs: no proxy, the default cache
    in the test's own folder, UTF-8 output."""
    from catalogue_desktop.core.cache.store import ENV_CACHE_DIR

    out = {k: v for k, v in os.environ.items() if k.lower() not in ("http_proxy", "https_proxy", "all_proxy")}
    out[ENV_CACHE_DIR] = str(tmp_path / "default-cache")
    out["PYTHONIOENCODING"] = "utf-8"
    return out


@pytest.fixture(scope="session")
def sample() -> dict[Any, bytes]:
    """The bundled demo catalogue: Kind -> JSON payload."""
    from catalogue_desktop.demo.server import load_sample

    return load_sample()


@pytest.fixture
def demo_server(sample: dict[Any, bytes]) -> Iterator[Any]:
    """The demo service over loopback, serving the sample."""
    from catalogue_desktop.demo.server import DemoServer

    with DemoServer(sample) as server:
        yield server


@pytest.fixture
def fault_server(sample: dict[Any, bytes]) -> Iterator[Any]:
    """A fault server answering every endpoint with the sample and an ETag, until told otherwise."""
    from catalogue_desktop.core.records.kinds import Kind
    from tests.faultserver import FaultServer

    with FaultServer() as server:
        for kind in Kind:
            server.set(kind.path, "json", body=sample[kind], etag=f'"{kind.value}-1"')
        yield server


def pytest_sessionfinish() -> None:
    """The warm processes the commands were forked from (``tests/cli_process.py``) end with the
    session (waited for: their CPU time is the run's)."""
    from tests.cli_process import close_warm

    close_warm()
