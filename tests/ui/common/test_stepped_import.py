"""Modules imported a module at a time on the loop's thread, the loop running between them."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Iterator
from itertools import pairwise
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


def test_what_a_step_imported_is_frozen_after_it(package: None) -> None:
    """A module's objects live as long as the process: frozen after its step, they are never walked
    by a later collection (issue 40: the models' step paid full collections over every object the
    refresh's steps before it made, 38-45 ms of CPU against 11-15 frozen)."""
    import gc

    frozen = []
    gc.unfreeze()  # (what the tests before froze)
    for _ in stepped_import.import_steps(["steppkg.deep", "steppkg.other"]):
        frozen.append(gc.get_freeze_count())
        gc.unfreeze()  # (the test's process keeps its own objects as they were)
    assert len(frozen) == 2 and all(count > 0 for count in frozen), frozen


def test_the_lists_end_with_what_their_callers_import() -> None:
    """Each list ends with the module its caller imports afterwards, and names it once."""
    assert stepped_import.REFRESH[-1] == "catalogue_desktop.core.sync.runner"
    assert stepped_import.DECODER[-1] == "catalogue_desktop.core.records.decode"
    assert stepped_import.RELIST[-1] == "catalogue_desktop.core.sync.relist"
    for steps in (stepped_import.REFRESH, stepped_import.DECODER, stepped_import.RELIST):
        assert len(set(steps)) == len(steps)


# Run in a fresh interpreter (this one may have built the validators already): the refresh's
# modules imported a step at a time, as the window does; at each turn of the loop, whether the
# models' module is imported and which models have their validators built.
_STEPS_SCRIPT = """
import asyncio, json, sys
from catalogue_desktop.ui.common import stepped_import

MODELS = "catalogue_desktop.core.records.models"
ticks = []

def seen():
    models = sys.modules.get(MODELS)
    if models is None:
        return None
    return sorted(n for n in models.__all__ if getattr(models, n).__pydantic_complete__ and n != "Record")

async def watch():
    while True:
        ticks.append(seen())
        await asyncio.sleep(0)

async def main():
    watcher = asyncio.ensure_future(watch())
    await asyncio.sleep(0)
    await stepped_import.import_in_steps(stepped_import.REFRESH)
    await asyncio.sleep(0)
    watcher.cancel()
    print(json.dumps(ticks))

asyncio.run(main())
"""


def test_no_import_step_builds_the_validators_and_each_build_step_builds_one_model() -> None:
    """Counted, not timed: importing ``core.records.models`` (or any module of the refresh's
    list) builds no pydantic validator; they are built after the imports, the loop running
    between each model's (all in one step, the models step held the window ~65 ms)."""
    import json
    import subprocess

    from catalogue_desktop.core.records import models

    out = subprocess.run(
        [sys.executable, "-c", _STEPS_SCRIPT], capture_output=True, text=True, check=True, timeout=120
    )
    ticks = json.loads(out.stdout)
    with_models = [built for built in ticks if built is not None]
    assert with_models, "the models were never imported"
    assert with_models[0] == [], "importing the models built validators"
    # the loop ran between the models' builds: each turn sees at most one model more built
    counts = [len(built) for built in with_models]
    assert counts[-1] == len(models.__all__) - 1  # (all but Record, their base: never validated)
    assert all(b - a <= 1 for a, b in pairwise(counts)), counts


# In a fresh interpreter, with what the window has imported at ``ready``: the finder's list a
# step at a time, as the indexer's first job runs it; which of the plain words' modules each
# step brought.
_FINDER_SCRIPT = """
import json, sys
import catalogue_desktop.ui.shell.session  # (the window's modules)
from catalogue_desktop.ui.common.stepped_import import FINDER, import_steps

WATCHED = ("rapidfuzz", "catalogue_desktop.core.query.rules", "catalogue_desktop.core.query.reading")
steps = []
for _ in import_steps(FINDER):
    steps.append([name for name in WATCHED if name in sys.modules])
print(json.dumps(steps))
"""


def test_the_finders_steps_import_the_reading_of_plain_words_a_part_at_a_time() -> None:
    """Counted, not timed: the reading of plain words (its rules, rapidfuzz) is first needed
    once the tables are built (the lexicon); imported then in one go it held the window's loop
    ~64 ms of CPU during a 10,000 refresh. The finder's steps import it, rapidfuzz and the rules
    each in a step of their own."""
    import json
    import subprocess

    out = subprocess.run(
        [sys.executable, "-c", _FINDER_SCRIPT], capture_output=True, text=True, check=True, timeout=120
    )
    steps = json.loads(out.stdout)
    assert steps and len(steps[-1]) == 3, "the reading of plain words is not among the finder's steps"
    # each step brought at most one of them: never rapidfuzz, the rules and the reading at once
    brought = [len(b) - len(a) for a, b in pairwise([[], *steps])]
    assert max(brought) == 1, steps


# Run in a fresh interpreter with what the window has imported when a refresh starts: each step of
# the refresh's list, the app's own modules it brought (packages' ``__init__`` aside).
_OWN_SCRIPT = """
import importlib, json, sys
import catalogue_desktop.ui.shell.session, catalogue_desktop.ui.shell.syncing
from catalogue_desktop.ui.common import stepped_import

steps = {}
for name in stepped_import.REFRESH:
    if name in sys.modules:
        continue
    before = set(sys.modules)
    try:
        importlib.import_module(name)
    except ImportError:
        continue
    new = set(sys.modules) - before
    steps[name] = sorted(
        m for m in new if m.startswith("catalogue_desktop.") and not hasattr(sys.modules[m], "__path__")
    )
print(json.dumps(steps))
"""


def test_each_step_of_the_refresh_imports_one_module_of_the_app() -> None:
    """Counted, not timed: a step of the refresh's imports brings at most one of the app's own
    modules, so that none is a handful at once (the client's step brought five, the
    connection's four: up to ~28 ms of the window's thread in one step on the loaded machine)."""
    import json
    import subprocess

    out = subprocess.run(
        [sys.executable, "-c", _OWN_SCRIPT], capture_output=True, text=True, check=True, timeout=120
    )
    steps = json.loads(out.stdout)
    assert "catalogue_desktop.core.sync.runner" in steps  # (the window had not imported it)
    assert {name: own for name, own in steps.items() if len(own) > 1} == {}
