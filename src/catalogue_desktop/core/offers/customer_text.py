"""What a customer reads of an occasion, in words: its dates and times with a zone they know, its
place, its fee with the currency, how it belongs to a series, and how old the data is. The offer
sheet, the e-mail text and the calendar's descriptions say the same things with these. Qt-free.

Times (``zones``): a course's at its venue, named by the venue's zone on that date ("8:30 AM –
4:30 PM CST"; the offset, "UTC−06:00", where the zone is not known); an online event's in the
zone the seller picked for the customer ("1:00 – 2:30 PM EST"), else in the offset written. One
label style everywhere (``zones.zone_name``). A time written in an offset that is not the venue's
zone's was resolved before (``offer.make``). ``Style.local`` (every time in the viewer's zone)
is for the window's own texts, never an offer. Days and times are written as the window writes them
(``Style.time_text``: the locale's long day, its 12- or 24-hour clock).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import Any

from catalogue_desktop.core.formats.files import proposed_name
from catalogue_desktop.core.formats.time_text import US_ENGLISH, TimeText
from catalogue_desktop.core.offers.occasions import Occasion, instant, money
from catalogue_desktop.core.records import zones

NBSP = "\u00a0"
DASH = "–"


@dataclass(frozen=True)
class Style:
    """How an offer writes fees and times."""

    currency: str | None = None  # ISO code or symbol; None: plain numbers
    fee_text: Callable[[Any], str] | None = None  # the window's money formatter (currency included)
    time_text: TimeText = US_ENGLISH  # how days and times are written (the window's locale)
    customer_zone: str | None = None  # IANA zone for online events' times (None: as written)
    local: bool = False  # every time in the viewer's zone (Preferences: local time)

    def fee(self, value: object) -> str:
        """A fee with its currency, in one piece: no line break inside ("USD 1,295")."""
        if value is None or value == "":
            return ""
        text = self.fee_text(value) if self.fee_text is not None else money(value, self.currency)
        return text.replace(" ", NBSP)


def is_online(o: Occasion) -> bool:
    return o.kind != "course" and not (o.venue or o.city or o.address)


def day(moment: datetime | date, time_text: TimeText = US_ENGLISH) -> str:
    """ "Monday, February 8, 2027" (the locale's long day)."""
    return time_text.day(moment, long=True)


def days(begin: datetime, end: datetime, time_text: TimeText = US_ENGLISH) -> str:
    """ "Monday, February 8, 2027 – Tuesday, February 9, 2027"; one day when both are one."""
    if begin.date() == end.date():
        return day(begin, time_text)
    return f"{day(begin, time_text)} {DASH} {day(end, time_text)}"


def moments(o: Occasion, style: Style) -> tuple[datetime | None, datetime | None]:
    begin, end = instant(o.start), instant(o.end)
    if style.local:
        begin = begin.astimezone() if begin is not None else None
        end = end.astimezone() if end is not None else None
    elif is_online(o) and style.customer_zone:
        begin = zones.customer_moment(begin, style.customer_zone) if begin is not None else None
        end = zones.customer_moment(end, style.customer_zone) if end is not None else None
    return begin, end


def zone_label(o: Occasion, begin: datetime, style: Style) -> str:
    """The zone after a time, one style everywhere (``zones.zone_name``): the zone's abbreviation
    on that date ("CST", "EDT"), else the UTC offset ("UTC−05:00")."""
    if style.local:
        return zones.zone_name(begin)
    if is_online(o):
        zone = style.customer_zone if style.customer_zone and zones.known_zone(style.customer_zone) else None
        return zones.zone_name(begin, zone)
    found = zones.check(begin, o.state)
    return found.abbreviation if found is not None and found.ok else zones.zone_name(begin)


def experts_text(experts: Sequence[str]) -> str:
    """The experts joined so that each reads as one person: "Samuel Oyelaran, CPA; Jennifer
    Aldridge" (a name may hold a comma)."""
    return "; ".join(experts)


def when_lines(o: Occasion, style: Style) -> list[str]:
    """The date(s), then the times with their zone: ["Mon 8 – Tue 9 Feb 2027 (2 days)",
    "8:30 AM – 4:30 PM CST"]; ["On demand"] without a date."""
    begin, end = moments(o, style)
    if begin is None:
        return ["On demand" if o.on_demand or not o.start else str(o.start)]
    zone = zone_label(o, begin, style)
    clock, the_day = style.time_text.clock, style.time_text.day
    start_time = clock(begin)
    if end is None or end <= begin:
        return [the_day(begin, long=True), f"{start_time} {zone}"]
    if begin.date() == end.date():
        return [the_day(begin, long=True), f"{start_time} {DASH} {clock(end)} {zone}"]
    span = (end.date() - begin.date()).days + 1
    if o.kind == "course" and end.time() > begin.time() and span <= 31:  # a course's days
        return [
            f"{days(begin, end, style.time_text)} ({span} days)",
            f"{start_time} {DASH} {clock(end)} {zone} each day",
        ]
    end_zone = zone_label(o, end, style)
    return [
        f"{the_day(begin, long=True)}, {start_time} {zone} {DASH}",
        f"{the_day(end, long=True)}, {clock(end)} {end_zone}",
    ]


def when_text(o: Occasion, style: Style) -> str:
    """``when_lines`` on one line: "Mon 8 Feb 2027, 8:30 AM – 4:30 PM CST"."""
    lines = when_lines(o, style)
    return ", ".join(line.rstrip(f" {DASH}") if line.endswith(DASH) else line for line in lines)


def place_lines(o: Occasion) -> list[str]:
    """Venue, address, "City, ST 60601"; "Online" (or "Online, on demand") for a webinar."""
    city = ", ".join(p for p in (o.city, o.state) if p)
    city = f"{city} {o.zip}".strip() if o.zip else city
    found = [p for p in (o.venue, o.address, city) if p]
    if found:
        return found
    return ["Online, on demand" if o.on_demand else "Online"]


def series_notes(o: Occasion, style: Style) -> list[str]:
    """For a session: one line per series it belongs to, "Part of Employment Law Essentials:
    5 sessions, USD 799 for the series"."""
    if o.kind != "session":
        return []
    out = []
    for i, title in enumerate(o.all_series or ((o.series,) if o.series else ())):
        size = _at(o.series_sizes, i)
        fee = _at(o.series_fees, i)
        parts = [
            f"{size} sessions" if size else "",
            f"{style.fee(fee)} for the series" if fee is not None else "",
        ]
        detail = ", ".join(p for p in parts if p)
        out.append(f"Part of {title}" + (f": {detail}" if detail else ""))
    return out


def whole_series(items: Sequence[Occasion]) -> dict[Any, tuple[str, Any, int]]:
    """The series every session of which is among ``items``: series id -> (title, fee,
    sessions)."""
    seen: dict[Any, set[Any]] = {}
    about: dict[Any, tuple[str, Any, int]] = {}
    for o in items:
        if o.kind != "session":
            continue
        ids = o.series_ids or ((o.series_id,) if o.series_id is not None else ())
        titles = o.all_series or ((o.series,) if o.series else ())
        for i, sid in enumerate(ids):
            seen.setdefault(sid, set()).add(o.id)
            size = _at(o.series_sizes, i)
            if size:
                about[sid] = (str(_at(titles, i) or f"Series #{sid}"), _at(o.series_fees, i), size)
    return {sid: info for sid, info in about.items() if len(seen.get(sid, ())) >= info[2]}


def _at(values: Sequence[Any] | None, i: int) -> Any:
    return values[i] if values is not None and i < len(values) else None


def file_name(title: str, items: Sequence[Occasion], suffix: str) -> str:
    """A file name for an offer: its title and the months of its dates, "Offer for Acme (Dec
    2026).pdf", "Offer (Dec 2026 – Feb 2027).ics", as ``core.formats.files.proposed_name`` makes
    any name (no control, bidi or reserved characters, no device name, at most 200 bytes)."""
    months = sorted({(m.year, m.month) for o in items if (m := instant(o.start)) is not None})
    label = [datetime(y, m, 1).strftime("%b %Y") for y, m in (months[:1] + months[-1:])] if months else []
    span = f" ({label[0]})" if len(set(label)) == 1 else f" ({label[0]} {DASH} {label[1]})" if label else ""
    title = proposed_name(title, fallback="Offer")  # (its first 120 bytes: the months' span stays)
    stem = title.encode("utf-8")[:120].decode("utf-8", "ignore").rstrip(". ")
    return proposed_name(f"{stem}{span}", suffix, fallback="Offer")
