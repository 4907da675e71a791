"""The addresses the client accepts, and its failures in plain words (Qt-free, httpx).

``normalise_base_url`` and ``check_absolute_url`` refuse anything but an absolute http(s) URL with a
host before a request is made; ``status_error``, ``parse_retry_after``, ``connect_reason`` and
``host_port`` turn what the service or the network did into the typed errors of
:mod:`catalogue_desktop.core.records.errors`, with messages meant for people; ``retryable`` says which of
them a retry may cure.
"""

from __future__ import annotations

import email.utils
import errno
import http
import socket
import ssl
from datetime import UTC, datetime
from urllib.parse import urlsplit

import httpx

from catalogue_desktop.core.connection.addresses import redact, without_user
from catalogue_desktop.core.records.errors import (
    CannotConnect,
    ConnectionLost,
    FetchError,
    HttpStatus,
    InvalidUrl,
    TimedOut,
)
from catalogue_desktop.core.records.kinds import Kind

RETRYABLE_STATUS = frozenset({429}) | frozenset(range(500, 600))


def normalise_base_url(base_url: str) -> str:
    """``base_url`` without a trailing ``/`` or ``/v1``; raises InvalidUrl unless http(s)+host.
    A user and password in it are kept (``core.connection.resolved`` makes them credentials)
    and never shown: every message redacts them."""
    text = base_url.strip()
    check_absolute_url(text)
    text = text.rstrip("/")
    if text.endswith("/v1"):
        text = text[: -len("/v1")].rstrip("/")
    parts = urlsplit(without_user(text)[0])
    if parts.query or parts.fragment:
        shown = redact(base_url)
        raise InvalidUrl(f"the service address must not have a query or fragment: {shown!r}", url=shown)
    return text


def check_absolute_url(url: str) -> None:
    """InvalidUrl (its text without any password) unless ``url`` is http(s) with a host."""
    shown = redact(url)
    bare = without_user(url)[0]
    try:
        parts = urlsplit(bare)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as exc:
        raise InvalidUrl(f"not a usable address: {shown!r} ({exc})", url=shown) from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        what = f"{scheme}:" if scheme else "no scheme"
        raise InvalidUrl(f"only http and https addresses can be used, not {what} ({short(shown)})", url=shown)
    if not parts.hostname:
        raise InvalidUrl(f"the address has no host name: {short(shown)}", url=shown)
    if any(c.isspace() or c in '<>"{}|\\^`/' for c in parts.hostname):
        raise InvalidUrl(f"the host name is not valid: {short(shown)}", url=shown)
    try:
        httpx.URL(bare)
    except httpx.InvalidURL as exc:
        raise InvalidUrl(f"not a usable address: {short(shown)} ({exc})", url=shown) from None


def short(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def seconds_text(value: float) -> str:
    return f"{value:g} s"


def deadline_text(kind: Kind | None, url: str, limit: float, failures: list[str]) -> str:
    """Why a fetch gave up at its deadline: the collection, the time waited, what came before."""
    parsed = httpx.URL(url)
    where = f"{parsed.host}:{parsed.port or (443 if parsed.scheme == 'https' else 80)}"
    what = kind.value if kind is not None else url
    text = (
        f"gave up on {what} after waiting {seconds_text(limit)} for {where} (the time allowed "
        f"per collection, retries included)"
    )
    if failures:
        tries = "1 earlier attempt" if len(failures) == 1 else f"{len(failures)} earlier attempts"
        text += f"; {tries}: {failures[-1]}"
    return text


def host_port(exc: httpx.HTTPError, fallback: str) -> str:
    try:
        url = exc.request.url
    except RuntimeError:
        url = httpx.URL(fallback)
    port = url.port or (443 if url.scheme == "https" else 80)
    return f"{url.host}:{port}"


def connect_reason(exc: BaseException) -> str:
    """The underlying cause of a connect failure, in plain words."""
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if isinstance(cur, ssl.SSLCertVerificationError):
            detail = cur.verify_message or "unknown reason"
            return f"the TLS certificate could not be verified ({detail})"
        if isinstance(cur, ssl.SSLError):
            return "the TLS handshake failed"
        if isinstance(cur, ConnectionRefusedError):
            return "connection refused"
        if isinstance(cur, socket.gaierror):
            return "the host name could not be found"
        if isinstance(cur, OSError) and cur.errno == errno.ECONNREFUSED:
            return "connection refused"
        if isinstance(cur, OSError) and cur.strerror:
            return cur.strerror[:1].lower() + cur.strerror[1:]
        cur = cur.__cause__ or cur.__context__
    text = str(exc)
    if "refused" in text.lower() or "Errno 111" in text:
        return "connection refused"
    return text or "the connection failed"


def retryable(exc: FetchError) -> bool:
    if isinstance(exc, HttpStatus):
        return exc.status in RETRYABLE_STATUS
    return isinstance(exc, CannotConnect | TimedOut | ConnectionLost)


def parse_retry_after(value: str | None) -> float | None:
    """Retry-After as seconds from now (delta-seconds or HTTP date); None when absent/bad."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when.tzinfo is None:
            when = when.replace(tzinfo=UTC)
        seconds = (when - datetime.now(UTC)).total_seconds()
    if seconds != seconds:  # NaN
        return None
    return max(0.0, seconds)


def status_error(
    status: int, reason: str, retry_after: str | None, kind: Kind | None, url: str
) -> HttpStatus:
    try:
        phrase = http.HTTPStatus(status).phrase
    except ValueError:
        phrase = reason
    text = f"the service answered HTTP {status} {phrase}".rstrip()
    return HttpStatus(text, status=status, retry_after=parse_retry_after(retry_after), kind=kind, url=url)
