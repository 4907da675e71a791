"""The connection doctor: the path to a service walked step by step, each step reported, and the
first problem said in plain words with its fix (Preferences ▸ Connection ▸ Test, and
``catalogue-desktop doctor``).

Steps, in order: ``address`` (a usable base URL), ``proxy`` (which one, and why), ``name`` (the
host name resolves: the proxy's, when there is one), ``tcp`` (a connection, through the proxy's
tunnel for https), ``tls`` (the handshake: the certificate's issuer and validity, the trust store
used), ``credentials`` (none of the collections answered 401/403), ``http`` (each of the eight
``/v1`` collections: its status and time) and ``body`` (each body is a JSON array). A step after
a failed one is not tried.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
import tempfile
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from catalogue_desktop.core.connection import probes, proxy_failures
from catalogue_desktop.core.connection.addresses import redact
from catalogue_desktop.core.connection.resolved import Connection
from catalogue_desktop.core.connection.tls import CaFileError, explain_refusal, presented_certificate
from catalogue_desktop.core.records.errors import (
    BadEncoding,
    CatalogueError,
    CredentialsRefused,
    CredentialsWanted,
    FetchError,
    HttpStatus,
    NotArray,
    NotJson,
    ProxyFailed,
)
from catalogue_desktop.core.records.kinds import ALL_KINDS

TITLES = {
    "address": "Address",
    "proxy": "Proxy",
    "name": "Name lookup",
    "tcp": "TCP connection",
    "tls": "TLS handshake",
    "credentials": "Credentials",
    "http": "HTTP",
    "body": "JSON body",
}
FIXES = {
    "address": "give the service's address as https://host[:port] (the part before /v1)",
    "proxy": "correct the proxy in Preferences ▸ Connection (or --proxy http://host:port)",
    "name": "check the host name's spelling; inside a company network, connect the VPN or ask IT "
    "whether the name is known outside it",
    "tcp": "check the port and that the service runs; if the network allows no direct connections, "
    "set the company's proxy in Preferences ▸ Connection (or --proxy http://host:port)",
    "tls_other": "check that the address's port speaks https (or use http://), and that no proxy "
    "interferes with the connection",
    "credentials-wanted": "set the credentials in Preferences ▸ Connection (the secret kept in the system's "
    "keyring, or in an environment variable named there), or on the command line with --token-env VAR",
    "credentials-refused": "check the token or password in Preferences ▸ Connection, or ask the service's "
    "operators for access",
    "http": "the service has a problem: try again later, or tell its operators what this report says",
    "body": "the address answers, but not with the catalogue: check the base URL (the part before "
    "/v1); a proxy's or a login page answers instead of the service?",
}
NOT_TRIED = "not tried: an earlier step failed"


@dataclass
class Step:
    """One step: ``ok`` True, False (failed) or None (not tried)."""

    step: str
    ok: bool | None
    detail: str
    fix: str = ""

    @property
    def title(self) -> str:
        return TITLES[self.step]


@dataclass
class Collection:
    kind: str
    status: int | None = None
    seconds: float | None = None
    json_array: bool | None = None
    error: str = ""


@dataclass
class DoctorReport:
    base_url: str
    steps: list[Step] = field(default_factory=list)
    collections: list[Collection] = field(default_factory=list)

    @property
    def problem(self) -> Step | None:
        """The first failed step."""
        return next((s for s in self.steps if s.ok is False), None)

    @property
    def ok(self) -> bool:
        return self.problem is None

    def step(self, name: str) -> Step | None:
        return next((s for s in self.steps if s.step == name), None)

    def to_json(self) -> dict[str, Any]:
        problem = self.problem
        return {
            "base_url": self.base_url,
            "ok": self.ok,
            "steps": [{**asdict(s), "title": s.title} for s in self.steps],
            "collections": [asdict(c) for c in self.collections],
            "problem": None
            if problem is None
            else {"step": problem.step, "title": problem.title, "detail": problem.detail, "fix": problem.fix},
        }

    def text(self) -> str:
        """The report for a terminal or the Test dialog."""
        lines = [f"Connection check of {self.base_url}"]
        for s in self.steps:
            mark = {True: "ok  ", False: "FAIL", None: "--  "}[s.ok]
            lines.append(f"  {mark} {s.title:15} {s.detail}")
        if self.collections:
            lines.append("Collections:")
            for c in self.collections:
                status = f"HTTP {c.status}" if c.status is not None else "no answer"
                seconds = f"{c.seconds:.2f} s" if c.seconds is not None else ""
                body = {True: "JSON array", False: "not a JSON array", None: ""}[c.json_array]
                line = f"  {c.kind:13} {status:9} {seconds:>8}  {body}".rstrip()
                lines.append(line + (f"  {c.error}" if c.error and c.json_array is not True else ""))
        problem = self.problem
        if problem is None:
            lines.append("No problem found: the catalogue can be read through this path.")
        else:
            lines.append(f"First problem: {problem.title}: {problem.detail}")
            lines.append(f"What to do: {problem.fix}")
        return "\n".join(lines)


def _walk(base_url: str, connection: Connection, timeout: float, report: DoctorReport) -> bool:
    """The socket-level steps (blocking); False when one failed."""
    steps = report.steps
    proxy = connection.proxy
    steps.append(Step("proxy", True, proxy.describe()))
    target = probes.Target.of(base_url)
    try:
        if proxy.url is None:
            found = probes.resolve_name(target.host, target.port)
            steps.append(Step("name", True, f"{target.host} resolves to {', '.join(found[:4])}"))
        else:
            proxy_target = probes.Target.of(proxy.url, 80)
            found = probes.resolve_name(proxy_target.host, proxy_target.port)
            steps.append(
                Step(
                    "name",
                    True,
                    f"the proxy's name {proxy_target.host} resolves to {', '.join(found[:4])} "
                    f"(the proxy looks up {target.host})",
                )
            )
    except probes.ProbeError as exc:
        steps.append(Step("name", False, str(exc), FIXES["name"] if proxy.url is None else FIXES["proxy"]))
        return False
    started = time.perf_counter()
    try:
        sock = probes.open_socket(target, proxy.url, timeout)
    except probes.ProbeError as exc:
        steps.append(Step("tcp", False, str(exc), exc.fix or FIXES["tcp" if proxy.url is None else "proxy"]))
        return False
    took = (time.perf_counter() - started) * 1000
    via = f" through the proxy's tunnel ({proxy.shown})" if proxy.url and target.tls else ""
    steps.append(Step("tcp", True, f"connected to {target}{via} in {took:.0f} ms"))
    if not target.tls:
        sock.close()
        steps.append(Step("tls", True, "plain http: no TLS (what is sent and received is not encrypted)"))
        return True
    return _handshake(sock, target, connection, timeout, steps)


def _handshake(
    sock: socket.socket, target: probes.Target, connection: Connection, timeout: float, steps: list[Step]
) -> bool:
    try:
        context = connection.ssl_context()
    except CaFileError as exc:
        sock.close()
        steps.append(Step("tls", False, str(exc), "choose a readable PEM file in Preferences ▸ Connection"))
        return False
    try:
        with sock:
            done = probes.handshake(sock, target.host, context)
    except ssl.SSLCertVerificationError as err:
        facts = None
        try:
            with probes.open_socket(target, connection.proxy.url, timeout) as again:
                facts = presented_certificate(again, target.host)
        except (probes.ProbeError, OSError):
            pass
        text = explain_refusal(err, target.host, facts, connection.ca_file or None)
        detail, _, fix = text.partition(". What to do: ")
        steps.append(Step("tls", False, detail, fix))
        return False
    except (ssl.SSLError, OSError) as exc:
        steps.append(Step("tls", False, f"the TLS handshake failed ({exc})", FIXES["tls_other"]))
        return False
    facts = done.facts
    steps.append(
        Step("tls", True, f"{done.version}; certificate {facts.describe()}; trusted by {connection.trust()}")
    )
    return True


async def _collections(base_url: str, connection: Connection, timeout: float, report: DoctorReport) -> None:
    from catalogue_desktop.core.service.client import CatalogueClient

    failures: dict[str, FetchError] = {}
    with tempfile.TemporaryDirectory(prefix="catalogue-doctor-") as spool:
        async with CatalogueClient(base_url, retries=0, deadline=timeout, connection=connection) as client:
            for kind in ALL_KINDS:
                entry = Collection(kind.value)
                report.collections.append(entry)
                started = time.perf_counter()
                try:
                    result = await client.fetch(kind, spool_dir=Path(spool))
                except FetchError as exc:
                    entry.seconds = time.perf_counter() - started
                    entry.error = str(exc)
                    if isinstance(exc, HttpStatus):
                        entry.status = exc.status
                    if isinstance(exc, NotJson | NotArray | BadEncoding):
                        entry.status, entry.json_array = 200, False
                    failures.setdefault(_step_of(exc), exc)
                    continue
                entry.status, entry.seconds, entry.json_array = result.status, result.elapsed, True
                if result.body_file is not None:
                    result.body_file.unlink(missing_ok=True)
    _collection_steps(connection, report, failures)


def _step_of(exc: FetchError) -> str:
    if isinstance(exc, CredentialsWanted | CredentialsRefused):
        return "credentials"
    if isinstance(exc, NotJson | NotArray | BadEncoding):
        return "body"
    return "http"


def _collection_steps(connection: Connection, report: DoctorReport, failures: dict[str, FetchError]) -> None:
    sent = connection.credentials.describe()
    note = f" ({connection.secret_note})" if connection.secret_note else ""
    refused = failures.get("credentials")
    if refused is not None:
        text = getattr(refused, "what", "") or str(refused)
        wanted = isinstance(refused, CredentialsWanted)
        fix = FIXES["credentials-wanted" if wanted else "credentials-refused"]
        report.steps.append(Step("credentials", False, text, fix))
    else:
        report.steps.append(Step("credentials", True, f"sent: {sent}{note}; none was refused"))
    answered = [c for c in report.collections if c.status is not None and 200 <= c.status < 300]
    failed = failures.get("http")
    if isinstance(failed, ProxyFailed):  # the proxy's answer (a 407 to plain http, say): its own fix
        report.steps.append(Step("http", False, failed.what, proxy_failures.FIXES[failed.cause]))
    elif failed is not None:
        report.steps.append(Step("http", False, str(failed), FIXES["http"]))
    else:
        timed = [c for c in report.collections if c.seconds is not None]
        slowest = max(timed, key=lambda c: c.seconds or 0.0) if timed else None
        detail = f"{len(answered)} of {len(report.collections)} collections answered with HTTP 2xx"
        if slowest is not None:
            detail += f" (slowest: {slowest.kind}, {slowest.seconds:.2f} s)"
        report.steps.append(Step("http", refused is None, detail, "" if refused is None else NOT_TRIED))
    bad = failures.get("body")
    if bad is not None:
        report.steps.append(Step("body", False, str(bad), FIXES["body"]))
    else:
        arrays = sum(1 for c in report.collections if c.json_array)
        detail = f"{arrays} of {len(report.collections)} bodies are JSON arrays"
        if arrays:
            report.steps.append(Step("body", True, detail))
        else:  # nothing to check: not a success (the step before says why)
            earlier = refused is not None or failed is not None
            report.steps.append(
                Step("body", None if earlier else False, detail, NOT_TRIED if earlier else FIXES["body"])
            )
    if report.steps[-2].ok is False and report.steps[-2].fix == NOT_TRIED:
        report.steps[-2].ok = None


async def run_doctor(
    base_url: str, connection_of: Callable[[str], Connection], timeout: float = 20.0
) -> DoctorReport:
    """Walk the path to ``base_url``. ``connection_of(normalised_url)`` makes the
    :class:`Connection` (it may raise a CatalogueError: a bad proxy address, say)."""
    from catalogue_desktop.core.service.failures import normalise_base_url

    report = DoctorReport(redact(base_url))
    try:
        base = normalise_base_url(base_url)
    except CatalogueError as exc:
        report.steps.append(Step("address", False, str(exc), FIXES["address"]))
        _not_tried(report)
        return report
    report.base_url = redact(base)
    report.steps.append(Step("address", True, f"{redact(base)}/v1"))
    try:
        connection: Connection = connection_of(base)
    except CatalogueError as exc:
        report.steps.append(Step("proxy", False, str(exc), FIXES["proxy"]))
        _not_tried(report)
        return report
    if not await asyncio.to_thread(_walk, base, connection, timeout, report):
        _not_tried(report)
        return report
    await _collections(base, connection, timeout, report)
    return report


def _not_tried(report: DoctorReport) -> None:
    done = {s.step for s in report.steps}
    for name in TITLES:
        if name not in done:
            report.steps.append(Step(name, None, NOT_TRIED))
