# ruff: noqa: F811  (pytest fixtures imported from the proxy tests, then asked for by name)
"""A Linux desktop's proxy settings: GNOME's read through a real ``gsettings`` program (a stand-in
on PATH answering as GNOME's does), KDE's from a real ``kioslaverc``; requests go through the
proxy they name (a CONNECT proxy on loopback), and the choice is said in words."""

from __future__ import annotations

import stat
import sys
from pathlib import Path

import pytest
import trustme

from catalogue_desktop.core.connection.connection_settings import ConnectionSettings
from catalogue_desktop.core.connection.desktop_proxies import desktop_proxy
from catalogue_desktop.core.connection.proxies import choose_proxy
from tests.connection_servers import ConnectProxy, tls_server
from tests.core.connection.test_connection_proxy import ca, ca_file, fetch  # noqa: F401  (fixtures)

INTERNAL = "catalogue.corp.test"  # a name only the proxy resolves: a request that arrives went through it
pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="Linux desktops' settings")


@pytest.fixture
def desktop(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """A session with no proxy in its environment, a fresh config folder and a bin folder first
    on PATH (for the ``gsettings`` stand-in)."""
    for name in ("HTTPS_PROXY", "HTTP_PROXY", "ALL_PROXY", "NO_PROXY"):
        monkeypatch.delenv(name, raising=False)
        monkeypatch.delenv(name.lower(), raising=False)
    (tmp_path / "bin").mkdir()
    (tmp_path / "config").mkdir()
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}:/usr/bin:/bin")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    return tmp_path


def gnome(folder: Path, monkeypatch: pytest.MonkeyPatch, keys: dict[str, str]) -> None:
    """GNOME's session, its proxy keys answered by ``gsettings get SCHEMA KEY`` ("mode",
    "ignore-hosts"; "https host": the key ``host`` of ``org.gnome.system.proxy.https``)."""
    monkeypatch.setenv("XDG_CURRENT_DESKTOP", "ubuntu:GNOME")
    lines = []
    for key, value in keys.items():
        schema, _, name = key.rpartition(" ")
        pattern = f"org.gnome.system.proxy{'.' + schema if schema else ''} {name}"
        lines.append(f'  "{pattern}") cat <<"END"\n{value}\nEND\n  ;;')  # (printed as written)
    script = folder / "bin" / "gsettings"
    cases = "\n".join(lines)
    script.write_text(f'#!/bin/sh\ncase "$2 $3" in\n{cases}\n  *) exit 1 ;;\nesac\n')
    script.chmod(script.stat().st_mode | stat.S_IEXEC)


def kde(folder: Path, monkeypatch: pytest.MonkeyPatch, settings: str) -> None:
    monkeypatch.setenv("XDG_CURRENT_DESKTOP", "KDE")
    (folder / "config" / "kioslaverc").write_text(f"[Proxy Settings]\n{settings}\n", encoding="utf-8")


def test_gnomes_manual_proxy_carries_the_requests(
    desktop: Path, monkeypatch: pytest.MonkeyPatch, ca: trustme.CA, ca_file: str
) -> None:
    with tls_server(ca, INTERNAL, body=b"[]") as server, ConnectProxy(names={INTERNAL: "127.0.0.1"}) as proxy:
        port = proxy.url.rsplit(":", 1)[1]
        url = f"https://{INTERNAL}:{server.port}"
        gnome(
            desktop,
            monkeypatch,
            {
                "mode": "'manual'",
                "https host": "'127.0.0.1'",
                "https port": port,
                "ignore-hosts": "['::1']",
            },
        )
        assert fetch(url, ConnectionSettings(ca_file=ca_file)).status == 200
        assert proxy.tunnels == [f"{INTERNAL}:{server.port}"]
        said = choose_proxy(url).describe()
        assert said == f"through the proxy http://127.0.0.1:{port} (from GNOME's proxy settings)"


def test_kdes_manual_proxy_carries_the_requests(
    desktop: Path, monkeypatch: pytest.MonkeyPatch, ca: trustme.CA, ca_file: str
) -> None:
    with tls_server(ca, INTERNAL, body=b"[]") as server, ConnectProxy(names={INTERNAL: "127.0.0.1"}) as proxy:
        host, port = proxy.url.rsplit(":", 1)
        url = f"https://{INTERNAL}:{server.port}"
        kde(desktop, monkeypatch, f"ProxyType=1\nhttpsProxy={host} {port}\nNoProxyFor=localhost")
        assert fetch(url, ConnectionSettings(ca_file=ca_file)).status == 200
        assert proxy.tunnels == [f"{INTERNAL}:{server.port}"]
        assert choose_proxy(url).describe().endswith("(from KDE's proxy settings)")


LOGIN = ("corp\\bob", "it's a/p@ss#?")  # gsettings prints them as GVariant text: quoted, \\ escaped


