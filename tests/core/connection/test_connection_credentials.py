"""Credentials: a service on loopback that wants a bearer token. 401 has its own words without
it, the token opens it, a wrong one or 403 is "refused"; it never reaches another origin after a
redirect; secrets stay in the keyring (a test backend) or an environment variable."""

from __future__ import annotations

import asyncio
import base64
from collections.abc import Iterator
from typing import Any

import pytest

from catalogue_desktop.core.connection import secrets
from catalogue_desktop.core.connection.connection_settings import ConnectionSettings
from catalogue_desktop.core.connection.credentials import Credentials, origin
from catalogue_desktop.core.connection.resolved import resolve
from catalogue_desktop.core.records.errors import CredentialsRefused, CredentialsWanted, FetchError
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.service.client import CatalogueClient, FetchResult
from catalogue_desktop.core.sync.runner import cause_of
from tests.faultserver import FaultServer

TOKEN = "s3cret-Token-4711"
PATH = Kind.SITUATIONS.path


@pytest.fixture
def server() -> Iterator[FaultServer]:
    with FaultServer() as srv:
        srv.set(PATH, "auth", value=f"Bearer {TOKEN}", body=[{"situationId": 1}])
        yield srv


def fetch(base_url: str, settings: ConnectionSettings, profile: str = "") -> FetchResult:
    async def main() -> FetchResult:
        connection = resolve(base_url, settings, profile=profile)
        async with CatalogueClient(base_url, retries=0, connection=connection) as client:
            return await client.fetch(Kind.SITUATIONS)

    return asyncio.run(main())


def failure(base_url: str, settings: ConnectionSettings, profile: str = "") -> FetchError:
    with pytest.raises(FetchError) as info:
        fetch(base_url, settings, profile)
    return info.value


def test_without_credentials_the_service_asks_for_them(server: FaultServer) -> None:
    error = failure(server.base_url, ConnectionSettings())
    assert isinstance(error, CredentialsWanted) and cause_of(error) == "credentials-wanted"
    assert str(error).startswith("the service asks for credentials (HTTP 401 Unauthorized)")
    assert "--token-env VAR" in str(error)
    assert "authorization" not in server.requests[0].headers


def test_the_token_from_the_environment_opens_it(
    server: FaultServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CATALOGUE_TOKEN", TOKEN)
    result = fetch(server.base_url, ConnectionSettings(auth="bearer", secret_env="CATALOGUE_TOKEN"))
    assert result.status == 200 and result.body == b'[{"situationId": 1}]'
    assert server.requests[0].headers["authorization"] == f"Bearer {TOKEN}"


def test_a_wrong_token_is_refused_and_never_quoted(
    server: FaultServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CATALOGUE_TOKEN", "wrong-token-0815")
    error = failure(server.base_url, ConnectionSettings(auth="bearer", secret_env="CATALOGUE_TOKEN"))
    assert isinstance(error, CredentialsRefused) and cause_of(error) == "credentials-refused"
    assert str(error).startswith("these credentials are refused (HTTP 401 Unauthorized")
    assert "a bearer token" in str(error) and "wrong-token-0815" not in str(error) + repr(error)


def test_403_is_refused_credentials_not_a_service_error(server: FaultServer) -> None:
    server.set(PATH, "status", status=403)
    error = failure(server.base_url, ConnectionSettings())
    assert isinstance(error, CredentialsRefused)
    assert str(error).startswith("these credentials are refused (HTTP 403 Forbidden")


def test_a_missing_variable_is_said_with_the_401(server: FaultServer) -> None:
    error = failure(server.base_url, ConnectionSettings(auth="bearer", secret_env="NOT_SET_ANYWHERE"))
    assert isinstance(error, CredentialsWanted)
    assert "the environment variable NOT_SET_ANYWHERE is not set" in str(error)


def test_the_keyring_holds_a_profiles_secret(server: FaultServer, tmp_path: Any) -> None:
    secrets.store(secrets.account("production", origin(server.base_url)), TOKEN)
    result = fetch(server.base_url, ConnectionSettings(auth="bearer"), profile="production")
    assert result.status == 200
    assert TOKEN in (tmp_path / "test-keyring.json").read_text()  # the test backend, not the user's
    # another profile, or the same one moved to another origin, does not get it
    assert isinstance(
        failure(server.base_url, ConnectionSettings(auth="bearer"), "staging"), CredentialsWanted
    )
    secrets.forget(secrets.account("production", origin(server.base_url)))
    assert secrets.load(secrets.account("production", origin(server.base_url))) is None


@pytest.mark.parametrize(
    ("settings", "header", "expected"),
    [
        (ConnectionSettings(auth="bearer"), "authorization", f"Bearer {TOKEN}"),
        (ConnectionSettings(auth="header", header="X-Api-Key"), "x-api-key", TOKEN),
        (
            ConnectionSettings(auth="basic", username="ann"),
            "authorization",
            "Basic " + base64.b64encode(f"ann:{TOKEN}".encode()).decode(),
        ),
    ],
)
def test_credentials_are_not_sent_after_a_redirect_to_another_port(
    settings: ConnectionSettings, header: str, expected: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CATALOGUE_SECRET", TOKEN)
    settings = settings.but(secret_env="CATALOGUE_SECRET")
    with FaultServer() as elsewhere, FaultServer() as service:
        elsewhere.set(PATH, "json", body=[])
        service.set(PATH, "redirect", location=elsewhere.url(PATH))
        assert fetch(service.base_url, settings).status == 200
        assert service.requests[0].headers[header] == expected
        (arrived,) = elsewhere.requests
        assert header not in arrived.headers and "authorization" not in arrived.headers
        assert TOKEN not in repr(arrived.headers)


def test_a_redirect_within_the_origin_keeps_them(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CATALOGUE_SECRET", TOKEN)
    with FaultServer() as service:
        service.set("/moved", "auth", value=f"Bearer {TOKEN}", body=[])
        service.set(PATH, "redirect", location=service.url("/moved"))
        assert (
            fetch(service.base_url, ConnectionSettings(auth="bearer", secret_env="CATALOGUE_SECRET")).status
            == 200
        )


def test_credentials_never_show_their_secret() -> None:
    creds = Credentials("bearer", secret=TOKEN)
    assert TOKEN not in repr(creds) and TOKEN not in creds.describe()
    connection = resolve(
        "https://catalogue.example.com", ConnectionSettings(auth="bearer", secret_env="X_UNSET")
    )
    assert "credentials: a bearer token (not found)" in connection.describe()


@pytest.fixture
def no_keyring() -> Iterator[None]:
    import keyring
    from keyring.backends import fail

    before = keyring.get_keyring()
    keyring.set_keyring(fail.Keyring())
    try:
        yield
    finally:
        keyring.set_keyring(before)


@pytest.mark.usefixtures("no_keyring")
def test_without_a_keyring_it_says_so_and_only_the_variable_is_used(
    server: FaultServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    problem = secrets.keyring_problem()
    assert problem is not None and problem.startswith("no keyring is available on this computer")
    with pytest.raises(secrets.KeyringMissing, match="environment variable"):
        secrets.store("production x", TOKEN)
    error = failure(server.base_url, ConnectionSettings(auth="bearer"), profile="production")
    assert "no keyring is available" in str(error)
    monkeypatch.setenv("CATALOGUE_TOKEN", TOKEN)
    settings = ConnectionSettings(auth="bearer", secret_env="CATALOGUE_TOKEN")
    assert fetch(server.base_url, settings, profile="production").status == 200
