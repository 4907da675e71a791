"""Each proxy failure names the proxy, not the service, with its fix: real CONNECT proxies on
loopback that refuse, hang up, ask for credentials (407), refuse the ones sent, or (inspecting TLS)
answer 502 saying they could not verify the service; and a password holding ``/``, ``#``, ``?``,
``@``, ``:`` and ``%`` read whole, sent whole, and never shown."""

from __future__ import annotations

import asyncio
import base64
import socket
from pathlib import Path

import pytest
import trustme

from catalogue_desktop.core.connection.connection_settings import ConnectionSettings
from catalogue_desktop.core.connection.proxy_failures import FIXES
from catalogue_desktop.core.connection.resolved import Connection, resolve
from catalogue_desktop.core.records.errors import ConnectionLost, FetchError, ProxyFailed
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.service.client import CatalogueClient, FetchResult
from catalogue_desktop.core.sync.runner import cause_of
from tests.connection_servers import ConnectProxy, server_context, tls_server

PASSWORD = "p@ss:w%rd/x#?"


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
def ca_file(ca: trustme.CA, tmp_path: Path) -> str:
    path = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(path))
    return str(path)


def fetch(base_url: str, settings: ConnectionSettings) -> FetchResult:
    async def main() -> FetchResult:
        connection = resolve(base_url, settings)
        async with CatalogueClient(base_url, retries=0, connect_timeout=5, connection=connection) as client:
            return await client.fetch(Kind.ROLES)

    return asyncio.run(main())


def failure(base_url: str, settings: ConnectionSettings) -> FetchError:
    with pytest.raises(FetchError) as info:
        fetch(base_url, settings)
    return info.value


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_proxy_that_refuses_the_connection_is_named_not_the_service(ca: trustme.CA, ca_file: str) -> None:
    port = free_port()  # nothing listens there
    with tls_server(ca) as server:
        error = failure(
            server.base_url, ConnectionSettings(ca_file=ca_file, proxy=f"http://127.0.0.1:{port}")
        )
        service_port = server.port
    assert isinstance(error, ProxyFailed) and cause_of(error) == "proxy-unreachable"
    assert str(error) == (
        f"cannot connect to the proxy http://127.0.0.1:{port}: connection refused; "
        + FIXES["proxy-unreachable"]
    )
    assert str(service_port) not in str(error)  # the service is not blamed


def test_a_proxy_whose_name_is_unknown_is_named(ca: trustme.CA, ca_file: str) -> None:
    with tls_server(ca) as server:
        error = failure(
            server.base_url, ConnectionSettings(ca_file=ca_file, proxy="http://proxy.invalid:3128")
        )
    assert isinstance(error, ProxyFailed) and error.cause == "proxy-unknown"
    assert (
        error.what
        == "the proxy's host name proxy.invalid could not be found (the proxy http://proxy.invalid:3128)"
    )
    assert str(error).endswith(FIXES["proxy-unknown"])


def test_407_without_credentials_asks_for_them_and_with_wrong_ones_says_refused(
    ca: trustme.CA, ca_file: str
) -> None:
    with tls_server(ca) as server, ConnectProxy(login=("bob", PASSWORD)) as proxy:
        port = proxy.url.rsplit(":", 1)[1]
        none = failure(server.base_url, ConnectionSettings(ca_file=ca_file, proxy=proxy.url))
        wrong = failure(
            server.base_url, ConnectionSettings(ca_file=ca_file, proxy=f"http://bob:nope@127.0.0.1:{port}")
        )
        right = fetch(
            server.base_url,
            ConnectionSettings(ca_file=ca_file, proxy=f"http://bob:{PASSWORD}@127.0.0.1:{port}"),
        )
        sent = proxy.auths
    assert isinstance(none, ProxyFailed) and none.cause == "proxy-credentials-wanted"
    assert none.what == f"the proxy {proxy.url} asks for credentials (HTTP 407 Proxy Authentication Required)"
    assert str(none).endswith(FIXES["proxy-credentials-wanted"])
    assert isinstance(wrong, ProxyFailed) and wrong.cause == "proxy-credentials-refused"
    assert wrong.what == (
        f"the proxy http://bob:***@127.0.0.1:{port} refused these credentials "
        "(HTTP 407 Proxy Authentication Required)"
    )
    assert str(wrong).endswith(FIXES["proxy-credentials-refused"])
    assert right.status == 200  # the password with / # ? @ : % went whole
    assert sent[-1] == "Proxy-Authorization: Basic " + base64.b64encode(f"bob:{PASSWORD}".encode()).decode()
    for error in (none, wrong):
        assert "nope" not in str(error) and PASSWORD not in str(error) and "w%rd" not in repr(error)


