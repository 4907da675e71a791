"""Proxies: requests go through a real CONNECT proxy on loopback when one is configured (by the
catalogue or HTTPS_PROXY), and straight to the service when NO_PROXY covers its host."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import trustme

from catalogue_desktop.core.connection.connection_settings import ConnectionSettings
from catalogue_desktop.core.connection.proxies import choose_proxy, covers, shown_url
from catalogue_desktop.core.connection.resolved import resolve
from catalogue_desktop.core.records.errors import CertificateRefused, FetchError, InvalidUrl
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.service.client import CatalogueClient, FetchResult
from tests.connection_servers import ConnectProxy, tls_server


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
        async with CatalogueClient(base_url, retries=0, connection=resolve(base_url, settings)) as client:
            return await client.fetch(Kind.ROLES)

    return asyncio.run(main())


def test_a_catalogues_own_proxy_carries_the_requests(ca: trustme.CA, ca_file: str) -> None:
    with tls_server(ca, body=b"[]") as server, ConnectProxy() as proxy:
        settings = ConnectionSettings(ca_file=ca_file, proxy=proxy.url)
        assert fetch(server.base_url, settings).status == 200
        assert proxy.tunnels == [f"127.0.0.1:{server.port}"]
        assert (
            resolve(server.base_url, settings)
            .describe()
            .startswith(f"through the proxy {proxy.url} (set for this catalogue)")
        )


def test_https_proxy_from_the_environment_is_used_and_named(
    ca: trustme.CA, ca_file: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with tls_server(ca) as server, ConnectProxy() as proxy:
        monkeypatch.setenv("HTTPS_PROXY", proxy.url)
        monkeypatch.delenv("NO_PROXY", raising=False)
        monkeypatch.delenv("no_proxy", raising=False)
        assert fetch(server.base_url, ConnectionSettings(ca_file=ca_file)).status == 200
        assert proxy.tunnels == [f"127.0.0.1:{server.port}"]
        assert choose_proxy(server.base_url).describe() == f"through the proxy {proxy.url} (from HTTPS_PROXY)"


def test_no_proxy_covering_the_host_goes_direct(
    ca: trustme.CA, ca_file: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with tls_server(ca) as server, ConnectProxy() as proxy:
        monkeypatch.setenv("HTTPS_PROXY", proxy.url)
        monkeypatch.setenv("NO_PROXY", "example.org, 127.0.0.1")
        assert fetch(server.base_url, ConnectionSettings(ca_file=ca_file)).status == 200
        assert proxy.tunnels == []
        assert choose_proxy(server.base_url).describe() == "direct (NO_PROXY covers 127.0.0.1)"


def test_none_means_direct_whatever_the_environment_says(
    ca: trustme.CA, ca_file: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with tls_server(ca) as server, ConnectProxy() as proxy:
        monkeypatch.setenv("HTTPS_PROXY", proxy.url)
        assert fetch(server.base_url, ConnectionSettings(ca_file=ca_file, proxy="none")).status == 200
        assert proxy.tunnels == []


def test_a_refusal_through_the_proxy_still_names_the_certificate(ca: trustme.CA) -> None:
    with tls_server(ca) as server, ConnectProxy() as proxy:
        with pytest.raises(CertificateRefused) as info:
            fetch(server.base_url, ConnectionSettings(proxy=proxy.url))
        assert "issued by" in str(info.value) and "not trusted" in str(info.value)
        assert len(proxy.tunnels) == 2  # the refused handshake, then the look at the certificate


def test_a_proxy_url_with_a_password_is_never_shown_with_it() -> None:
    choice = choose_proxy("https://catalogue.example.com", "http://me:hunter2@proxy.corp:3128")
    assert choice.url == "http://me:hunter2@proxy.corp:3128"  # (what httpx is given)
    assert "hunter2" not in choice.describe() and choice.shown == "http://me:***@proxy.corp:3128"
    assert "hunter2" not in repr(choice)
    assert shown_url("http://[::1]:8080") == "http://[::1]:8080"


def test_a_bad_proxy_address_is_refused_in_words() -> None:
    with pytest.raises(InvalidUrl, match="a proxy is given as http://host:port"):
        choose_proxy("https://catalogue.example.com", "socks5://proxy:1080")
    with pytest.raises(FetchError):
        choose_proxy("https://catalogue.example.com", "http://proxy:eighty")


@pytest.mark.parametrize(
    ("no_proxy", "host", "port", "expected"),
    [
        ("*", "catalogue.example.com", 443, True),
        ("example.com", "catalogue.example.com", 443, True),
        (".example.com", "catalogue.example.com", 443, True),
        ("*.example.com", "catalogue.example.com", 443, True),
        ("example.com", "badexample.com", 443, False),
        ("catalogue.example.com:8443", "catalogue.example.com", 443, False),
        ("catalogue.example.com:443", "catalogue.example.com", 443, True),
        ("10.0.0.0/8", "10.1.2.3", 443, True),
        ("10.0.0.0/8", "192.168.1.1", 443, False),
        ("127.0.0.1", "127.0.0.1", 8443, True),
        ("", "catalogue.example.com", 443, False),
    ],
)
def test_no_proxy_lists(no_proxy: str, host: str, port: int, expected: bool) -> None:
    assert covers(no_proxy, host, port) is expected
