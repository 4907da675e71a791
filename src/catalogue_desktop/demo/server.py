"""The demo catalogue service: the eight GET endpoints of docs/catalogue-api-v1.md over real HTTP.

Serves the bundled sample catalogue (``load_sample``) or a synthetic one
(``catalogue_desktop.demo.synthetic.generate``) with the behaviour of a well-run JSON service:
strong ETags and ``If-None-Match`` (304), ``Last-Modified`` and ``If-Modified-Since``, gzip on
request (compressed once per payload version, lazily), HTTP/1.1 keep-alive, 404 and 405 with a
small JSON body, and no logging.

Stdlib only (plus the package's own stdlib-only modules): importing it never pulls in PySide6,
httpx or pydantic.
"""

from __future__ import annotations

import contextlib
import email.utils
import gzip
import hashlib
import json
import re
import socket
import threading
import time
from collections.abc import Callable, Mapping
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from urllib.parse import urlsplit

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.paths import resource_path

__all__ = ["DemoServer", "compact_json", "load_sample", "serve"]

_GZIP_LEVEL = 5
_JSON_TYPE = "application/json; charset=utf-8"
_BY_PATH: dict[str, Kind] = {kind.path: kind for kind in Kind}
# A JSON string literal, or a run of whitespace outside string literals.
_TOKEN = re.compile(rb'("(?:[^"\\]|\\.)*")|[ \t\r\n]+', re.DOTALL)


def compact_json(text: bytes) -> bytes:
    """``text`` without insignificant whitespace; numbers keep their exact text (2495.00)."""
    compact = _TOKEN.sub(lambda m: m.group(1) or b"", text)
    json.loads(compact)  # fail loudly on a broken sample file
    return compact


def load_sample() -> dict[Kind, bytes]:
    """The bundled sample catalogue (``resources/demo/<kind>.json``) as compact JSON bytes."""
    return {kind: compact_json(resource_path("demo", f"{kind.value}.json").read_bytes()) for kind in Kind}


class _Version:
    """One version of one collection: body, validators and (lazily) its gzip encoding."""

    __slots__ = ("_gzip", "_lock", "body", "etag", "gzip_etag", "last_modified", "modified_header")

    def __init__(self, body: bytes, last_modified: int) -> None:
        self.body = bytes(body)
        digest = hashlib.blake2b(self.body, digest_size=16).hexdigest()
        self.etag = f'"{digest}"'
        self.gzip_etag = f'"{digest}-gzip"'  # strong ETags differ per content coding
        self.last_modified = last_modified
        self.modified_header = email.utils.formatdate(last_modified, usegmt=True)
        self._gzip: bytes | None = None
        self._lock = threading.Lock()

    def gzipped(self) -> bytes:
        with self._lock:
            if self._gzip is None:
                self._gzip = gzip.compress(self.body, compresslevel=_GZIP_LEVEL, mtime=0)
            return self._gzip


def _etag_matches(header: str, version: _Version) -> bool:
    """``If-None-Match`` uses the weak comparison: W/ prefixes are ignored."""
    if header.strip() == "*":
        return True
    for raw in header.split(","):
        tag = raw.strip()
        if tag.startswith("W/"):
            tag = tag[2:]
        if tag in (version.etag, version.gzip_etag):
            return True
    return False


