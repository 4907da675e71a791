"""The offer sheet as a customer gets it, read back from the PDF with pypdf: whole fees with their
currency, links as link annotations with their full https:// address, one data-age line per page,
times with a zone the customer knows (and a warning where the service's offset is off), series
priced honestly, the seller's letterhead, note and "valid until"."""

from __future__ import annotations

import io
from datetime import date
from pathlib import Path
from typing import Any

import pypdf
import pytest
from PySide6.QtGui import QColor, QImage

from catalogue_desktop.core.formats.time_text import TimeText
from catalogue_desktop.core.offers import occasions as offers
from catalogue_desktop.core.offers.customer_text import NBSP, Style
from catalogue_desktop.core.offers.sheet import Letterhead, Sheet, short_url
from catalogue_desktop.core.query import offerings
from catalogue_desktop.ui.offers import sheet_pdf
from tests.core.query.catalogues import demo_facts, finder_of

AS_OF = "Thu 26 Nov 2026, 5:01 PM"


@pytest.fixture(scope="module")
def items() -> list[offers.Occasion]:
    finder = finder_of({k: v for k, v in demo_facts().items() if k != offerings.OFFERINGS})
    found = offerings.columns(finder.tables, finder.vocabulary)
    return offers.by_start(offers.occasions(found, range(len(found["id"]))))


def _pdf(sheet: Sheet, paper: str = "A4") -> pypdf.PdfReader:
    data = sheet_pdf.pdf_bytes(sheet, sheet.title, offers.age_line(sheet.as_of), paper)
    return pypdf.PdfReader(io.BytesIO(data))


def _lines(reader: pypdf.PdfReader) -> list[str]:
    return [" ".join(line.split()) for p in reader.pages for line in p.extract_text().splitlines()]


def test_fees_are_whole_with_their_currency_and_links_are_annotations(
    qapp: Any, items: list[offers.Occasion]
) -> None:
    chosen = [o for o in items if o.fee is not None and o.start][:40]
    reader = _pdf(Sheet(chosen, AS_OF, style=Style(currency="USD")), "Letter")
    lines = _lines(reader)
    for o in chosen:
        fee = f"USD {o.fee:,}"
        assert any(fee in line.replace(NBSP, " ") for line in lines), fee  # on one line, whole
    assert not any(line.strip() in ("USD", "USD 1,") for line in lines)
    targets = [
        a.get_object()["/A"]["/URI"]
        for p in reader.pages
        for a in p.get("/Annots") or ()
        if "/A" in a.get_object()
    ]
    assert {o.url for o in chosen} <= set(targets)
    assert all(t.startswith("https://") for t in targets)
    flat = "".join("".join(lines).split())
    for o in chosen:
        assert "".join(short_url(o.url).split()) in flat  # shown short, unbroken
    assert all(len(short_url(o.url)) <= 40 for o in chosen)


def test_one_age_line_per_page_in_plain_words(qapp: Any, items: list[offers.Occasion]) -> None:
    reader = _pdf(Sheet(items[:30], AS_OF))
    pages = [" ".join(p.extract_text().split()) for p in reader.pages]
    assert len(pages) >= 2
    for page in pages:
        assert page.count("Prices and dates as of Thu 26 Nov 2026, 5:01 PM") == 1
        assert "UTC+00:00" not in page and "last confirmed" not in page


