"""One catalogue's connection made concrete for its base URL: what ``core.service.client`` is given.

:func:`resolve` picks the proxy (``proxies``), finds the secret (environment variable first, then
the keyring: ``secrets``) and keeps the extra CA file for the TLS context (``tls``).
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass, field, replace

from catalogue_desktop.core.connection import secrets
from catalogue_desktop.core.connection.addresses import without_user
from catalogue_desktop.core.connection.connection_settings import ConnectionSettings
from catalogue_desktop.core.connection.credentials import Credentials, origin
from catalogue_desktop.core.connection.proxies import ProxyChoice, choose_proxy
from catalogue_desktop.core.connection.tls import ssl_context, trust_text


@dataclass(frozen=True)
class Connection:
    """How requests to ``base_url`` go: the proxy, the trust, the credentials (and where their
    secret came from, or why none was found: ``secret_note``)."""

    base_url: str
    ca_file: str = ""
    proxy: ProxyChoice = field(default_factory=lambda: ProxyChoice(None, "direct"))
    credentials: Credentials = field(default_factory=Credentials)
    secret_note: str = ""

    @property
    def origin(self) -> str:
        return origin(self.base_url)

    def ssl_context(self) -> ssl.SSLContext:
        return ssl_context(self.ca_file or None)

    def trust(self) -> str:
        return trust_text(self.ca_file or None)

    def describe(self) -> str:
        """One line for status texts and reports (no secret in it)."""
        text = f"{self.proxy.describe()}; certificates checked against {self.trust()}"
        text += f"; credentials: {self.credentials.describe()}"
        return text + (f" ({self.secret_note})" if self.secret_note else "")


def resolve(base_url: str, settings: ConnectionSettings | None = None, *, profile: str = "") -> Connection:
    """The connection to ``base_url`` under ``settings`` (the secret looked up for ``profile``).
    A user and password in ``base_url`` are its basic credentials (when no others are set), and
    the connection's ``base_url`` is without them; a proxy set for the catalogue with a user and
    no password gets its password from the keyring."""
    settings = settings or ConnectionSettings()
    base_url, user, password = without_user(base_url)
    proxy = _with_proxy_password(choose_proxy(base_url, settings.proxy), profile)
    if user is not None and password is not None and settings.auth == "none":
        note = "from the service's address"
        return Connection(base_url, settings.ca_file, proxy, Credentials("basic", user, "", password), note)
    kind = settings.auth
    if kind == "header" and not settings.header.strip():
        return Connection(base_url, settings.ca_file, proxy, Credentials(), "no header name is set")
    if kind == "none":
        return Connection(base_url, settings.ca_file, proxy, Credentials())
    secret, note = find_secret(settings, profile, origin(base_url))
    credentials = Credentials(kind, settings.username, settings.header.strip(), secret or "")
    return Connection(base_url, settings.ca_file, proxy, credentials, note)


def _with_proxy_password(proxy: ProxyChoice, profile: str) -> ProxyChoice:
    """``proxy`` with the password kept for its user (the catalogue's own proxy setting)."""
    address = proxy.address if proxy.url and "@" in proxy.url else None
    if address is None or address.user is None or address.password is not None or not profile:
        return proxy
    try:
        value = secrets.load(secrets.proxy_account(profile, proxy.url or ""))
    except secrets.KeyringLocked as exc:
        return replace(proxy, note=f"no password sent to the proxy: {exc}")
    if value is None:
        note = "no password is kept in the keyring for the proxy's user"
        return replace(proxy, note=note)
    return replace(proxy, url=address.with_user(address.user, value))


def find_secret(settings: ConnectionSettings, profile: str, where: str) -> tuple[str | None, str]:
    """(the secret, where it came from or why there is none)."""
    if settings.secret_env:
        value = secrets.from_environment(settings.secret_env)
        if value:
            return value, f"from the environment variable {settings.secret_env}"
        missing = f"the environment variable {settings.secret_env} is not set"
        if not profile:
            return None, missing
    else:
        missing = ""
    if profile:
        problem = secrets.keyring_problem()
        if problem is None:
            try:
                value = secrets.load(secrets.account(profile, where))
            except secrets.KeyringLocked as exc:
                return None, "; ".join(filter(None, [missing, str(exc)]))
            if value:
                return value, "from the keyring"
            missing = "; ".join(filter(None, [missing, "none is kept in the keyring for this catalogue"]))
        else:
            short = (
                "no keyring is available on this computer: only an environment variable can hold the secret"
            )
            missing = "; ".join(filter(None, [missing, short]))
    return None, missing or "no secret was given"
