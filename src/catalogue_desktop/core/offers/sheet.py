"""The offer sheet's HTML, for Qt's rich text (``QTextDocument``; ``ui.offers.sheet_pdf`` lays it
out on pages): the seller's letterhead, a title, a personal note and how long the offer is valid,
then the occasions grouped by course (a series' sessions under the series, a webinar alone) or by
month, each with its dates and times (``offer_text``: a zone the customer knows), place, fee with
its currency, credits, experts and link. The data's age is in every page's footer (the renderer
draws it). Every server text is escaped.

Fees never break inside ("USD 1,295": non-breaking, in a column as wide as the widest fee, which
the renderer measures: ``fee_texts``). Links are anchors with their full address (the PDF gets a
link annotation for each) shown short ("catalogue.example.org/…/7101") on one line. A series
offered whole (all its sessions among the occasions) is one item with its price and its sessions
listed; a session alone shows its fee and the series it belongs to, with the series' price.

An occasion is one table row. Qt's pages would cut a row in two where a page ends; the renderer
finds such rows and asks for the HTML again with a page break before them (``Sheet.html(breaks)``:
the group's table ends there and goes on, its heading marked "continued", on the next page).
Qt-free.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date
from typing import Any, TypedDict, Unpack

from catalogue_desktop.core.formats.drawn_text import DRAWN_LIMIT, SHORT_LIMIT, html_attribute, html_text
from catalogue_desktop.core.formats.links import is_web
from catalogue_desktop.core.offers.customer_text import (
    Style,
    day,
    experts_text,
    place_lines,
    series_notes,
    when_lines,
    whole_series,
)
from catalogue_desktop.core.offers.occasions import Occasion, by_start, instant
from catalogue_desktop.core.offers.price import group_key

HEADS = ("When", "Where", "Fee", "Credits")
WIDTHS = (46, 30, 12, 12)  # % of the page's width; the renderer measures the fee column
CSS = (
    "h1 { font-size: 17pt; margin-bottom: 4px; } "  # (margins in px: Qt reads no pt there)
    "h2 { font-size: 12.5pt; margin-top: 20px; margin-bottom: 3px; } "
    "p.about { color: #444444; margin-top: 0; margin-bottom: 0; } "
    "p.note { margin-top: 4px; margin-bottom: 8px; } "
    "th { background-color: #e8e8e8; text-align: left; font-weight: bold; } "
    "td, th { border: 0.5px solid #999999; padding: 3px; vertical-align: top; } "
    "table { border-collapse: collapse; } td.fee { white-space: nowrap; } "
    "a { color: #0645ad; }"
)
_BREAK = ' style="page-break-before: always"'
SHORT_LINK = 40  # characters a link is shown in, at most
ABOUT_LIMIT = 600  # characters of a group's experts and topics line


LETTERHEAD_KEYS = ("name", "company", "email", "phone", "logo")  # Preferences' keys: seller_KEY
LOGO_LARGEST = 5 * 1024 * 1024  # bytes: a letterhead's logo is a small image


def logo_problem(path: str) -> str | None:
    """Why the file at ``path`` cannot be a letterhead's logo (not there, not a regular file:
    ``/dev/zero`` would be read forever, larger than ``LOGO_LARGEST``), or None when it can."""
    import os
    import stat

    try:
        info = os.stat(path)
    except (OSError, ValueError) as exc:
        return f"the letterhead's logo {path} cannot be read ({getattr(exc, 'strerror', None) or exc})"
    if not stat.S_ISREG(info.st_mode):
        return f"the letterhead's logo {path} is not a regular file: it is left out"
    if info.st_size > LOGO_LARGEST:
        return (
            f"the letterhead's logo {path} is {info.st_size / 1024 / 1024:,.1f} MB, more than "
            f"{LOGO_LARGEST // 1024 // 1024} MB: it is left out"
        )
    return None


@dataclass(frozen=True)
class Letterhead:
    """The seller, as Preferences ▸ Offers has it."""

    name: str = ""
    company: str = ""
    email: str = ""
    phone: str = ""
    logo: str = ""  # a local image file (PNG, JPEG, SVG); "" for none

    def lines(self) -> list[str]:
        contact = " · ".join(p for p in (self.email, self.phone) if p)
        return [p for p in (self.company, self.name, contact) if p]


class Sheet:
    """The sheet of ``items``: its groups, and its HTML with page breaks before given rows."""

    def __init__(
        self,
        items: Sequence[Occasion],
        as_of: str | None,
        *,
        group: str = "course",
        title: str = "Offer",
        style: Style | None = None,
        letterhead: Letterhead | None = None,
        note: str = "",
        valid_until: date | None = None,
    ) -> None:
        self.count = len(items)
        self.as_of = as_of
        self.title = title
        self.by_month = group == "month"
        self.style = style or Style()
        self.letterhead = letterhead or Letterhead()
        self.note = note.strip()
        self.valid_until = valid_until
        self.fee_width: float | None = None  # % of the page, set by the renderer from the fees
        self.whole = whole_series(items)
        groups: dict[Any, list[Occasion]] = {}
        for o in by_start(items):
            groups.setdefault(self._key(o), []).append(o)
        self.groups = [(key, _heading(key, members[0]), members) for key, members in groups.items()]
        starts, row = [], 0
        for _key, _heading_text, members in self.groups:
            starts.append(row)
            row += len(members)
        self.group_starts = frozenset(starts)  # the rows (in document order) that begin a group
        self.rows = row

    def _key(self, o: Occasion) -> Any:
        if self.by_month:
            moment = instant(o.start)
            return f"{moment:%B %Y}" if moment is not None else "On demand"
        return group_key(o)  # (the item ``price.price`` prices: one voice with the offer log)

    def fee_texts(self) -> list[str]:
        """Every text the fee column holds (the renderer measures the widest)."""
        return [HEADS[2]] + [self._fee(o) for _k, _h, members in self.groups for o in members]

    def _fee(self, o: Occasion) -> str:
        if o.kind == "session" and not self.by_month and o.series_id in self.whole:
            return "Included"
        return self.style.fee(o.fee)

    def html(self, breaks: Collection[int] = frozenset()) -> str:
        """The sheet, a new page begun before each row in ``breaks`` (rows numbered 0, 1, ... in
        document order): before its group's heading if it is the group's first row."""
        n = self.count
        parts = [*self._head(), f"<h1>{_text(self.title)}</h1>"]
        if self.note:
            parts.append(f'<p class="note">{"<br>".join(_text(x) for x in self.note.splitlines())}</p>')
        about = f"{n:,} date{'s' if n != 1 else ''}"
        if self.valid_until is not None:
            until = self.valid_until
            about += f" · This offer is valid until {day(until, self.style.time_text)}"
        parts.append(f'<p class="about">{_text(about)}</p>')
        if not n:
            parts.append("<p>No dates to offer.</p>")
        table = self._table()
        row = 0
        for key, heading, members in self.groups:
            first = members[0]
            shared = not self.by_month and all(o.experts == first.experts for o in members)
            parts.append(f"<h2{_BREAK if row in breaks else ''}>{_text(heading)}</h2>")
            about_parts = [
                self._kind_label(key, first, len(members)) if not self.by_month else "",
                f"Experts: {experts_text(first.experts)}" if shared and first.experts else "",
                f"Topics: {', '.join(first.topics)}" if not self.by_month and first.topics else "",
            ]
            if any(about_parts):
                text = " · ".join(a for a in about_parts if a)
                parts.append(f'<p class="about">{_text(text, ABOUT_LIMIT)}</p>')
            parts.append(table)
            for i, o in enumerate(members):
                if i and row in breaks:
                    parts += ["</table>", f"<h2{_BREAK}>{_text(heading)} (continued)</h2>", table]
                parts.append(self._row(o, heading, shared))
                row += 1
            parts.append("</table>")
        return f"<html><head><style>{CSS}</style></head><body>{''.join(parts)}</body></html>"

    def _head(self) -> list[str]:
        """The letterhead: the logo at the left, the seller at the right."""
        head = self.letterhead
        lines = head.lines()
        if not lines and not head.logo:
            return []
        logo = f'<img src="{_attr(head.logo)}" height="48">' if head.logo else ""
        seller = "<br>".join(
            f"<b>{_text(line)}</b>" if i == 0 else _text(line) for i, line in enumerate(lines)
        )
        return [
            '<table width="100%" cellspacing="0" cellpadding="0" style="border: none"><tr>'
            f'<td style="border: none">{logo}</td>'
            f'<td style="border: none" align="right">{seller}</td></tr></table>'
        ]

    def _table(self) -> str:
        widths = [float(w) for w in WIDTHS]
        if self.fee_width is not None:
            fee = max(6.0, min(self.fee_width, 30.0))
            rest = 100 - fee
            others = sum(w for i, w in enumerate(WIDTHS) if i != 2)
            widths = [fee if i == 2 else w * rest / others for i, w in enumerate(WIDTHS)]
        cells = "".join(f'<th width="{w:.1f}%">{h}</th>' for h, w in zip(HEADS, widths, strict=True))
        # (Qt's rich text keeps no margin below a paragraph before a table: the table's own, px)
        return (
            '<table width="100%" cellspacing="0" cellpadding="3" style="margin-top: 6px">'
            f"<thead><tr>{cells}</tr></thead>"
        )

    def _kind_label(self, key: object, o: Occasion, n: int) -> str:
        if isinstance(key, tuple) and key[0] == "series" and key[1] in self.whole:
            _title, fee, size = self.whole[key[1]]
            price = f", {self.style.fee(fee)} for the whole series" if fee is not None else ""
            return f"Series of {size} sessions{price}"
        if o.kind == "course":
            return f"Course, {n} dates and places" if n > 1 else "Course"
        if o.kind == "session":
            return f"Series: {n} of its sessions" if n > 1 else "Series session"
        return "Webinar, on demand" if o.on_demand else "Webinar"

    def _row(self, o: Occasion, heading: str, shared: bool) -> str:
        what = []
        if self.by_month or o.title != heading:
            what.append(f"<b>{_text(o.title)}</b>")
        if o.experts and not shared:
            what.append(f"<i>{_text(experts_text(o.experts), SHORT_LIMIT)}</i>")
        what += [_text(line) for line in when_lines(o, self.style)]
        whole = not self.by_month and o.series_id in self.whole
        if not whole:
            what += [_text(line) for line in series_notes(o, self.style)]
        if o.url:
            what.append(link(o.url))
        cells = (
            ("", "<br>".join(what)),
            ("", "<br>".join(_text(p, SHORT_LIMIT) for p in place_lines(o))),
            (' class="fee"', _text(self._fee(o))),
            ("", _text(o.credits())),
        )
        return "<tr>" + "".join(f"<td{attr}>{c}</td>" for attr, c in cells) + "</tr>"


def link(url: str) -> str:
    """A link as printed: an anchor with the full address (http or https; anything else is
    text), shown short and on one line."""
    shown = _text(short_url(url), SHORT_LIMIT).replace(" ", "&nbsp;")
    if not is_web(url):
        return shown
    return f'<a href="{_attr(url)}" style="white-space: nowrap">{shown}</a>'


class SheetOptions(TypedDict, total=False):
    """``Sheet``'s options (``sheet_html`` passes them on)."""

    group: str
    title: str
    style: Style | None
    letterhead: Letterhead | None
    note: str
    valid_until: date | None


