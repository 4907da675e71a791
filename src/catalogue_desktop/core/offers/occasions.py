"""Offers: bookable occasions (``query.offerings``) handed to a customer — JSON and CSV rows, a
calendar file (.ics, RFC 5545) and e-mail text (plain and HTML); the offer sheet is
``offer_sheet``'s (the window and the command line render it to PDF with Qt).

Every output names the data's age (``age_line``: "Prices and dates as of Thu 26 Nov 2026, 5:01 PM",
the oldest of the courses', series' and webinars' last sync that reached the service:
``data_as_of``). Server text is data:
HTML is escaped, calendar text is escaped as RFC 5545 says. Times are the exact instants the
service wrote, shown in the event's own UTC offset (or, ``local``, the viewer's). Qt-free.
"""

from __future__ import annotations

import csv
import hashlib
import html
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, TextIO

from catalogue_desktop.core.query.table import parse_date
from catalogue_desktop.core.records import zones
from catalogue_desktop.core.records.kinds import Kind

if TYPE_CHECKING:
    from catalogue_desktop.core.cache.store import CollectionState

_CREDITS = (("cle", "CLE"), ("cpe", "CPE"))
JSON_KEYS = (
    "kind",
    "id",
    "locationId",
    "seriesId",
    "title",
    "start",
    "end",
    "city",
    "state",
    "venue",
    "address",
    "zip",
    "fee",
    "cle",
    "cpe",
    "experts",
    "topics",
    "series",
    "onDemand",
    "url",
)


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
    # a session: every series it is a session of (titles, ids, fees, numbers of sessions)
    all_series: tuple[str, ...] = ()
    series_ids: tuple[Any, ...] = ()
    series_fees: tuple[Any, ...] = ()
    series_sizes: tuple[Any, ...] = ()

    @property
    def uid(self) -> str:
        """Stable across exports (re-importing updates the event): from the course and location,
        or the webinar (one event whether listed as a webinar or a session, of however many
        series)."""
        key = f"course:{self.id}:{self.location_id or ''}" if self.kind == "course" else f"webinar:{self.id}"
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
            column = found.get(key)
            return column[i] if column is not None else None

        out.append(
            Occasion(
                kind=get("kind"),
                id=get("id"),
                title=get("title") or f"{get('kind').capitalize()} #{get('id')}",
                start=get("startDate"),
                end=get("endDate"),
                location_id=get("locationId"),
                series_id=get("seriesId"),
                series=(get("series") or [None])[0],
                all_series=tuple(get("series") or ()),
                series_ids=tuple(get("seriesIds") or ()),
                series_fees=tuple(get("seriesFees") or ()),
                series_sizes=tuple(get("seriesSessions") or ()),
                venue=get("venue"),
                address=get("address"),
                city=get("city"),
                state=get("state"),
                zip=get("zip"),
                fee=get("fee"),
                cle=get("cleAccreditation"),
                cpe=get("cpeAccreditation"),
                experts=list(get("experts") or ()),
                topics=list(get("topics") or ()),
                url=get("detailUrl"),
                on_demand=bool(get("ondemand")),
            )
        )
    return out


def by_start(items: Sequence[Occasion]) -> list[Occasion]:
    """By start time, on-demand ones last (in their order)."""

    def key(o: Occasion) -> tuple[int, int]:
        moment = parse_date(o.start)
        return (0, moment[1]) if moment else (1, 0)

    return sorted(items, key=key)


# -- text -------------------------------------------------------------------------------------

Text = Callable[[Any], str]


def when(iso: str | None, *, local: bool = False) -> str:
    """ "Tue 9 Mar 2027, 08:30 (UTC−05:00)": the date and time as written, with the offset (with
    ``local``, the same instant in the viewer's zone, with its offset)."""
    if not iso:
        return "on demand"
    moment = instant(iso)
    if moment is None:
        return iso
    if local:
        moment = moment.astimezone()
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


SOURCES = (Kind.COURSES, Kind.SERIES, Kind.WEBINARS)  # what the occasions are made of


