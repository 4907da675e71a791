"""A loopback HTTP/1.1 server that misbehaves on request, for testing HTTP clients.

    with FaultServer() as server:
        server.set("/v1/webinars", "json", body=[{"webinarId": 1}], etag='"v1"')
        server.set("/v1/topics", "sequence", steps=[("status", {"status": 503}), ("json", {})])
        ...  # talk to server.base_url
        assert server.requests[0].headers["accept"] == "application/json"

Modes (``server.set(path, mode, **params)``; unknown paths answer 404):

* ``json``: ``body`` (bytes, str, or an object dumped as JSON; default ``[]``), ``status`` (200),
  ``etag`` / ``last_modified`` (answer 304 when If-None-Match / If-Modified-Since match),
  ``gzip`` (compress, with Content-Encoding: gzip), ``chunked`` (no Content-Length),
  ``content_type``, ``headers`` (extra response headers).
* ``status``: ``status`` (500), ``headers`` (e.g. ``{"Retry-After": "1"}``), ``body``,
  ``content_type``.
* ``html200``: an HTML error page with status 200 (``body`` to override).
* ``wrong_content_type``: ``body`` (default a JSON array) served as ``content_type`` (text/html).
* ``not_array``: a JSON object with status 200.
* ``truncated``: ``body`` with a Content-Length ``extra`` bytes (1000) larger, then close.
* ``bad_gzip``: Content-Encoding: gzip with garbage bytes (``body`` to override).
* ``slow_headers``: wait ``delay`` seconds (1.0) before answering like ``json`` (other params).
* ``slow_body``: send ``body`` (bytes, default a 20-byte JSON array) in ``chunk``-byte pieces
  (1), ``interval`` seconds apart (0.05), with Content-Length.
* ``endless``: a chunked body (``chunk`` bytes each, starting with ``[``) that stops when the
  client disconnects or after ``max_seconds`` (10) / ``max_bytes`` (64 MiB), then closes.
  ``gzip=True`` sends an endless gzip stream (for decoded-size caps).
* ``redirect``: ``status`` (302) with ``Location: location``.
* ``auth``: 401 (with ``WWW-Authenticate: Bearer``) unless the request's ``header``
  (``authorization``) is ``value``; then like ``json`` (other params).
* ``close``: read the request, then close without answering.
* ``raw``: exactly ``body`` (bytes) with ``status`` (200) and ``headers`` (a list of name/value
  pairs, sent as given, repeats allowed); ``length`` overrides Content-Length (None: the body's
  length; -1: no Content-Length, the connection closes after the body). No compression or
  conditional handling: for broken encodings, odd framing and exact bytes.
* ``reset``: send headers and ``body[:cut]`` (default half), then abort the connection with a TCP
  RST (SO_LINGER 0) instead of a clean close.
* ``sequence``: ``steps`` is a list of ``(mode, params)`` (or bare mode names) used in turn by
  successive requests; the last step repeats.

``server.in_flight`` is how many requests are being answered right now and ``server.max_in_flight``
the most there ever were at once (for concurrency bounds). ``FaultServer(port=N)`` listens on a
given port (default: any free one), e.g. to come back where a stopped server was;
``FaultServer(tls=context)`` speaks https with that server context (``base_url`` says https).

Every wait is bounded and wakes up on shutdown; handler threads are daemons and are joined on exit.
"""

from __future__ import annotations

import gzip as gzip_module
import json
import socket
import ssl
import struct
import threading
import time
import zlib
from collections.abc import Iterator, Mapping
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, NamedTuple, Self

__all__ = ["FaultServer", "Recorded", "refused_port"]

MODES = frozenset(
    {
        "auth",
        "json",
        "status",
        "html200",
        "wrong_content_type",
        "not_array",
        "truncated",
        "bad_gzip",
        "slow_headers",
        "slow_body",
        "endless",
        "redirect",
        "close",
        "raw",
        "reset",
        "sequence",
    }
)

HTML_PAGE = (
    b"<!DOCTYPE html>\n<html><head><title>Service unavailable</title></head>"
    b"<body><h1>Sorry</h1><p>The catalogue is down for maintenance.</p></body></html>\n"
)


