"""The iCalendar file (RFC 5545), written by the ``icalendar`` library (also what reads it back
in the tests): one VEVENT per ``Event``.

Every text value is TEXT (§3.3.11): the library escapes backslash, ``;``, ``,`` and line breaks
(CR, LF, CRLF: one ``\\n``); the control characters TEXT may not hold (§3.3.11: all but tab) are
shown as control pictures first (``text.visible_controls``), so no value can end its line and begin a
property or a component. A URL is written only if it is a web link (``links.web_link``: no
control character, no space); else it is left out and counted (``Calendar.links_left_out``). UIDs
are unique within the file: a repeated one (a service that repeats a course, location or session
id) gets ``-2``, ``-3``... before its ``@``, in the events' order.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

import icalendar

from catalogue_desktop.core.formats.drawn_text import visible_controls
from catalogue_desktop.core.formats.links import web_link

PRODID = "-//Catalogue Desktop//Offers//EN"


@dataclass(frozen=True)
class Event:
    """One calendar event, its texts as the service wrote them (this module encodes them)."""

    uid: str
    start: datetime
    end: datetime
    summary: str
    description: str = ""
    location: str | None = None
    url: str | None = None
    all_day: bool = False  # a whole day: DTSTART is ``start``'s date (VALUE=DATE), DTEND the next


@dataclass
class Calendar:
    """The file's text, and what was left out or changed to write it."""

    text: str
    events: int
    links_left_out: int = 0
    notes: list[str] = field(default_factory=list)


def text_value(text: str) -> str:
    """A TEXT value's content before the library's escaping: no character TEXT may not hold."""
    return visible_controls(text)


def unique_uids(uids: Iterable[str]) -> list[str]:
    """``uids`` with repeats made unique (``-2``, ``-3``... before the ``@``; a suffixed one that
    is taken too gets the next number)."""
    taken: set[str] = set()
    out = []
    for uid in uids:
        candidate, n = uid, 1
        local, at, domain = uid.partition("@")
        while candidate in taken:
            n += 1
            candidate = f"{local}-{n}{at}{domain}"
        taken.add(candidate)
        out.append(candidate)
    return out


def calendar(events: Iterable[Event], now: datetime) -> Calendar:
    """The calendar of ``events`` (DTSTART/DTEND as UTC instants, DTSTAMP ``now``)."""
    items = list(events)
    cal = icalendar.Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("calscale", "GREGORIAN")
    cal.add("method", "PUBLISH")
    stamp = now.astimezone(UTC).replace(microsecond=0)
    uids = unique_uids(e.uid for e in items)
    left_out = 0
    for event, uid in zip(items, uids, strict=True):
        vevent = icalendar.Event()
        vevent.add("uid", uid)
        vevent.add("dtstamp", stamp)
        if event.all_day:
            vevent.add("dtstart", event.start.date())
            vevent.add("dtend", event.start.date() + timedelta(days=1))
        else:
            start = event.start.astimezone(UTC).replace(microsecond=0)
            vevent.add("dtstart", start)
            vevent.add("dtend", max(event.end.astimezone(UTC).replace(microsecond=0), start))
        vevent.add("summary", text_value(event.summary))
        if event.location is not None:
            vevent.add("location", text_value(event.location))
        if event.description:
            vevent.add("description", text_value(event.description))
        link = web_link(event.url)
        if link is not None:
            vevent.add("url", link)
        elif event.url:
            left_out += 1
        cal.add_component(vevent)
    made_unique = sum(1 for event, uid in zip(items, uids, strict=True) if event.uid != uid)
    result = Calendar(cal.to_ical().decode("utf-8"), len(items), left_out)
    if left_out:
        result.notes.append(
            f"{left_out:,} link{'s' if left_out != 1 else ''} left out of the calendar: not a web "
            "link (a control character, a space or not http(s)://)"
        )
    if made_unique:
        result.notes.append(
            f"{made_unique:,} event{'s' if made_unique != 1 else ''} got a suffixed UID: the service "
            "repeats a course, location or session id"
        )
    return result