def test_times_name_a_zone_and_no_warning_reaches_the_customer(
    qapp: Any, items: list[offers.Occasion]
) -> None:
    chicago = next(o for o in items if o.city == "Chicago" and o.start and o.start.startswith("2027-02-08"))
    sf = next(o for o in items if o.city == "San Francisco" and o.start and o.start.startswith("2027-03-29"))
    webinar = next(o for o in items if o.id == 50007)  # online, 1:00-2:30 PM written -05:00
    style = Style(currency="USD", customer_zone="America/New_York")
    text = " ".join(_lines(_pdf(Sheet([chicago, sf, webinar], AS_OF, style=style))))
    assert (
        "Monday, February 8, 2027 – Tuesday, February 9, 2027 (2 days)" in text
        and "8:30 AM – 4:30 PM CST each day" in text
    )
    # a time written off its venue's zone is resolved before the sheet (``offer.make``): the
    # sheet, the customer's, gives the offset written and no warning
    assert "8:30 AM – 4:30 PM UTC−08:00" in text and "Check the time" not in text
    assert "1:00 PM – 2:30 PM EST" in text  # one label style: the zone's abbreviation that day
    west = " ".join(_lines(_pdf(Sheet([webinar], AS_OF, style=Style(customer_zone="America/Los_Angeles")))))
    assert "10:00 AM – 11:30 AM PST" in west
    h24 = " ".join(
        _lines(_pdf(Sheet([chicago], AS_OF, style=Style(time_text=TimeText(clock_pattern="HH:mm")))))
    )
    assert "08:30 – 16:30 CST each day" in h24


def test_a_session_alone_names_its_series_price_and_a_whole_series_is_one_item(
    qapp: Any, items: list[offers.Occasion]
) -> None:
    sessions = [o for o in items if o.kind == "session" and 801 in o.series_ids]
    assert len(sessions) == 4 and sessions[0].series_sizes[0] == 4
    style = Style(currency="USD")
    alone = " ".join(_lines(_pdf(Sheet(sessions[:1], AS_OF, style=style))))
    assert f"USD {sessions[0].fee}" in alone.replace(NBSP, " ")
    assert (
        "Part of Generative AI for Legal and Finance Professionals: 4 sessions, USD 699 for the series"
        in (alone.replace(NBSP, " "))
    )
    whole = " ".join(_lines(_pdf(Sheet(sessions, AS_OF, style=style)))).replace(NBSP, " ")
    assert "Series of 4 sessions, USD 699 for the whole series" in whole
    assert whole.count("Included") == 4 and "Part of" not in whole
    for o in sessions:
        assert o.title.split(":")[0] in whole


def test_the_letterhead_note_and_validity_head_the_sheet(
    qapp: Any, items: list[offers.Occasion], tmp_path: Path
) -> None:
    logo = tmp_path / "logo.png"
    image = QImage(240, 80, QImage.Format.Format_RGB32)
    image.fill(QColor("#1f6feb"))
    assert image.save(str(logo))
    head = Letterhead("Jane Seller", "Whitfield Training", "jane@example.com", "+1 312 555 0100", str(logo))
    sheet = Sheet(
        items[:3], AS_OF, title="Offer for Acme", letterhead=head, note="Dear Ms Acme,\nas promised.",
        valid_until=date(2026, 12, 31),
    )  # fmt: skip
    reader = _pdf(sheet)
    first = _lines(reader)[:8]
    assert first[:3] == ["Whitfield Training", "Jane Seller", "jane@example.com · +1 312 555 0100"]
    assert "Offer for Acme" in first and "Dear Ms Acme," in first
    text = " ".join(_lines(reader))
    assert "This offer is valid until Thursday, December 31, 2026" in text
    xobjects = reader.pages[0]["/Resources"].get("/XObject") or {}
    assert any(x.get_object().get("/Subtype") == "/Image" for x in xobjects.values())


def test_with_a_letterhead_no_row_is_cut_by_a_page_s_end(qapp: Any, items: list[offers.Occasion]) -> None:
    from tests.ui.offers.test_sheet_pdf import _laid_out

    head = Letterhead("Jane Seller", "Whitfield Training", "jane@example.com", "+1 312 555 0100")
    sheet = Sheet(items[:40], AS_OF, letterhead=head, note="Dear Ms Acme,\nas promised.")
    doc, page_h, breaks, _keep = _laid_out(sheet)
    extents = sheet_pdf._row_extents(doc)
    assert len(extents) == 40 and breaks  # the letterhead's table is no occasion's
    for top, bottom, _above in extents:
        assert int(top // page_h) == int((bottom - 1) // page_h)
