"""What counts as a web link: made clickable (e-mail, sheet, spreadsheet), written as a calendar's
URL. The one rule every output obeys.

An ``http://`` or ``https://`` address of at most 2,079 characters (Excel's longest link; in
UTF-16 units) with a host and no user part (``user@``), no whitespace (line and paragraph separators
U+2028/U+2029 included), no control character (C0, DEL, C1), no bidi control and no invisible
character (zero-width space and joiners, word joiner, BOM): anything else is text, not a link. A
link with CR LF in it would write new lines into a calendar file; one with a space or U+202E would
not open what it shows (``…/\u202egpj.exe`` shows as "exe.jpg"); and in
``https://catalogue.example.org…aaa@evil.example/x`` everything before the ``@`` is a user name:
the link opens evil.example.
"""

from __future__ import annotations

import re

_NOT_IN_A_LINK = re.compile(
    r"[\s\x00-\x1f\x7f-\x9f\u2028\u2029\u200b-\u200f\u2060\ufeff\u061c\u202a-\u202e\u2066-\u2069\"<>\\^`{|}]"
)
LONGEST = 2079  # Excel's longest hyperlink, in UTF-16 code units; past it no output makes a link


def web_link(url: object) -> str | None:
    """``url`` if it is a web link (see the module), else None."""
    if not isinstance(url, str) or not url[:8].lower().startswith(("http://", "https://")):
        return None
    if (
        len(url) > LONGEST
        or _NOT_IN_A_LINK.search(url)
        or len(url.encode("utf-16-le", "surrogatepass")) > 2 * LONGEST
    ):
        return None
    authority = url.split("//", 1)[1].split("/", 1)[0].split("?", 1)[0].split("#", 1)[0]
    if not authority or "@" in authority:  # no host, or a user part: the host is not what it seems
        return None
    return url


def is_web(url: object) -> bool:
    return web_link(url) is not None


def left_out(url: object) -> bool:
    """Whether ``url`` was given (text) but is not a web link: an output leaves it out, and says so."""
    return isinstance(url, str) and bool(url.strip()) and web_link(url) is None
