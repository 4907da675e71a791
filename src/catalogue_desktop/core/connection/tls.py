"""TLS as the operating system sees it, and a refused certificate explained in words.

Verification always stays on: the context is ``truststore.SSLContext`` (the OS trust store: the
Keychain on macOS, the Windows store, the system's CA bundle on Linux), plus an optional extra CA
file. When a service's certificate is refused, :func:`explain_refusal` says why (the issuer is
not trusted, the name does not match, expired), which certificate was presented, which trust
store was used, and what to do. To name the certificate it reads it once more over a second
handshake that verifies nothing and sends nothing: its only use is that description.
"""

from __future__ import annotations

import os
import socket
import ssl
import tempfile
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from catalogue_desktop.core.records.errors import CatalogueError

# OpenSSL's X509_V_ERR_* codes (what ``SSLCertVerificationError.verify_code`` holds on Linux)
_UNTRUSTED = {2, 18, 19, 20, 21, 27, 30}
_EXPIRED = 10
_NOT_YET_VALID = 9
_NAME = {62, 64}
_REVOKED = 23
_FIELD = 120  # a name from the certificate is cut to this many characters (service text)

WHAT_TO_DO_ISSUER = (
    "if your company inspects TLS (Zscaler, Netskope, a firewall) or runs its own certificate "
    "authority, install that CA certificate in the system's certificate store (IT usually has it; "
    "the browser shows it under the padlock), or give it as an extra CA file in Preferences ▸ "
    "Connection (on the command line: --ca-file FILE). Verification cannot be turned off"
)
WHAT_TO_DO_NAME = "check the service address: use the host name the certificate was issued for"
WHAT_TO_DO_EXPIRED = (
    "the service's certificate must be renewed: tell its operators (or check the computer's clock)"
)


class CaFileError(CatalogueError):
    """The extra CA file cannot be read or holds no certificate."""


def ssl_context(ca_file: str | Path | None = None) -> ssl.SSLContext:
    """A client context verifying against the OS trust store (and ``ca_file``, if given)."""
    import truststore

    ctx = truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    if ca_file:
        path = Path(ca_file).expanduser()
        try:
            ctx.load_verify_locations(cafile=str(path))
        except FileNotFoundError:
            raise CaFileError(f"the extra CA file {path} does not exist") from None
        except (OSError, ssl.SSLError) as exc:
            why = getattr(exc, "strerror", None) or "it holds no PEM certificate"
            raise CaFileError(f"the extra CA file {path} cannot be used: {why}") from None
    return ctx


def trust_text(ca_file: str | Path | None) -> str:
    """Which trust store verifies: ``the system's certificate store (and the extra CA file X)``."""
    text = "the system's certificate store"
    return f"{text} and the extra CA file {ca_file}" if ca_file else text


@dataclass(frozen=True)
class CertFacts:
    """What a certificate says of itself (service text: shown, never trusted)."""

    subject: str
    issuer: str
    not_before: datetime | None
    not_after: datetime | None
    names: tuple[str, ...]

    @property
    def self_signed(self) -> bool:
        return self.subject == self.issuer

    def validity(self) -> str:
        def day(when: datetime | None) -> str:
            return when.strftime("%Y-%m-%d") if when else "?"

        return f"valid {day(self.not_before)} to {day(self.not_after)}"

    def describe(self) -> str:
        names = ", ".join(self.names[:4]) + (" …" if len(self.names) > 4 else "")
        text = f'"{self.subject}" issued by "{self.issuer}", {self.validity()}'
        return text + (f", for {names}" if names else "")


def certificate_error(exc: BaseException | None) -> ssl.SSLCertVerificationError | None:
    """The certificate verification failure behind ``exc`` (an httpx error), if that is what it is."""
    seen: set[int] = set()
    while exc is not None and id(exc) not in seen:
        seen.add(id(exc))
        if isinstance(exc, ssl.SSLCertVerificationError):
            return exc
        exc = exc.__cause__ or exc.__context__
    return None


def _clip(text: str) -> str:
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text if len(text) <= _FIELD else text[: _FIELD - 1] + "…"


