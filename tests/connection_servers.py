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
        while self.rfile.readline(8192) not in (b"\r\n", b"\n", b""):
            pass
        method, _, rest = line.partition(" ")
        target = rest.split(" ")[0]
        if method != "CONNECT":
            self.wfile.write(b"HTTP/1.1 405 Method Not Allowed\r\nContent-Length: 0\r\n\r\n")
            return
        self.server.record(target)
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

    def __init__(self, names: dict[str, str]) -> None:
        self.stopping = threading.Event()
        self.names = names
        self.tunnels: list[str] = []
        self._lock = threading.Lock()
        super().__init__(("127.0.0.1", 0), _Tunnel)

    def record(self, target: str) -> None:
        with self._lock:
            self.tunnels.append(target)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Clients hanging up are expected."""


class ConnectProxy:
    """A loopback HTTP proxy that tunnels CONNECT requests (and refuses anything else)."""

    def __init__(self, names: dict[str, str] | None = None) -> None:
        """``names``: host names the proxy resolves itself (a company's internal names), to
        the addresses given."""
        self._server = _ProxyServer(names or {})
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    @property
    def tunnels(self) -> list[str]:
        return list(self._server.tunnels)

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
