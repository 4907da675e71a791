"""PySide's source probe (``inspect.getsource`` of every module imported after PySide) is given
its answers for the modules the window starts with: the answers the probe itself would give."""

from __future__ import annotations

import sys
import textwrap
import types
from typing import Any

from catalogue_desktop.qt_compat import pyside_import
from tests.fresh_python import run_json

# counts each ``inspect.getsource`` (PySide's probe) from where it is put in a script
_COUNT_PROBES = """
    probed = []
    real = inspect.getsource
    def getsource(obj):
        probed.append(getattr(obj, "__name__", "?"))
        return real(obj)
    inspect.getsource = getsource
"""

_PROBED = textwrap.dedent(
    """
    import inspect, json, sys
"""
    + _COUNT_PROBES
    + """    import catalogue_desktop.ui.shell.app
    table = sys.modules["PySide6.support.feature"].pyside_feature_dict
    print(json.dumps({"probed": probed,
                      "ui": table.get("catalogue_desktop.ui.shell.main_window"),
                      "core": table.get("catalogue_desktop.core.cache.store"),
                      "stdlib": table.get("sqlite3")}))
"""
)


def _run(code: str) -> dict[str, Any]:
    seen, _ = run_json(code, offscreen=False)
    return seen


def test_the_window_modules_are_not_read_for_the_probe() -> None:
    """Importing the window reads no source of ours nor of the standard library the core uses;
    what is left is PySide's own imports (the bare PySide program reads those too)."""
    seen = _run(_PROBED)
    ours = [name for name in seen["probed"] if name.startswith("catalogue_desktop")]
    assert ours == []
    assert {"sqlite3", "datetime", "decimal", "typing", "dataclasses"}.isdisjoint(seen["probed"])
    assert len(seen["probed"]) <= 10, seen["probed"]
    # the answers the probe itself gives: our Qt modules say "PySide6", the rest does not
    assert (seen["ui"], seen["core"], seen["stdlib"]) == (0, -1, -1)


def test_without_pyside_s_table_nothing_is_given(monkeypatch: Any) -> None:
    """Another PySide, without ``pyside_feature_dict``: nothing breaks, nothing is written."""
    stand_in = types.ModuleType("PySide6.support.feature")
    monkeypatch.setitem(sys.modules, "PySide6.support.feature", stand_in)
    pyside_import.import_pyside()
    assert vars(stand_in).keys() == {"__name__", "__doc__", "__package__", "__loader__", "__spec__"}


def test_the_package_s_modules_are_all_listed() -> None:
    names = set(pyside_import._qt_modules())
    assert {
        "catalogue_desktop.ui",
        "catalogue_desktop.ui.shell.app",
        "catalogue_desktop.ui.detail",
        "catalogue_desktop.ui.detail.page",
    } <= names
    assert all(name in sys.modules or __import__(name) for name in names)


_LATER = textwrap.dedent(
    """
    import inspect, json, sys
    import catalogue_desktop.ui.shell.app  # (the window's modules: PySide and its probe)
"""
    + _COUNT_PROBES
    + """    import difflib, qasync  # imported after the window, as a refresh's modules are
    table = sys.modules["PySide6.support.feature"].pyside_feature_dict
    print(json.dumps({"probed": probed, "qasync": table.get("qasync"), "difflib": table.get("difflib")}))
"""
)


def test_modules_imported_later_are_probed_by_their_bytes_with_the_probe_s_answers() -> None:
    """Counted: a module imported after the window (a refresh imports ~290) is not read through
    ``inspect.getsource`` and ``linecache`` (~0.3 ms of the window's thread each); the answers
    are the probe's own: qasync's source says "PySide6", difflib's does not."""
    seen = _run(_LATER)
    assert not {"qasync", "difflib"} & set(seen["probed"]), seen["probed"]
    assert (seen["qasync"], seen["difflib"]) == (0, -1)
