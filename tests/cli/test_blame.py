"""``sync`` and ``check`` name the party that failed, once: a proxy that refuses is the proxy (not
the service), with its fix; a refused certificate's explanation (600 characters) is said once per
sync, not once per collection. Real servers and proxies on loopback."""

from __future__ import annotations

from pathlib import Path

import pytest
import trustme

from catalogue_desktop import cli
from catalogue_desktop.core.connection.proxy_failures import FIXES
from tests.connection_servers import tls_server
from tests.faultserver import refused_port


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA(organization_name="Blame Test CA")


def test_sync_through_a_proxy_that_refuses_names_the_proxy_once(
    capsys: pytest.CaptureFixture[str], ca: trustme.CA, tmp_path: Path
) -> None:
    proxy = f"http://bob:s3/cr#t@127.0.0.1:{refused_port()}"
    with tls_server(ca) as server:
        code = cli.main(
            [
                "sync",
                "--base-url",
                server.base_url,
                "--proxy",
                proxy,
                "--cache-dir",
                str(tmp_path),
                "--timeout",
                "5",
            ]
        )
        service = f"127.0.0.1:{server.port}"
    out, err = capsys.readouterr()
    shown = proxy.replace("s3/cr#t", "***")
    said = f"cannot connect to the proxy {shown}: connection refused; {FIXES['proxy-unreachable']}"
    assert code == 1
    assert out.count(said) == 1 and out.count("the same failure as webinars") == 7, out
    assert f"cannot connect to {service}" not in out and "s3/cr" not in out + err


def test_a_refused_certificate_is_explained_once_per_sync(
    capsys: pytest.CaptureFixture[str], ca: trustme.CA, tmp_path: Path
) -> None:
    with tls_server(ca) as server:
        code = cli.main(
            ["sync", "--base-url", server.base_url, "--cache-dir", str(tmp_path), "--timeout", "5"]
        )
        checked = cli.main(["check", "--base-url", server.base_url, "--timeout", "5"])
    out = capsys.readouterr().out
    assert code == 1 and checked == 1
    assert out.count("the certificate's issuer is not trusted") == 2, out  # once by sync, once by check
    assert out.count("the same failure as") == 14
