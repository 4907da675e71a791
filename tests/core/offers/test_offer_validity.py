"""One offer says one validity in every format (``core.offers.offer``): the sheet, the calendar
file (each event's description, read back by icalendar), the spreadsheet's About sheet (openpyxl)
and the e-mail text; without one, none says any."""

from __future__ import annotations

import io
from datetime import date

import icalendar
import openpyxl

from catalogue_desktop.core.offers import offer as the_offer
from catalogue_desktop.core.offers.occasions import Occasion
from catalogue_desktop.core.offers.workbook import workbook

ITEMS = [
    Occasion(
        "course", 6107, "Federal Tax Institute", "2026-12-14T08:30:00-06:00", "2026-12-15T16:30:00-06:00",
        location_id=7114, city="Chicago", state="IL", fee=1095,
    ),
    Occasion(
        "webinar", 50007, "Ethics of Generative AI", "2026-12-09T12:00:00-06:00", "2026-12-09T13:30:00-06:00",
        fee=249,
    ),
]  # fmt: skip
VALID = "This offer is valid until Tuesday, December 29, 2026"


def _formats(offer: the_offer.Offer) -> dict[str, str]:
    events = icalendar.Calendar.from_ical(the_offer.calendar_file(offer).text).walk("VEVENT")
    book = openpyxl.load_workbook(io.BytesIO(workbook(offer, [])))
    return {
        "sheet": the_offer.sheet(offer).html(),
        "ics": "\n".join(str(e["DESCRIPTION"]) for e in events),
        "ics events": str(len(events)),
        "xlsx": "\n".join(str(row[0]) for row in book["About"].iter_rows(values_only=True)),
        "email": the_offer.email_text(offer),
        "html": the_offer.email_html(offer),
    }


def test_every_format_of_an_offer_says_its_validity() -> None:
    made = the_offer.make(ITEMS, None, title="Offer for Acme", valid_until=date(2026, 12, 29), currency="USD")
    found = _formats(made)
    events = int(found.pop("ics events"))
    assert events == 3 and found["ics"].count(VALID) == events  # (two course days, a webinar)
    assert all(VALID in text for text in found.values()), found


def test_without_a_validity_no_format_says_one() -> None:
    found = _formats(the_offer.make(ITEMS, None, title="Offer for Acme", currency="USD"))
    assert not any("valid until" in text for text in found.values())