def _accepts_gzip(header: str | None) -> bool:
    if not header:
        return False
    for item in header.split(","):
        coding, _, params = item.strip().partition(";")
        if coding.strip().lower() not in ("gzip", "x-gzip", "*"):
            continue
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        if quality > 0:
            return True
    return False


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "CatalogueDemo/1.0"
    sys_version = ""
    timeout = 60  # idle keep-alive connections end after a minute
    server: _HTTPServer

    def log_message(self, format: str, *args: object) -> None:  # quiet
        pass

    def version_string(self) -> str:
        return self.server_version

    def setup(self) -> None:
        super().setup()
        self.server.track(self.connection, add=True)

    def finish(self) -> None:
        try:
            super().finish()
        finally:
            self.server.track(self.connection, add=False)

    def do_GET(self) -> None:
        self._serve(head=False)

    def do_HEAD(self) -> None:
        self._serve(head=True)

    def _not_allowed(self) -> None:
        self._error(HTTPStatus.METHOD_NOT_ALLOWED, "method not allowed", allow=True)

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = _not_allowed

    def _error(self, status: HTTPStatus, message: str, *, allow: bool = False) -> None:
        body = json.dumps(
            {"status": int(status), "error": message, "path": urlsplit(self.path).path},
            separators=(",", ":"),
        ).encode()
        self.send_response(status)
        self.send_header("Content-Type", _JSON_TYPE)
        self.send_header("Content-Length", str(len(body)))
        if allow:
            self.send_header("Allow", "GET, HEAD")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _serve(self, *, head: bool) -> None:
        path = urlsplit(self.path).path
        if len(path) > 1 and path.endswith("/"):
            path = path.rstrip("/")
        kind = _BY_PATH.get(path)
        if kind is None:
            self._error(HTTPStatus.NOT_FOUND, "not found")
            return
        version = self.server.demo.version(kind)  # one consistent version for this response
        use_gzip = _accepts_gzip(self.headers.get("Accept-Encoding"))
        etag = version.gzip_etag if use_gzip else version.etag

        if self._not_modified(version):
            self.send_response(HTTPStatus.NOT_MODIFIED)
            self.send_header("ETag", etag)
            self.send_header("Last-Modified", version.modified_header)
            self.send_header("Vary", "Accept-Encoding")
            self.end_headers()
            return

        body = version.gzipped() if use_gzip else version.body
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", _JSON_TYPE)
        self.send_header("Content-Length", str(len(body)))
        if use_gzip:
            self.send_header("Content-Encoding", "gzip")
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", version.modified_header)
        self.send_header("Vary", "Accept-Encoding")
        self.send_header("Cache-Control", "no-cache")
        self.end_headers()
        if not head:
            self.wfile.write(memoryview(body))

    def _not_modified(self, version: _Version) -> bool:
        if_none_match = self.headers.get("If-None-Match")
        if if_none_match is not None:  # takes precedence over If-Modified-Since (RFC 9110)
            return _etag_matches(if_none_match, version)
        if_modified_since = self.headers.get("If-Modified-Since")
        if if_modified_since:
            try:
                since = email.utils.parsedate_to_datetime(if_modified_since)
            except (TypeError, ValueError, IndexError):
                return False
            if since.tzinfo is None:
                return False
            return version.last_modified <= since.timestamp()
        return False


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    # The listen backlog. socketserver's default, 5, is less than the 8 requests a refresh makes
    # at once: connections beyond it were dropped and retried by TCP a second later.
    request_queue_size = 128

    def __init__(self, address: tuple[str, int], demo: DemoServer) -> None:
        self.demo = demo
        self._connections: set[socket.socket] = set()
        self._connections_lock = threading.Lock()
        super().__init__(address, _Handler)

    def track(self, connection: socket.socket, *, add: bool) -> None:
        with self._connections_lock:
            if add:
                self._connections.add(connection)
            else:
                self._connections.discard(connection)

    def close_connections(self) -> None:
        """End open keep-alive connections so that their handler threads finish."""
        with self._connections_lock:
            connections = list(self._connections)
        for connection in connections:
            with contextlib.suppress(OSError):
                connection.shutdown(socket.SHUT_RDWR)

    def handle_error(
        self, request: socket.socket | tuple[bytes, socket.socket], client_address: object
    ) -> None:
        # A client that goes away mid-response is normal; anything else is still reported.
        import sys

        if isinstance(sys.exc_info()[1], (ConnectionError, TimeoutError)):
            return
        super().handle_error(request, client_address)


