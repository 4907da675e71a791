"""Packaging tests build the PyInstaller bundle (minutes), so they are off by default.

Run them with ``CATALOGUE_DESKTOP_RUN_PACKAGING=1 python -m pytest -m packaging``. (An option such as
``--run-packaging`` would need ``pytest_addoption`` in the rootdir conftest or a plugin, which
pytest does not read from this sub-directory conftest; the environment variable works anywhere.)
"""

from __future__ import annotations

import os

import pytest

ENABLE = "CATALOGUE_DESKTOP_RUN_PACKAGING"


def packaging_enabled() -> bool:
    return os.environ.get(ENABLE, "") not in ("", "0")


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("packaging") and not packaging_enabled():
        pytest.skip(f"packaging test (builds the bundle, minutes): set {ENABLE}=1 to run it")
