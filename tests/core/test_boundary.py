"""Layer boundaries: the core, the demo service and the CLI never import Qt, and the window's cold-start
path (store, listing, catalogue, search, kinds, errors) never imports pydantic or httpx.

Each check runs in a fresh interpreter, so that nothing this test process imported can hide a leak.
Every module named here must exist: a rename fails these tests (it never turns a check into a skip).
"""

from __future__ import annotations

import importlib.util
import json
import pkgutil
import subprocess
import sys
import textwrap
from types import ModuleType

import pytest

import catalogue_desktop.cli
import catalogue_desktop.core
import catalogue_desktop.demo


def _modules(package: ModuleType) -> list[str]:
    return sorted(
        m.name for m in pkgutil.walk_packages(package.__path__, package.__name__ + ".") if not m.ispkg
    )


CORE_MODULES = _modules(catalogue_desktop.core)
DEMO_MODULES = _modules(catalogue_desktop.demo)
CLI_MODULES = ["catalogue_desktop.cli", *_modules(catalogue_desktop.cli)]
COLD_START = [
    "catalogue_desktop.core.cache.store",
    "catalogue_desktop.core.listing.rows",
    "catalogue_desktop.core.listing.rowset",
    "catalogue_desktop.core.listing.sorting",
    "catalogue_desktop.core.records.kinds",
    "catalogue_desktop.core.records.errors",
]
# Modules that do import a heavy library: the subprocess check sees it (it is not vacuous).
SUBPROCESS_CHECKS = {
    "catalogue_desktop.core.service.client": "httpx",
    "catalogue_desktop.core.records.models": "pydantic",
}


def _missing(names: list[str]) -> list[str]:
    """The names in ``names`` that are no module (a rename this file has not followed)."""
    missing = []
    for name in names:
        try:
            found = importlib.util.find_spec(name) is not None
        except ModuleNotFoundError:
            found = False
        if not found:
            missing.append(name)
    return missing


def _import_in_subprocess(modules: list[str]) -> set[str]:
    """Import ``modules`` in a fresh interpreter; return the names in its ``sys.modules``."""
    code = textwrap.dedent(
        f"""
        import importlib, json, sys
        for name in {modules!r}:
            importlib.import_module(name)
        json.dump(sorted(sys.modules), sys.stdout)
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, f"importing {modules} failed:\n{result.stderr}"
    return set(json.loads(result.stdout))


def _top_level(loaded: set[str], package: str) -> list[str]:
    return sorted(n for n in loaded if n == package or n.startswith(package + "."))


def test_every_module_named_here_exists() -> None:
    named = [*DEMO_MODULES, *CLI_MODULES, *COLD_START, *SUBPROCESS_CHECKS]
    assert "catalogue_desktop.demo.server" in DEMO_MODULES
    assert "catalogue_desktop.demo.synthetic" in DEMO_MODULES
    assert not _missing(named), f"named in tests/core/test_boundary.py but not a module: {_missing(named)}"


def test_the_core_has_the_expected_modules() -> None:
    names = {m.split("core.", 1)[1] for m in CORE_MODULES}
    expected = {
        "records.kinds",
        "records.errors",
        "records.problems",
        "records.models",
        "records.decode",
        "records.diff",
        "records.certificates",
        "service.client",
        "cache.store",
        "listing.rows",
        "listing.rowset",
        "listing.sorting",
        "sync.ingest",
        "sync.runner",
        "query.engine",
        "offers.occasions",
    }
    assert expected <= names


def test_core_demo_and_cli_do_not_import_pyside6() -> None:
    modules = ["catalogue_desktop", "catalogue_desktop.core", *CORE_MODULES, *DEMO_MODULES, *CLI_MODULES]
    loaded = _import_in_subprocess(modules)
    for name in modules:
        assert name in loaded
    assert "PySide6" not in loaded, f"PySide6 imported via: {_top_level(loaded, 'PySide6')[:5]}"
    assert "qasync" not in loaded


@pytest.mark.parametrize("module", DEMO_MODULES)
def test_demo_module_is_importable_without_pyside6(module: str) -> None:
    loaded = _import_in_subprocess([module])
    assert "PySide6" not in loaded


def test_cold_start_path_imports_neither_pydantic_nor_httpx() -> None:
    loaded = _import_in_subprocess(COLD_START)
    for name in COLD_START:
        assert name in loaded
    assert not _top_level(loaded, "pydantic"), "the cold-start path imports pydantic"
    assert not _top_level(loaded, "pydantic_core"), "the cold-start path imports pydantic_core"
    assert not _top_level(loaded, "httpx"), "the cold-start path imports httpx"
    assert "PySide6" not in loaded


def test_the_subprocess_check_can_fail() -> None:
    """Guard against a vacuous check: importing the client really does pull in httpx."""
    for module, heavy in SUBPROCESS_CHECKS.items():
        assert heavy in _import_in_subprocess([module])