def test_gnomes_authenticated_proxy_sends_its_user_and_password(
    desktop: Path, monkeypatch: pytest.MonkeyPatch, ca: trustme.CA, ca_file: str
) -> None:
    with (
        tls_server(ca, INTERNAL, body=b"[]") as server,
        ConnectProxy(names={INTERNAL: "127.0.0.1"}, login=LOGIN) as proxy,
    ):
        port = proxy.url.rsplit(":", 1)[1]
        url = f"https://{INTERNAL}:{server.port}"
        gnome(
            desktop,
            monkeypatch,
            {
                "mode": "'manual'",
                "https host": "'127.0.0.1'",
                "https port": port,
                "http host": "'127.0.0.1'",
                "http port": port,
                "http use-authentication": "true",
                "http authentication-user": "'corp\\\\bob'",
                "http authentication-password": '"it\'s a/p@ss#?"',
            },
        )
        assert fetch(url, ConnectionSettings(ca_file=ca_file)).status == 200
        assert proxy.tunnels == [f"{INTERNAL}:{server.port}"]
        said = choose_proxy(url).describe()
    assert said == f"through the proxy http://corp%5Cbob:***@127.0.0.1:{port} (from GNOME's proxy settings)"
    assert "p@ss" not in said


def test_kdes_proxy_with_a_user_and_a_port_after_a_space_keeps_both(
    desktop: Path, monkeypatch: pytest.MonkeyPatch, ca: trustme.CA, ca_file: str
) -> None:
    with (
        tls_server(ca, INTERNAL, body=b"[]") as server,
        ConnectProxy(names={INTERNAL: "127.0.0.1"}, login=("bob", "pw:x")) as proxy,
    ):
        port = proxy.url.rsplit(":", 1)[1]
        url = f"https://{INTERNAL}:{server.port}"
        kde(desktop, monkeypatch, f"ProxyType=1\nhttpsProxy=http://bob:pw:x@127.0.0.1 {port}")
        assert fetch(url, ConnectionSettings(ca_file=ca_file)).status == 200
        assert proxy.tunnels == [f"{INTERNAL}:{server.port}"]
        said = choose_proxy(url).describe()
    assert said == f"through the proxy http://bob:***@127.0.0.1:{port} (from KDE's proxy settings)"


def test_hosts_the_desktop_exempts_go_direct(desktop: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gnome(
        desktop,
        monkeypatch,
        {
            "mode": "'manual'",
            "http host": "'proxy.example.com'",
            "http port": "3128",
            "ignore-hosts": "['localhost', '127.0.0.0/8', '*.corp.example']",
        },
    )
    assert choose_proxy("https://127.0.0.1:8443").describe() == (
        "direct (GNOME's proxy settings exempt 127.0.0.1)"
    )
    assert choose_proxy("https://catalogue.corp.example").url is None
    assert choose_proxy("http://localhost:8000").url is None  # loopback: always direct
    # No https proxy set: GNOME's programs use the http one for https too, and so does this app.
    assert choose_proxy("https://catalogue.example.org").url == "http://proxy.example.com:3128"


@pytest.mark.parametrize(
    ("setup", "says"),
    [
        ("gnome-auto", "GNOME's proxy settings use a configuration script or automatic detection"),
        ("kde-pac", "KDE's proxy settings use a configuration script or automatic detection"),
        ("kde-garbage", "KDE's proxy settings: a proxy is given as http://host:port"),
    ],
)
def test_what_the_app_cannot_follow_is_said(
    desktop: Path, monkeypatch: pytest.MonkeyPatch, setup: str, says: str
) -> None:
    if setup == "gnome-auto":
        gnome(desktop, monkeypatch, {"mode": "'auto'", "autoconfig-url": "'http://wpad/wpad.dat'"})
    elif setup == "kde-pac":
        kde(desktop, monkeypatch, "ProxyType=2\nProxy Config Script=http://wpad/wpad.dat")
    else:
        kde(desktop, monkeypatch, "ProxyType=1\nhttpsProxy=socks5://proxy 1080")
    choice = choose_proxy("https://catalogue.example.org")
    assert choice.url is None and choice.describe().startswith(f"direct ({says}"), choice.describe()


def test_no_desktop_setting_means_direct(desktop: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gnome(desktop, monkeypatch, {"mode": "'none'", "https host": "'proxy'", "https port": "3128"})
    assert choose_proxy("https://catalogue.example.org").url is None
    monkeypatch.setenv("XDG_CURRENT_DESKTOP", "XFCE")
    assert desktop_proxy("https") is None
    kde(desktop, monkeypatch, "ProxyType=0\nhttpsProxy=http://proxy 3128")
    assert desktop_proxy("https") is None
    (desktop / "config" / "kioslaverc").write_bytes(b"\xff\xfe[Proxy")  # not a settings file
    assert (
        desktop_proxy("https", environ={"XDG_CURRENT_DESKTOP": "KDE", "XDG_CONFIG_HOME": str(desktop)})
        is None
    )


def test_the_environment_still_comes_first(desktop: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    gnome(desktop, monkeypatch, {"mode": "'manual'", "https host": "'desktop-proxy'", "https port": "3128"})
    monkeypatch.setenv("HTTPS_PROXY", "http://env-proxy:8080")
    assert choose_proxy("https://catalogue.example.org").describe() == (
        "through the proxy http://env-proxy:8080 (from HTTPS_PROXY)"
    )
