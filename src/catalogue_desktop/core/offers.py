"""Offers: bookable occasions (``query.offerings``) handed to a customer — JSON and CSV rows, a
calendar file (.ics, RFC 5545), e-mail text (plain and HTML) and the offer sheet's HTML (the window
and the command line render it to PDF with Qt).

Every output names the data's age ("Catalogue as of …"). Server text is data: HTML is escaped,
calendar text is escaped as RFC 5545 says. Times are the exact instants the service wrote, shown
in the event's own UTC offset. Qt-free.
"""

from __future__ import annotations

import csv
import hashlib
import html
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TextIO

from catalogue_desktop.core.query.table import parse_date

_CREDITS = (("cle", "CLE"), ("cpe", "CPE"))
JSON_KEYS = ("kind", "id", "locationId", "seriesId", "title", "start", "end", "city", "state",
             "venue", "address", "zip", "fee", "cle", "cpe", "experts", "topics", "series", "onDemand",
             "url")


@dataclass(frozen=True)
class Occasion:
    """One bookable occasion: a course location, a series session or a webinar."""

    kind: str  # course, session, webinar
    id: Any  # the course's or webinar's id
    title: str
    start: str | None = None  # ISO 8601 with the service's offset; None: on demand
    end: str | None = None
    location_id: Any = None
    series_id: Any = None
    series: str | None = None
    venue: str | None = None
    address: str | None = None
    city: str | None = None
    state: str | None = None
    zip: str | None = None
    fee: Any = None
    cle: bool | None = None
    cpe: bool | None = None
    experts: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    url: str | None = None
    on_demand: bool = False

    @property
    def uid(self) -> str:
        """Stable across exports (re-importing updates the event): from the kind and the ids."""
        key = f"{self.kind}:{self.id}:{self.location_id or ''}:{self.series_id or ''}"
        return f"{hashlib.sha1(key.encode()).hexdigest()[:20]}@catalogue-desktop"

    def credits(self) -> str:
        return ", ".join(name for attr, name in _CREDITS if getattr(self, attr)) or ""

    def place(self) -> str:
        return ", ".join(p for p in (self.venue, self.city, self.state) if p)


def occasions(found: dict[str, list[Any]], rows: Iterable[int]) -> list[Occasion]:
    """The occasions of offerings rows ``rows`` (columns as ``query.offerings.columns`` makes)."""
    out = []
    for i in rows:
        def get(key: str, i: int = i) -> Any:
            return found[key][i]

        out.append(Occasion(
            kind=get("kind"), id=get("id"), title=get("title") or f"{get('kind').capitalize()} #{get('id')}",
            start=get("startDate"), end=get("endDate"), location_id=get("locationId"),
            series_id=get("seriesId"), series=(get("series") or [None])[0], venue=get("venue"),
            address=get("address"), city=get("city"), state=get("state"), zip=get("zip"),
            fee=get("fee"), cle=get("cleAccreditation"), cpe=get("cpeAccreditation"),
            experts=list(get("experts") or ()), topics=list(get("topics") or ()), url=get("detailUrl"),
            on_demand=bool(get("ondemand")),
        ))
    return out


def by_start(items: Sequence[Occasion]) -> list[Occasion]:
    """By start time, on-demand ones last (in their order)."""
    def key(o: Occasion) -> tuple[int, int]:
        moment = parse_date(o.start)
        return (0, moment[1]) if moment else (1, 0)

    return sorted(items, key=key)


# -- text -------------------------------------------------------------------------------------


def when(iso: str | None) -> str:
    """"Tue 9 Mar 2027, 08:30 (UTC−05:00)": the date and time as written, with the offset."""
    if not iso:
        return "on demand"
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    offset = moment.utcoffset()
    minutes = 0 if offset is None else int(offset.total_seconds()) // 60
    sign = "+" if minutes >= 0 else "−"
    zone = f"UTC{sign}{abs(minutes) // 60:02d}:{abs(minutes) % 60:02d}"
    return f"{moment:%a} {moment.day} {moment:%b %Y, %H:%M} ({zone})"