class DemoServer:
    """The demo catalogue service over HTTP, run in a daemon thread.

    >>> with DemoServer(load_sample()) as server:   # doctest: +SKIP
    ...     urllib.request.urlopen(server.base_url + "/v1/webinars")
    """

    def __init__(self, payloads: Mapping[Kind, bytes], host: str = "127.0.0.1", port: int = 0) -> None:
        missing = [kind.value for kind in Kind if kind not in payloads]
        if missing:
            raise ValueError(f"payloads missing for: {', '.join(missing)}")
        self._host = host
        self._port = port
        self._lock = threading.Lock()
        now = int(time.time())
        self._versions: dict[Kind, _Version] = {kind: _Version(payloads[kind], now) for kind in Kind}
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- payloads

    def version(self, kind: Kind) -> _Version:
        return self._versions[kind]

    def set_payload(self, kind: Kind, payload: bytes) -> None:
        """Replace one collection while running; its ETag and Last-Modified change."""
        with self._lock:
            # Last-Modified: now, but always later than the version it replaces (1 s resolution).
            modified = max(int(time.time()), self._versions[kind].last_modified + 1)
            self._versions[kind] = _Version(payload, modified)

    def payload(self, kind: Kind) -> bytes:
        """The bytes currently served for ``kind`` (identity encoding)."""
        return self._versions[kind].body

    def etag(self, kind: Kind) -> str:
        """The current strong ETag of ``kind`` (identity encoding)."""
        return self._versions[kind].etag

    # -- lifecycle

    def bind(self) -> DemoServer:
        """Open the listening socket (``start`` does this when needed)."""
        if self._httpd is None:
            self._httpd = _HTTPServer((self._host, self._port), self)
        return self

    @property
    def base_url(self) -> str:
        """``http://HOST:PORT``: the part before ``/v1``."""
        if self._httpd is None:
            raise RuntimeError("the server is not bound yet: call start()")
        host, port = self._httpd.server_address[:2]
        if isinstance(host, bytes):
            host = host.decode()
        if ":" in host:
            host = f"[{host}]"
        return f"http://{host}:{port}"

    def url(self, kind: Kind) -> str:
        """Full URL of the endpoint of ``kind``."""
        return self.base_url + kind.path

    def start(self) -> DemoServer:
        """Serve in a daemon thread; returns self."""
        if self._thread is not None:
            raise RuntimeError("the server is already running")
        httpd = self.bind()._httpd
        assert httpd is not None
        self._thread = threading.Thread(
            target=httpd.serve_forever,
            kwargs={"poll_interval": 0.1},
            name=f"demo-server-{self.base_url}",
            daemon=True,
        )
        self._thread.start()
        return self

    def serve_forever(self) -> None:
        """Serve in the calling thread until ``stop()`` (from another thread) or an exception."""
        httpd = self.bind()._httpd
        assert httpd is not None
        try:
            httpd.serve_forever(poll_interval=0.25)
        finally:
            self._close()

    def stop(self) -> None:
        """Stop serving, end open connections and close the listening socket."""
        httpd = self._httpd
        if httpd is None:
            return
        if self._thread is not None:
            httpd.shutdown()
            self._thread.join()
            self._thread = None
        self._close()

    def _close(self) -> None:
        httpd, self._httpd = self._httpd, None
        if httpd is not None:
            httpd.close_connections()
            httpd.server_close()

    def __enter__(self) -> DemoServer:
        return self.start()

    def __exit__(
        self,
        _exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.stop()


def serve(
    host: str = "127.0.0.1",
    port: int = 8765,
    size: int | None = None,
    seed: int = 0,
    ready: Callable[[str], None] | None = None,
) -> None:
    """Serve the sample catalogue (``size`` None) or a synthetic one until Ctrl+C.

    Blocks; prints nothing. ``ready`` is called with the base URL (``http://HOST:PORT``, the part
    before ``/v1``) once the socket listens. Ctrl+C (KeyboardInterrupt) ends it normally.
    """
    if size is None:
        payloads = load_sample()
    else:
        from catalogue_desktop.demo.synthetic import generate

        payloads = generate(size, seed)
    server = DemoServer(payloads, host, port).bind()
    try:
        if ready is not None:
            ready(server.base_url)
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
