"""Links in a detail page: record links we make (``catalogue:webinars/7001``) and http(s) URLs.

SAFETY: the only rich text in a page is built here, from ``html.escape()``d titles and hrefs we
make ourselves or http(s) URLs checked by ``is_web_url``; any other URL (``javascript:``,
``file:``...) is shown as inert plain text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Sequence
from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from catalogue_desktop.core.formats.drawn_text import visible
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.common.urls import is_web_url
from catalogue_desktop.ui.detail.plain_labels import (
    SELECTABLE,
    TextLabel,
    plain_label,
    set_plain_text,
    text_height,
)

__all__ = [
    "Link",
    "internal_href",
    "link_label",
    "parse_internal_href",
    "set_links",
    "set_url",
    "url_label",
    "url_variant",
]

LINKS = (
    SELECTABLE
    | Qt.TextInteractionFlag.LinksAccessibleByMouse
    | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
)
_HREF = re.compile(r"^catalogue:([a-z]+)/(-?\d+)$")


def internal_href(kind: Kind, record_id: int) -> str:
    return f"catalogue:{kind.value}/{record_id}"


def parse_internal_href(href: str) -> tuple[Kind, int] | None:
    match = _HREF.match(href)
    if not match:
        return None
    try:
        return Kind(match.group(1)), int(match.group(2))
    except ValueError:
        return None


@dataclass(frozen=True, slots=True)
class Link:
    """One entry of a link list: an internal record link, or plain text when ``href`` is None."""

    text: str
    href: str | None = None
    note: str = ""


def link_label(links: Sequence[Link], name: str | None = None, *, separator: str = "<br>") -> QLabel:
    """A label with our own rich text: escaped titles, hrefs we built. ``linkActivated(href)``."""
    label = TextLabel()
    label.setTextFormat(Qt.TextFormat.RichText)
    set_links(label, links, separator=separator)
    label.setWordWrap(True)
    label.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
    text_height(label, True)
    label.setOpenExternalLinks(False)
    label.setTextInteractionFlags(LINKS)
    if name:
        label.setObjectName(name)
    return label


def set_links(label: QLabel, links: Sequence[Link], *, separator: str = "<br>") -> None:
    """Set the links of a :func:`link_label`."""
    parts = []
    for link in links:
        text = html.escape(visible(link.text))
        part = f'<a href="{html.escape(link.href, quote=True)}">{text}</a>' if link.href else text
        if link.note:
            part += f' <span style="color: gray">{html.escape(visible(link.note))}</span>'
        parts.append(part)
    label.setText(separator.join(parts))


def url_variant(url: str) -> str:
    """How :func:`url_label` shows ``url``: as a "link", or as "inert" text."""
    return "link" if is_web_url(url) else "inert"


def url_label(url: str, name: str | None = None) -> QLabel:
    """An http(s) URL as a link; anything else (javascript:, file:, ...) as inert plain text."""
    if url_variant(url) == "link":
        label = link_label([], name)
    else:
        label = plain_label("", name)
        label.setProperty("inert", True)
    set_url(label, url)
    return label


def set_url(label: QLabel, url: str) -> None:
    """Set the URL of a :func:`url_label` made for the same :func:`url_variant`."""
    if label.property("inert") is True:
        set_plain_text(label, f"{url} (not a web address; not opened)")
    else:
        set_links(label, [Link(breakable(url), url.strip())])


def breakable(url: str) -> str:
    """``url`` as shown: a zero-width space after each "/", ".", "-", "?", "&" and "=", where a narrow
    details pane may wrap it (a long address made the page wider than the pane: cut on the
    right). The link's target stays the address itself."""
    return re.sub(r"([/.\-?&=])(?=.)", "\\1\u200b", url.strip())