class Recorded(NamedTuple):
    """One request the server received; ``headers`` has lower-case names."""

    method: str
    path: str
    headers: dict[str, str]


@dataclass
class _Route:
    mode: str
    params: dict[str, Any]
    hits: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def next_step(self) -> tuple[str, dict[str, Any]]:
        if self.mode != "sequence":
            return self.mode, self.params
        steps = self.params.get("steps") or []
        if not steps:
            raise ValueError("sequence needs at least one step")
        with self.lock:
            index = min(self.hits, len(steps) - 1)
            self.hits += 1
        step = steps[index]
        if isinstance(step, str):
            return step, {}
        mode, params = step
        return mode, dict(params)


def refused_port() -> int:
    """A loopback port nothing listens on (bound, read, closed)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _as_bytes(body: Any, default: bytes = b"[]") -> bytes:
    if body is None:
        return default
    if isinstance(body, bytes | bytearray):
        return bytes(body)
    if isinstance(body, str):
        return body.encode("utf-8")
    return json.dumps(body).encode("utf-8")


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = True
    allow_reuse_address = True
    request_queue_size = 128  # a refresh makes 8 requests at once (socketserver's default: 5)

    def __init__(self, owner: FaultServer, port: int = 0, tls: ssl.SSLContext | None = None) -> None:
        self.owner = owner
        self.tls = tls
        self.stopping = threading.Event()
        self.connections: set[socket.socket] = set()
        self.connections_lock = threading.Lock()
        super().__init__(("127.0.0.1", port), _Handler)

    def get_request(self) -> tuple[socket.socket, Any]:
        conn, address = super().get_request()
        if self.tls is not None:  # the handshake happens on the handler's thread, at its first read
            conn = self.tls.wrap_socket(conn, server_side=True, do_handshake_on_connect=False)
        return conn, address

    def process_request(self, request: Any, client_address: Any) -> None:
        with self.connections_lock:
            self.connections.add(request)
        super().process_request(request, client_address)

    def shutdown_request(self, request: Any) -> None:
        with self.connections_lock:
            self.connections.discard(request)
        super().shutdown_request(request)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients hanging up mid-answer are expected here; stay quiet."""

    def wake_connections(self) -> None:
        with self.connections_lock:
            conns = list(self.connections)
        for conn in conns:
            with suppress(OSError):
                conn.shutdown(socket.SHUT_RDWR)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server
    timeout = 5  # idle keep-alive connections end by themselves

    def log_message(self, format: str, *args: Any) -> None:
        pass

    # -- plumbing ---------------------------------------------------------------------------

    def do_GET(self) -> None:
        self._dispatch()

    def do_HEAD(self) -> None:
        self._dispatch()

    def _dispatch(self) -> None:
        owner = self.server.owner
        path = self.path.split("?", 1)[0]
        headers = {k.lower(): v for k, v in self.headers.items()}
        owner._record(Recorded(self.command, self.path, headers))
        owner._enter()
        try:
            route = owner._route(path)
            if route is None:
                self._send(404, b'{"error": "not found"}', "application/json")
                return
            mode, params = route.next_step()
            getattr(self, f"_mode_{mode}")(**params)
        finally:
            owner._leave()

    def _sleep(self, seconds: float) -> bool:
        """Bounded sleep; False when the server is shutting down."""
        return not self.server.stopping.wait(max(0.0, min(seconds, 30.0)))

    def _send(
        self,
        status: int,
        body: bytes,
        content_type: str | None = None,
        headers: Mapping[str, str] | None = None,
        *,
        length: int | None = None,
    ) -> None:
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(body) if length is None else length))
        self.end_headers()
        if self.command != "HEAD" and status not in (204, 304):
            self.wfile.write(body)

    def _send_chunked(self, pieces: Iterator[bytes]) -> None:
        for piece in pieces:
            if piece:
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
        self.wfile.write(b"0\r\n\r\n")

    # -- modes ------------------------------------------------------------------------------

    def _mode_json(
        self,
        body: Any = None,
        status: int = 200,
        etag: str | None = None,
        last_modified: str | None = None,
        gzip: bool = False,
        chunked: bool = False,
        content_type: str = "application/json",
        headers: Mapping[str, str] | None = None,
    ) -> None:
        extra = dict(headers or {})
        if etag is not None:
            extra["ETag"] = etag
        if last_modified is not None:
            extra["Last-Modified"] = last_modified
        inm = self.headers.get("If-None-Match")
        ims = self.headers.get("If-Modified-Since")
        if (etag is not None and inm is not None and etag in [t.strip() for t in inm.split(",")]) or (
            inm is None and last_modified is not None and ims == last_modified
        ):
            self.send_response(304)
            for name, value in extra.items():
                self.send_header(name, value)
            self.end_headers()
            return
        data = _as_bytes(body)
        if gzip:
            data = gzip_module.compress(data)
            extra["Content-Encoding"] = "gzip"
        if not chunked:
            self._send(status, data, content_type, extra)
            return
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        for name, value in extra.items():
            self.send_header(name, value)
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        self._send_chunked(data[i : i + 16384] for i in range(0, len(data), 16384))

    def _mode_auth(self, value: str = "", header: str = "authorization", **params: Any) -> None:
        if self.headers.get(header) != value:
            self._send(401, b'{"error": "unauthorized"}', "application/json", {"WWW-Authenticate": "Bearer"})
            return
        self._mode_json(**params)

    def _mode_status(
        self,
        status: int = 500,
        headers: Mapping[str, str] | None = None,
        body: Any = b"",
        content_type: str | None = "text/plain",
    ) -> None:
        self._send(status, _as_bytes(body, b""), content_type if body else None, headers)

    def _mode_html200(self, body: Any = None) -> None:
        self._send(200, _as_bytes(body, HTML_PAGE), "text/html; charset=utf-8")

    def _mode_wrong_content_type(self, body: Any = None, content_type: str = "text/html") -> None:
        self._send(200, _as_bytes(body, b'[{"topicId": 1, "title": "Tax"}]'), content_type)

    def _mode_not_array(self, body: Any = None) -> None:
        data = _as_bytes(body, b'{"error": "unexpected", "items": []}')
        self._send(200, data, "application/json")

    def _mode_truncated(self, body: Any = None, extra: int = 1000) -> None:
        data = _as_bytes(body, b'[{"topicId": 1, "title": "Tax"}, {"topicId": 2')
        self._send(200, data, "application/json", length=len(data) + extra)
        self.wfile.flush()
        self.close_connection = True

    def _mode_bad_gzip(self, body: Any = None) -> None:
        data = _as_bytes(body, b"\x1f\x8b\x08\x00this is not gzip at all" * 4)
        self._send(200, data, "application/json", {"Content-Encoding": "gzip"})

    def _mode_slow_headers(self, delay: float = 1.0, **params: Any) -> None:
        if not self._sleep(delay):
            self.close_connection = True
            return
        self._mode_json(**params)

    def _mode_slow_body(
        self,
        body: Any = None,
        chunk: int = 1,
        interval: float = 0.05,
        content_type: str = "application/json",
    ) -> None:
        data = _as_bytes(body, b"[1, 2, 3, 4, 5, 6, 7]")
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        for i in range(0, len(data), max(1, chunk)):
            self.wfile.write(data[i : i + chunk])
            if not self._sleep(interval):
                self.close_connection = True
                return

    def _mode_endless(
        self,
        chunk: int = 65536,
        max_seconds: float = 10.0,
        max_bytes: int = 64 * 1024 * 1024,
        gzip: bool = False,
    ) -> None:
        self.close_connection = True
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Transfer-Encoding", "chunked")
        if gzip:
            self.send_header("Content-Encoding", "gzip")
        self.end_headers()
        compressor = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16) if gzip else None
        plain = b"[" + b"0," * (chunk // 2)
        filler = b"0," * (chunk // 2)
        deadline = time.monotonic() + max_seconds
        sent = 0
        try:
            while sent < max_bytes and time.monotonic() < deadline:
                if self.server.stopping.is_set():
                    return
                piece = plain if sent == 0 else filler
                if compressor is not None:
                    piece = compressor.compress(piece) + compressor.flush(zlib.Z_SYNC_FLUSH)
                self.wfile.write(b"%x\r\n%s\r\n" % (len(piece), piece))
                sent += len(piece)
        except OSError:
            return  # the client went away

    def _mode_redirect(self, location: str = "/", status: int = 302) -> None:
        self._send(status, b"", None, {"Location": location})

    def _mode_raw(
        self,
        body: Any = b"",
        status: int = 200,
        headers: list[tuple[str, str]] | Mapping[str, str] | None = None,
        length: int | None = None,
    ) -> None:
        data = _as_bytes(body, b"")
        pairs = list(headers.items()) if isinstance(headers, Mapping) else list(headers or [])
        self.send_response(status)
        for name, value in pairs:
            self.send_header(name, value)
        if length is None:
            self.send_header("Content-Length", str(len(data)))
        elif length >= 0:
            self.send_header("Content-Length", str(length))
        else:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
        if length is not None and length != len(data):
            self.wfile.flush()
            self.close_connection = True

    def _mode_reset(self, body: Any = None, cut: int | None = None) -> None:
        data = _as_bytes(body, b'[{"topicId": 1, "title": "Tax"}, {"topicId": 2, "title": "Audit"}]')
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data[: len(data) // 2 if cut is None else cut])
        self.wfile.flush()
        self.close_connection = True
        with suppress(OSError):
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))

    def _mode_close(self) -> None:
        self.close_connection = True
        with suppress(OSError):
            self.connection.shutdown(socket.SHUT_RDWR)


class FaultServer:
    """Context manager running a fault-serving HTTP/1.1 server on 127.0.0.1 (random port)."""

    def __init__(self, port: int = 0, tls: ssl.SSLContext | None = None) -> None:
        self._tls = tls
        self._routes: dict[str, _Route] = {}
        self._lock = threading.Lock()
        self._port = port
        self.requests: list[Recorded] = []
        self.in_flight = 0  # requests being answered now
        self.max_in_flight = 0  # the most ever answered at once
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # -- configuration ----------------------------------------------------------------------

    def set(self, path: str, mode: str, **params: Any) -> None:
        """Answer requests for ``path`` with ``mode`` (see the module docstring)."""
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}")
        if mode == "sequence":
            for step in params.get("steps") or []:
                name = step if isinstance(step, str) else step[0]
                if name not in MODES or name == "sequence":
                    raise ValueError(f"bad sequence step {step!r}")
        with self._lock:
            self._routes[path] = _Route(mode, params)

    def requests_for(self, path: str) -> list[Recorded]:
        """The recorded requests whose path (without query) is ``path``."""
        with self._lock:
            return [r for r in self.requests if r.path.split("?", 1)[0] == path]

    def url(self, path: str) -> str:
        """Absolute URL of ``path`` on this server."""
        return f"{self.base_url}{path}"

    @property
    def port(self) -> int:
        if self._server is None:
            raise RuntimeError("the server is not running")
        return int(self._server.server_address[1])

    @property
    def base_url(self) -> str:
        return f"{'https' if self._tls else 'http'}://127.0.0.1:{self.port}"

    # -- lifetime ---------------------------------------------------------------------------

    def start(self) -> Self:
        self._server = _Server(self, self._port, self._tls)
        self._thread = threading.Thread(
            target=self._server.serve_forever,
            kwargs={"poll_interval": 0.05},
            name="faultserver",
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is None:
            return
        server.stopping.set()
        server.shutdown()
        server.wake_connections()
        server.server_close()  # joins the handler threads
        if self._thread is not None:
            self._thread.join(timeout=5)

    def __enter__(self) -> Self:
        return self.start()

    def __exit__(
        self,
        _exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()

    # -- used by the handler ----------------------------------------------------------------

    def _record(self, request: Recorded) -> None:
        with self._lock:
            self.requests.append(request)

    def _enter(self) -> None:
        with self._lock:
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def _leave(self) -> None:
        with self._lock:
            self.in_flight -= 1

    def _route(self, path: str) -> _Route | None:
        with self._lock:
            return self._routes.get(path)


@contextmanager
def fault_server() -> Iterator[FaultServer]:
    """Function form of :class:`FaultServer`."""
    with FaultServer() as server:
        yield server