def sheet_html(items: Sequence[Occasion], as_of: str | None, **options: Unpack[SheetOptions]) -> str:
    """The sheet of ``items`` as HTML (``Sheet``'s options), no page breaks asked for."""
    return Sheet(items, as_of, **options).html()


def short_url(url: str | None, limit: int = SHORT_LINK) -> str:
    """A link as shown: without "https://" and "www.", its last parts left out past ``limit``
    characters ("catalogue.example.org/webinars/50210/…"); the link keeps the whole address."""
    if not url:
        return ""
    if not is_web(url):
        return url
    text = url.split("://", 1)[1].rstrip("/")
    text = text[4:] if text.lower().startswith("www.") else text
    if len(text) <= limit:
        return text
    parts = text.split("/")
    kept = parts[0]
    for part in parts[1:]:
        if len(kept) + len(part) + 3 > limit:
            break
        kept += "/" + part
    return f"{kept}/…" if len(kept) + 2 <= limit else text[: limit - 1] + "…"


def _heading(key: str | tuple[object, ...], first: Occasion) -> str:
    if isinstance(key, str):
        return key
    return (first.series or first.title) if key[0] == "series" else first.title


def _text(value: object, limit: int = DRAWN_LIMIT) -> str:
    """Every text the sheet draws: capped, its bidi controls made visible, escaped
    (``formats.drawn_text.html_text``): no field can reverse its text or make the layout slow."""
    return html_text(value, limit)


def _attr(value: object) -> str:
    return html_attribute(value, 8000)
