"""What counts as a web link: made clickable (e-mail, sheet), written as a calendar's URL.

An ``http://`` or ``https://`` address with no whitespace, no control character and no bidi
control: anything else is text, not a link (a link with CR LF in it would write new lines into a
calendar file; one with a space or U+202E would not open what it shows).
"""

from __future__ import annotations

import re
from typing import Any

_NOT_IN_A_LINK = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069\"<>\\^`{|}]")


def web_link(url: Any) -> str | None:
    """``url`` if it is a web link (see the module), else None."""
    if not isinstance(url, str) or not url.lower().startswith(("http://", "https://")):
        return None
    if len(url) > 8000 or _NOT_IN_A_LINK.search(url):
        return None
    return url


def is_web(url: Any) -> bool:
    return web_link(url) is not None


def left_out(url: Any) -> bool:
    """Whether ``url`` was given (text) but is not a web link: an output leaves it out, and says so."""
    return isinstance(url, str) and bool(url.strip()) and web_link(url) is None