def data_as_of(states: Mapping[Kind, CollectionState]) -> str | None:
    """The time an offer's data is as of: for each source (courses, series, webinars) the last
    sync that reached the service (its ``checked_at``: a 304 counts; else when it was fetched),
    and of those the oldest, since an offer may mix them. None when none was ever synced."""
    stamps = [s.checked_at or s.fetched_at for k, s in states.items() if k in SOURCES and s.has_data]
    known = [t for t in stamps if t]
    return min(known, key=lambda t: instant(t) or datetime.min.replace(tzinfo=UTC)) if known else None


def age(stamp: str | None, now: datetime | None = None) -> timedelta | None:
    """How old data of time ``stamp`` is (None: unknown)."""
    moment = instant(stamp)
    return None if moment is None else (now or datetime.now(UTC)) - moment


def as_of_text(stamp: str | None, hour12: bool = True) -> str | None:
    """The data's time as people read it, in the viewer's time: "Thu 26 Nov 2026, 5:01 PM"."""
    moment = instant(stamp)
    if moment is None:
        return stamp
    local = moment.astimezone()
    return f"{local:%a} {local.day} {local:%b %Y}, {zones.clock(local, hour12)}"


def age_line(as_of: str | None) -> str:
    """The line every output carries (``as_of``: a time as people read it, ``as_of_text``)."""
    if not as_of:
        return "Prices and dates of unknown age: they may have changed since."
    return f"Prices and dates as of {as_of}; they may have changed since."


def _fees(fee_text: Text | None, currency: str | None) -> Text:
    return fee_text or (lambda fee: money(fee, currency))


def email_lines(
    items: Sequence[Occasion], currency: str | None = None, local: bool = False, fee_text: Text | None = None
) -> list[str]:
    """One line per occasion: title — date — city — fee — credits — link."""
    fee = _fees(fee_text, currency)
    lines = []
    for o in items:
        parts = [
            o.title,
            when(o.start, local=local),
            o.city or ("online" if o.kind != "course" else ""),
            fee(o.fee),
            o.credits(),
            o.url or "",
        ]
        lines.append(" — ".join(_one_line(p) for p in parts if p))
    return lines


def email_text(
    items: Sequence[Occasion],
    as_of: str | None,
    currency: str | None = None,
    local: bool = False,
    fee_text: Text | None = None,
) -> str:
    return "\n".join([*email_lines(items, currency, local, fee_text), "", age_line(as_of)]) + "\n"


EMAIL_HEADS = ("Title", "Date", "City", "Fee", "Credits", "Link")


def email_html(
    items: Sequence[Occasion],
    as_of: str | None,
    currency: str | None = None,
    local: bool = False,
    fee_text: Text | None = None,
) -> str:
    """A table, one row per occasion, the cells of ``email_lines`` (pastes into mail clients as a
    table and into spreadsheets as rows and cells)."""
    fee = _fees(fee_text, currency)
    head = "".join(f"<th>{h}</th>" for h in EMAIL_HEADS)
    rows = []
    for o in items:
        link = f'<a href="{_attr(o.url)}">{_text(o.url)}</a>' if is_web(o.url) else _text(o.url)
        cells = (
            _text(o.title),
            _text(when(o.start, local=local)),
            _text(o.city or ("online" if o.kind != "course" else "")),
            _text(fee(o.fee)),
            _text(o.credits()),
            link,
        )
        rows.append("<tr>" + "".join(f"<td>{c}</td>" for c in cells) + "</tr>")
    return (
        f'<table border="1" cellspacing="0" cellpadding="4"><tr>{head}</tr>{"".join(rows)}'
        f"</table><p><small>{_text(age_line(as_of))}</small></p>"
    )


# -- rows -----------------------------------------------------------------------------------


