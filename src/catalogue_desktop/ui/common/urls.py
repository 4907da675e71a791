"""Which server-supplied URLs the window may open or fetch: absolute http(s) ones only.

A module of its own so that the table and status widgets can check links at start-up without
importing the photo loader (hashlib, threads, temp files).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from catalogue_desktop.core.formats.links import web_link


def is_web_url(url: object) -> bool:
    """True for an absolute http:// or https:// URL with a host and no space, control or bidi
    character (``core.formats.links``)."""
    if not isinstance(url, str) or not url or web_link(url.strip()) is None:
        return False
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return False
    return parts.scheme.lower() in ("http", "https") and bool(parts.hostname)
