"""Async HTTP client of the catalogue service (Qt-free, httpx).

One long-lived ``httpx.AsyncClient`` per :class:`CatalogueClient`. Every failure is raised as one
of the typed errors of :mod:`catalogue_desktop.core.errors`; httpx exceptions never escape.
"""

from __future__ import annotations

import asyncio
import codecs
import email.utils
import errno
import http
import re
import socket
import ssl
import tempfile
import time
import zlib
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, BinaryIO, Self
from urllib.parse import urlsplit

import httpx

from catalogue_desktop import __version__
from catalogue_desktop.core.errors import (
    BadEncoding,
    CannotConnect,
    ConnectionLost,
    FetchError,
    HttpStatus,
    InvalidUrl,
    NotArray,
    NotJson,
    TimedOut,
    TooLarge,
    TooManyRedirects,
)
from catalogue_desktop.core.kinds import Kind
from catalogue_desktop.core.priority import lower_thread

__all__ = ["CatalogueClient", "FetchResult", "ProgressCallback", "Validators"]

ProgressCallback = Callable[[Kind, int, int | None], None]
"""``progress(kind, received, total)``: bytes received on the wire, Content-Length or None."""

MAX_REDIRECTS = 5
MAX_RETRY_AFTER = 30.0
_PIECE = 256 * 1024  # largest piece of decompressed output produced at once
_HEAD = 64 * 1024  # with a sink: bytes kept for the plausibility check
# yield to the event loop after this many decoded bytes: ~0.5 ms of inflating here, so that
# eight downloads at once add little to the window thread's longest stall
_YIELD_EVERY = _PIECE
_WHITESPACE = re.compile(rb"[ \t\r\n]*")
_UTF16_32_BOMS = (
    codecs.BOM_UTF32_LE,
    codecs.BOM_UTF32_BE,
    codecs.BOM_UTF16_LE,
    codecs.BOM_UTF16_BE,
)
_RETRYABLE_STATUS = frozenset({429}) | frozenset(range(500, 600))


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
    ) -> None:
        self.base_url = normalise_base_url(base_url)
        self.connect_timeout = connect_timeout
        self.read_timeout = read_timeout
        self.retries = max(0, retries)
        self.backoff = max(0.0, backoff)
        self.max_bytes = max_bytes
        self._semaphore = asyncio.Semaphore(max(1, max_concurrency))
        # Downloads spooled to files are inflated and written by one thread below normal
        # priority: at 100k webinars ~800 MB, seconds of CPU that would otherwise run on the
        # event loop's thread or beside it at its priority (made on first use).
        self._writer = ThreadPoolExecutor(1, thread_name_prefix="catalogue-body-writer",
                                          initializer=lower_thread)
        self._http = httpx.AsyncClient(
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
        exc_type: type[BaseException] | None,
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
    ) -> FetchResult:
        """GET one collection, conditionally when ``validators`` are given.

        Returns ``not_modified=True`` (and no body) on 304. On 200 the body is checked to start
        like a JSON array (a leading UTF-8 BOM is removed); full parsing is the decoder's job.
        Raises a :class:`~catalogue_desktop.core.errors.FetchError` subclass on failure.
        With ``spool_dir`` the body is streamed into a new file there (``body_file``; the caller
        deletes it) instead of memory: big catalogues then never sit whole in this process.
        """
        url = self.url_for(kind)
        sent = validators or Validators()
        started = time.perf_counter()
        raw = await self._get(
            url, kind=kind, headers=sent.headers(), max_bytes=self.max_bytes, progress=progress,
            spool_dir=spool_dir,
        )
        elapsed = time.perf_counter() - started
        if raw.status == 304:
            if not (sent.etag or sent.last_modified):
                raise _status_error(304, "", None, kind, url)
            fresh = Validators(
                etag=raw.headers.get("etag") or sent.etag,
                last_modified=raw.headers.get("last-modified") or sent.last_modified,
            )
            return FetchResult(kind, raw.url, True, None, fresh, 304, elapsed)
        body = raw.body or b""
        try:
            body = _check_json_array(kind, url, body, raw.headers.get("content-type", ""))
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
        _check_absolute_url(url)
        raw = await self._get(url, kind=None, headers={"Accept": "*/*"}, max_bytes=max_bytes, progress=None)
        if raw.status == 304:  # we never send validators here
            raise _status_error(304, "", None, None, url)
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
    ) -> _Raw:
        """One logical GET with retries and exponential backoff."""
        attempt = 0
        while True:
            try:
                return await self._attempt(url, kind, headers, max_bytes, progress, spool_dir)
            except (CannotConnect, TimedOut, ConnectionLost, HttpStatus) as exc:
                if attempt >= self.retries or not _retryable(exc):
                    raise
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
        fd, name = await asyncio.to_thread(tempfile.mkstemp, prefix="body-", suffix=".json",
                                           dir=spool_dir)
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
                        raise _status_error(
                            status, resp.reason_phrase, resp.headers.get("retry-after"), kind, url
                        )
                    in_body = True
                    body = await _read_body(resp, kind, url, max_bytes, progress, sink,
                                            self._writer)
                    return _Raw(status, str(resp.url), resp.headers, body)
            except httpx.HTTPError as exc:
                raise self._translate(exc, kind, url, in_body) from exc
            except httpx.InvalidURL as exc:
                raise InvalidUrl(f"not a usable address: {exc}", kind=kind, url=url) from exc
            except httpx.StreamError as exc:  # pragma: no cover - our own misuse of httpx
                raise FetchError(f"the request failed: {exc}", kind=kind, url=url) from exc

    def _translate(self, exc: httpx.HTTPError, kind: Kind | None, url: str, in_body: bool) -> FetchError:
        """Map an httpx exception to a typed error with a plain message."""
        where = _host_port(exc, url)
        if isinstance(exc, httpx.ConnectTimeout):
            return TimedOut(
                f"timed out after {_secs(self.connect_timeout)} connecting to {where}",
                kind=kind,
                url=url,
            )
        if isinstance(exc, httpx.PoolTimeout):
            return TimedOut("timed out waiting for a free connection", kind=kind, url=url)
        if isinstance(exc, httpx.WriteTimeout):
            return TimedOut(
                f"timed out after {_secs(self.read_timeout)} sending the request to {where}",
                kind=kind,
                url=url,
            )
        if isinstance(exc, httpx.TimeoutException):
            return TimedOut(
                f"timed out after {_secs(self.read_timeout)} waiting for the service",
                kind=kind,
                url=url,
            )
        if isinstance(exc, httpx.ConnectError):
            return CannotConnect(f"cannot connect to {where}: {_connect_reason(exc)}", kind=kind, url=url)
        if isinstance(exc, httpx.UnsupportedProtocol):
            return InvalidUrl(f"the service redirected to an unsupported address ({exc})", kind=kind, url=url)
        if isinstance(exc, httpx.TooManyRedirects):
            return TooManyRedirects(
                f"the service redirected more than {MAX_REDIRECTS} times", kind=kind, url=url
            )
        if isinstance(exc, httpx.DecodingError):
            return BadEncoding(f"the response could not be decoded: {exc}", kind=kind, url=url)
        if isinstance(exc, httpx.RemoteProtocolError | httpx.ReadError | httpx.WriteError):
            if in_body:
                text = "the connection closed before the whole response arrived"
            else:
                text = f"{where} closed the connection without answering"
            return ConnectionLost(text, kind=kind, url=url)
        return FetchError(f"the request to {where} failed: {exc or type(exc).__name__}", kind=kind, url=url)


