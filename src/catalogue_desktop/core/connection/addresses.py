"""Addresses that may hold a user name and password (``http://user:password@proxy:3128``): read
safely whatever characters the password holds, and shown without it (Qt-free).

:func:`redact` is the one way every message, report, listing and log shows an address, or any
text that may hold one: the password becomes ``***`` (``http://bob:***@proxy:3128``), the rest
is left as it was. :func:`parse_address` reads an address for use: the user info ends at the
LAST ``@`` after the scheme (so a password may hold ``/``, ``#``, ``?``, ``:``, ``@`` or ``%``;
an ``@`` in a path is written ``%40``), the user name at the first ``:`` of it. It never uses
``urlsplit`` on text that still holds a password, and raises only :class:`InvalidUrl`, whose
text never holds the password. (An ``@`` after a ``/`` in what would be the user name is a
path's: ``https://host/a@b`` has no user info.)
"""

from __future__ import annotations

import re
from typing import NamedTuple
from urllib.parse import unquote

from catalogue_desktop.core.records.errors import InvalidUrl

HIDDEN = "***"
# scheme://user:password@ in free text: the password runs to the last @ before white space
_IN_TEXT = re.compile(r"(?P<head>\b[A-Za-z][A-Za-z0-9+.-]*://)(?P<user>[^\s:/?#]*):(?P<password>\S*)@")


def redact(text: str) -> str:
    """``text`` (an address, or any text holding addresses) with every password in an address's
    user info shown as ``***``: ``http://bob:***@proxy:3128`` (an address alone may lack its
    scheme: ``bob:***@proxy:3128``). A user name stays (it says who), an address without a
    password is unchanged. Never raises."""
    if "@" not in text:
        return text
    if not any(c.isspace() for c in text):
        head, info, rest = _split(text)
        if head:  # one address: its user info ends at its last @
            user, colon, _ = (info or "").partition(":")
            return f"{head}{user}:{HIDDEN}@{rest}" if colon else text
        info, _, rest = text.rpartition("@")  # one address without a scheme: user:password@host
        user, colon, _ = info.partition(":")
        if colon and "/" not in user:
            return f"{user}:{HIDDEN}@{rest}"
    return _IN_TEXT.sub(lambda m: f"{m['head']}{m['user']}:{HIDDEN}@", text)


class Address(NamedTuple):
    """An address read by :func:`parse_address`: ``user`` and ``password`` percent-decoded
    (None when absent), ``host`` without brackets, ``port`` (None: the scheme's),
    ``rest`` the path, query and fragment as written. A named tuple, not a dataclass: a dataclass
    is compiled at every start (docs/decisions.md)."""

    scheme: str
    host: str
    port: int | None = None
    rest: str = ""
    user: str | None = None
    password: str | None = None

    def __repr__(self) -> str:  # (never the password)
        return (
            f"Address(scheme={self.scheme!r}, host={self.host!r}, port={self.port!r}, "
            f"rest={self.rest!r}, user={self.user!r})"
        )

    @property
    def netloc(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return host + (f":{self.port}" if self.port is not None else "")

    @property
    def bare(self) -> str:
        """The address without user info (what is given to a URL parser, or stored)."""
        return f"{self.scheme}://{self.netloc}{self.rest}"

    @property
    def shown(self) -> str:
        """The address as messages show it: ``http://bob:***@proxy:3128``."""
        if self.user is None:
            return self.bare
        hidden = f":{HIDDEN}" if self.password is not None else ""
        return f"{self.scheme}://{_quote_user(self.user)}{hidden}@{self.netloc}{self.rest}"

    def with_user(self, user: str | None, password: str | None = None) -> str:
        """The address with this user info (written back percent-encoded), for a URL client."""
        if user is None:
            return self.bare
        info = _quote_user(user) + (f":{_quote_user(password)}" if password is not None else "")
        return f"{self.scheme}://{info}@{self.netloc}{self.rest}"


def parse_address(text: str) -> Address:
    """``text`` (``scheme://[user[:password]@]host[:port][/path]``) read; InvalidUrl (its text
    redacted) if it has no scheme, no host, or a port that is not a number from 1 to 65535."""
    text = text.strip()
    head, info, rest = _split(text)
    if not head:
        raise InvalidUrl(f"not a usable address (it has no scheme://): {_short(redact(text))}", url="")
    cut = min((i for i in (rest.find(c) for c in "/?#") if i >= 0), default=len(rest))
    authority, tail = rest[:cut], rest[cut:]
    host, port_text = authority, ""
    if authority.startswith("["):
        end = authority.find("]")
        if end < 0:
            raise InvalidUrl(f"the host name is not valid (an unclosed [): {_short(redact(text))}", url="")
        host, port_text = authority[1:end], authority[end + 1 :].removeprefix(":")
        if authority[end + 1 :] and not authority[end + 1 :].startswith(":"):
            raise InvalidUrl(f"the host name is not valid: {_short(redact(text))}", url="")
    elif ":" in authority:
        host, _, port_text = authority.rpartition(":")
    port = None
    if port_text:
        if not port_text.isascii() or not port_text.isdigit() or not 0 < int(port_text) < 65536:
            raise InvalidUrl(
                f"the port {_short(port_text, 12)} is not a number from 1 to 65535: {_short(redact(text))}",
                url="",
            )
        port = int(port_text)
    if not host:
        raise InvalidUrl(f"the address has no host name: {_short(redact(text))}", url="")
    user = password = None
    if info is not None:
        raw_user, colon, raw_password = info.partition(":")
        user = unquote(raw_user)
        password = unquote(raw_password) if colon else None
    return Address(head[:-3].lower(), host, port, tail, user, password)


def without_user(text: str) -> tuple[str, str | None, str | None]:
    """(``text`` without its user info, the user, the password): for an address that can then be
    parsed or stored. Never raises: an address that does not parse comes back as it was."""
    head, info, rest = _split(text.strip())
    if info is None:
        return text.strip(), None, None
    raw_user, colon, raw_password = info.partition(":")
    return head + rest, unquote(raw_user), (unquote(raw_password) if colon else None)


def _split(text: str) -> tuple[str, str | None, str]:
    """(``scheme://``, the user info or None, the rest): the user info ends at the last ``@``."""
    scheme_end = text.find("://")
    if scheme_end <= 0 or not re.fullmatch(r"[A-Za-z][A-Za-z0-9+.-]*", text[:scheme_end]):
        return "", None, text
    head, after = text[: scheme_end + 3], text[scheme_end + 3 :]
    at = after.rfind("@")
    if at < 0 or any(c in after[:at].split(":", 1)[0] for c in "/?#"):  # (an @ in a path, then)
        return head, None, after
    return head, after[:at], after[at + 1 :]


def _quote_user(value: str) -> str:
    from urllib.parse import quote

    return quote(value, safe="!$&'()*+,;=-._~")


def _short(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")