def money(fee: Any, currency: str | None = None) -> str:
    if fee is None:
        return ""
    text = f"{fee:,}" if isinstance(fee, int) else str(fee)
    return f"{currency} {text}" if currency else text


def age_line(as_of: str | None) -> str:
    """The footer every output carries."""
    return (f"Catalogue as of {as_of or 'an unknown time'} — fees and dates may have changed since.")


def email_lines(items: Sequence[Occasion], currency: str | None = None,
                date_text: Callable[[str | None], str] = when) -> list[str]:
    """One line per occasion: title — date — city — fee — credits — link."""
    lines = []
    for o in items:
        parts = [o.title, date_text(o.start), o.city or ("online" if o.kind != "course" else ""),
                 money(o.fee, currency), o.credits(), o.url or ""]
        lines.append(" — ".join(p for p in parts if p))
    return lines


def email_text(items: Sequence[Occasion], as_of: str | None, currency: str | None = None,
               date_text: Callable[[str | None], str] = when) -> str:
    return "\n".join([*email_lines(items, currency, date_text), "", age_line(as_of)]) + "\n"


def email_html(items: Sequence[Occasion], as_of: str | None, currency: str | None = None,
               date_text: Callable[[str | None], str] = when) -> str:
    """A table (pastes into mail clients and spreadsheets as rows and cells)."""
    head = "".join(f"<th>{h}</th>" for h in ("Title", "Date", "Place", "Fee", "Credits", "Link"))
    rows = []
    for o in items:
        link = f'<a href="{_attr(o.url)}">{_text(o.url)}</a>' if _web(o.url) else _text(o.url)
        cells = (_text(o.title), _text(date_text(o.start)), _text(o.place() or "online"),
                 _text(money(o.fee, currency)), _text(o.credits()), link)
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return (f"<table border=\"1\" cellspacing=\"0\" cellpadding=\"4\"><tr>{head}</tr>{''.join(rows)}"
            f"</table><p><small>{_text(age_line(as_of))}</small></p>")


# -- rows -----------------------------------------------------------------------------------


def json_rows(items: Sequence[Occasion]) -> list[dict[str, Any]]:
    """What ``export offerings --format json`` writes: one object per occasion."""
    return [{
        "kind": o.kind, "id": o.id, "locationId": o.location_id, "seriesId": o.series_id,
        "title": o.title, "start": o.start, "end": o.end, "city": o.city, "state": o.state,
        "venue": o.venue, "address": o.address, "zip": o.zip,
        "fee": o.fee if isinstance(o.fee, int | None) else str(o.fee), "cle": o.cle, "cpe": o.cpe,
        "experts": o.experts, "topics": o.topics, "series": o.series, "onDemand": o.on_demand,
        "url": o.url,
    } for o in items]


def write_csv(items: Sequence[Occasion], out: TextIO) -> None:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(JSON_KEYS)
    for row in json_rows(items):
        writer.writerow(["; ".join(v) if isinstance(v, list) else "" if v is None
                         else str(v).lower() if isinstance(v, bool) else v for v in row.values()])


# -- calendar ---------------------------------------------------------------------------------