# -- helpers -----------------------------------------------------------------------------------


def normalise_base_url(base_url: str) -> str:
    """``base_url`` without a trailing ``/`` or ``/v1``; raises InvalidUrl unless http(s)+host."""
    text = base_url.strip()
    _check_absolute_url(text)
    text = text.rstrip("/")
    if text.endswith("/v1"):
        text = text[: -len("/v1")].rstrip("/")
    parts = urlsplit(text)
    if parts.query or parts.fragment:
        raise InvalidUrl(f"the service address must not have a query or fragment: {base_url!r}", url=base_url)
    return text


def _check_absolute_url(url: str) -> None:
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError as exc:
        raise InvalidUrl(f"not a usable address: {url!r} ({exc})", url=url) from exc
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        shown = f"{scheme}:" if scheme else "no scheme"
        raise InvalidUrl(f"only http and https addresses can be used, not {shown} ({_short(url)})", url=url)
    if not parts.hostname:
        raise InvalidUrl(f"the address has no host name: {_short(url)}", url=url)
    if any(c.isspace() or c in '<>"{}|\\^`/' for c in parts.hostname):
        raise InvalidUrl(f"the host name is not valid: {_short(url)}", url=url)
    try:
        httpx.URL(url)
    except httpx.InvalidURL as exc:
        raise InvalidUrl(f"not a usable address: {_short(url)} ({exc})", url=url) from exc


