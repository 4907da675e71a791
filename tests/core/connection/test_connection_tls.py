"""Certificates as the operating system sees them: a TLS service on loopback with a certificate
from a test CA (trustme), refused by default, accepted with --ca-file or once the CA is in the
system's store, refused in words (issuer, name, expiry; the certificate presented; what to do)."""

from __future__ import annotations

import asyncio
import os
import shutil
import ssl
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import trustme

from catalogue_desktop.core.connection.connection_settings import ConnectionSettings
from catalogue_desktop.core.connection.resolved import resolve
from catalogue_desktop.core.connection.tls import CaFileError, ssl_context
from catalogue_desktop.core.records.errors import CertificateRefused, FetchError
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.service.client import CatalogueClient, FetchResult
from catalogue_desktop.core.sync.runner import cause_of
from tests.connection_servers import tls_server

OS_CA_FOLDER = Path("/usr/local/share/ca-certificates")
ETC_CERTS = Path("/etc/ssl/certs")  # the links and the bundle update-ca-certificates makes


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA(organization_name="Catalogue Test CA")


@pytest.fixture
def ca_file(ca: trustme.CA, tmp_path: Path) -> Path:
    path = tmp_path / "company-ca.pem"
    ca.cert_pem.write_to_path(str(path))
    return path


def fetch(base_url: str, settings: ConnectionSettings | None = None) -> FetchResult:
    async def main() -> FetchResult:
        connection = resolve(base_url, settings)
        async with CatalogueClient(base_url, retries=0, connection=connection) as client:
            return await client.fetch(Kind.TOPICS)

    return asyncio.run(main())


def refusal(base_url: str, settings: ConnectionSettings | None = None) -> FetchError:
    with pytest.raises(FetchError) as info:
        fetch(base_url, settings)
    return info.value


def test_an_unknown_issuer_is_refused_by_default_and_said_in_words(ca: trustme.CA) -> None:
    with tls_server(ca) as server:
        port = server.port
        error = refusal(server.base_url)
    assert isinstance(error, CertificateRefused)
    assert cause_of(error) == "certificate"
    text = str(error)
    assert text.startswith(f"127.0.0.1:{port}: the certificate's issuer is not trusted")
    assert "Catalogue Test CA" in text  # the certificate presented: who issued it
    assert "valid 2000-01-01 to 3000-01-01, for localhost, 127.0.0.1" in text
    assert "checked against the system's certificate store" in text
    assert "--ca-file FILE" in text and "Preferences ▸ Connection" in text
    assert "cannot be turned off" in text


def test_the_extra_ca_file_makes_it_trusted(ca: trustme.CA, ca_file: Path) -> None:
    with tls_server(ca, body=b'[{"topicId": 1}]') as server:
        result = fetch(server.base_url, ConnectionSettings(ca_file=str(ca_file)))
    assert result.status == 200 and result.body == b'[{"topicId": 1}]'


def test_a_name_mismatch_is_named(ca: trustme.CA, ca_file: Path) -> None:
    with tls_server(ca, "catalogue.example.com") as server:
        error = refusal(server.base_url, ConnectionSettings(ca_file=str(ca_file)))
    assert isinstance(error, CertificateRefused)
    assert "the certificate is not for the name 127.0.0.1" in str(error)
    assert "for catalogue.example.com" in str(error)
    assert "and the extra CA file" in str(error)


def test_an_expired_certificate_is_named(ca: trustme.CA, ca_file: Path) -> None:
    with tls_server(ca, expired=True) as server:
        error = refusal(server.base_url, ConnectionSettings(ca_file=str(ca_file)))
    assert "the certificate has expired" in str(error)
    assert "valid 2020-01-01 to 2021-01-01" in str(error)
    assert "must be renewed" in str(error)


def test_a_ca_file_that_is_not_one_is_said(tmp_path: Path) -> None:
    bad = tmp_path / "not-a-ca.pem"
    bad.write_text("hello")
    with pytest.raises(CaFileError, match="cannot be used"):
        ssl_context(bad)
    with pytest.raises(CaFileError, match="does not exist"):
        ssl_context(tmp_path / "missing.pem")


