"""What a proxy did when it, not the service, failed: in words that name it, each with its fix.

One place for the words ``sync``, ``check``, the window's status and the doctor use:
the proxy refused the connection or could not be reached, its name is unknown, it asks for
credentials (407, none sent), it refused the credentials sent (407 to them), it refused the
tunnel, or (a TLS-inspecting proxy) it could not verify the service's certificate, its reason
quoted from its answer. Qt-free.
"""

from __future__ import annotations

import html
import re

from catalogue_desktop.core.records.errors import ProxyCause

# a failure's ``cause`` (``core.sync.runner``) -> the fix said with it
FIXES: dict[ProxyCause, str] = {
    "proxy-unreachable": "check the proxy's address and port in Preferences ▸ Connection (or --proxy, "
    "HTTPS_PROXY), and that the proxy runs; or ask IT which proxy to use",
    "proxy-unknown": "check the proxy's host name in Preferences ▸ Connection (or --proxy, HTTPS_PROXY); "
    "inside a company network, connect the VPN first",
    "proxy-credentials-wanted": "give the proxy's user and password: in Preferences ▸ Connection as "
    "http://user:password@proxy:port (the password is kept in the system's keyring), or in the "
    "environment variable HTTPS_PROXY",
    "proxy-credentials-refused": "check the proxy's user name and password (Preferences ▸ Connection, or "
    "HTTPS_PROXY); your company password may have changed",
    "proxy-tunnel": "check the service's address and port (the service may be down); if they are "
    "right, the proxy does not let this connection through: ask IT to allow the service's address",
    "proxy-certificate": "the proxy inspects TLS and does not trust the service's certificate: tell IT "
    "(who run the proxy) the service's address, or ask the service's operators to fix their "
    "certificate; the app cannot turn the proxy's check off",
}
REASON_LIMIT = 200  # characters of a proxy's own reason quoted
_CERTIFICATE_WORDS = re.compile(
    r"certificate|cert(ificate)?[ _-]?verif|ssl|tls|x509|unknown ca|self[ -]signed|issuer", re.IGNORECASE
)
_VERIFY_WORDS = re.compile(
    r"verif|trust|issuer|expired|unknown ca|self[ -]signed|invalid|untrusted", re.IGNORECASE
)


def _the(proxy: str) -> str:
    return f"the proxy {proxy}" if proxy else "the proxy"


def unreachable(proxy: str, reason: str) -> str:
    """``cannot connect to the proxy http://proxy:3128: connection refused`` (``proxy`` shown)."""
    return f"cannot connect to {_the(proxy)}: {reason}"


def unknown_name(proxy: str, host: str) -> str:
    return f"the proxy's host name {host} could not be found ({_the(proxy)})"


def credentials(proxy: str, sent: bool) -> str:
    """407: asked for (none sent), or the ones sent refused."""
    if sent:
        return f"{_the(proxy)} refused these credentials (HTTP 407 Proxy Authentication Required)"
    return f"{_the(proxy)} asks for credentials (HTTP 407 Proxy Authentication Required)"


def tunnel(proxy: str, target: str, status: str) -> str:
    """A CONNECT answered with ``status`` (``502 Bad Gateway``): could not reach, or refused."""
    if status[:3] in ("502", "503", "504"):
        return f"{_the(proxy)} could not reach {target} (HTTP {status})"
    return f"{_the(proxy)} refused a tunnel to {target} (HTTP {status})"


def certificate(proxy: str, reason: str) -> str:
    return f"{_the(proxy)} could not verify the service's certificate: {reason}"


def certificate_reason(body: bytes) -> str | None:
    """The reason a TLS-inspecting proxy gives in its error page (mitmproxy, Squid, Zscaler...)
    when it could not verify the service, as short safe text; None when the body says no such
    thing. Markup removed, control characters dropped, at most :data:`REASON_LIMIT` characters."""
    text = body[:16384].decode("utf-8", "replace")
    text = re.sub(r"(?is)<(script|style)\b.*?</\1>", " ", text)
    text = html.unescape(re.sub(r"(?s)<[^>]*>", " ", text))
    text = "".join(c if c.isprintable() else " " for c in text)
    text = re.sub(r"\s+", " ", text).strip()
    if not (_CERTIFICATE_WORDS.search(text) and _VERIFY_WORDS.search(text)):
        return None
    found = _CERTIFICATE_WORDS.search(text)
    quoted = text[found.start() if found else 0 :].strip()  # from what it says about the certificate
    if len(quoted) > REASON_LIMIT:
        quoted = quoted[: REASON_LIMIT - 1].rstrip() + "…"
    return f"“{quoted}”"


def with_fix(text: str, cause: ProxyCause) -> str:
    """``text; fix`` (the message the sync shows)."""
    return f"{text}; {FIXES[cause]}"
