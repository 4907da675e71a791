"""The offer sheet's HTML, for Qt's rich text (``QTextDocument``; ``ui.offers.sheet_pdf`` lays it
out on pages): a title, then the occasions grouped by course (a series' sessions under the series,
a webinar alone) or by month, each with its dates, place, fee, credits, experts and link, and at
the end the data's age (``occasions.age_line``). Every server text is escaped.

An occasion is one table row. Qt's pages would cut a row in two where a page ends; the renderer
finds such rows and asks for the HTML again with a page break before them (``Sheet.html(breaks)``:
the group's table ends there and goes on, its heading marked "continued", on the next page).
Qt-free.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from typing import Any

from catalogue_desktop.core.formats.links import is_web
from catalogue_desktop.core.formats.text import DRAWN_LIMIT, SHORT_LIMIT, html_text
from catalogue_desktop.core.offers.occasions import (
    Occasion,
    age_line,
    by_start,
    instant,
    money,
    until,
    when,
)

HEADS = (("When", 36), ("Where", 23), ("Fee", 8), ("Credits", 10), ("Details", 23))  # (name, %)
CSS = (
    "h1 { font-size: 17pt; margin-bottom: 2pt; } "
    "h2 { font-size: 12.5pt; margin-top: 12pt; margin-bottom: 2pt; } "
    "p.about { color: #444444; margin-top: 0; margin-bottom: 4pt; } "
    "th { background-color: #e8e8e8; text-align: left; font-weight: bold; } "
    "td, th { border: 0.5px solid #999999; padding: 3px; vertical-align: top; } "
    "table { border-collapse: collapse; } p.age { color: #444444; font-size: 8pt; }"
)
_BREAK = ' style="page-break-before: always"'
ABOUT_LIMIT = 600  # characters of a group's experts and topics line


class Sheet:
    """The sheet of ``items``: its groups, and its HTML with page breaks before given rows."""

    def __init__(
        self,
        items: Sequence[Occasion],
        as_of: str | None,
        *,
        group: str = "course",
        title: str = "Offer",
        currency: str | None = None,
        local: bool = False,
        fee_text: Callable[[Any], str] | None = None,
        when_text: Callable[[Any], str] | None = None,
        until_text: Callable[[Any, Any], str] | None = None,
    ) -> None:
        """``when_text(start)`` and ``until_text(start, end)``: how the window writes times
        (its locale and zone labels); else ``offers.when`` and ``offers.until``."""
        self.count = len(items)
        self.when = when_text or (lambda iso: when(iso, local=local))
        self.until = until_text or (lambda start, end: until(start, end, local=local))
        self.as_of = as_of
        self.title = title
        self.by_month = group == "month"
        self.local = local
        self.fee = fee_text or (lambda fee: money(fee, currency))
        groups: dict[Any, list[Occasion]] = {}
        for o in by_start(items):
            groups.setdefault(self._key(o), []).append(o)
        self.groups = [(_heading(key, members[0]), members) for key, members in groups.items()]
        starts, row = [], 0
        for _heading_text, members in self.groups:
            starts.append(row)
            row += len(members)
        self.group_starts = frozenset(starts)  # the rows (in document order) that begin a group
        self.rows = row

    def _key(self, o: Occasion) -> Any:
        if self.by_month:
            moment = instant(o.start)
            return f"{moment:%B %Y}" if moment is not None else "On demand"
        if o.kind == "session" and o.series_id is not None:
            return ("series", o.series_id)
        return (o.kind, o.id)

    def html(self, breaks: Collection[int] = frozenset()) -> str:
        """The sheet, a new page begun before each row in ``breaks`` (rows numbered 0, 1, ... in
        document order): before its group's heading if it is the group's first row."""
        n = self.count
        parts = [
            f"<h1>{_text(self.title)}</h1>",
            f'<p class="about">{n:,} occasion{"s" if n != 1 else ""}</p>',
        ]
        if not n:
            parts.append("<p>No occasions to offer.</p>")
        row = 0
        for heading, members in self.groups:
            first = members[0]
            shared = not self.by_month and all(o.experts == first.experts for o in members)
            parts.append(f"<h2{_BREAK if row in breaks else ''}>{_text(heading)}</h2>")
            about = [
                _kind_label(first, len(members)) if not self.by_month else "",
                f"Experts: {', '.join(first.experts)}" if shared and first.experts else "",
                f"Topics: {', '.join(first.topics)}" if not self.by_month and first.topics else "",
            ]
            if any(about):
                parts.append(f'<p class="about">{_text(" · ".join(a for a in about if a), ABOUT_LIMIT)}</p>')
            parts.append(_TABLE)
            for i, o in enumerate(members):
                if i and row in breaks:
                    parts += ["</table>", f"<h2{_BREAK}>{_text(heading)} (continued)</h2>", _TABLE]
                parts.append(self._row(o, heading, shared))
                row += 1
            parts.append("</table>")
        parts.append(f'<hr><p class="age">{_text(age_line(self.as_of))}</p>')
        return f"<html><head><style>{CSS}</style></head><body>{''.join(parts)}</body></html>"

    def _row(self, o: Occasion, heading: str, shared: bool) -> str:
        what = []
        if self.by_month or o.title != heading:
            what.append(f"<b>{_text(o.title)}</b>")
        if o.experts and not shared:
            what.append(f"<i>{_text(', '.join(o.experts), SHORT_LIMIT)}</i>")
        dates = [_text(self.when(o.start))]
        if o.start and o.end:
            dates.append(_text(self.until(o.start, o.end)))
        where = [_text(p, SHORT_LIMIT) for p in (o.venue, o.address, _city_line(o)) if p] or [
            _text("Online, on demand" if o.on_demand else "Online")
        ]
        cells = (
            "<br>".join(what + dates),
            "<br>".join(where),
            _text(self.fee(o.fee)),
            _text(o.credits()),
            _text(short_url(o.url), SHORT_LIMIT),
        )
        return "<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>"


_TABLE = (
    '<table width="100%" cellspacing="0" cellpadding="3"><thead><tr>'
    + "".join(f'<th width="{w}%">{h}</th>' for h, w in HEADS)
    + "</tr></thead>"
)


def sheet_html(items: Sequence[Occasion], as_of: str | None, **options: Any) -> str:
    """The sheet of ``items`` as HTML (``Sheet``'s options: group "course" or "month", title,
    currency or fee_text, local), no page breaks asked for."""
    return Sheet(items, as_of, **options).html()


def short_url(url: str | None) -> str:
    """A link as printed: without "https://" (browsers add it), so that it takes fewer lines."""
    if not url:
        return ""
    return url.split("://", 1)[1] if is_web(url) and url.lower().startswith("https://") else url


def _heading(key: Any, first: Occasion) -> str:
    if isinstance(key, str):
        return key
    return (first.series or first.title) if key[0] == "series" else first.title


def _kind_label(o: Occasion, n: int) -> str:
    if o.kind == "course":
        return f"Course, {n} dates and places" if n > 1 else "Course"
    if o.kind == "session":
        return f"Series, {n} sessions" if n > 1 else "Series"
    return "Webinar, on demand" if o.on_demand else "Webinar"


def _city_line(o: Occasion) -> str:
    place = ", ".join(p for p in (o.city, o.state) if p)
    return f"{place} {o.zip}".strip() if o.zip else place


def _text(value: Any, limit: int = DRAWN_LIMIT) -> str:
    """Every text the sheet draws: capped, its bidi controls made visible, escaped
    (``formats.text.html_text``): no field can reverse its text or make the layout slow."""
    return html_text(value, limit)
