"""A response body as it downloads (Qt-free, httpx): size cap, gzip/deflate, spooling to a file.

``read_body`` streams a body, inflating gzip/deflate in bounded pieces (``Inflater``: a zip bomb
never sits whole in memory) and enforcing the size cap on the decoded size. Spooled to a file, the
body is inflated and written by the client's writer thread, below normal priority, off the event
loop; in memory, it is inflated on the loop, which gets a pass every ``_YIELD_EVERY`` bytes.
``check_json_array`` is the cheap plausibility check of what came: a JSON array, UTF-8.
"""

from __future__ import annotations

import asyncio
import codecs
import re
import zlib
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any, BinaryIO

import httpx

from catalogue_desktop.core.records.errors import BadEncoding, NotArray, NotJson, TooLarge
from catalogue_desktop.core.records.kinds import Kind

ProgressCallback = Callable[[Kind, int, int | None], None]
"""``progress(kind, received, total)``: bytes received on the wire, Content-Length or None."""

_PIECE = 256 * 1024  # largest piece of decompressed output produced at once
_HEAD = 64 * 1024  # with a sink: bytes kept for the plausibility check
# yield to the event loop after this many decoded bytes (see docs/decisions.md, "Downloads, ingest and the
# cache"), so that eight downloads at once add little to the window thread's longest stall
_YIELD_EVERY = _PIECE
_WHITESPACE = re.compile(rb"[ \t\r\n]*")
_UTF16_32_BOMS = (
    codecs.BOM_UTF32_LE,
    codecs.BOM_UTF32_BE,
    codecs.BOM_UTF16_LE,
    codecs.BOM_UTF16_BE,
)


def size_text(limit: int) -> str:
    for unit, factor in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if limit >= factor:
            return f"{limit / factor:.3g} {unit}"
    return f"{limit} bytes"


def content_length(headers: httpx.Headers) -> int | None:
    value = headers.get("content-length")
    if value is None or "transfer-encoding" in headers:
        return None
    try:
        length = int(value.split(",")[0].strip())
    except ValueError:
        return None
    return length if length >= 0 else None


class Inflater:
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


async def read_body(
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
            f"the response exceeded the {size_text(max_bytes)} limit",
            limit=max_bytes,
            kind=kind,
            url=url,
        )

    total = content_length(resp.headers)
    if total is not None and total > max_bytes:
        raise too_large()
    encoding = resp.headers.get("content-encoding", "").strip().lower()
    body = _DecodedBody(_inflater_for(encoding, kind, url), max_bytes, too_large, sink)
    loop = asyncio.get_running_loop()
    received = 0
    try:
        async for raw in resp.aiter_raw():
            received += len(raw)
            if sink is not None:
                # Decoded and written off the loop's thread, below normal priority: zlib releases
                # the GIL while it inflates (seconds of CPU for a big catalogue), and
                # writing can block in the kernel (dirty page throttling) for tens of ms.
                await loop.run_in_executor(writer, body.decode_and_write, raw)
            else:
                await body.decode_on_loop(raw)
            if progress is not None and kind is not None:  # (only a collection's fetch reports)
                progress(kind, received, total)
        if sink is not None:
            await loop.run_in_executor(writer, body.end)
        else:
            body.end()
    except zlib.error as exc:
        raise BadEncoding(
            f"the {encoding}-compressed response could not be decoded ({exc})", kind=kind, url=url
        ) from exc
    return body.result()


def _inflater_for(encoding: str, kind: Kind | None, url: str) -> Inflater | None:
    """What inflates a body sent with ``Content-Encoding: encoding`` (None: sent as it is)."""
    if encoding in ("gzip", "x-gzip", "deflate"):
        return Inflater(encoding)
    if encoding not in ("", "identity"):
        raise BadEncoding(
            f"the service used an unsupported content encoding {encoding!r}", kind=kind, url=url
        )
    return None


class _DecodedBody:
    """A body's decoded bytes as they come, counted against the size cap: kept in memory, or
    (with a ``sink``) written there with a leading UTF-8 BOM dropped, its first bytes kept for the
    plausibility check."""

    def __init__(
        self,
        inflater: Inflater | None,
        max_bytes: int,
        too_large: Callable[[], TooLarge],
        sink: BinaryIO | None,
    ) -> None:
        self._inflater = inflater
        self._max_bytes = max_bytes
        self._too_large = too_large
        self._sink = sink
        self.size = 0  # decoded bytes so far
        self._chunks: list[bytes] = []  # without a sink: the body
        self._head = b""  # with a sink: its first bytes
        self._pending = b""  # with a sink: the body's first bytes, held until a BOM can be ruled out
        self._started = False
        self._unwritten: list[bytes] = []  # with a sink: decoded bytes not yet written
        self._since_yield = 0  # without a sink: bytes decoded since the loop last had a pass

    def decode_and_write(self, raw: bytes) -> None:
        """(With a sink, in the writer thread.) Decode ``raw``; write what it gives."""
        for piece in self._pieces(raw):
            self._keep(piece)
            self._write()  # a piece at a time: a highly compressed chunk is never held whole

    async def decode_on_loop(self, raw: bytes) -> None:
        """(Without a sink.) Decode ``raw``, giving the loop a pass every ``_YIELD_EVERY`` bytes."""
        for piece in self._pieces(raw):
            self._keep(piece)
            self._since_yield += len(piece)
            if self._since_yield >= _YIELD_EVERY:
                self._since_yield = 0
                await asyncio.sleep(0)

    def end(self) -> None:
        """The body is all read: what the inflater still holds, and the last write."""
        if self._inflater is not None:
            tail = self._inflater.finish()
            self._count(tail)
            self._keep(tail)
        self._keep(b"", last=True)
        if self._sink is not None:
            self._write()

    def result(self) -> bytes:
        """The body (without a sink), or its first bytes (with one)."""
        return b"".join(self._chunks) if self._sink is None else self._head

    def _pieces(self, raw: bytes) -> Iterator[bytes]:
        for piece in self._inflater.feed(raw) if self._inflater else (raw,):
            self._count(piece)
            yield piece

    def _count(self, piece: bytes) -> None:
        self.size += len(piece)
        if self.size > self._max_bytes:
            raise self._too_large()

    def _keep(self, piece: bytes, last: bool = False) -> None:
        if self._sink is None:
            self._chunks.append(piece)
            return
        if not self._started:
            self._pending += piece
            pending = self._pending
            if not last and len(pending) < len(codecs.BOM_UTF8) and codecs.BOM_UTF8.startswith(pending):
                return
            self._started = True
            piece = pending[len(codecs.BOM_UTF8) :] if pending.startswith(codecs.BOM_UTF8) else pending
            self._pending = b""
        if len(self._head) < _HEAD:
            self._head += piece[: _HEAD - len(self._head)]
        if piece:
            self._unwritten.append(piece)

    def _write(self) -> None:
        assert self._sink is not None
        if self._unwritten:
            data = b"".join(self._unwritten)
            self._unwritten.clear()
            self._sink.write(data)


def check_json_array(kind: Kind, url: str, body: bytes, content_type: str) -> bytes:
    """Cheap plausibility check that ``body`` is a JSON array; returns it without a UTF-8 BOM."""
    if body.startswith(codecs.BOM_UTF8):
        body = body[len(codecs.BOM_UTF8) :]
    blank = _WHITESPACE.match(body)
    assert blank is not None  # (the pattern matches the empty string)
    start = blank.end()
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
