"""Async HTTP client of the catalogue service (Qt-free, httpx).

One long-lived ``httpx.AsyncClient`` per :class:`CatalogueClient`. Every failure is raised as one
of the typed errors of :mod:`catalogue_desktop.core.records.errors`; httpx exceptions never escape.
Reading a body (size cap, gzip/deflate, spooling to a file by the writer thread, the JSON check) is
:mod:`catalogue_desktop.core.service.download`; the accepted addresses and the failures in plain words are
:mod:`catalogue_desktop.core.service.failures`.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
import tempfile
import time
from collections.abc import Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO, Self

import httpx

from catalogue_desktop import __version__
from catalogue_desktop.core.connection import proxy_failures
from catalogue_desktop.core.connection.addresses import without_user
from catalogue_desktop.core.connection.credentials import origin_hook
from catalogue_desktop.core.connection.refusals import certificate_text, credentials_error
from catalogue_desktop.core.connection.resolved import Connection
from catalogue_desktop.core.connection.tls import certificate_error, ssl_context
from catalogue_desktop.core.records.errors import (
    BadEncoding,
    CannotConnect,
    CertificateRefused,
    ConnectionLost,
    FetchError,
    HttpStatus,
    InvalidUrl,
    ProxyCause,
    ProxyFailed,
    TimedOut,
    TooManyRedirects,
)
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.service.download import ProgressCallback, check_json_array, read_body
from catalogue_desktop.core.service.failures import (
    check_absolute_url,
    connect_reason,
    deadline_text,
    host_port,
    normalise_base_url,
    retryable,
    seconds_text,
    status_error,
)
from catalogue_desktop.core.service.priority import lower_thread

__all__ = ["CatalogueClient", "FetchResult", "ProgressCallback", "Validators"]

MAX_REDIRECTS = 5
MAX_RETRY_AFTER = 30.0
DEFAULT_DEADLINE = 60.0  # s per collection, in all: connecting, answers, bodies, retries and waits


@dataclass(frozen=True)
class Validators:
    """Cache validators of one collection, sent back as conditional request headers."""

    etag: str | None = None
    last_modified: str | None = None

    def to_json(self) -> dict[str, str | None]:
        """Dict form, for storing."""
        return {"etag": self.etag, "last_modified": self.last_modified}

    @classmethod
    def from_json(cls, data: Mapping[str, Any] | None) -> Validators:
        """Inverse of :meth:`to_json`; tolerates ``None``, missing keys and non-string values."""
        if not data:
            return cls()
        etag = data.get("etag")
        last_modified = data.get("last_modified")
        return cls(
            etag=etag if isinstance(etag, str) and etag else None,
            last_modified=last_modified if isinstance(last_modified, str) and last_modified else None,
        )

    def headers(self) -> dict[str, str]:
        """The conditional request headers these validators call for."""
        out: dict[str, str] = {}
        if self.etag:
            out["If-None-Match"] = self.etag
        if self.last_modified:
            out["If-Modified-Since"] = self.last_modified
        return out


@dataclass(frozen=True)
class FetchResult:
    """Outcome of one successful :meth:`CatalogueClient.fetch`."""

    kind: Kind
    url: str
    not_modified: bool
    body: bytes | None
    validators: Validators
    status: int
    elapsed: float
    body_file: Path | None = None  # with ``spool_dir``: the body is in this file, not in ``body``


@dataclass(frozen=True)
class _Raw:
    status: int
    url: str
    headers: httpx.Headers
    body: bytes | None
    body_file: Path | None = None


def _proxy(connection: Connection) -> httpx.Proxy | None:
    """The connection's proxy for httpx: its address without user info, the user and password
    given apart (httpx would misread a password holding ``/``, ``#`` or ``?``)."""
    address = connection.proxy.address
    if address is None:
        return None
    sent = address.user is not None and address.password is not None
    auth = (address.user or "", address.password or "") if sent else None
    return httpx.Proxy(address.bare, auth=auth)


def _tls_failure(exc: BaseException) -> bool:
    """Whether a connect failure was the TLS handshake's (with the service, through any tunnel)."""
    seen: set[int] = set()
    cur: BaseException | None = exc
    while cur is not None and id(cur) not in seen:
        seen.add(id(cur))
        if isinstance(cur, ssl.SSLError):
            return True
        cur = cur.__cause__ or cur.__context__
    return False


class CatalogueClient:
    """Fetches the service's collections (and expert photos) over one pooled httpx client."""

    def __init__(
        self,
        base_url: str,
        *,
        connect_timeout: float = 10.0,
        read_timeout: float = 30.0,
        retries: int = 2,
        backoff: float = 0.5,
        max_bytes: int = 256 * 1024 * 1024,
        max_concurrency: int = 8,
        user_agent: str | None = None,
        deadline: float | None = DEFAULT_DEADLINE,
        connection: Connection | None = None,
    ) -> None:
        """``deadline``: seconds a :meth:`fetch` may take in all, retries included (None: no
        limit beyond the per-request timeouts). ``connection``: the proxy, trust and credentials
        (``core.connection.resolved``); without one, the environment's proxies and the system's
        certificate store, no credentials."""
        # With a connection, a user and password in the address are its credentials (resolved):
        # the URLs requested (and named in messages) are without them.
        self.base_url = normalise_base_url(without_user(base_url)[0] if connection else base_url)
        self.connection = connection
        self.deadline = deadline
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout
        self.retries = max(0, retries)
        self.backoff = max(0.0, backoff)
        self.max_bytes = max_bytes
        self._semaphore = asyncio.Semaphore(max(1, max_concurrency))
        self._certificate_texts: dict[str, str] = {}  # host:port -> its refusal in words
        # Downloads spooled to files are inflated and written by one thread below normal priority: seconds of
        # CPU for a big catalogue (docs/decisions.md, "Downloads, ingest and the cache") that would otherwise
        # run on the event loop's thread or beside it at its priority (made on first use).
        self._writer = ThreadPoolExecutor(
            1, thread_name_prefix="catalogue-body-writer", initializer=lower_thread
        )
        if connection is not None:  # its proxy (named in reports), nothing from httpx's own lookup
            routing: dict[str, Any] = {
                "verify": connection.ssl_context(),
                "proxy": _proxy(connection),
                "trust_env": False,
                "event_hooks": {"request": [origin_hook(connection.credentials, connection.origin)]},
            }
        else:
            routing = {"verify": ssl_context()}
        self._http = httpx.AsyncClient(
            **routing,
            timeout=httpx.Timeout(
                connect=connect_timeout, read=read_timeout, write=read_timeout, pool=read_timeout
            ),
            follow_redirects=True,
            max_redirects=MAX_REDIRECTS,
            limits=httpx.Limits(
                max_connections=max(1, max_concurrency),
                max_keepalive_connections=max(1, max_concurrency),
            ),
            headers={
                "Accept": "application/json",
                "Accept-Encoding": "gzip, deflate",
                "User-Agent": user_agent or f"catalogue-desktop/{__version__}",
            },
        )

    # -- lifetime ---------------------------------------------------------------------------

    async def aclose(self) -> None:
        """Close the pooled connections and end the writer thread (idle by now: at most the
        chunk of a cancelled download is left to it), so that no thread holds the exit up."""
        await self._http.aclose()
        self._writer.shutdown(wait=True)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        _exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()

    # -- public operations ------------------------------------------------------------------

    def url_for(self, kind: Kind) -> str:
        """Absolute URL of ``kind``'s endpoint."""
        return f"{self.base_url}{kind.path}"

    async def fetch(
        self,
        kind: Kind,
        validators: Validators | None = None,
        progress: ProgressCallback | None = None,
        *,
        spool_dir: Path | None = None,
        deadline: float | None = None,
    ) -> FetchResult:
        """GET one collection, conditionally when ``validators`` are given.

        Returns ``not_modified=True`` (and no body) on 304. On 200 the body is checked to start
        like a JSON array (a leading UTF-8 BOM is removed); full parsing is the decoder's job.
        Raises a :class:`~catalogue_desktop.core.records.errors.FetchError` subclass on failure.
        With ``spool_dir`` the body is streamed into a new file there (``body_file``; the caller
        deletes it) instead of memory: big catalogues then never sit whole in this process.
        The whole fetch, retries included, gives up after ``deadline`` seconds (default: the
        client's) with :class:`TimedOut` naming the collection and the time waited.
        """
        url = self.url_for(kind)
        sent = validators or Validators()
        limit = self.deadline if deadline is None else deadline
        started = time.perf_counter()
        failures: list[str] = []  # what the attempts before the deadline ran into
        try:
            async with asyncio.timeout(limit) as within:
                raw = await self._get(
                    url,
                    kind=kind,
                    headers=sent.headers(),
                    max_bytes=self.max_bytes,
                    progress=progress,
                    spool_dir=spool_dir,
                    failures=failures,
                )
        except TimeoutError:
            if limit is None or not within.expired():
                raise
            raise TimedOut(deadline_text(kind, url, limit, failures), kind=kind, url=url) from None
        elapsed = time.perf_counter() - started
        if raw.status == 304:
            if not (sent.etag or sent.last_modified):
                raise status_error(304, "", None, kind, url)
            fresh = Validators(
                etag=raw.headers.get("etag") or sent.etag,
                last_modified=raw.headers.get("last-modified") or sent.last_modified,
            )
            return FetchResult(kind, raw.url, True, None, fresh, 304, elapsed)
        body = raw.body or b""
        try:
            body = check_json_array(kind, url, body, raw.headers.get("content-type", ""))
        except FetchError:
            if raw.body_file is not None:
                raw.body_file.unlink(missing_ok=True)
            raise
        fresh = Validators(
            etag=raw.headers.get("etag") or None,
            last_modified=raw.headers.get("last-modified") or None,
        )
        if raw.body_file is not None:
            return FetchResult(kind, raw.url, False, None, fresh, raw.status, elapsed, raw.body_file)
        return FetchResult(kind, raw.url, False, body, fresh, raw.status, elapsed)

    async def fetch_bytes(self, url: str, *, max_bytes: int = 5 * 1024 * 1024) -> bytes:
        """GET an absolute http(s) URL (an expert photo); returns at most ``max_bytes`` of body."""
        check_absolute_url(url)
        raw = await self._get(url, kind=None, headers={"Accept": "*/*"}, max_bytes=max_bytes, progress=None)
        if raw.status == 304:  # we never send validators here
            raise status_error(304, "", None, None, url)
        return raw.body or b""

    # -- internals --------------------------------------------------------------------------

    async def _get(
        self,
        url: str,
        *,
        kind: Kind | None,
        headers: dict[str, str],
        max_bytes: int,
        progress: ProgressCallback | None,
        spool_dir: Path | None = None,
        failures: list[str] | None = None,
    ) -> _Raw:
        """One logical GET with retries and exponential backoff (each retried failure is noted
        in ``failures``)."""
        attempt = 0
        while True:
            try:
                return await self._attempt(url, kind, headers, max_bytes, progress, spool_dir)
            except (CannotConnect, TimedOut, ConnectionLost, HttpStatus) as exc:
                if attempt >= self.retries or not retryable(exc):
                    raise
                if failures is not None:
                    failures.append(str(exc))
                delay = self.backoff * 2**attempt
                if isinstance(exc, HttpStatus) and exc.retry_after is not None:
                    delay = max(delay, min(exc.retry_after, MAX_RETRY_AFTER))
            attempt += 1
            await asyncio.sleep(delay)

    async def _attempt(
        self,
        url: str,
        kind: Kind | None,
        headers: dict[str, str],
        max_bytes: int,
        progress: ProgressCallback | None,
        spool_dir: Path | None = None,
    ) -> _Raw:
        if spool_dir is None:
            return await self._attempt_to(url, kind, headers, max_bytes, progress, None)
        # Off the loop's thread: creating a file can block on a busy disk.
        fd, name = await asyncio.to_thread(tempfile.mkstemp, prefix="body-", suffix=".json", dir=spool_dir)
        path = Path(name)
        try:
            with open(fd, "wb", buffering=0) as sink:  # unbuffered: writes release the GIL
                raw = await self._attempt_to(url, kind, headers, max_bytes, progress, sink)
        except BaseException:
            path.unlink(missing_ok=True)
            raise
        if raw.status == 304:
            path.unlink(missing_ok=True)
            return raw
        return _Raw(raw.status, raw.url, raw.headers, raw.body, path)

    async def _attempt_to(
        self,
        url: str,
        kind: Kind | None,
        headers: dict[str, str],
        max_bytes: int,
        progress: ProgressCallback | None,
        sink: BinaryIO | None,
    ) -> _Raw:
        in_body = False
        async with self._semaphore:
            try:
                async with self._http.stream("GET", url, headers=headers) as resp:
                    status = resp.status_code
                    if status == 304:
                        return _Raw(status, str(resp.url), resp.headers, None)
                    if not 200 <= status < 300:
                        refused = credentials_error(status, self.connection, kind, url)
                        if refused is not None:
                            raise refused
                        blamed = await self._proxy_answer(resp, kind, url)
                        if blamed is not None:
                            raise blamed
                        raise status_error(
                            status, resp.reason_phrase, resp.headers.get("retry-after"), kind, url
                        )
                    in_body = True
                    body = await read_body(resp, kind, url, max_bytes, progress, sink, self._writer)
                    return _Raw(status, str(resp.url), resp.headers, body)
            except httpx.HTTPError as exc:
                refusal = certificate_error(exc) if isinstance(exc, httpx.ConnectError) else None
                if refusal is not None:  # said in words, with the certificate presented (read once)
                    where = host_port(exc, url)
                    text = self._certificate_texts.get(where)
                    if text is None:
                        text = await asyncio.to_thread(certificate_text, refusal, url, self.connection)
                        self._certificate_texts[where] = text
                    raise CertificateRefused(text, kind=kind, url=url) from exc
                raise (
                    self._proxy_failure(exc, kind, url) or self._translate(exc, kind, url, in_body)
                ) from exc
            except httpx.InvalidURL as exc:
                raise InvalidUrl(f"not a usable address: {exc}", kind=kind, url=url) from exc
            except httpx.StreamError as exc:  # pragma: no cover - our own misuse of httpx
                raise FetchError(f"the request failed: {exc}", kind=kind, url=url) from exc

    def _proxy_shown(self) -> str | None:
        """The proxy in use as messages show it (None: no proxy)."""
        if self.connection is None or self.connection.proxy.url is None:
            return None
        return self.connection.proxy.shown

    def _blame(self, cause: ProxyCause, text: str, kind: Kind | None, url: str) -> ProxyFailed:
        return ProxyFailed(proxy_failures.with_fix(text, cause), cause=cause, what=text, kind=kind, url=url)

    async def _proxy_answer(self, resp: httpx.Response, kind: Kind | None, url: str) -> ProxyFailed | None:
        """An error status that is the proxy's, not the service's: 407 (credentials), or a TLS-
        inspecting proxy's 502/503 saying it could not verify the service (its reason quoted)."""
        shown = self._proxy_shown()
        if shown is None or self.connection is None:
            return None
        if resp.status_code == 407:
            sent = self.connection.proxy.sends_credentials
            cause: ProxyCause = "proxy-credentials-refused" if sent else "proxy-credentials-wanted"
            return self._blame(cause, proxy_failures.credentials(shown, sent), kind, url)
        if resp.status_code not in (502, 503):
            return None
        head = b""
        with contextlib.suppress(httpx.HTTPError):
            async for chunk in resp.aiter_bytes():
                head += chunk
                if len(head) >= 16384:
                    break
        reason = proxy_failures.certificate_reason(head)
        if reason is None:
            return None
        return self._blame("proxy-certificate", proxy_failures.certificate(shown, reason), kind, url)

    def _proxy_failure(self, exc: httpx.HTTPError, kind: Kind | None, url: str) -> ProxyFailed | None:
        """A failure of the proxy's: not reached, its name unknown, a tunnel refused (407 included)."""
        shown = self._proxy_shown()
        if shown is None or self.connection is None:
            return None
        address = self.connection.proxy.address
        if isinstance(exc, httpx.ProxyError):
            status = str(exc).strip()[:80]
            if status.startswith("407"):
                sent = self.connection.proxy.sends_credentials
                cause: ProxyCause = "proxy-credentials-refused" if sent else "proxy-credentials-wanted"
                return self._blame(cause, proxy_failures.credentials(shown, sent), kind, url)
            target = host_port(exc, url)
            return self._blame("proxy-tunnel", proxy_failures.tunnel(shown, target, status), kind, url)
        # (a timeout may be the proxy's or the TLS handshake's through its tunnel: not blamed here)
        if not isinstance(exc, httpx.ConnectError) or _tls_failure(exc):
            return None
        reason = connect_reason(exc)
        if reason == "the host name could not be found" and address is not None:
            return self._blame("proxy-unknown", proxy_failures.unknown_name(shown, address.host), kind, url)
        return self._blame("proxy-unreachable", proxy_failures.unreachable(shown, reason), kind, url)

    def _translate(self, exc: httpx.HTTPError, kind: Kind | None, url: str, in_body: bool) -> FetchError:
        """Map an httpx exception to a typed error with a plain message."""
        where = host_port(exc, url)
        if isinstance(exc, httpx.ConnectTimeout):
            through = self._proxy_shown()
            return TimedOut(
                f"timed out after {seconds_text(self.connect_timeout)} connecting to {where}"
                + (f" through the proxy {through}" if through else ""),
                kind=kind,
                url=url,
            )
        if isinstance(exc, httpx.PoolTimeout):
            return TimedOut("timed out waiting for a free connection", kind=kind, url=url)
        if isinstance(exc, httpx.WriteTimeout):
            return TimedOut(
                f"timed out after {seconds_text(self.read_timeout)} sending the request to {where}",
                kind=kind,
                url=url,
            )
        if isinstance(exc, httpx.TimeoutException):
            return TimedOut(
                f"timed out after {seconds_text(self.read_timeout)} waiting for the service",
                kind=kind,
                url=url,
            )
        if isinstance(exc, httpx.ConnectError):
            return CannotConnect(f"cannot connect to {where}: {connect_reason(exc)}", kind=kind, url=url)
        if isinstance(exc, httpx.UnsupportedProtocol):
            return InvalidUrl(f"the service redirected to an unsupported address ({exc})", kind=kind, url=url)
        if isinstance(exc, httpx.TooManyRedirects):
            return TooManyRedirects(
                f"the service redirected more than {MAX_REDIRECTS} times", kind=kind, url=url
            )
        if isinstance(exc, httpx.DecodingError):
            return BadEncoding(f"the response could not be decoded: {exc}", kind=kind, url=url)
        if isinstance(exc, httpx.RemoteProtocolError | httpx.ReadError | httpx.WriteError):
            shown = self._proxy_shown()
            if in_body:
                text = "the connection closed before the whole response arrived"
            elif shown is not None:  # the proxy, or the service at the tunnel's end: either hung up
                text = f"the connection to {where} through the proxy {shown} closed without an answer"
            else:
                text = f"{where} closed the connection without answering"
            return ConnectionLost(text, kind=kind, url=url)
        return FetchError(f"the request to {where} failed: {exc or type(exc).__name__}", kind=kind, url=url)
