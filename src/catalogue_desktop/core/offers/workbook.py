"""An offer as a spreadsheet (.xlsx, ``core.formats.xlsx_book``: typed cells), one row per
occasion, as the customer reads it: its start and end as date cells at the venue (an online
event's in the customer's zone), the zone's name in a column of its own (a spreadsheet date has
none), the place, the fee in the currency's format, credits, experts, the series, the link and
the occasion's id; the "About" sheet says whose offer it is, the data's age, the catalogue and
the query it was made from. The window's offers, its Dates tab's Export and ``export offerings
--format xlsx`` all write this. Qt-free.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from catalogue_desktop.core.formats.xlsx_book import Book, Column
from catalogue_desktop.core.offers.customer_text import experts_text, moments, place_lines, zone_label
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

    columns = [
        Column("Kind", "text", lambda o: o.kind.capitalize()),
        Column("Title", "text", lambda o: o.title),
        Column("Start", "date", start),
        Column("End", "date", end),
        Column("Zone", "text", zone),
        Column("Place", "text", lambda o: ", ".join(place_lines(o))),
        Column("Fee", "money", lambda o: o.fee),
        Column("Credits", "text", lambda o: o.credits()),
        Column("Experts", "text", lambda o: experts_text(o.experts)),
        Column("Series", "text", lambda o: o.series),
        Column("Link", "url", lambda o: o.url),
        Column("Occasion", "text", occasion_id),
    ]
    book = Book(offer.title, offer.currency)
    book.sheet("Occasions", columns, offer.items)
    lines = [offer.title, offer.note, offer.validity, *offer.letterhead.lines(), offer.footer, *about]
    book.about([line for line in lines if line])
    if notes is not None:
        notes.extend(book.notes)
    return book.close()
