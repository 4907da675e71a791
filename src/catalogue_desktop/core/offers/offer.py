"""One offer, every format: the object the window's offer actions and ``export offerings`` build
(``make``) and every output renders — the sheet (PDF and print), the calendar file, the e-mail
text and HTML, and the spreadsheet (``workbook``). Qt-free.

An offer is its customer (the title, "Offer for Acme"), a note, how long it is valid, the seller's
letterhead, the fees' currency, the customer's zone for online times, the data's age and its
occasions with their times resolved once:

* a course's times are at its venue, in the venue's zone (``text``: "8:30 AM – 4:30 PM CST each
  day"), never in the seller's: the seller's display preference governs the window only;
* an online event's times are in the customer's zone (as written without one);
* where the offset the service wrote is not the venue's zone's on that date (``doubts``), the seller
  chose (Preferences) what the offer gives: the clock time as written (``CLOCK``: "8:30 AM",
  now in the zone's offset) or the instant written (``INSTANT``: 8:30 at −05:00 is 9:30 AM EDT).
  The occasion's times (and its schedule's hours, for the calendar's days) are rewritten so: every
  format then gives the same time, and no warning reaches the customer.

The offer's fields are plain (text, dates, tuples) and its occasions are named as ``find --kind
offerings`` names them (``occasion_id``: ``course:6107@7114``), so that an offer can be recorded.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta
from typing import Any, TypedDict, Unpack

from catalogue_desktop.core.formats import ics as ics_format
from catalogue_desktop.core.formats.time_text import US_ENGLISH, TimeText
from catalogue_desktop.core.offers import calendar, mail
from catalogue_desktop.core.offers.customer_text import Style, day, file_name
from catalogue_desktop.core.offers.days import Schedule
from catalogue_desktop.core.offers.occasions import Occasion, age_line, as_of_text, by_start, instant
from catalogue_desktop.core.offers.sheet import Letterhead, Sheet
from catalogue_desktop.core.records import zones
from catalogue_desktop.core.records.zones import CLOCK as CLOCK  # how a doubtful time is given
from catalogue_desktop.core.records.zones import INSTANT as INSTANT
from catalogue_desktop.core.records.zones import TIMES as TIMES

TITLE = "Offer"  # an offer's title when the seller gave none


@dataclass(frozen=True)
class Doubt:
    """An occasion whose written offset is not its venue's zone's on that date."""

    occasion: Occasion
    check: zones.ZoneCheck

    def as_written(self, time_text: TimeText = US_ENGLISH) -> str:
        """The start's clock time as written ("8:30 AM")."""
        begin = instant(self.occasion.start)
        assert begin is not None
        return time_text.clock(begin)

    def at_venue(self, time_text: TimeText = US_ENGLISH) -> str:
        """The start's instant at the venue's clock ("9:30 AM")."""
        begin = instant(self.occasion.start)
        assert begin is not None
        return time_text.clock(zones.read_as(begin, self.check, INSTANT))

    @property
    def place(self) -> str:
        """Whose clock the venue keeps, in plain words: "Chicago time" (its zone's abbreviation,
        "CDT", without a city)."""
        city = (self.occasion.city or "").strip()
        return f"{city} time" if city else self.check.abbreviation

    def words(self, time_text: TimeText = US_ENGLISH) -> str:
        """ "Revenue Recognition Boot Camp, Boston, MA, Monday, March 22, 2027: the service gives
        8:30 AM at UTC−05:00, but Boston is on EDT (UTC−04:00) then"."""
        o = self.occasion
        begin = instant(o.start)
        assert begin is not None
        where = ", ".join(p for p in (o.city, o.state) if p)
        who = (o.city or "").strip() or "the venue"
        part = f" ({self.check.other} in part of the state)" if self.check.other else ""
        return (
            f"{o.title}, {where}, {day(begin, time_text)}: the service gives {time_text.clock(begin)} "
            f"at {zones.offset_label(self.check.written)}{part}, but {who} is on "
            f"{self.check.abbreviation} ({zones.offset_label(self.check.expected)}) then"
        )


def doubts(items: Sequence[Occasion]) -> list[Doubt]:
    """The courses among ``items`` whose start (or end) is written in an offset that is not their
    venue's zone's on that date (``zones.check``), in their order."""
    out = []
    for o in items:
        if o.kind != "course":
            continue
        for text in (o.start, o.end):
            moment = instant(text)
            found = zones.check(moment, o.state) if moment is not None else None
            if found is not None and not found.ok:
                out.append(Doubt(o, found))
                break
    return out


def occasion_id(o: Occasion) -> str:
    """The occasion as ``find --kind offerings`` names it: ``course:COURSE@LOCATION``,
    ``session:SERIES@WEBINAR``, ``webinar:WEBINAR``."""
    if o.kind == "course":
        return f"course:{o.id}@{o.location_id}"
    if o.kind == "session":
        return f"session:{o.series_id}@{o.id}"
    return f"webinar:{o.id}"


