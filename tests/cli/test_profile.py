"""``catalogue-desktop profile``: catalogues listed, added and changed from the command line, the
secret read from standard input into the keyring (the tests' backend), then used by ``sync
--profile``; no secret in profiles.json or any message."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from catalogue_desktop.core.records.kinds import Kind
from tests.cli_process import run_cli
from tests.faultserver import FaultServer

TOKEN = "profile-Token-7781"


def run(env: dict[str, str], *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, env=env, stdin=stdin, stdout_too=False)


def test_a_profile_made_on_the_command_line_syncs_with_its_keyring_secret(
    env: dict[str, str], tmp_path: Path, sample: dict[Any, bytes]
) -> None:
    config = Path(env["CATALOGUE_DESKTOP_CONFIG_DIR"])
    listed = run(env, "profile")
    assert listed.returncode == 0 and listed.stdout.startswith("* demo")
    with FaultServer() as server:
        for kind in Kind:
            server.set(kind.path, "auth", value=f"Bearer {TOKEN}", body=sample[kind])
        made = run(env, "profile", "staging", "--base-url", server.base_url + "/v1/", "--auth", "bearer")
        assert made.returncode == 0, made.stderr
        assert made.stdout.strip() == (
            f"staging      {server.base_url} (cache profiles/staging; credentials bearer from the keyring)"
        )
        kept = run(env, "profile", "staging", "--secret-stdin", stdin=TOKEN + "\n")
        assert kept.returncode == 0 and "Kept the secret of staging in the keyring" in kept.stderr
        cache = tmp_path / "caches"
        synced = run(env, "sync", "--profile", "staging", "--cache-dir", str(cache))
        assert synced.returncode == 0, synced.stdout + synced.stderr
        assert "credentials: a bearer token (from the keyring)" in synced.stderr
    data = json.loads((config / "profiles.json").read_text())
    assert [p["name"] for p in data["profiles"]] == ["demo", "staging"]
    assert TOKEN not in (config / "profiles.json").read_text()
    for result in (made, kept, synced):
        assert TOKEN not in result.stdout + result.stderr
    assert TOKEN in (tmp_path / "test-keyring.json").read_text()


def test_without_a_keyring_the_secret_is_refused_in_words(env: dict[str, str]) -> None:
    env = {**env, "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    made = run(
        env, "profile", "prod", "--base-url", "https://prod.example.com", "--secret-stdin", stdin="x\n"
    )
    assert made.returncode == 1
    assert "no keyring is available on this computer" in made.stderr
    assert "prod         https://prod.example.com" in made.stdout  # the rest was kept


def test_bad_input_is_said(env: dict[str, str]) -> None:
    missing = run(env, "profile", "new")
    assert missing.returncode == 2 and "a new catalogue needs --base-url URL" in missing.stderr
    proxy = run(env, "profile", "p", "--base-url", "https://p.example", "--proxy", "socks5://x:1")
    assert proxy.returncode == 1 and "a proxy is given as http://host:port" in proxy.stderr


def test_a_malformed_profiles_file_is_one_line_never_a_traceback(env: dict[str, str]) -> None:
    config = Path(env["CATALOGUE_DESKTOP_CONFIG_DIR"])
    config.mkdir(parents=True, exist_ok=True)
    for body in ('{"profiles": 5}', "[" * 100_000):
        (config / "profiles.json").write_text(body)
        listed = run(env, "profile")
        assert listed.returncode == 0 and listed.stdout.startswith("* demo"), listed.stderr
        (line,) = listed.stderr.splitlines()
        assert line.startswith(f"catalogue-desktop: {config / 'profiles.json'}: ") and "kept aside as" in line
        assert not (config / "profiles.json").exists()
    assert len(list(config.glob("profiles.json.bad-*"))) == 2
    (config / "profiles.json").write_text("{not json")
    unknown = run(env, "sync", "--profile", "staging")
    assert unknown.returncode == 1 and "profiles.json: is not valid JSON" in unknown.stderr
