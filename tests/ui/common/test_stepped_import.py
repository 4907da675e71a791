"""Modules imported a module at a time on the loop's thread, the loop running between them."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from catalogue_desktop.ui.common import stepped_import
from catalogue_desktop.ui.common.stepped_import import import_in_steps


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A package whose modules note, in a shared list, when each was imported."""
    root = tmp_path / "steppkg"
    root.mkdir()
    (root / "__init__.py").write_text("EVENTS = []\n")
    (root / "deep.py").write_text("from steppkg import EVENTS\nEVENTS.append('deep')\n")
    (root / "top.py").write_text("from steppkg import EVENTS, deep\nEVENTS.append('top')\n")
    (root / "other.py").write_text("from steppkg import EVENTS\nEVENTS.append('other')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield
    for name in [n for n in sys.modules if n == "steppkg" or n.startswith("steppkg.")]:
        del sys.modules[name]


def test_the_loop_runs_between_the_modules_and_missing_ones_are_skipped(package: None) -> None:
    async def main() -> list[str]:
        import steppkg

        async def ticker() -> None:
            while True:
                steppkg.EVENTS.append("tick")
                await asyncio.sleep(0)

        task = asyncio.ensure_future(ticker())
        await asyncio.sleep(0)
        await import_in_steps(
            ["steppkg.deep", "steppkg.not_installed", "steppkg.top", "steppkg.deep", "steppkg.other"]
        )
        task.cancel()
        return list(steppkg.EVENTS)

    events = asyncio.run(main())
    assert [e for e in events if e != "tick"] == ["deep", "top", "other"]
    # the loop ran between each import: a tick between deep and top, and between top and other
    for a, b in (("deep", "top"), ("top", "other")):
        assert "tick" in events[events.index(a) : events.index(b)], events
    assert all(f"steppkg.{m}" in sys.modules for m in ("deep", "top", "other"))


def test_the_lists_end_with_what_their_callers_import() -> None:
    """Each list ends with the module its caller imports afterwards, and names it once."""
    assert stepped_import.REFRESH[-1] == "catalogue_desktop.core.sync.runner"
    assert stepped_import.DECODER[-1] == "catalogue_desktop.core.records.decode"
    assert stepped_import.RELIST[-1] == "catalogue_desktop.core.sync.relist"
    for steps in (stepped_import.REFRESH, stepped_import.DECODER, stepped_import.RELIST):
        assert len(set(steps)) == len(steps)
