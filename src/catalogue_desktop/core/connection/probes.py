"""The path to the service at the socket level: a name looked up, a TCP connection (straight, or
a tunnel through an HTTP proxy with CONNECT), a TLS handshake. Blocking calls: run them on a
thread. Used by the doctor (each step reported) and to read a refused certificate."""

from __future__ import annotations

import base64
import socket
import ssl
from dataclasses import dataclass

from catalogue_desktop.core.connection import proxy_failures
from catalogue_desktop.core.connection.addresses import parse_address, redact
from catalogue_desktop.core.connection.tls import CertFacts, decode_der, facts_of
from catalogue_desktop.core.records.errors import ProxyCause

MAX_HEAD = 16 * 1024


class ProbeError(Exception):
    """A step failed; ``str()`` says how, in words; ``fix`` what to do, when the step knows."""

    def __init__(self, text: str, fix: str = "") -> None:
        super().__init__(text)
        self.fix = fix


@dataclass(frozen=True)
class Target:
    host: str
    port: int
    tls: bool

    @classmethod
    def of(cls, url: str, default_port: int | None = None) -> Target:
        """``url``'s host and port (any user info left out, whatever it holds)."""
        address = parse_address(url)
        tls = address.scheme == "https"
        return cls(address.host, address.port or default_port or (443 if tls else 80), tls)

    def __str__(self) -> str:
        return f"{self.host}:{self.port}"


def resolve_name(host: str, port: int) -> list[str]:
    """The addresses ``host`` resolves to; ProbeError if it does not."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ProbeError(f"the name {host} could not be resolved ({exc.strerror})") from None
    except UnicodeError:
        raise ProbeError(f"the name {host!r} is not a valid host name") from None
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def connect(host: str, port: int, timeout: float, who: str = "", fix: str = "") -> socket.socket:
    """A TCP connection to ``host:port`` (``who``: ``the proxy `` when it is the proxy's)."""
    try:
        return socket.create_connection((host, port), timeout=timeout)
    except TimeoutError:
        raise ProbeError(f"no answer from {who}{host}:{port} within {timeout:g} s", fix) from None
    except ConnectionRefusedError:
        raise ProbeError(f"{who}{host}:{port} refused the connection", fix) from None
    except OSError as exc:
        raise ProbeError(f"cannot connect to {who}{host}:{port}: {exc.strerror or exc}", fix) from None


def open_socket(target: Target, proxy: str | None, timeout: float) -> socket.socket:
    """A socket to ``target``: straight, or through ``proxy`` (a tunnel, for https)."""
    if proxy is None:
        return connect(target.host, target.port, timeout)
    address = parse_address(proxy)
    if address.scheme == "https":
        raise ProbeError("a proxy reached over https cannot be probed step by step")
    fix = proxy_failures.FIXES["proxy-unreachable"]
    sock = connect(address.host, address.port or 80, timeout, "the proxy ", fix)
    if not target.tls:
        return sock  # plain http goes to the proxy as it is
    try:
        tunnel(sock, target, address.user, address.password, redact(proxy))
    except BaseException:
        sock.close()
        raise
    return sock


def tunnel(
    sock: socket.socket, target: Target, user: str | None, password: str | None, proxy: str = ""
) -> None:
    """Ask the proxy on ``sock`` for a tunnel to ``target`` (CONNECT); ProbeError unless 200."""
    lines = [f"CONNECT {target} HTTP/1.1", f"Host: {target}"]
    if user is not None and password is not None:  # (a user without a password sends nothing)
        pair = f"{user}:{password}".encode()
        lines.append("Proxy-Authorization: Basic " + base64.b64encode(pair).decode("ascii"))
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
    head = b""
    try:
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(1024)
            if not chunk:
                break
            head += chunk
            if len(head) > MAX_HEAD:
                break
    except OSError as exc:
        raise ProbeError(f"the proxy did not answer the tunnel request ({exc})") from None
    status_line = head.split(b"\r\n", 1)[0].decode("latin-1", "replace")
    fields = status_line.split(" ", 2)
    if len(fields) < 2 or not fields[1].isdigit():
        raise ProbeError("the proxy gave no usable answer to the tunnel request (CONNECT)")
    code = int(fields[1])
    shown = proxy
    if code == 407:
        sent = user is not None and password is not None
        cause: ProxyCause = "proxy-credentials-refused" if sent else "proxy-credentials-wanted"
        raise ProbeError(proxy_failures.credentials(shown, sent), proxy_failures.FIXES[cause])
    if code != 200:
        status = " ".join(fields[1:])[:80]
        raise ProbeError(
            proxy_failures.tunnel(shown, str(target), status), proxy_failures.FIXES["proxy-tunnel"]
        )


@dataclass(frozen=True)
class Handshake:
    version: str
    facts: CertFacts


def handshake(sock: socket.socket, host: str, context: ssl.SSLContext) -> Handshake:
    """A verified TLS handshake on ``sock``; ssl.SSLCertVerificationError if refused."""
    with context.wrap_socket(sock, server_hostname=host) as tls:
        info = tls.getpeercert()
        if info:
            return Handshake(tls.version() or "TLS", facts_of(dict(info)))
        der = tls.getpeercert(binary_form=True) or b""  # truststore on macOS and Windows
        return Handshake(tls.version() or "TLS", decode_der(der))
