"""An offer as a spreadsheet (.xlsx, ``core.formats.xlsx_book``: typed cells), one row per
occasion, as the customer reads it: its start and end as date cells at the venue (an online
event's in the customer's zone), the zone's name in a column of its own (a spreadsheet date has
none), the daily times in the sheet's words, the place, the fee in the currency's format,
credits, experts, the series (with its size and price, as the sheet says it), the link and the
occasion's id; the "About" sheet says whose offer it is, the data's age, the catalogue, the query
and what was offered ("3 selected occasions"). The window's offers, its Dates tab's Export and
``export offerings --format xlsx`` all write this. Qt-free.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from catalogue_desktop.core.formats.xlsx_book import Book, Column
from catalogue_desktop.core.offers.customer_text import (
    DASH,
    experts_text,
    moments,
    place_lines,
    series_notes,
    when_lines,
    zone_label,
)
from catalogue_desktop.core.offers.occasions import Occasion
from catalogue_desktop.core.offers.offer import Offer, occasion_id


def workbook(offer: Offer, about: Sequence[str] = (), notes: list[str] | None = None) -> bytes:
    """The spreadsheet of ``offer``; ``about``: more lines for the About sheet (the catalogue,
    the query); ``notes`` gets what the About sheet tells beyond them (links past the limit)."""
    style = offer.style

    def start(o: Occasion) -> datetime | None:
        return moments(o, style)[0]

    def end(o: Occasion) -> datetime | None:
        return moments(o, style)[1]

    def zone(o: Occasion) -> str | None:
        begin = start(o)
        return zone_label(o, begin, style) if begin is not None else None

    def times(o: Occasion) -> str | None:
        """The hours as the sheet says them ("8:30 AM – 4:30 PM CST each day" for a course of
        several days, whose Start and End alone do not say its daily hours)."""
        lines = when_lines(o, style)
        return lines[1] if len(lines) == 2 and not lines[0].endswith(DASH) else None

    def series(o: Occasion) -> str | None:
        """The series as the sheet names it, with its size and price ("Employment Law
        Essentials: 5 sessions, USD 799 for the series")."""
        notes = [n.removeprefix("Part of ") for n in series_notes(o, style)]
        return "; ".join(notes) if notes else o.series

    columns = [
        Column("Kind", "text", lambda o: o.kind.capitalize()),
        Column("Title", "text", lambda o: o.title),
        Column("Start", "date", start),
        Column("End", "date", end),
        Column("Zone", "text", zone),
        Column("Times", "text", times),
        Column("Place", "text", lambda o: ", ".join(place_lines(o))),
        Column("Fee", "money", lambda o: o.fee),
        Column("Credits", "text", lambda o: o.credits()),
        Column("Experts", "text", lambda o: experts_text(o.experts)),
        Column("Series", "text", series),
        Column("Link", "url", lambda o: o.url),
        Column("Date id", "text", occasion_id),
    ]
    book = Book(offer.title, offer.currency)
    book.sheet("Dates", columns, offer.items)
    lines = [offer.title, offer.note, offer.validity, *offer.letterhead.lines(), offer.footer, *about]
    book.about([line for line in lines if line])
    if notes is not None:
        notes.extend(book.notes)
    return book.close()
