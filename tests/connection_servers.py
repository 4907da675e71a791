"""Real parts for the connection tests, all on loopback: a TLS fault server with a certificate
from a ``trustme`` test CA, and a small HTTP CONNECT proxy that records the tunnels it opened.

    ca = trustme.CA()
    with tls_server(ca) as server, ConnectProxy() as proxy:
        ...  # https://127.0.0.1:port, proxy.url; proxy.tunnels lists "127.0.0.1:port"
"""

from __future__ import annotations

import datetime
import select
import socket
import socketserver
import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from types import TracebackType
from typing import Any, Self

import trustme

from catalogue_desktop.core.records.kinds import Kind
from tests.faultserver import FaultServer

IDLE = 5.0  # s a tunnel may sit idle before the proxy closes it


def server_context(ca: trustme.CA, *names: str, expired: bool = False) -> ssl.SSLContext:
    """A server context with a certificate from ``ca`` for ``names`` (default 127.0.0.1, localhost)."""
    kwargs: dict[str, Any] = {}
    if expired:
        kwargs["not_before"] = datetime.datetime(2020, 1, 1, tzinfo=datetime.UTC)
        kwargs["not_after"] = datetime.datetime(2021, 1, 1, tzinfo=datetime.UTC)
    cert = ca.issue_cert(*(names or ("127.0.0.1", "localhost")), **kwargs)
    ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    cert.configure_cert(ctx)
    return ctx


@contextmanager
def tls_server(
    ca: trustme.CA, *names: str, expired: bool = False, body: bytes = b"[]"
) -> Iterator[FaultServer]:
    """A fault server over https answering every collection with ``body``."""
    with FaultServer(tls=server_context(ca, *names, expired=expired)) as server:
        for kind in Kind:
            server.set(kind.path, "json", body=body)
        yield server


class _Tunnel(socketserver.StreamRequestHandler):
    server: _ProxyServer

    def handle(self) -> None:
        line = self.rfile.readline(8192).decode("latin-1").strip()
        headers: list[str] = []
        while (header := self.rfile.readline(8192)) not in (b"\r\n", b"\n", b""):
            headers.append(header.decode("latin-1").strip())
        method, _, rest = line.partition(" ")
        target = rest.split(" ")[0]
        authorized = self.server.wanted is None or f"Proxy-Authorization: {self.server.wanted}" in headers
        if method != "CONNECT":  # plain http forwarded: only the 407 of a proxy wanting a login
            status = b"405 Method Not Allowed" if authorized else b"407 Proxy Authentication Required"
            self.wfile.write(b"HTTP/1.1 " + status + b"\r\nContent-Length: 0\r\n\r\n")
            return
        self.server.record(target)
        self.server.record_auth(
            next((h for h in headers if h.lower().startswith("proxy-authorization:")), None)
        )
        if self.server.hang_up:
            return  # closes without a word
        if not authorized:
            self.wfile.write(
                b"HTTP/1.1 407 Proxy Authentication Required\r\n"
                b'Proxy-Authenticate: Basic realm="corp"\r\nContent-Length: 0\r\n\r\n'
            )
            return
        if self.server.inspect is not None:
            self._inspect(self.server.inspect)
            return
        host, _, port = target.rpartition(":")
        host = self.server.names.get(host, host)  # names only the proxy's network knows
        try:
            upstream = socket.create_connection((host, int(port)), timeout=IDLE)
        except OSError:
            self.wfile.write(b"HTTP/1.1 502 Bad Gateway\r\nContent-Length: 0\r\n\r\n")
            return
        self.wfile.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        self.wfile.flush()
        with upstream:
            self._relay(self.connection, upstream)

    def _inspect(self, inspect: tuple[ssl.SSLContext, bytes]) -> None:
        """A TLS-inspecting proxy that could not verify the service: the client's TLS ended here
        (with a certificate the client trusts), and every request answered 502 with ``body``."""
        context, body = inspect
        self.wfile.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        self.wfile.flush()
        with context.wrap_socket(self.connection, server_side=True) as tls:
            reader = tls.makefile("rb")
            while reader.readline(8192) not in (b"\r\n", b"\n", b""):
                pass
            head = f"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\nContent-Length: {len(body)}\r\n"
            tls.sendall(head.encode() + b"Connection: close\r\n\r\n" + body)

    def _relay(self, a: socket.socket, b: socket.socket) -> None:
        peers = {a: b, b: a}
        while not self.server.stopping.is_set():
            ready, _, _ = select.select(list(peers), [], [], 0.2)
            for sock in ready:
                try:
                    data = sock.recv(65536)
                except OSError:
                    return
                if not data:
                    return
                peers[sock].sendall(data)


class _ProxyServer(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(
        self,
        names: dict[str, str],
        wanted: str | None = None,
        hang_up: bool = False,
        inspect: tuple[ssl.SSLContext, bytes] | None = None,
    ) -> None:
        self.stopping = threading.Event()
        self.names = names
        self.wanted = wanted
        self.hang_up = hang_up
        self.inspect = inspect
        self.tunnels: list[str] = []
        self.auths: list[str | None] = []
        self._lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), _Tunnel)

    def record(self, target: str) -> None:
        with self._lock:
            self.tunnels.append(target)

    def record_auth(self, header: str | None) -> None:
        with self._lock:
            self.auths.append(header)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients hanging up are expected."""


class ConnectProxy:
    """A loopback HTTP proxy that tunnels CONNECT requests (and refuses anything else)."""

    def __init__(
        self,
        names: dict[str, str] | None = None,
        *,
        login: tuple[str, str] | None = None,
        hang_up: bool = False,
        inspect: tuple[ssl.SSLContext, bytes] | None = None,
    ) -> None:
        """``names``: host names the proxy resolves itself (a company's internal names), to
        the addresses given; ``login``: the user and password it asks for (407 without them);
        ``hang_up``: it closes every connection without answering; ``inspect``: it ends the
        client's TLS itself (this server context) and answers 502 with this body."""
        wanted = None
        if login is not None:
            import base64

            wanted = "Basic " + base64.b64encode(f"{login[0]}:{login[1]}".encode()).decode("ascii")
        self._server = _ProxyServer(names or {}, wanted, hang_up, inspect)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def tunnels(self) -> list[str]:
        return list(self._server.tunnels)

    @property
    def auths(self) -> list[str | None]:
        """Each CONNECT's Proxy-Authorization header (None: none was sent)."""
        return list(self._server.auths)

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(
        self, _exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self._server.stopping.set()
        self._server.shutdown()
        with suppress(OSError):
            self._server.server_close()
        self._thread.join(5)
