"""The command line in a newcomer's first hour: a service that hangs is given up on (``--timeout``),
and a killed sync leaves no process behind. Real subprocesses against loopback servers."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from catalogue_desktop.core.records.kinds import Kind
from tests.cli_process import run_cli
from tests.faultserver import FaultServer


def cli(env: dict[str, str], *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, env=env, timeout=timeout)


# -- a service that hangs ----------------------------------------------------------------------------


def test_sync_gives_up_on_a_hanging_collection_after_timeout_seconds(
    env: dict[str, str], fault_server: FaultServer, tmp_path: Path
) -> None:
    fault_server.set(Kind.WEBINARS.path, "slow_headers", delay=120.0)  # takes the request, says nothing
    # (without the deadline: 3 attempts of the 30 s read timeout, 90 s and more; the run's limit is 40 s)
    result = cli(
        env,
        "sync",
        "--base-url",
        fault_server.base_url,
        "--cache-dir",
        str(tmp_path / "c"),
        "--timeout",
        "1.5",
        timeout=40,
    )
    assert result.returncode == 1
    lines = {line.split()[0]: line for line in result.stdout.splitlines() if line[:1].isalpha()}
    webinars = lines["webinars"]
    assert webinars.split()[1] == "failed"
    assert (
        f"- gave up on webinars after waiting 1.5 s for 127.0.0.1:{fault_server.port} (the time "
        f"allowed per collection, retries included)"
    ) in webinars
    assert all(lines[k.value].split()[1] == "updated" for k in Kind if k is not Kind.WEBINARS)


def test_check_gives_up_the_same_way(env: dict[str, str], fault_server: FaultServer) -> None:
    fault_server.set(Kind.TOPICS.path, "slow_headers", delay=120.0)
    result = cli(env, "check", "--base-url", fault_server.base_url, "--timeout", "1", "--json", timeout=40)
    assert result.returncode == 1
    report = json.loads(result.stdout)
    assert report["collections"]["topics"]["error"].startswith("gave up on topics after waiting 1 s")


@pytest.mark.parametrize("value", ["0", "-5", "soon", "inf", "nan"])
def test_a_timeout_that_is_not_a_positive_number_is_a_usage_error(env: dict[str, str], value: str) -> None:
    result = cli(env, "sync", "--base-url", "http://127.0.0.1:9", "--timeout", value)
    assert result.returncode == 2
    assert "--timeout: expected a number of seconds above 0" in result.stderr


def test_help_names_the_timeout(env: dict[str, str]) -> None:
    for command in ("sync", "check"):
        text = " ".join(cli(env, command, "--help").stdout.split())
        assert "--timeout SECONDS give up on a collection after this long in all, retries included" in text