def test_the_default_client_trusts_the_system_store_too(ca: trustme.CA) -> None:
    """Without a connection of its own the client still verifies with truststore, not certifi."""

    async def main() -> None:
        async with CatalogueClient(server.base_url, retries=0) as client:
            await client.fetch(Kind.TOPICS)

    with tls_server(ca) as server, pytest.raises(CertificateRefused):
        asyncio.run(main())


# -- the operating system's own store ------------------------------------------------------------


def _os_store_skip() -> str | None:
    if not sys.platform.startswith("linux"):
        return "installs a CA the Debian way (update-ca-certificates): Linux only"
    if os.geteuid() != 0:
        return "installing a CA in the system's store needs root (runs in CI as root)"
    if shutil.which("update-ca-certificates") is None or not OS_CA_FOLDER.is_dir():
        return f"no update-ca-certificates or {OS_CA_FOLDER} here (not Debian-like)"
    return None


@pytest.fixture
def ca_in_os_store(ca: trustme.CA) -> Iterator[Path]:
    """The test CA installed in the system's store for the test, removed afterwards."""
    reason = _os_store_skip()
    if reason:
        pytest.skip(reason)
    target = OS_CA_FOLDER / f"catalogue-desktop-test-{uuid.uuid4().hex[:8]}.crt"
    ca.cert_pem.write_to_path(str(target))
    try:
        subprocess.run(["update-ca-certificates"], check=True, capture_output=True, timeout=120)
        yield target
    finally:
        target.unlink(missing_ok=True)
        # The bundle made again without it; not ``--fresh``, which links every CA of the system
        # again (3.3 CPU-s against 1.3), so its two links are removed here: its ``.pem`` and the
        # hash link to that (``openssl rehash``), dangling once it is gone.
        subprocess.run(["update-ca-certificates"], check=False, capture_output=True, timeout=120)
        for link in _links_to(target):
            link.unlink()


def _links_to(ca_file: Path) -> list[Path]:
    """The links ``update-ca-certificates`` made in /etc/ssl/certs for ``ca_file``."""
    pem = f"{ca_file.stem}.pem"
    if not ETC_CERTS.is_dir():
        return []
    return [p for p in ETC_CERTS.iterdir() if p.is_symlink() and os.readlink(p) in (str(ca_file), pem)]


def test_a_ca_in_the_system_store_is_trusted_where_certifi_alone_refuses(
    ca: trustme.CA, ca_in_os_store: Path
) -> None:
    import certifi

    with tls_server(ca, body=b'[{"topicId": 2}]') as server:
        assert fetch(server.base_url).body == b'[{"topicId": 2}]'  # the system's store
        with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
            certifi_only = ssl.create_default_context(cafile=certifi.where())
            httpx.get(server.url(Kind.TOPICS.path), verify=certifi_only, trust_env=False)
    bundle = Path("/etc/ssl/certs/ca-certificates.crt").read_text()
    assert ca.cert_pem.bytes().decode().strip().splitlines()[1] in bundle


def test_the_os_store_test_leaves_no_ca_behind() -> None:
    leftovers = list(OS_CA_FOLDER.glob("catalogue-desktop-test-*.crt")) if OS_CA_FOLDER.is_dir() else []
    assert leftovers == []
    links = [p for p in ETC_CERTS.iterdir() if p.is_symlink()] if ETC_CERTS.is_dir() else []
    assert [p.name for p in links if "catalogue-desktop-test-" in os.readlink(p)] == []
    assert [p.name for p in links if p.name.startswith("catalogue-desktop-test-")] == []


def test_the_certificate_reads_the_same_without_cryptography(
    ca: trustme.CA, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bundle leaves cryptography out (packaging/catalogue-desktop.spec): Python's own decoder
    then names the presented certificate."""
    from catalogue_desktop.core.connection.tls import decode_der

    leaf = ca.issue_cert("catalogue.example.com", "127.0.0.1")
    der = ssl.PEM_cert_to_DER_cert(leaf.cert_chain_pems[0].bytes().decode())
    with_cryptography = decode_der(der)
    monkeypatch.setitem(sys.modules, "cryptography", None)
    plain = decode_der(der)
    assert plain.not_before == with_cryptography.not_before
    assert plain.not_after == with_cryptography.not_after
    assert plain.names == ("catalogue.example.com", "127.0.0.1") == with_cryptography.names
    assert "trustme" in plain.subject and "Testing CA" in plain.issuer
