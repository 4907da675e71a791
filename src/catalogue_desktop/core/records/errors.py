"""Typed errors the core raises on purpose, with messages meant for people.

Deliberately tiny and free of httpx: the window imports this module at start-up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from catalogue_desktop.core.records.kinds import Kind

# How the proxy failed (``ProxyFailed.cause``; its words and fixes: ``core.connection.proxy_failures``)
ProxyCause = Literal[
    "proxy-unreachable",
    "proxy-unknown",
    "proxy-credentials-wanted",
    "proxy-credentials-refused",
    "proxy-tunnel",
    "proxy-certificate",
]


class CatalogueError(Exception):
    """Base of every error the core raises on purpose."""


class StoreError(CatalogueError):
    """The store cannot be used (locked by another process, unwritable directory, ...)."""


class FetchError(CatalogueError):
    """Fetching something from the service failed; ``str()`` is ``message``."""

    def __init__(self, message: str, *, kind: Kind | None = None, url: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.kind = kind
        self.url = url

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.message!r}, kind={self.kind!r}, url={self.url!r})"


class CannotConnect(FetchError):
    """No connection could be made ("cannot connect to 127.0.0.1:9: connection refused")."""


class TimedOut(FetchError):
    """The service did not answer in time ("timed out after 30 s waiting for the service")."""


class ConnectionLost(FetchError):
    """The connection closed before the whole response arrived."""


class HttpStatus(FetchError):
    """The service answered with an error status ("the service answered HTTP 503 ...")."""

    def __init__(
        self,
        message: str,
        *,
        status: int,
        retry_after: float | None = None,
        kind: Kind | None = None,
        url: str = "",
    ) -> None:
        super().__init__(message, kind=kind, url=url)
        self.status = status
        self.retry_after = retry_after


class CredentialsWanted(HttpStatus):
    """HTTP 401 with no credentials sent: "the service asks for credentials"."""

    what = ""  # the message without its remedy (the doctor gives its own)


class CredentialsRefused(HttpStatus):
    """HTTP 403, or 401 although credentials were sent: "these credentials are refused"."""

    what = ""  # the message without its remedy (the doctor gives its own)


class ProxyFailed(FetchError):
    """The proxy, not the service, failed; ``cause`` says how (``proxy-unreachable``,
    ``proxy-unknown``, ``proxy-credentials-wanted``, ``proxy-credentials-refused``,
    ``proxy-tunnel``, ``proxy-certificate``: ``core.connection.proxy_failures``); ``what`` is the
    message without its fix."""

    def __init__(
        self, message: str, *, cause: ProxyCause, what: str = "", kind: Kind | None = None, url: str = ""
    ) -> None:
        super().__init__(message, kind=kind, url=url)
        self.cause = cause
        self.what = what or message


class CertificateRefused(FetchError):
    """The service's TLS certificate failed verification (said in words: ``core.connection.tls``)."""


class NotJson(FetchError):
    """The body is not JSON (an HTML page, plain text, an empty response)."""


class NotArray(FetchError):
    """The body is JSON but not an array ("expected a JSON array of webinars, got ...")."""


class TooLarge(FetchError):
    """The response exceeded the size limit ("the response exceeded the 256 MiB limit")."""

    def __init__(self, message: str, *, limit: int, kind: Kind | None = None, url: str = "") -> None:
        super().__init__(message, kind=kind, url=url)
        self.limit = limit


class BadEncoding(FetchError):
    """The body could not be decoded (broken gzip/deflate, not UTF-8)."""


class TooManyRedirects(FetchError):
    """The service redirected too many times."""


class InvalidUrl(FetchError):
    """An address is not usable (not http/https, no host)."""
