"""Passwords in addresses on the command line: never printed (``user:***@``), never in
``profiles.json`` (written 0600), kept in the keyring (the tests' backend) or refused with how to
give them instead; an earlier version's file with one moved on; a locked keyring said as locked;
a password holding ``/ # ? @ : %`` read whole, never a traceback."""

from __future__ import annotations

import base64
import json
import stat
import subprocess
from pathlib import Path
from typing import Any

from catalogue_desktop.core.records.kinds import Kind
from tests.cli_process import run_cli
from tests.faultserver import FaultServer

PROXY_PASSWORD = "abc/def#g?h"
ODD_PASSWORD = "p@ss:w%rd/x"
SERVICE_PASSWORD = "Sekr3t/9#q"


def run(env: dict[str, str], *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, env=env, stdin=stdin)


def said(*results: subprocess.CompletedProcess[str]) -> str:
    return "".join(r.stdout + r.stderr for r in results)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_a_proxy_password_goes_to_the_keyring_not_to_profiles_json_nor_the_screen(
    env: dict[str, str], tmp_path: Path
) -> None:
    config = Path(env["CATALOGUE_DESKTOP_CONFIG_DIR"])
    made = run(
        env,
        "profile",
        "staging",
        "--base-url",
        "https://staging.example.com",
        "--proxy",
        f"http://bob:{PROXY_PASSWORD}@proxy.corp:3128",
    )
    assert made.returncode == 0, made.stderr
    assert made.stdout.strip() == (
        "staging      https://staging.example.com (cache profiles/staging; proxy http://bob@proxy.corp:3128)"
    )
    listed = run(env, "profile")
    text = (config / "profiles.json").read_text()
    assert PROXY_PASSWORD not in said(made, listed) + text and "abc" not in text
    assert json.loads(text)["profiles"][1]["connection"]["proxy"] == "http://bob@proxy.corp:3128"
    assert mode(config / "profiles.json") == 0o600
    keyring = json.loads((tmp_path / "test-keyring.json").read_text())
    assert keyring == {"catalogue-desktop\nstaging proxy http://proxy.corp:3128": PROXY_PASSWORD}


def test_an_earlier_versions_file_with_a_password_is_moved_on(env: dict[str, str], tmp_path: Path) -> None:
    config = Path(env["CATALOGUE_DESKTOP_CONFIG_DIR"])
    config.mkdir(parents=True)
    old = {
        "current": "prod",
        "profiles": [
            {
                "name": "prod",
                "cache": "profiles/prod",
                "base_url": f"https://u1:{SERVICE_PASSWORD}@prod.example.com",
                "connection": {"proxy": f"http://bob:{ODD_PASSWORD}@proxy.corp:3128"},
            }
        ],
    }
    path = config / "profiles.json"
    path.write_text(json.dumps(old))
    path.chmod(0o644)
    listed = run(env, "profile")
    assert listed.returncode == 0, listed.stderr
    assert listed.stdout.startswith(
        "* prod         https://prod.example.com (cache profiles/prod; proxy http://bob@proxy.corp:3128; "
        "credentials basic as u1 from the keyring)"
    )
    text = path.read_text()
    assert SERVICE_PASSWORD not in text and ODD_PASSWORD not in text and "w%rd" not in text
    assert mode(path) == 0o600
    assert ODD_PASSWORD not in said(listed) and SERVICE_PASSWORD not in said(listed)
    keyring = json.loads((tmp_path / "test-keyring.json").read_text())
    assert keyring == {
        "catalogue-desktop\nprod https://prod.example.com:443": SERVICE_PASSWORD,
        "catalogue-desktop\nprod proxy http://proxy.corp:3128": ODD_PASSWORD,
    }


