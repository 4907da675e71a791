"""The house's static checks run with the tests (as tests/test_architecture.py runs import-linter):
types (mypy, configured in pyproject.toml: the whole package strict, no module allowed errors; the
tests' helpers and the journeys too), lint and
complexity (``ruff check``), formatting (``ruff format --check``) and dead code (``vulture``),
each in a fresh process over this tree. .pre-commit-config.yaml runs the same before a commit.

mypy keeps its cache in ``.mypy_cache``: on 2 cores, idle to busy, the whole file takes 8-26 s the first
time (mypy 6-14 s), 2-11 s after (vulture 1-5 s, mypy under 1 s). The four checks over the tree are
started together when the first of their tests runs (``checks``) and each test awaits its own: the
file takes about as long as mypy alone instead of the sum.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
CHECKED = ["src", "tests", "bench", "packaging"]

# The modules mypy lets have errors (pyproject.toml, an ``ignore_errors`` override): none since
# ui.offers.dates_tab's were fixed; never add one.
RATCHET: set[str] = set()


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )


# The checks over the whole tree, by the test that awaits each.
TREE_CHECKS: dict[str, list[str]] = {
    "test_types_check": ["mypy", "--cache-dir", str(ROOT / ".mypy_cache")],
    "test_lint_and_complexity": ["ruff", "check", *CHECKED],
    "test_formatting": ["ruff", "format", "--check", *CHECKED],
    "test_no_dead_code": ["vulture"],  # paths and ignored names: pyproject.toml's [tool.vulture]
}


@pytest.fixture(scope="module")
def checks(request: pytest.FixtureRequest) -> Iterator[dict[str, subprocess.Popen[str]]]:
    """The tree checks this session selected, all started at once (each test awaits its own)."""
    selected = {item.name for item in request.session.items if item.module is request.module}
    started = {
        name: subprocess.Popen(
            [sys.executable, "-m", *args],
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, args in TREE_CHECKS.items()
        if name in selected
    }
    yield started
    for process in started.values():
        if process.poll() is None:
            process.kill()
        process.communicate()


def finished(checks: dict[str, subprocess.Popen[str]], name: str) -> subprocess.CompletedProcess[str]:
    process = checks[name]
    stdout, stderr = process.communicate(timeout=300)
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


def mypy_config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]


def test_types_check(checks: dict[str, subprocess.Popen[str]]) -> None:
    result = finished(checks, "test_types_check")
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.startswith("Success: no issues found"), result.stdout


def test_the_package_is_checked_strictly_and_the_core_allowed_nothing_less() -> None:
    """``strict`` for every module; what an override relaxes is never the core's."""
    config = mypy_config()
    assert config["strict"] is True and config["files"][0] == "src/catalogue_desktop"
    for override in config["overrides"]:
        relaxed = {key for key in override if key not in ("module", "ignore_missing_imports")}
        if relaxed:
            assert not any(m.startswith("catalogue_desktop.core") for m in override["module"]), override


def test_the_test_helpers_and_journeys_are_type_checked() -> None:
    """mypy's files hold every module under tests/ that is not a test file (conftest.py, records.py,
    hands.py...) and every journey."""
    checked = {path for pattern in mypy_config()["files"] for path in ROOT.glob(pattern)}
    checked |= {p for folder in checked if folder.is_dir() for p in folder.rglob("*.py")}
    helpers = {p for p in (ROOT / "tests").rglob("*.py") if not p.name.startswith("test_")}
    journeys = set((ROOT / "tests" / "journeys").glob("test_*.py"))
    unchecked = sorted(str(p.relative_to(ROOT)) for p in helpers | journeys if p not in checked)
    assert not unchecked, f"not type-checked (pyproject.toml, [tool.mypy] files): {unchecked}"
    assert len(helpers) > 30 and len(journeys) > 15


def test_the_ratchet_only_shrinks() -> None:
    allowed = {m for o in mypy_config()["overrides"] if o.get("ignore_errors") for m in o["module"]}
    assert allowed <= RATCHET, f"modules added to the list allowed type errors: {allowed - RATCHET}"
    assert mypy_config()["strict"] is True  # (``warn_unused_ignores`` with it)


def test_lint_and_complexity(checks: dict[str, subprocess.Popen[str]]) -> None:
    result = finished(checks, "test_lint_and_complexity")
    assert result.returncode == 0, result.stdout + result.stderr


def test_formatting(checks: dict[str, subprocess.Popen[str]]) -> None:
    result = finished(checks, "test_formatting")
    assert result.returncode == 0, result.stdout + result.stderr


def test_no_dead_code(checks: dict[str, subprocess.Popen[str]]) -> None:
    result = finished(checks, "test_no_dead_code")
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_checks_fail_on_what_they_forbid(tmp_path: Path) -> None:
    """A function branching more than the limit, and one nobody calls, are reported."""
    branches = "\n".join(f"    if x == {i}:\n        return {i}" for i in range(20))
    module = tmp_path / "tangled.py"
    module.write_text(f"def tangled(x: int) -> int:\n{branches}\n    return -1\n", encoding="utf-8")
    lint = run("ruff", "check", "--select", "C901", str(module))
    assert lint.returncode == 1 and "`tangled` is too complex (21 > 18)" in lint.stdout, lint.stdout
    dead = run("vulture", str(module))
    assert dead.returncode == 3 and "unused function 'tangled'" in dead.stdout, dead.stdout