def test_an_inspecting_proxy_that_could_not_verify_the_service_is_quoted(
    ca: trustme.CA, ca_file: str
) -> None:
    body = (
        b"<html><head><title>502 Bad Gateway</title><style>p{}</style></head><body><h1>Bad Gateway</h1>"
        b"<p>Certificate verify failed: unable to get local issuer certificate\x1b]0;owned\x07 "
        + b"x" * 400
        + b"</p></body></html>"
    )
    with tls_server(ca) as server, ConnectProxy(inspect=(server_context(ca), body)) as proxy:
        error = failure(server.base_url, ConnectionSettings(ca_file=ca_file, proxy=proxy.url))
    assert isinstance(error, ProxyFailed) and error.cause == "proxy-certificate"
    assert error.what.startswith(
        f"the proxy {proxy.url} could not verify the service's certificate: "
        "“Certificate verify failed: unable to get local issuer certificate ]0;owned xxx"
    )
    assert error.what.endswith("…”") and "\x1b" not in error.what and "\x07" not in error.what
    assert len(error.what) < 300 and "the service answered" not in str(error)
    assert str(error).endswith(FIXES["proxy-certificate"])


def test_a_proxy_that_hangs_up_is_named(ca: trustme.CA, ca_file: str) -> None:
    with tls_server(ca) as server, ConnectProxy(hang_up=True) as proxy:
        error = failure(server.base_url, ConnectionSettings(ca_file=ca_file, proxy=proxy.url))
        assert isinstance(error, ConnectionLost)
        assert str(error) == (
            f"the connection to 127.0.0.1:{server.port} through the proxy {proxy.url} "
            "closed without an answer"
        )


def test_a_tunnel_the_proxy_cannot_open_says_so(ca: trustme.CA, ca_file: str) -> None:
    port = free_port()
    with ConnectProxy() as proxy:
        error = failure(f"https://127.0.0.1:{port}", ConnectionSettings(ca_file=ca_file, proxy=proxy.url))
    assert isinstance(error, ProxyFailed) and error.cause == "proxy-tunnel"
    assert error.what == f"the proxy {proxy.url} could not reach 127.0.0.1:{port} (HTTP 502 Bad Gateway)"


def test_a_407_to_plain_http_through_the_proxy_is_the_proxys() -> None:
    with ConnectProxy(login=("bob", PASSWORD)) as proxy:
        error = failure("http://catalogue.example.com", ConnectionSettings(proxy=proxy.url))
    assert isinstance(error, ProxyFailed) and error.cause == "proxy-credentials-wanted"
    assert (
        error.what == f"the proxy {proxy.url} asks for credentials (HTTP 407 Proxy Authentication Required)"
    )


def test_a_catalogues_proxy_user_gets_its_password_from_the_keyring(ca: trustme.CA, ca_file: str) -> None:
    from catalogue_desktop.core.connection import secrets

    with tls_server(ca) as server, ConnectProxy(login=("bob", PASSWORD)) as proxy:
        port = proxy.url.rsplit(":", 1)[1]
        settings = ConnectionSettings(ca_file=ca_file, proxy=f"http://bob@127.0.0.1:{port}")
        before = resolve(server.base_url, settings, profile="work")
        with pytest.raises(ProxyFailed) as missing:
            asyncio.run(_fetch_with(before))
        secrets.store(secrets.proxy_account("work", settings.proxy), PASSWORD)
        after = resolve(server.base_url, settings, profile="work")
        assert asyncio.run(_fetch_with(after)).status == 200
    assert before.proxy.describe() == (
        f"through the proxy http://bob@127.0.0.1:{port} (set for this catalogue); "
        "no password is kept in the keyring for the proxy's user"
    )
    assert missing.value.cause == "proxy-credentials-wanted" and proxy.auths[0] is None
    assert (
        after.proxy.describe()
        == f"through the proxy http://bob:***@127.0.0.1:{port} (set for this catalogue)"
    )
    assert PASSWORD not in repr(after)


async def _fetch_with(connection: Connection) -> FetchResult:
    async with CatalogueClient(connection.base_url, retries=0, connection=connection) as client:
        return await client.fetch(Kind.ROLES)