@dataclass(frozen=True)
class Offer:
    """An offer as every format renders it (see the module doc); made by ``make``."""

    items: tuple[Occasion, ...]  # their times resolved (``make``)
    as_of: str | None = None  # the data's time, ISO 8601 (``occasions.data_as_of``)
    title: str = TITLE  # "Offer for Acme": the customer
    note: str = ""
    valid_until: date | None = None
    letterhead: Letterhead = field(default_factory=Letterhead)
    currency: str | None = None  # ISO code or symbol; None: plain numbers
    customer_zone: str | None = None  # IANA zone of online times; None: as written
    time_text: TimeText = US_ENGLISH  # how days and times are written (the window's locale)
    times: str = CLOCK  # how doubtful times were given (``CLOCK`` or ``INSTANT``)
    resolved: tuple[str, ...] = ()  # the occasions (``occasion_id``) whose times were doubtful
    schedules: Mapping[Any, Schedule] = field(default_factory=dict, compare=False)  # courses' days

    @property
    def style(self) -> Style:
        return Style(currency=self.currency, time_text=self.time_text, customer_zone=self.customer_zone)

    @property
    def as_of_text(self) -> str | None:
        return as_of_text(self.as_of, self.time_text)

    @property
    def footer(self) -> str:
        """The data's age, as every document says it (the sheet's footer)."""
        return age_line(self.as_of_text)

    @property
    def validity(self) -> str:
        """ "This offer is valid until Friday, December 18, 2026" (as the sheet says it), or ""."""
        until = self.valid_until
        return f"This offer is valid until {day(until, self.time_text)}" if until is not None else ""

    def file_name(self, suffix: str) -> str:
        """The name a save dialog proposes: "Offer for Acme (Dec 2026).ics"."""
        return file_name(self.title, self.items, suffix)


class OfferText(TypedDict, total=False):
    """An offer's own words: what the seller types for each offer."""

    title: str
    note: str
    valid_until: date | None


class OfferFields(OfferText, total=False):
    """``Offer``'s fields that ``make`` passes on as given."""

    letterhead: Letterhead
    currency: str | None
    customer_zone: str | None
    time_text: TimeText


def make(
    items: Sequence[Occasion],
    as_of: str | None,
    *,
    schedules: Mapping[Any, Schedule] | None = None,
    times: str = CLOCK,
    **fields: Unpack[OfferFields],
) -> Offer:
    """The offer of ``items`` in date order, one order for every format (on-demand ones last:
    ``occasions.by_start``; ``Offer``'s other fields in ``fields``), doubtful times given as
    ``times`` says: each such course's start and end (and its schedule's hours) rewritten in its
    venue's zone."""
    items = by_start(items)
    by_id = dict(schedules or {})
    found = {id(d.occasion): d for d in doubts(items)}
    out, resolved = [], []
    for o in items:
        doubt = found.get(id(o))
        if doubt is None:
            out.append(o)
            continue
        resolved.append(occasion_id(o))
        out.append(_resolved(o, doubt, times))
        if times == INSTANT and o.id in by_id:
            shift = timedelta(minutes=doubt.check.expected - doubt.check.written)
            by_id[o.id] = {n: (_shifted(a, shift), _shifted(b, shift)) for n, (a, b) in by_id[o.id].items()}
    return Offer(tuple(out), as_of, times=times, resolved=tuple(resolved), schedules=by_id, **fields)


def _resolved(o: Occasion, doubt: Doubt, times: str) -> Occasion:
    def moved(text: str | None) -> str | None:
        moment = instant(text)
        return text if moment is None else zones.read_as(moment, doubt.check, times).isoformat()

    return replace(o, start=moved(o.start), end=moved(o.end))


def _shifted(moment: time, shift: timedelta) -> time:
    return (datetime.combine(date(2000, 1, 2), moment) + shift).time()


# -- the formats -----------------------------------------------------------------------------------


def sheet(offer: Offer, group: str = "course") -> Sheet:
    """The offer sheet (``ui.offers.sheet_pdf`` draws it on pages with ``offer.footer``)."""
    return Sheet(
        offer.items,
        offer.as_of_text,
        group=group,
        title=offer.title,
        style=offer.style,
        letterhead=offer.letterhead,
        note=offer.note,
        valid_until=offer.valid_until,
    )


def calendar_file(offer: Offer, now: datetime | None = None) -> ics_format.Calendar:
    """The calendar file: an event per day a course meets, one per other dated occasion, each
    saying how long the offer is valid (as the sheet, the e-mail and the spreadsheet say it)."""
    return calendar.calendar_file(
        offer.items,
        offer.as_of_text,
        now,
        style=offer.style,
        schedules=offer.schedules,
        terms=[offer.validity] if offer.validity else [],
    )


def email_text(offer: Offer) -> str:
    """The e-mail's text: the title, note and validity (when given), a line per occasion, the
    signature and the data's age."""
    return _intro(offer) + mail.plain(offer.items, offer.as_of_text, offer.style, offer.letterhead)


def email_html(offer: Offer) -> str:
    """The e-mail's HTML: the same, the occasions as a table."""
    from catalogue_desktop.core.formats.drawn_text import html_text

    lines = _intro(offer).splitlines()
    head = "".join(f"<p>{html_text(line)}</p>" for line in lines if line)
    return head + mail.table(offer.items, offer.as_of_text, offer.style, offer.letterhead)


def _intro(offer: Offer) -> str:
    parts = [p for p in (offer.title if offer.title != TITLE else "", offer.note, offer.validity) if p]
    return "\n\n".join(parts) + "\n\n" if parts else ""