def test_without_a_keyring_a_proxy_password_is_refused_and_left_out(env: dict[str, str]) -> None:
    env = {**env, "PYTHON_KEYRING_BACKEND": "keyring.backends.fail.Keyring"}
    config = Path(env["CATALOGUE_DESKTOP_CONFIG_DIR"])
    made = run(
        env,
        "profile",
        "p",
        "--base-url",
        "https://p.example",
        "--proxy",
        f"http://bob:{PROXY_PASSWORD}@proxy:3128",
    )
    assert made.returncode == 1
    assert (
        "catalogue-desktop: the password in http://bob:***@proxy:3128 was not written to profiles.json "
        "and cannot be kept here (no keyring is available on this computer"
    ) in made.stderr
    assert "give it in the environment instead (HTTPS_PROXY=http://user:password@proxy:port)" in made.stderr
    assert PROXY_PASSWORD not in said(made) + (config / "profiles.json").read_text()


def test_bad_proxy_addresses_holding_a_password_are_refused_without_it(env: dict[str, str]) -> None:
    for proxy, why in (
        (f"http://bob:{PROXY_PASSWORD}@proxy:eighty", "the port 'eighty' is not a number from 1 to 65535"),
        (f"http://bob:{ODD_PASSWORD}@proxy:99999", "the port '99999' is not a number from 1 to 65535"),
        (f"socks5://bob:{ODD_PASSWORD}@proxy:1080", "a proxy is given as http://host:port"),
    ):
        result = run(env, "profile", "p", "--base-url", "https://p.example", "--proxy", proxy)
        assert result.returncode == 1 and why in result.stderr, result.stderr
        assert "bob:***@proxy" in result.stderr
        assert PROXY_PASSWORD not in said(result) and "w%rd" not in said(result) and "abc" not in said(result)
    synced = run(
        env, "sync", "--base-url", "https://p.example", "--proxy", f"http://bob:{ODD_PASSWORD}@proxy:x"
    )
    assert synced.returncode == 1 and "not a usable proxy address" in synced.stderr
    assert "w%rd" not in said(synced) and "p@ss" not in said(synced)


def test_a_service_address_with_a_password_is_used_but_never_shown(
    env: dict[str, str], tmp_path: Path, sample: dict[Any, bytes]
) -> None:
    pair = base64.b64encode(f"u1:{SERVICE_PASSWORD}".encode()).decode()
    with FaultServer() as server:
        for kind in Kind:
            server.set(kind.path, "auth", value=f"Basic {pair}", body=sample[kind])
        port = server.port
        address = f"http://u1:{SERVICE_PASSWORD}@127.0.0.1:{server.port}"
        synced = run(env, "sync", "--base-url", address, "--cache-dir", str(tmp_path / "c"))
        doctor = run(env, "doctor", "--base-url", address, "--json")
        checked = run(env, "check", "--base-url", address)
    assert synced.returncode == 0, said(synced)
    assert synced.stderr.startswith(
        f"Connecting to http://127.0.0.1:{port} direct (no proxy set in the environment"
    )
    assert "credentials: user name 'u1' and a password (from the service's address)" in synced.stderr
    report = json.loads(doctor.stdout)
    assert report["ok"] is True and report["base_url"] == f"http://u1:***@127.0.0.1:{port}"
    for result in (synced, doctor, checked):
        assert SERVICE_PASSWORD not in said(result) and "Sekr3t" not in said(result)


def test_a_locked_keyring_is_said_as_locked(
    env: dict[str, str], sample: dict[Any, bytes], tmp_path: Path
) -> None:
    with FaultServer() as server:
        for kind in Kind:
            server.set(kind.path, "auth", value="Bearer t", body=sample[kind])
        made = run(env, "profile", "work", "--base-url", server.base_url, "--auth", "bearer")
        assert made.returncode == 0, made.stderr
        locked = {**env, "PYTHON_KEYRING_BACKEND": "tests.keyring_backend.LockedKeyring"}
        kept = run(locked, "profile", "work", "--secret-stdin", stdin="t\n")
        synced = run(locked, "sync", "--profile", "work", "--cache-dir", str(tmp_path / "c"))
        doctor = run(locked, "doctor", "--profile", "work")
    assert kept.returncode == 1 and "catalogue-desktop: the keyring is locked: unlock it" in kept.stderr
    assert "credentials: a bearer token (not found) (the keyring is locked: unlock it" in synced.stderr
    assert "none is kept in the keyring" not in said(synced, doctor)
    assert "the keyring is locked: unlock it" in doctor.stdout
