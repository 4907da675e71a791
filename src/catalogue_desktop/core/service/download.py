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
    inflater: Inflater | None = None
    if encoding in ("gzip", "x-gzip", "deflate"):
        inflater = Inflater(encoding)
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


def check_json_array(kind: Kind, url: str, body: bytes, content_type: str) -> bytes:
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