def decode_der(der: bytes) -> CertFacts:
    """The facts of a DER certificate (with ``cryptography`` when installed, else Python's own
    decoder)."""
    try:
        from cryptography import x509
    except ImportError:
        return _decode_with_ssl(der)
    cert = x509.load_der_x509_certificate(der)
    names: list[str] = []
    try:
        san = cert.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
        names = [*san.get_values_for_type(x509.DNSName), *map(str, san.get_values_for_type(x509.IPAddress))]
    except x509.ExtensionNotFound:
        pass
    return CertFacts(
        _clip(cert.subject.rfc4514_string()),
        _clip(cert.issuer.rfc4514_string()),
        cert.not_valid_before_utc,
        cert.not_valid_after_utc,
        tuple(_clip(n) for n in names),
    )


def _decode_with_ssl(der: bytes) -> CertFacts:
    fd, name = tempfile.mkstemp(suffix=".pem")
    try:
        with os.fdopen(fd, "w") as out:
            out.write(ssl.DER_cert_to_PEM_cert(der))
        info = ssl._ssl._test_decode_cert(name)  # type: ignore[attr-defined]
    finally:
        os.unlink(name)
    return facts_of(info)


def facts_of(info: dict[str, object]) -> CertFacts:
    """The facts of ``SSLSocket.getpeercert()``'s dict."""

    def dn(value: object) -> str:
        parts = [f"{k}={v}" for rdn in value or () for k, v in rdn]  # type: ignore[attr-defined]
        return _clip(", ".join(parts))

    def when(value: object) -> datetime | None:
        try:
            return datetime.fromtimestamp(ssl.cert_time_to_seconds(str(value)), UTC)
        except ValueError:
            return None

    alt = info.get("subjectAltName") or ()
    names = tuple(_clip(str(v)) for _k, v in alt)  # type: ignore[attr-defined]
    return CertFacts(
        dn(info.get("subject")),
        dn(info.get("issuer")),
        when(info.get("notBefore")),
        when(info.get("notAfter")),
        names,
    )


def presented_certificate(sock: socket.socket, host: str) -> CertFacts | None:
    """The certificate ``host`` presents on ``sock`` (connected, or tunnelled through a proxy),
    read over a handshake that verifies nothing; only ever used to describe a refusal."""
    look = ssl.SSLContext(ssl.PROTOCOL_TLS_CLIENT)
    look.check_hostname = False
    look.verify_mode = ssl.CERT_NONE  # to read the certificate, never to talk to the service
    try:
        with look.wrap_socket(sock, server_hostname=host) as tls:
            der = tls.getpeercert(binary_form=True)
    except (OSError, ssl.SSLError):
        return None
    return decode_der(der) if der else None


def refusal_reason(err: ssl.SSLCertVerificationError, host: str, facts: CertFacts | None) -> tuple[str, str]:
    """(what happened, what to do) for a refused certificate, in words."""
    code = getattr(err, "verify_code", None)
    message = (getattr(err, "verify_message", None) or str(err)).lower()
    now = datetime.now(UTC)
    if code == _EXPIRED or "expired" in message or (facts and facts.not_after and facts.not_after < now):
        return "the certificate has expired", WHAT_TO_DO_EXPIRED
    if code == _NOT_YET_VALID or (facts and facts.not_before and facts.not_before > now):
        return "the certificate is not valid yet", WHAT_TO_DO_EXPIRED
    if code in _NAME or "mismatch" in message or "hostname" in message:
        return f"the certificate is not for the name {host}", WHAT_TO_DO_NAME
    if code == _REVOKED or "revoked" in message:
        return "the certificate was revoked by its issuer", WHAT_TO_DO_EXPIRED
    if facts is not None and facts.self_signed:
        return "the certificate is self-signed, by an issuer this computer does not trust", WHAT_TO_DO_ISSUER
    if code in _UNTRUSTED or "issuer" in message or "self" in message or "trust" in message:
        return "the certificate's issuer is not trusted by this computer", WHAT_TO_DO_ISSUER
    detail = getattr(err, "verify_message", None) or str(err) or "unknown reason"
    return f"the certificate could not be verified ({_clip(detail)})", WHAT_TO_DO_ISSUER


def explain_refusal(
    err: ssl.SSLCertVerificationError, host: str, facts: CertFacts | None, ca_file: str | Path | None
) -> str:
    """The whole explanation: what happened, the certificate presented, the trust store, the fix."""
    what, fix = refusal_reason(err, host, facts)
    shown = f"; the service presented {facts.describe()}" if facts else ""
    return f"{what}{shown}; checked against {trust_text(ca_file)}. What to do: {fix}"
