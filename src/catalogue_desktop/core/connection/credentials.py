"""Credentials as request headers, sent to the service's own origin only.

``Credentials.headers`` are added by :func:`origin_hook` (an httpx request hook, so it also sees
every redirect) when the request goes to the configured origin (scheme, host and port), and
removed from any request that goes elsewhere: a redirect to another host or port never carries
them. The secret never appears in a ``repr``, a message or a file of the app's.
"""

from __future__ import annotations

import base64
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from catalogue_desktop.core.connection.addresses import without_user

if TYPE_CHECKING:  # (httpx: imported by the client, when one is made)
    import httpx


@dataclass(frozen=True)
class Credentials:
    """``kind``: none | bearer | basic | header; ``secret`` is never shown (``repr=False``)."""

    kind: str = "none"
    username: str = ""
    header: str = ""
    secret: str = field(default="", repr=False)

    @property
    def sent(self) -> bool:
        return self.kind != "none" and bool(self.secret)

    def headers(self) -> dict[str, str]:
        if not self.sent:
            return {}
        if self.kind == "bearer":
            return {"Authorization": f"Bearer {self.secret}"}
        if self.kind == "basic":
            pair = f"{self.username}:{self.secret}".encode()
            return {"Authorization": "Basic " + base64.b64encode(pair).decode("ascii")}
        return {self.header: self.secret}

    def describe(self) -> str:
        """What is sent, without the secret: ``a bearer token``."""
        return {
            "none": "no credentials",
            "bearer": "a bearer token",
            "basic": f"user name {self.username!r} and a password",
            "header": f"the header {self.header}",
        }.get(self.kind, "no credentials") + ("" if self.sent or self.kind == "none" else " (not found)")


def origin(url: str) -> str:
    """``https://host:443``: scheme, host and port (the default port written out; any user info
    left out, whatever characters it holds)."""
    parts = urlsplit(without_user(url)[0])
    scheme = parts.scheme.lower()
    host = (parts.hostname or "").lower()
    port = parts.port or (443 if scheme == "https" else 80)
    return f"{scheme}://{host}:{port}"


def origin_hook(credentials: Credentials, allowed: str) -> Callable[[httpx.Request], Awaitable[None]]:
    """An httpx request hook: ``credentials``' headers on requests to ``allowed`` (an
    :func:`origin`), and off every other request (a redirect copies the previous one's headers)."""
    headers = credentials.headers()
    names = [*headers, "Authorization"]

    async def hook(request: httpx.Request) -> None:
        if origin(str(request.url)) == allowed:
            request.headers.update(headers)
        else:
            for name in names:
                request.headers.pop(name, None)

    return hook
