"""The calendar file of occasions (RFC 5545, written by ``core.formats.ics``): one event per day an
occasion meets (``days``: a course's schedule day by day, never one event across nights), one
per occasion otherwise; on-demand occasions have no time to put in a calendar and are left out.

An occasion is one event however many rows named it: a webinar that is a session of several
series is one offerings row (``query.offerings``) with one UID (``Occasion.uid``); a day's UID is
its occasion's with the day's number. Each event says what a customer needs (``text``): the
day's times with a zone, the place or "Online", the fee with its currency, credits, experts, the
series a session belongs to and its price, the link, the offer's own terms (how long it is valid,
as every format of the offer says it: ``terms``) and the data's age (no warning: a doubtful
offset was resolved before, ``offer.make``). Qt-free.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime, time
from typing import Any

from catalogue_desktop.core.formats import ics as ics_format
from catalogue_desktop.core.offers.customer_text import (
    Style,
    experts_text,
    place_lines,
    series_notes,
    when_lines,
)
from catalogue_desktop.core.offers.days import Day, Schedule, days
from catalogue_desktop.core.offers.occasions import Occasion, age_line
from catalogue_desktop.core.records.zones import zone_name


def ics(
    items: Sequence[Occasion],
    as_of: str | None,
    now: datetime | None = None,
    fee_text: Callable[[Any], str] | None = None,
    *,
    style: Style | None = None,
    schedules: Mapping[int, Schedule] | None = None,
) -> str:
    """The iCalendar file's text (``calendar_file``)."""
    return calendar_file(items, as_of, now, fee_text, style=style, schedules=schedules).text


def calendar_file(
    items: Sequence[Occasion],
    as_of: str | None,
    now: datetime | None = None,
    fee_text: Callable[[Any], str] | None = None,
    *,
    style: Style | None = None,
    schedules: Mapping[int, Schedule] | None = None,
    terms: Sequence[str] = (),
) -> ics_format.Calendar:
    """The calendar of ``items`` with what was left out or changed to write it
    (``formats.ics.Calendar``); fees as ``fee_text`` writes them (else ``style``'s), a course's
    days from ``schedules`` (course id -> its days' hours); ``terms``: lines every event says of
    the offer ("This offer is valid until …")."""
    style = style or Style(fee_text=fee_text)
    return ics_format.calendar(events(items, as_of, style, schedules, terms), now or datetime.now(UTC))


def events(
    items: Sequence[Occasion],
    as_of: str | None,
    style: Style,
    schedules: Mapping[int, Schedule] | None = None,
    terms: Sequence[str] = (),
) -> list[ics_format.Event]:
    out = []
    for o in items:
        found = days(o, (schedules or {}).get(o.id) if o.kind == "course" else None)
        if not found:
            continue
        about = _about(o, style, as_of, terms)
        placed = o.kind != "course" or any((o.venue, o.address, o.city, o.state, o.zip))
        location = ", ".join(place_lines(o)) if placed else None
        for day in found:
            start, end, all_day = _span(day)
            out.append(
                ics_format.Event(
                    uid=day.uid,
                    start=start,
                    end=end,
                    summary=o.title if day.of == 1 else f"{o.title} (day {day.number} of {day.of})",
                    description="\n".join([_when(o, day, style), *about]),
                    location=location,
                    url=o.url,
                    all_day=all_day,
                )
            )
    return out


def count(items: Sequence[Occasion], schedules: Mapping[int, Schedule] | None = None) -> int:
    """How many events ``items`` make (the days of each dated occasion)."""
    return sum(len(days(o, (schedules or {}).get(o.id) if o.kind == "course" else None)) for o in items)


def _span(day: Day) -> tuple[datetime, datetime, bool]:
    if day.on is not None:
        midnight = datetime.combine(day.on, time(), UTC)
        return midnight, midnight, True
    assert day.start is not None and day.end is not None
    return day.start, day.end, False


def _when(o: Occasion, day: Day, style: Style) -> str:
    """The event's own time in words: the occasion's dates and times, or that day's."""
    if day.of == 1 or day.start is None or day.end is None:
        return "When: " + ", ".join(when_lines(o, style)) if day.of == 1 else f"Day {day.number} of {day.of}"
    hours = f"{style.time_text.clock(day.start)} – {style.time_text.clock(day.end)} {zone_name(day.start)}"
    return f"Day {day.number} of {day.of}: {hours} ({', '.join(when_lines(o, style))})"


def _about(o: Occasion, style: Style, as_of: str | None, terms: Sequence[str] = ()) -> list[str]:
    fee = style.fee(o.fee)
    return [
        p
        for p in (
            f"Fee: {fee}" if fee else "",
            f"Credits: {o.credits()}" if o.credits() else "",
            f"Experts: {experts_text(o.experts)}" if o.experts else "",
            *series_notes(o, style),
            o.url or "",
            *terms,
            age_line(as_of),
        )
        if p
    ]
