"""A refusal explained: a certificate that failed verification, credentials asked for or refused.

These are not "offline" nor "service errors": each has its own words and its own remedy.
"""

from __future__ import annotations

import http
import ssl

from catalogue_desktop.core.connection.probes import ProbeError, Target, open_socket
from catalogue_desktop.core.connection.resolved import Connection
from catalogue_desktop.core.connection.tls import explain_refusal, presented_certificate
from catalogue_desktop.core.records.errors import CredentialsRefused, CredentialsWanted, HttpStatus
from catalogue_desktop.core.records.kinds import Kind

PROBE_TIMEOUT = 10.0
ASKS = "the service asks for credentials"
REFUSED = "these credentials are refused"
HOW_TO_GIVE = (
    "set them in Preferences ▸ Connection (kept in the system's keyring), or on the command line "
    "with --token-env VAR (a bearer token read from the environment variable VAR)"
)


def certificate_text(err: ssl.SSLCertVerificationError, url: str, connection: Connection | None) -> str:
    """The refusal of ``url``'s certificate in words (blocking: reads the presented certificate
    over a second, unverified handshake; run it on a thread)."""
    target = Target.of(url)
    proxy = connection.proxy.url if connection is not None else None
    facts = None
    try:
        sock = open_socket(target, proxy, PROBE_TIMEOUT)
    except (ProbeError, OSError):
        sock = None
    if sock is not None:
        with sock:
            facts = presented_certificate(sock, target.host)
    ca_file = connection.ca_file if connection is not None else None
    return f"{target}: " + explain_refusal(err, target.host, facts, ca_file or None)


def credentials_error(
    status: int, connection: Connection | None, kind: Kind | None, url: str
) -> HttpStatus | None:
    """401 and 403 in their own words (None for any other status)."""
    if status not in (401, 403):
        return None
    phrase = http.HTTPStatus(status).phrase
    credentials = connection.credentials if connection is not None else None
    if status == 401 and (credentials is None or not credentials.sent):
        text = f"{ASKS} (HTTP 401 {phrase})"
        if credentials is not None and credentials.kind != "none" and connection is not None:
            text += f": {credentials.describe()}, {connection.secret_note}"
        wanted = CredentialsWanted(f"{text}; {HOW_TO_GIVE}", status=status, kind=kind, url=url)
        wanted.what = text
        return wanted
    sent = credentials.describe() if credentials is not None else "no credentials"
    text = f"{REFUSED} (HTTP {status} {phrase}: the service refused {sent})"
    if credentials is None or not credentials.sent:
        text = f"{REFUSED} (HTTP {status} {phrase}: the service refuses access without credentials)"
    fix = "check the token or password in Preferences ▸ Connection, or ask the service's operators for access"
    refused = CredentialsRefused(f"{text}; {fix}", status=status, kind=kind, url=url)
    refused.what = text
    return refused
