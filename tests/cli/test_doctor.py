"""``catalogue-desktop doctor``: each failure of the path to a service names its step (address,
proxy, name, TCP, TLS, credentials, HTTP, body), on real servers on loopback; and the command
line's connection options end to end (a token from the environment, in no file or message)."""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import trustme

from catalogue_desktop import cli
from catalogue_desktop.core.connection import secrets
from catalogue_desktop.core.connection.connection_settings import ConnectionSettings
from catalogue_desktop.core.connection.credentials import origin
from catalogue_desktop.core.connection.profiles import Profiles
from catalogue_desktop.core.records.kinds import Kind
from tests.cli_process import run_cli
from tests.connection_servers import ConnectProxy, tls_server
from tests.faultserver import FaultServer, refused_port

TOKEN = "doctor-Token-9931"


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA(organization_name="Doctor Test CA")


@pytest.fixture
def ca_file(ca: trustme.CA, tmp_path: Path) -> str:
    path = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(path))
    return str(path)


@pytest.fixture
def service(sample: dict[Any, bytes]) -> Iterator[FaultServer]:
    with FaultServer() as server:
        for kind in Kind:
            server.set(kind.path, "json", body=sample[kind])
        yield server


def doctor(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = cli.main(["doctor", "--json", "--timeout", "5", *args])
    return code, json.loads(capsys.readouterr().out)


def failed_step(report: dict[str, Any]) -> str:
    problem = report["problem"]
    assert problem is not None, report
    assert problem["fix"], problem
    later = [s for s in report["steps"] if s["ok"] is None]
    return str(problem["step"]) if later or problem["step"] in ("credentials", "http", "body") else "?"


def test_a_working_path_passes_every_step(capsys: pytest.CaptureFixture[str], service: FaultServer) -> None:
    code, report = doctor(capsys, "--base-url", service.base_url)
    assert code == 0 and report["ok"] and report["problem"] is None
    assert [s["step"] for s in report["steps"]] == [
        "address", "proxy", "name", "tcp", "tls", "credentials", "http", "body"
    ]  # fmt: skip
    assert [c["kind"] for c in report["collections"]] == [k.value for k in Kind]
    assert all(c["status"] == 200 and c["json_array"] and c["seconds"] >= 0 for c in report["collections"])


def test_a_bad_address_fails_the_address_step(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = doctor(capsys, "--base-url", "ftp://catalogue.example.com")
    assert code == 1 and report["problem"]["step"] == "address"


def test_a_bad_proxy_fails_the_proxy_step(capsys: pytest.CaptureFixture[str], service: FaultServer) -> None:
    code, report = doctor(capsys, "--base-url", service.base_url, "--proxy", "socks5://x:1")
    assert code == 1 and failed_step(report) == "proxy"


def test_a_proxy_that_is_down_fails_the_tcp_step_and_names_the_proxy(
    capsys: pytest.CaptureFixture[str], service: FaultServer
) -> None:
    proxy = f"http://127.0.0.1:{refused_port()}"
    code, report = doctor(capsys, "--base-url", "https://catalogue.example.com", "--proxy", proxy)
    assert code == 1 and failed_step(report) == "tcp"
    steps = {s["step"]: s for s in report["steps"]}
    assert steps["proxy"]["detail"] == f"through the proxy {proxy} (set for this catalogue)"
    assert "the proxy's name 127.0.0.1" in steps["name"]["detail"]
    assert "refused the connection" in report["problem"]["detail"] and "proxy" in report["problem"]["fix"]


def test_an_unknown_name_fails_the_name_step(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = doctor(capsys, "--base-url", "https://no-such-host.invalid")
    assert code == 1 and failed_step(report) == "name"
    assert "could not be resolved" in report["problem"]["detail"]


def test_a_closed_port_fails_the_tcp_step(capsys: pytest.CaptureFixture[str]) -> None:
    code, report = doctor(capsys, "--base-url", f"http://127.0.0.1:{refused_port()}")
    assert code == 1 and failed_step(report) == "tcp"
    assert "refused the connection" in report["problem"]["detail"]


def test_an_untrusted_certificate_fails_the_tls_step(
    capsys: pytest.CaptureFixture[str], ca: trustme.CA
) -> None:
    with tls_server(ca) as server:
        code, report = doctor(capsys, "--base-url", server.base_url)
    assert code == 1 and failed_step(report) == "tls"
    problem = report["problem"]
    assert "the certificate's issuer is not trusted" in problem["detail"]
    assert "Doctor Test CA" in problem["detail"] and "--ca-file FILE" in problem["fix"]


def test_tls_through_a_proxy_with_the_ca_file_passes_and_says_so(
    capsys: pytest.CaptureFixture[str], ca: trustme.CA, ca_file: str
) -> None:
    with tls_server(ca) as server, ConnectProxy() as proxy:
        code, report = doctor(
            capsys, "--base-url", server.base_url, "--proxy", proxy.url, "--ca-file", ca_file
        )
        assert f"127.0.0.1:{server.port}" in proxy.tunnels
    steps = {s["step"]: s for s in report["steps"]}
    assert code == 0, report
    assert steps["proxy"]["detail"] == f"through the proxy {proxy.url} (set for this catalogue)"
    assert "Doctor Test CA" in steps["tls"]["detail"] and ca_file in steps["tls"]["detail"]
    assert "valid 2000-01-01 to 3000-01-01" in steps["tls"]["detail"]


def test_a_401_fails_the_credentials_step(capsys: pytest.CaptureFixture[str], service: FaultServer) -> None:
    service.set(Kind.ROLES.path, "auth", value=f"Bearer {TOKEN}")
    code, report = doctor(capsys, "--base-url", service.base_url)
    assert code == 1 and failed_step(report) == "credentials"
    assert report["problem"]["detail"].startswith("the service asks for credentials")


def test_a_500_fails_the_http_step(capsys: pytest.CaptureFixture[str], service: FaultServer) -> None:
    service.set(Kind.EXPERTS.path, "status", status=500)
    code, report = doctor(capsys, "--base-url", service.base_url)
    assert code == 1 and failed_step(report) == "http"
    (experts,) = [c for c in report["collections"] if c["kind"] == "experts"]
    assert experts["status"] == 500


def test_an_html_page_fails_the_body_step(capsys: pytest.CaptureFixture[str], service: FaultServer) -> None:
    service.set(Kind.TOPICS.path, "html200")
    code, report = doctor(capsys, "--base-url", service.base_url)
    assert code == 1 and failed_step(report) == "body"
    (topics,) = [c for c in report["collections"] if c["kind"] == "topics"]
    assert topics["json_array"] is False


def test_the_text_report_names_the_first_problem_and_its_fix(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["doctor", "--base-url", f"http://127.0.0.1:{refused_port()}"]) == 1
    text = capsys.readouterr().out
    assert "  FAIL TCP connection" in text and "  --   TLS handshake   not tried" in text
    assert "First problem: TCP connection:" in text and "What to do: check the port" in text


# -- the command line's credentials, end to end ----------------------------------------------------


def run(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, env=env, stdout_too=False)


def every_file_text(folder: Path) -> bytes:
    return b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file())


def test_a_token_from_the_environment_syncs_and_is_in_no_file_or_message(
    env: dict[str, str], tmp_path: Path, sample: dict[Any, bytes]
) -> None:
    with FaultServer() as server:
        for kind in Kind:
            server.set(kind.path, "auth", value=f"Bearer {TOKEN}", body=sample[kind])
        cache = tmp_path / "cache"
        refused = run(env, "sync", "--base-url", server.base_url, "--cache-dir", str(cache))
        assert refused.returncode == 1
        assert "the service asks for credentials (HTTP 401 Unauthorized)" in refused.stdout
        env = {**env, "CATALOGUE_TOKEN": TOKEN}
        ok = run(
            env,
            "sync",
            "--base-url",
            server.base_url,
            "--cache-dir",
            str(cache),
            "--token-env",
            "CATALOGUE_TOKEN",
        )
        assert ok.returncode == 0, ok.stdout + ok.stderr
        assert "credentials: a bearer token (from the environment variable CATALOGUE_TOKEN)" in ok.stderr
        doctor_text = run(env, "doctor", "--base-url", server.base_url, "--token-env", "CATALOGUE_TOKEN")
    assert doctor_text.returncode == 0, doctor_text.stdout
    for result in (refused, ok, doctor_text):
        assert TOKEN not in result.stdout + result.stderr
    assert TOKEN.encode() not in every_file_text(cache)
    assert TOKEN.encode() not in every_file_text(Path(env["CATALOGUE_DESKTOP_CONFIG_DIR"]).parent / "config")


def test_a_profile_with_a_keyring_secret_syncs_into_its_own_cache(
    env: dict[str, str], tmp_path: Path, sample: dict[Any, bytes]
) -> None:
    config = Path(env["CATALOGUE_DESKTOP_CONFIG_DIR"])
    with FaultServer() as server:
        for kind in Kind:
            server.set(kind.path, "auth", value=f"Bearer {TOKEN}", body=sample[kind])
        profiles = Profiles.load(config / "profiles.json")
        staging = profiles.add("staging", server.base_url)
        profiles.put(staging._replace(connection=ConnectionSettings(auth="bearer")))
        profiles.save()
        secrets.store(secrets.account("staging", origin(server.base_url)), TOKEN)
        cache = tmp_path / "caches"
        result = run(env, "sync", "--profile", "staging", "--cache-dir", str(cache))
        assert result.returncode == 0, result.stdout + result.stderr
        assert (cache / "profiles" / "staging" / "catalogue.sqlite3").exists() or list(
            (cache / "profiles" / "staging").glob("*.sqlite*")
        )
        found = run(env, "find", "--profile", "staging", "--cache-dir", str(cache), "--kind", "roles", "*")
    assert TOKEN not in result.stdout + result.stderr + found.stdout + found.stderr
    assert TOKEN.encode() not in every_file_text(cache) + (config / "profiles.json").read_bytes()
    unknown = run(env, "sync", "--profile", "nope")
    assert unknown.returncode == 1 and "there is no catalogue named 'nope'" in unknown.stderr


def test_a_secret_is_never_a_plain_argument(env: dict[str, str]) -> None:
    for option in ("--token", "--token-env", "--password-env"):  # (--token: argparse's abbreviation)
        result = run(env, "sync", "--base-url", "https://x.example", option, TOKEN)
        assert result.returncode == 2 and "never the secret itself" in result.stderr
        assert TOKEN not in result.stderr + result.stdout
    result = run(env, "sync")
    assert result.returncode == 2 and "--base-url URL, or a catalogue with --profile NAME" in result.stderr


def test_a_wrong_proxy_password_is_not_the_same_as_none(
    capsys: pytest.CaptureFixture[str], ca: trustme.CA, ca_file: str
) -> None:
    from catalogue_desktop.core.connection.proxy_failures import FIXES

    with tls_server(ca) as server, ConnectProxy(login=("bob", "right/pw#1")) as proxy:
        port = proxy.url.rsplit(":", 1)[1]
        none_code, none = doctor(
            capsys, "--base-url", server.base_url, "--proxy", proxy.url, "--ca-file", ca_file
        )
        wrong_proxy = f"http://bob:wrong/pw#2@127.0.0.1:{port}"
        wrong_code, wrong = doctor(
            capsys, "--base-url", server.base_url, "--proxy", wrong_proxy, "--ca-file", ca_file
        )
        right_proxy = f"http://bob:right/pw#1@127.0.0.1:{port}"
        right_code, right = doctor(
            capsys, "--base-url", server.base_url, "--proxy", right_proxy, "--ca-file", ca_file
        )
    assert none_code == 1 and failed_step(none) == "tcp"
    assert none["problem"]["detail"] == (
        f"the proxy {proxy.url} asks for credentials (HTTP 407 Proxy Authentication Required)"
    )
    assert none["problem"]["fix"] == FIXES["proxy-credentials-wanted"]
    assert wrong_code == 1 and failed_step(wrong) == "tcp"
    assert wrong["problem"]["detail"] == (
        f"the proxy http://bob:***@127.0.0.1:{port} refused these credentials "
        "(HTTP 407 Proxy Authentication Required)"
    )
    assert wrong["problem"]["fix"] == FIXES["proxy-credentials-refused"]
    assert right_code == 0, right
    assert "wrong/pw" not in json.dumps(wrong) and "right/pw" not in json.dumps(right)


def test_no_json_body_at_all_is_not_an_ok_body_step(
    capsys: pytest.CaptureFixture[str], service: FaultServer
) -> None:
    for kind in Kind:
        service.set(kind.path, "status", status=500)
    code, report = doctor(capsys, "--base-url", service.base_url)
    steps = {s["step"]: s for s in report["steps"]}
    assert code == 1 and failed_step(report) == "http"
    assert steps["body"]["ok"] is None and steps["body"]["detail"] == "0 of 8 bodies are JSON arrays"


def test_a_407_of_the_proxy_to_plain_http_gives_the_proxys_fix(capsys: pytest.CaptureFixture[str]) -> None:
    from catalogue_desktop.core.connection.proxy_failures import FIXES

    with ConnectProxy(login=("bob", "pw")) as proxy:
        code, report = doctor(capsys, "--base-url", "http://127.0.0.1:9", "--proxy", proxy.url)
    assert code == 1 and report["problem"]["step"] == "http"
    assert report["problem"]["detail"].startswith(f"the proxy {proxy.url} asks for credentials (HTTP 407")
    assert report["problem"]["fix"] == FIXES["proxy-credentials-wanted"]
