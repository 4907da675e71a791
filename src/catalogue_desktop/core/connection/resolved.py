"""One catalogue's connection made concrete for its base URL: what ``core.service.client`` is given.

:func:`resolve` picks the proxy (``proxies``), finds the secret (environment variable first, then
the keyring: ``secrets``) and keeps the extra CA file for the TLS context (``tls``).
"""

from __future__ import annotations

import ssl
from dataclasses import dataclass, field

from catalogue_desktop.core.connection import secrets
from catalogue_desktop.core.connection.credentials import Credentials, origin
from catalogue_desktop.core.connection.proxies import ProxyChoice, choose_proxy
from catalogue_desktop.core.connection.settings import ConnectionSettings
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
    """The connection to ``base_url`` under ``settings`` (the secret looked up for ``profile``)."""
    settings = settings or ConnectionSettings()
    proxy = choose_proxy(base_url, settings.proxy)
    kind = settings.auth
    if kind == "header" and not settings.header.strip():
        return Connection(base_url, settings.ca_file, proxy, Credentials(), "no header name is set")
    if kind == "none":
        return Connection(base_url, settings.ca_file, proxy, Credentials())
    secret, note = find_secret(settings, profile, origin(base_url))
    credentials = Credentials(kind, settings.username, settings.header.strip(), secret or "")
    return Connection(base_url, settings.ca_file, proxy, credentials, note)


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
            value = secrets.load(secrets.account(profile, where))
            if value:
                return value, "from the keyring"
            missing = "; ".join(filter(None, [missing, "none is kept in the keyring for this catalogue"]))
        else:
            short = (
                "no keyring is available on this computer: only an environment variable can hold the secret"
            )
            missing = "; ".join(filter(None, [missing, short]))
    return None, missing or "no secret was given"
