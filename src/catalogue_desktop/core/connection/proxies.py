"""Which proxy a request to the service goes through, and why (said in status texts and reports).

In order: the profile's own choice (a manual proxy URL, or ``none``: always direct); else the
environment (``HTTPS_PROXY`` / ``HTTP_PROXY`` / ``ALL_PROXY``, upper or lower case, with
``NO_PROXY``); else the system's proxy settings: on Windows and macOS what
``urllib.request.getproxies`` reads from the registry or System Settings, on Linux the desktop's
own (GNOME's through ``gsettings``, KDE's ``kioslaverc``: ``desktop_proxies``). A desktop set to a
configuration script (PAC) or auto-detection is named, and the connection is direct unless a proxy
is set in Preferences ▸ Connection or with ``--proxy URL``.
The client is given the choice made here (httpx's own environment lookup is off), so that what
the app says is what it does.
"""

from __future__ import annotations

import ipaddress
import os
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from catalogue_desktop.core.connection.addresses import Address, parse_address, redact
from catalogue_desktop.core.connection.desktop_proxies import desktop_proxy
from catalogue_desktop.core.records.errors import InvalidUrl

DIRECT = "none"  # a profile's proxy setting meaning: never use a proxy
PROXY_SCHEMES = ("http", "https")
_LOOPBACK = "localhost,127.0.0.0/8,::1"  # never sent through a desktop's proxy (GNOME's default too)


@dataclass(frozen=True)
class ProxyChoice:
    """``url``: the proxy used (None: direct), with its user and password when it has them (never
    shown: :attr:`shown`); ``source``: where that came from; ``note``: why there is none when one
    was set (``NO_PROXY covers …``), or what is missing (its password)."""

    url: str | None = field(repr=False)
    source: str
    note: str = ""

    @property
    def shown(self) -> str:
        """The proxy's address, its password as ``***``."""
        return redact(self.url) if self.url else ""

    @property
    def address(self) -> Address | None:
        """The proxy's address read (None: direct)."""
        return parse_address(self.url) if self.url else None

    @property
    def sends_credentials(self) -> bool:
        """Whether a user name and password go to the proxy (``Proxy-Authorization``)."""
        address = self.address
        return address is not None and address.user is not None and address.password is not None

    def describe(self) -> str:
        """``through the proxy http://proxy:3128 (from HTTPS_PROXY)`` or ``direct (…)``."""
        if self.url:
            return f"through the proxy {self.shown} ({self.source})" + (f"; {self.note}" if self.note else "")
        return f"direct ({self.note or self.source})"


def shown_url(url: str) -> str:
    """``url`` with its password as ``***`` (:func:`addresses.redact`)."""
    return redact(url)


def check_proxy_url(url: str) -> str:
    """``url`` if it is a usable proxy address (http(s)://[user[:password]@]host[:port]); else
    InvalidUrl (its text never holding the password)."""
    text = url.strip()
    try:
        address = parse_address(text)
    except InvalidUrl as exc:
        raise InvalidUrl(f"not a usable proxy address: {exc}", url="") from None
    if address.scheme not in PROXY_SCHEMES:
        raise InvalidUrl(f"a proxy is given as http://host:port (or https://), not {redact(text)!r}", url="")
    return text


def choose_proxy(url: str, setting: str = "", environ: Mapping[str, str] | None = None) -> ProxyChoice:
    """The proxy for requests to ``url`` given a profile's ``setting`` ("" system, ``none``, a URL)."""
    setting = setting.strip()
    if setting.lower() == DIRECT:
        return ProxyChoice(None, "no proxy, as set for this catalogue")
    if setting:
        return ProxyChoice(check_proxy_url(setting), "set for this catalogue")
    env = os.environ if environ is None else environ
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    port = parts.port or (443 if scheme == "https" else 80)
    for name in (f"{scheme}_proxy", "all_proxy"):
        for variable in (name.upper(), name):
            value = env.get(variable, "").strip()
            if value:
                if "://" not in value:
                    value = "http://" + value
                bypass = _no_proxy(env)
                if bypass and covers(bypass, host, port):
                    return ProxyChoice(None, "no proxy", f"NO_PROXY covers {host}")
                return ProxyChoice(check_proxy_url(value), f"from {variable}")
    return _system_proxy(scheme, host, port, environ)


def _no_proxy(env: Mapping[str, str]) -> str:
    return env.get("NO_PROXY", "") or env.get("no_proxy", "")


def covers(no_proxy: str, host: str, port: int) -> bool:
    """Whether a ``NO_PROXY`` list covers ``host:port`` (``*``, names and their subdomains with or
    without a leading dot, ``host:port``, IP addresses and networks)."""
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        address = None
    for raw in no_proxy.split(","):
        entry = raw.strip().lower()
        if not entry:
            continue
        if entry == "*":
            return True
        name, _, entry_port = entry.rpartition(":") if entry.count(":") == 1 else (entry, "", "")
        if entry_port and entry_port.isdigit():
            if int(entry_port) != port:
                continue
            entry = name
        if address is not None:
            try:
                if address in ipaddress.ip_network(entry.strip("[]"), strict=False):
                    return True
            except ValueError:
                pass
            continue
        entry = entry.lstrip(".").lstrip("*.")
        if host == entry or host.endswith("." + entry):
            return True
    return False


def _system_proxy(scheme: str, host: str, port: int, environ: Mapping[str, str] | None) -> ProxyChoice:
    """The system's own proxy settings (not the environment: looked at above)."""
    if sys.platform not in ("win32", "darwin"):
        return _desktop_proxy(scheme, host, port, environ)
    import urllib.request

    try:
        if sys.platform == "win32":
            found = urllib.request.getproxies_registry()  # type: ignore[attr-defined]
        else:
            found = urllib.request.getproxies_macosx_sysconf()  # type: ignore[attr-defined,unused-ignore]
    except OSError:
        found = {}
    value = found.get(scheme) or found.get("all")
    if not value:
        return ProxyChoice(None, "no proxy in the system's settings")
    if urllib.request.proxy_bypass(host):
        return ProxyChoice(None, "no proxy", f"the system's proxy settings exempt {host}")
    if "://" not in value:
        value = "http://" + value
    return ProxyChoice(check_proxy_url(value), "from the system's proxy settings")


def _desktop_proxy(scheme: str, host: str, port: int, environ: Mapping[str, str] | None) -> ProxyChoice:
    """A Linux desktop's proxy settings (GNOME, KDE), when the session has any."""
    found = desktop_proxy(scheme, environ)
    if found is None:
        return ProxyChoice(None, "no proxy set in the environment, the desktop or for this catalogue")
    if found.url is None:
        return ProxyChoice(None, "no proxy", found.note)
    if covers(f"{found.exempt},{_LOOPBACK}", host, port):
        return ProxyChoice(None, "no proxy", f"{found.where} exempt {host}")
    try:
        url = check_proxy_url(found.url)
    except InvalidUrl as exc:
        return ProxyChoice(None, "no proxy", f"{found.where}: {exc}")
    return ProxyChoice(url, f"from {found.where}")