def json_rows(items: Sequence[Occasion]) -> list[dict[str, Any]]:
    """What ``export offerings --format json`` writes: one object per occasion."""
    return [
        {
            "kind": o.kind,
            "id": o.id,
            "locationId": o.location_id,
            "seriesId": o.series_id,
            "title": o.title,
            "start": o.start,
            "end": o.end,
            "city": o.city,
            "state": o.state,
            "venue": o.venue,
            "address": o.address,
            "zip": o.zip,
            "fee": o.fee if isinstance(o.fee, int | None) else str(o.fee),
            "cle": o.cle,
            "cpe": o.cpe,
            "experts": o.experts,
            "topics": o.topics,
            "series": o.series,
            "onDemand": o.on_demand,
            "url": o.url,
        }
        for o in items
    ]


def write_csv(items: Sequence[Occasion], out: TextIO) -> None:
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(JSON_KEYS)
    for row in json_rows(items):
        writer.writerow(
            [
                "; ".join(v)
                if isinstance(v, list)
                else ""
                if v is None
                else str(v).lower()
                if isinstance(v, bool)
                else v
                for v in row.values()
            ]
        )


# -- calendar ---------------------------------------------------------------------------------


def ics(
    items: Sequence[Occasion], as_of: str | None, now: datetime | None = None, fee_text: Text | None = None
) -> str:
    """An iCalendar file: one VEVENT per dated occasion (on-demand ones have no time to put in a
    calendar and are left out), DTSTART/DTEND as exact UTC instants, a stable UID."""
    fee = _fees(fee_text, None)
    stamp = _utc(now or datetime.now(UTC))
    lines = [
        "BEGIN:VCALENDAR",
        "VERSION:2.0",
        "PRODID:-//Catalogue Desktop//Offers//EN",
        "CALSCALE:GREGORIAN",
        "METHOD:PUBLISH",
    ]
    for o in items:
        start = instant(o.start)
        if start is None:
            continue
        end = instant(o.end) or start
        description = "\n".join(
            p
            for p in (
                f"Fee: {fee(o.fee)}" if o.fee is not None else "",
                f"Credits: {o.credits()}" if o.credits() else "",
                f"Experts: {', '.join(o.experts)}" if o.experts else "",
                f"Series: {o.series}" if o.series else "",
                o.url or "",
                age_line(as_of),
            )
            if p
        )
        lines += [
            "BEGIN:VEVENT",
            f"UID:{o.uid}",
            f"DTSTAMP:{stamp}",
            f"DTSTART:{_utc(start)}",
            f"DTEND:{_utc(max(end, start))}",
            f"SUMMARY:{_escape(o.title)}",
        ]
        where = ", ".join(p for p in (o.venue, o.address, o.city, o.state, o.zip) if p)
        if where or o.kind != "course":
            lines.append(f"LOCATION:{_escape(where or 'Online')}")
        lines.append(f"DESCRIPTION:{_escape(description)}")
        if is_web(o.url):
            lines.append(f"URL:{o.url}")
        lines.append("END:VEVENT")
    lines.append("END:VCALENDAR")
    return "".join(_fold(line) + "\r\n" for line in lines)


def dated(items: Sequence[Occasion]) -> int:
    """How many of ``items`` have a date (an event in the calendar file)."""
    return sum(1 for o in items if instant(o.start) is not None)


def instant(iso: Any) -> datetime | None:
    """ISO 8601 text as an aware datetime (UTC if it has no offset); None if not a date."""
    if not iso or not isinstance(iso, str):
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
    return (
        text.replace("\\", "\\\\")
        .replace(";", "\\;")
        .replace(",", "\\,")
        .replace("\r\n", "\\n")
        .replace("\n", "\\n")
        .replace("\r", "\\n")
    )


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


def _one_line(text: str) -> str:
    """Text with its line breaks and tabs as spaces (one occasion, one line)."""
    return " ".join(text.replace("\t", " ").splitlines()) if text.strip() else ""


def _text(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=False)


def _attr(value: Any) -> str:
    return html.escape("" if value is None else str(value), quote=True)


def is_web(url: Any) -> bool:
    """Whether ``url`` is a web link (http or https): the only ones made clickable."""
    return isinstance(url, str) and url.lower().startswith(("http://", "https://"))
