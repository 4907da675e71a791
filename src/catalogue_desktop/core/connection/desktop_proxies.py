"""The proxy a Linux desktop is set to use: GNOME's (and its relatives': Cinnamon, Unity, Budgie,
Pantheon read the same keys) through ``gsettings``, KDE Plasma's from ``kioslaverc``.

Linux has no one place for a proxy: GNOME keeps it in dconf (``org.gnome.system.proxy``), KDE in
``~/.config/kioslaverc`` ("[Proxy Settings]"), and each exports it to the environment only for
programs it starts itself, not always. ``DesktopProxy`` is what such a setting says for one
request: a manual proxy's URL, a host it exempts, or a mode this app cannot follow (a PAC script,
auto-detection), said in words so that the status line and ``doctor`` name it. Read at most once
per ``_FRESH_S`` seconds per process (a ``gsettings`` call costs a few milliseconds: the window
resolves its connection before each refresh). Qt-free.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from catalogue_desktop.core.connection.addresses import parse_address
from catalogue_desktop.core.records.errors import InvalidUrl

_FRESH_S = 30.0
_GNOME_LIKE = ("gnome", "unity", "cinnamon", "budgie", "pantheon", "x-cinnamon")
_KDE_TYPES = {"0": "none", "1": "manual", "2": "pac", "3": "auto", "4": "environment"}

Run = Callable[[list[str]], str | None]  # a command's output, None when it failed


@dataclass(frozen=True)
class DesktopProxy:
    """``url``: the proxy (None: none); ``where``: whose settings ("GNOME's proxy settings");
    ``exempt``: the hosts it is not used for (``NO_PROXY``'s syntax); ``note``: why none is used."""

    url: str | None
    where: str
    exempt: str = ""
    note: str = ""


def desktop_proxy(
    scheme: str, environ: Mapping[str, str] | None = None, run: Run | None = None
) -> DesktopProxy | None:
    """What the desktop session's proxy settings say for ``scheme`` (http or https); None when
    no desktop setting applies (not GNOME- or KDE-like, nothing set, no tool to read it)."""
    env = os.environ if environ is None else environ
    desktop = env.get("XDG_CURRENT_DESKTOP", "").lower()
    names = [part for part in desktop.replace(";", ":").split(":") if part]
    key = (scheme, desktop, env.get("XDG_CONFIG_HOME", ""), env.get("HOME", ""), env.get("PATH", ""))
    if run is None and environ is None:
        cached = _remembered.get(key)
        if cached is not None and time.monotonic() - cached[0] < _FRESH_S:
            return cached[1]
    if "kde" in names:
        found = kde_proxy(scheme, _config_home(env))
    elif any(name in _GNOME_LIKE for name in names):
        found = gnome_proxy(scheme, run or _run)
    else:
        found = None
    if run is None and environ is None:
        _remembered[key] = (time.monotonic(), found)
    return found


_remembered: dict[tuple[str, ...], tuple[float, DesktopProxy | None]] = {}


def gnome_proxy(scheme: str, run: Run) -> DesktopProxy | None:
    """``org.gnome.system.proxy``: mode none / manual / auto; in manual mode the scheme's host and
    port (an https request falls back on the http proxy when no https one is set, as GNOME's own
    programs do), and ``ignore-hosts``."""
    where = "GNOME's proxy settings"
    mode = _gvalue(run(["gsettings", "get", "org.gnome.system.proxy", "mode"]))
    if mode is None or mode == "none":
        return None
    if mode == "auto":
        return DesktopProxy(None, where, note=_AUTOMATIC.format(where=where))
    for schema in dict.fromkeys((scheme, "http")):
        host = _gvalue(run(["gsettings", "get", f"org.gnome.system.proxy.{schema}", "host"]))
        port = _gvalue(run(["gsettings", "get", f"org.gnome.system.proxy.{schema}", "port"]))
        if host:
            ignore = run(["gsettings", "get", "org.gnome.system.proxy", "ignore-hosts"]) or ""
            url = _with_port(host, port)
            http_host = host if schema == "http" else _gvalue(run([*_HTTP_KEY, "host"]))
            if host == http_host:  # GNOME keeps one user and password: the http proxy's
                url = _with_login(url, run)
            return DesktopProxy(url, where, ",".join(_glist(ignore)))
    return None


_HTTP_KEY = ["gsettings", "get", "org.gnome.system.proxy.http"]


def _with_login(url: str, run: Run) -> str:
    """``url`` with the user and password of ``org.gnome.system.proxy.http`` when
    ``use-authentication`` is on (percent-encoded into the address; shown redacted)."""
    if _gvalue(run([*_HTTP_KEY, "use-authentication"])) != "true":
        return url
    user = _gvalue(run([*_HTTP_KEY, "authentication-user"]))
    if not user:
        return url
    password = _gvalue(run([*_HTTP_KEY, "authentication-password"])) or ""
    try:
        return parse_address(url).with_user(user, password)
    except InvalidUrl:
        return url


def kde_proxy(scheme: str, config_home: Path) -> DesktopProxy | None:
    """``kioslaverc``'s "[Proxy Settings]": ProxyType 0 none, 1 manual (``httpsProxy`` /
    ``httpProxy``, ``NoProxyFor``), 2 a PAC script, 3 auto-detection, 4 the environment (read
    before this)."""
    import configparser  # (imported when a KDE session asks: not on the window's start-up path)

    where = "KDE's proxy settings"
    parser = configparser.RawConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # type: ignore[assignment,method-assign]
    try:
        parser.read(config_home / "kioslaverc", encoding="utf-8")
    except (configparser.Error, UnicodeDecodeError):
        return None
    if not parser.has_section("Proxy Settings"):
        return None
    section = parser["Proxy Settings"]
    kind = _KDE_TYPES.get(section.get("ProxyType", "0").strip(), "none")
    if kind in ("pac", "auto"):
        return DesktopProxy(None, where, note=_AUTOMATIC.format(where=where))
    if kind != "manual":
        return None
    if section.get("ReversedException", "false").strip().lower() == "true":
        note = f"{where} use the proxy only for the hosts listed, which this app cannot follow"
        return DesktopProxy(None, where, note=note)
    for name in dict.fromkeys((f"{scheme}Proxy", "httpProxy")):
        value = section.get(name, "").strip()
        if value:  # "http://proxy 8080", "http://user:pw@proxy 8080", or "http://proxy:8080"
            address, _, port = value.rpartition(" ")
            if not port.isdigit():
                address, port = value, ""
            return DesktopProxy(_with_port(address.strip(), port), where, section.get("NoProxyFor", ""))
    return None


_AUTOMATIC = (
    "{where} use a configuration script or automatic detection, which this app does not read: "
    "set the proxy in Preferences ▸ Connection or with --proxy"
)


def _with_port(host: str, port: str | None) -> str:
    """``host`` (an address, maybe with user info) with ``port`` unless it has one."""
    url = host if "://" in host else "http://" + host
    bare = url.split("://", 1)[1].rstrip("/")
    at_host = bare.rsplit("@", 1)[-1]  # (a password may hold ':')
    if port and port != "0" and not at_host.rsplit("]", 1)[-1].count(":"):
        url = f"{url.rstrip('/')}:{port}"
    return url


def _gvalue(text: str | None) -> str | None:
    """A ``gsettings get`` output as text: ``'manual'`` -> manual, ``8080`` -> 8080,
    ``'it\\'s'`` -> it's (GVariant's quoting undone)."""
    if text is None:
        return None
    value = text.strip()
    if value.startswith("uint32 "):
        value = value[len("uint32 ") :]
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        return re.sub(r"\\(.)", r"\1", value[1:-1])
    return value


def _glist(text: str) -> list[str]:
    """``['localhost', '127.0.0.0/8']`` -> its items."""
    inner = text.strip()
    if inner.startswith("@as "):
        inner = inner[len("@as ") :]
    inner = inner.strip("[]")
    return [item.strip().strip("'\"") for item in inner.split(",") if item.strip().strip("'\"")]


def _config_home(env: Mapping[str, str]) -> Path:
    configured = env.get("XDG_CONFIG_HOME", "")
    if configured:
        return Path(configured)
    return Path(env.get("HOME", str(Path.home()))) / ".config"


def _run(command: list[str]) -> str | None:
    import shutil
    import subprocess

    if shutil.which(command[0]) is None:
        return None
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=2, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None
