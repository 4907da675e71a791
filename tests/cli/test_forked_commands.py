"""A command forked from the warm process (``tests/cli_process.py``, what the command-line tests
use) is the command run in a fresh interpreter: the same exit status, output and error, with the
environment, working folder, zone and standard input it is given."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_process import run_cli


@pytest.mark.parametrize(
    ("args", "stdin"),
    [
        (["--version"], None),
        (["history", "nothing-of-the-kind", "1"], None),  # a usage error: exit 2, argparse's text
        (["profile", "p", "--base-url", "https://example.invalid", "--secret-stdin"], "s3cret\n"),
    ],
)
def test_a_forked_command_is_the_fresh_command(
    args: list[str], stdin: str | None, env: dict[str, str], tmp_path: Path
) -> None:
    forked = run_cli(*args, env=env, cwd=tmp_path, stdin=stdin)
    config = Path(env["CATALOGUE_DESKTOP_CONFIG_DIR"])  # (the test's: conftest)
    written = sorted(p.relative_to(config) for p in config.rglob("*")) if config.exists() else []
    if config.exists():
        config.rename(tmp_path / "forked-config")
    fresh = run_cli(*args, env=env, cwd=tmp_path, stdin=stdin, fresh=True)
    assert (forked.returncode, forked.stdout, forked.stderr) == (fresh.returncode, fresh.stdout, fresh.stderr)
    assert forked.stdout + forked.stderr
    assert written == (sorted(p.relative_to(config) for p in config.rglob("*")) if config.exists() else [])