def _short(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def _secs(value: float) -> str:
    return f"{value:g} s"


def _size(limit: int) -> str:
    for unit, factor in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if limit >= factor:
            return f"{limit / factor:.3g} {unit}"
    return f"{limit} bytes"


def _host_port(exc: httpx.HTTPError, fallback: str) -> str:
    try:
        url = exc.request.url
    except RuntimeError:
        url = httpx.URL(fallback)
    port = url.port or (443 if url.scheme == "https" else 80)
    return f"{url.host}:{port}"


def _connect_reason(exc: BaseException) -> str:
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


def _retryable(exc: FetchError) -> bool:
    if isinstance(exc, HttpStatus):
        return exc.status in _RETRYABLE_STATUS
    return isinstance(exc, CannotConnect | TimedOut | ConnectionLost)


def _parse_retry_after(value: str | None) -> float | None:
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


def _status_error(
    status: int, reason: str, retry_after: str | None, kind: Kind | None, url: str
) -> HttpStatus:
    try:
        phrase = http.HTTPStatus(status).phrase
    except ValueError:
        phrase = reason
    text = f"the service answered HTTP {status} {phrase}".rstrip()
    return HttpStatus(text, status=status, retry_after=_parse_retry_after(retry_after), kind=kind, url=url)


def _content_length(headers: httpx.Headers) -> int | None:
    value = headers.get("content-length")
    if value is None or "transfer-encoding" in headers:
        return None
    try:
        length = int(value.split(",")[0].strip())
    except ValueError:
        return None
    return length if length >= 0 else None


class _Inflater:
    """Incremental gzip/deflate decoder producing bounded pieces (guards against zip bombs)."""

    def __init__(self, encoding: str) -> None:
        self.gzip = encoding in ("gzip", "x-gzip")
        self._raw_fallback = not self.gzip  # "deflate" is sometimes sent without zlib header
        self._fed = False
        self._obj = self._new()

    def _new(self, raw: bool = False) -> Any:
        if raw:
            return zlib.decompressobj(-zlib.MAX_WBITS)
        return zlib.decompressobj(zlib.MAX_WBITS | 16 if self.gzip else zlib.MAX_WBITS)

    def feed(self, data: bytes) -> Iterator[bytes]:
        if data:
            self._fed = True
        while data:
            if self._obj.eof:
                if not self.gzip:
                    raise zlib.error("data after the end of the deflate stream")
                self._obj = self._new()  # next gzip member
            try:
                out = self._obj.decompress(data, _PIECE)
            except zlib.error:
                if not self._raw_fallback:
                    raise
                self._raw_fallback = False
                self._obj = self._new(raw=True)
                continue
            self._raw_fallback = False
            data = self._obj.unused_data if self._obj.eof else self._obj.unconsumed_tail
            if out:
                yield out

    def finish(self) -> bytes:
        tail: bytes = self._obj.flush()
        if self._fed and not self._obj.eof:
            raise zlib.error("the compressed data ended early")
        return tail


async def _read_body(
    resp: httpx.Response,
    kind: Kind | None,
    url: str,
    max_bytes: int,
    progress: ProgressCallback | None,
    sink: BinaryIO | None = None,
    writer: ThreadPoolExecutor | None = None,
) -> bytes:
    """Stream the body, decoding gzip/deflate, enforcing ``max_bytes`` on the decoded size.

    With a ``sink`` the body is decoded and written there (a leading UTF-8 BOM dropped) by the
    ``writer`` thread (else asyncio's default executor), off the event loop, and only its first
    bytes are returned, for the plausibility check. Without one it is decoded on the loop, which
    gets a pass every ``_YIELD_EVERY`` decoded bytes (a highly compressed body cannot hold it).
    """

    def too_large() -> TooLarge:
        return TooLarge(
            f"the response exceeded the {_size(max_bytes)} limit",
            limit=max_bytes,
            kind=kind,
            url=url,
        )

    total = _content_length(resp.headers)
    if total is not None and total > max_bytes:
        raise too_large()
    encoding = resp.headers.get("content-encoding", "").strip().lower()
    inflater: _Inflater | None = None
    if encoding in ("gzip", "x-gzip", "deflate"):
        inflater = _Inflater(encoding)
    elif encoding not in ("", "identity"):
        raise BadEncoding(
            f"the service used an unsupported content encoding {encoding!r}", kind=kind, url=url
        )
    chunks: list[bytes] = []
    head = b""
    size = 0
    received = 0
    since_yield = 0

    pending = b""  # with a sink: the body's first bytes, held until a BOM can be ruled out
    started = False

    def keep(piece: bytes, last: bool = False) -> None:
        nonlocal head, pending, started
        if sink is None:
            chunks.append(piece)
            return
        if not started:
            pending += piece
            if not last and len(pending) < len(codecs.BOM_UTF8) and codecs.BOM_UTF8.startswith(pending):
                return
            started = True
            bom = pending.startswith(codecs.BOM_UTF8)
            piece, pending = (pending[len(codecs.BOM_UTF8) :] if bom else pending), b""
        if len(head) < _HEAD:
            head += piece[: _HEAD - len(head)]
        if piece:
            unwritten.append(piece)

    unwritten: list[bytes] = []  # with a sink: decoded bytes not yet written

    def write() -> None:
        assert sink is not None
        if unwritten:
            data = b"".join(unwritten)
            unwritten.clear()
            sink.write(data)

    def decode(raw: bytes) -> None:
        """(With a sink, in the writer thread.) Decode ``raw``; write what it gives."""
        nonlocal size
        for piece in inflater.feed(raw) if inflater else (raw,):
            size += len(piece)
            if size > max_bytes:
                raise too_large()
            keep(piece)
            write()  # a piece at a time: a highly compressed chunk is never held whole

    def end() -> None:
        nonlocal size
        if inflater is not None:
            tail = inflater.finish()
            size += len(tail)
            if size > max_bytes:
                raise too_large()
            keep(tail)
        keep(b"", last=True)
        if sink is not None:
            write()

    loop = asyncio.get_running_loop()
    try:
        async for raw in resp.aiter_raw():
            received += len(raw)
            if sink is not None:
                # Decoded and written off the loop's thread, below normal priority: zlib releases
                # the GIL while it inflates (~800 MB at 100k webinars: seconds of CPU), and
                # writing can block in the kernel (dirty page throttling) for tens of ms.
                await loop.run_in_executor(writer, decode, raw)
            else:
                for piece in inflater.feed(raw) if inflater else (raw,):
                    size += len(piece)
                    if size > max_bytes:
                        raise too_large()
                    keep(piece)
                    since_yield += len(piece)
                    if since_yield >= _YIELD_EVERY:
                        since_yield = 0
                        await asyncio.sleep(0)
            if progress is not None:
                progress(kind, received, total)  # type: ignore[arg-type]
        if sink is not None:
            await loop.run_in_executor(writer, end)
        else:
            end()
    except zlib.error as exc:
        raise BadEncoding(
            f"the {encoding}-compressed response could not be decoded ({exc})", kind=kind, url=url
        ) from exc
    return b"".join(chunks) if sink is None else head


def _check_json_array(kind: Kind, url: str, body: bytes, content_type: str) -> bytes:
    """Cheap plausibility check that ``body`` is a JSON array; returns it without a UTF-8 BOM."""
    if body.startswith(codecs.BOM_UTF8):
        body = body[len(codecs.BOM_UTF8) :]
    start = _WHITESPACE.match(body).end()  # type: ignore[union-attr]
    if start == len(body):
        raise NotJson("the service sent an empty response", kind=kind, url=url)
    head = body[start : start + 64]
    first = head[:1]
    ctype = content_type.split(";")[0].strip().lower()
    if first == b"<":
        what = "an XML document" if "xml" in ctype and "html" not in ctype else "an HTML page"
        raise NotJson(f"the service sent {what} instead of JSON", kind=kind, url=url)
    if first == b"{":
        raise NotArray(f"expected a JSON array of {kind.value}, got a JSON object", kind=kind, url=url)
    if head.startswith(b"\x1f\x8b"):
        raise BadEncoding("the response is gzip-compressed but not labelled as such", kind=kind, url=url)
    if body.startswith(_UTF16_32_BOMS) or b"\x00" in head:
        raise BadEncoding("the response is UTF-16/32 text, not UTF-8", kind=kind, url=url)
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head, final=False)
    except UnicodeDecodeError as exc:
        raise BadEncoding("the response is not valid UTF-8 text", kind=kind, url=url) from exc
    if first == b"[":
        return body
    snippet = head[:40].decode("utf-8", "replace").splitlines()[0] if head else ""
    if ctype and "json" not in ctype:
        what = f"the service sent {ctype} instead of JSON"
    else:
        what = "the response is not JSON"
    raise NotJson(f"{what} (it starts with {snippet!r})", kind=kind, url=url)