def ics(items: Sequence[Occasion], as_of: str | None, now: datetime | None = None) -> str:
    """An iCalendar file: one VEVENT per dated occasion (on-demand ones have no time to put in a
    calendar and are left out), DTSTART/DTEND as exact UTC instants, a stable UID."""
    stamp = _utc(now or datetime.now(UTC))
    lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Catalogue Desktop//Offers//EN",
             "CALSCALE:GREGORIAN", "METHOD:PUBLISH"]
    for o in items:
        start = _instant(o.start)
        if start is None:
            continue
        end = _instant(o.end) or start
        description = "\n".join(p for p in (
            f"Fee: {money(o.fee)}" if o.fee is not None else "",
            f"Credits: {o.credits()}" if o.credits() else "",
            f"Experts: {', '.join(o.experts)}" if o.experts else "",
            f"Series: {o.series}" if o.series else "", o.url or "", age_line(as_of)) if p)
        lines += ["BEGIN:VEVENT", f"UID:{o.uid}", f"DTSTAMP:{stamp}", f"DTSTART:{_utc(start)}",
                  f"DTEND:{_utc(end)}", f"SUMMARY:{_escape(o.title)}"]
        where = ", ".join(p for p in (o.venue, o.address, o.city, o.state, o.zip) if p)
        if where:
            lines.append(f"LOCATION:{_escape(where)}")
        lines.append(f"DESCRIPTION:{_escape(description)}")
        if _web(o.url):
            lines.append(f"URL:{o.url}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(_fold(line) + "\r\n" for line in lines)


def _instant(iso: str | None) -> datetime | None:
    if not iso:
        return None
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return None
    return moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _utc(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def _escape(text: str) -> str:
    """TEXT as RFC 5545 §3.3.11 writes it."""
    return (text.replace("\\", "\\\\").replace(";", "\\;").replace(",", "\\,")
            .replace("\r\n", "\\n").replace("\n", "\\n").replace("\r", "\\n"))


def _fold(line: str) -> str:
    """Lines of at most 75 octets, continued by CRLF and a space (never inside a character)."""
    data = line.encode()
    if len(data) <= 75:
        return line
    parts, chunk, size = [], "", 0
    for ch in line:
        width = len(ch.encode())
        if size + width > (75 if not parts else 74):
            parts.append(chunk)
            chunk, size = "", 0
        chunk += ch
        size += width
    parts.append(chunk)
    return "\r\n ".join(parts)


# -- the offer sheet ----------------------------------------------------------------------------


def sheet_html(items: Sequence[Occasion], as_of: str | None, *, group: str = "course",
               title: str = "Offer", currency: str | None = None,
               date_text: Callable[[str | None], str] = when) -> str:
    """The offer sheet as HTML for Qt's rich text (QTextDocument): grouped by course (or
    webinar/series) or by month, each occasion's dates, place, fee, credits, experts and link; a
    footer with the data's age. Every server text escaped."""
    groups: dict[str, list[Occasion]] = {}
    for o in by_start(items):
        if group == "month":
            moment = _instant(o.start)
            key = f"{moment:%B %Y}" if moment is not None else "On demand"
        else:
            key = o.title
        groups.setdefault(key, []).append(o)
    parts = [f"<h1>{_text(title)}</h1>",
             f"<p>{len(items)} occasion{'s' if len(items) != 1 else ''}</p>"]
    for heading, members in groups.items():
        parts.append(f"<h2>{_text(heading)}</h2>")
        first = members[0]
        about = [f"Experts: {', '.join(first.experts)}" if first.experts and group != "month" else "",
                 f"Topics: {', '.join(first.topics)}" if first.topics and group != "month" else ""]
        parts += [f"<p>{_text(a)}</p>" for a in about if a]
        heads = ("When", "Until", "Where", "Fee", "Credits", "Details")
        parts.append('<table border="1" cellspacing="0" cellpadding="4" width="100%"><tr>'
                     + "".join(f"<th>{h}</th>" for h in heads) + "</tr>")
        for o in members:
            what = _text(o.title) + "<br>" if group == "month" else ""
            link = f'<a href="{_attr(o.url)}">{_text(o.url)}</a>' if _web(o.url) else _text(o.url or "")
            cells = (what + _text(date_text(o.start)), _text(date_text(o.end) if o.end else ""),
                     _text(o.place() or ("online" if o.kind != "course" else "")),
                     _text(money(o.fee, currency)), _text(o.credits()), link)
            parts.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
        parts.append("</table>")
    parts.append(f"<hr><p><small>{_text(age_line(as_of))}</small></p>")
    return "<html><body>" + "".join(parts) + "</body></html>"


def _text(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=False)


def _attr(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def _web(url: Any) -> bool:
    return isinstance(url, str) and url.lower().startswith(("http://", "https://"))
