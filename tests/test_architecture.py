"""The house's import contracts (pyproject.toml's ``[tool.importlinter]``, docs/architecture.md):
they hold, and they fail when someone breaks them.

``lint-imports`` runs in a fresh process, on this tree, then on copies of the package with one
forbidden import added: the Qt layer's features import each other only downwards (shell on top,
qt_compat at the bottom), detail and sync not at all; core and demo import no Qt; shiboken6
and qasync come only through qt_compat; no import cycle.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "catalogue_desktop"
_LINT = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"


def lint_imports(project: Path, source: Path) -> subprocess.CompletedProcess[str]:
    """``lint-imports`` with ``project``'s pyproject.toml over the package found in ``source``."""
    env = {**os.environ, "PYTHONPATH": str(source)}
    return subprocess.run(
        [sys.executable, "-c", _LINT, "--no-cache", "--no-logo"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_the_contracts_hold() -> None:
    result = lint_imports(ROOT, ROOT / "src")
    assert result.returncode == 0, result.stdout + result.stderr
    assert "Contracts: 6 kept, 0 broken." in result.stdout, result.stdout


VIOLATIONS = {
    "Qt in core": (
        "core/records/kinds.py",
        "import PySide6.QtCore",
        "core imports no Qt",
        "catalogue_desktop.core.records.kinds -> PySide6",
    ),
    "Qt in demo": (
        "demo/words.py",
        "from PySide6.QtCore import QObject",
        "demo imports no Qt",
        "catalogue_desktop.demo.words -> PySide6",
    ),
    "a layer importing one above it": (
        "ui/common/urls.py",
        "from catalogue_desktop.ui.browse import table_model",
        "the Qt layer by feature",
        "catalogue_desktop.ui.common.urls -> catalogue_desktop.ui.browse",
    ),
    "detail importing sync (independent)": (
        "ui/detail/pane.py",
        "import catalogue_desktop.ui.sync.status_panel",
        "the Qt layer by feature",
        "catalogue_desktop.ui.detail.pane -> catalogue_desktop.ui.sync",
    ),
    "the door bypassed": (
        "ui/browse/table_model.py",
        "import shiboken6",
        "only through qt_compat",
        "catalogue_desktop.ui.browse.table_model -> shiboken6",
    ),
    "an import cycle": (
        "core/records/kinds.py",
        "import catalogue_desktop.core.listing.rows",
        "no import cycle",
        "No cycles are allowed in catalogue_desktop.core",
    ),
}


@pytest.mark.parametrize("case", list(VIOLATIONS))
def test_a_broken_contract_fails_the_check(tmp_path: Path, case: str) -> None:
    module, line, contract, where = VIOLATIONS[case]
    source = tmp_path / "src"
    shutil.copytree(
        PACKAGE, source / "catalogue_desktop", ignore=shutil.ignore_patterns("__pycache__", "resources")
    )
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    target = source / "catalogue_desktop" / module
    target.write_text(target.read_text(encoding="utf-8") + f"\n{line}  # noqa\n", encoding="utf-8")
    result = lint_imports(tmp_path, source)
    assert result.returncode == 1, result.stdout + result.stderr
    broken = result.stdout.split("Broken contracts", 1)[-1]
    assert contract in broken and where in broken, result.stdout
