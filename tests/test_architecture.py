"""The house's import contracts (pyproject.toml's ``[tool.importlinter]``, docs/architecture.md):
they hold, and they fail when someone breaks them.

``lint-imports`` runs in a fresh process, on this tree, then on a copy of the package with the
forbidden imports below added (one run: each is reported under its own contract): the Qt layer's
features import each other only downwards (shell on top, qt_compat at the bottom), detail and
sync not at all; core and demo import no Qt; shiboken6 and qasync come only through qt_compat;
no import cycle.
"""

from __future__ import annotations

import os
import re
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


@pytest.fixture(scope="module")
def broken(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """``lint-imports``'s report on a copy of the package with every violation above added at once
    (one run for all: each breaks its own contract with its own import, named in the report)."""
    project = tmp_path_factory.mktemp("broken")
    source = project / "src"
    shutil.copytree(
        PACKAGE, source / "catalogue_desktop", ignore=shutil.ignore_patterns("__pycache__", "resources")
    )
    shutil.copy(ROOT / "pyproject.toml", project / "pyproject.toml")
    for module, line, _, _ in VIOLATIONS.values():
        target = source / "catalogue_desktop" / module
        target.write_text(target.read_text(encoding="utf-8") + f"\n{line}  # noqa\n", encoding="utf-8")
    result = lint_imports(project, source)
    assert result.returncode == 1, result.stdout + result.stderr
    return _broken_contracts(result.stdout)


@pytest.mark.parametrize("case", list(VIOLATIONS))
def test_a_broken_contract_fails_the_check(broken: dict[str, str], case: str) -> None:
    """Each violation is reported under its own contract, by the import it added."""
    _, _, contract, where = VIOLATIONS[case]
    sections = [text for title, text in broken.items() if contract in title]
    assert sections and where in sections[0], (case, broken)


def _broken_contracts(report: str) -> dict[str, str]:
    """A ``lint-imports`` report's broken contracts: each one's title, and what it says of it."""
    broken = report.split("Broken contracts\n----------------\n", 1)[-1]
    # (each contract is its title, underlined with dashes, then its illegal imports)
    parts = re.split(r"^(.+)\n-+\n", broken, flags=re.MULTILINE)
    return {title: text for title, text in zip(parts[1::2], parts[2::2], strict=True)}
