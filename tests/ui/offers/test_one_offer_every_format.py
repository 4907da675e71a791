"""One offer rendered in every format — the sheet (PDF), the calendar, the e-mail text and HTML,
the spreadsheet — each read back by its parser (pypdf, icalendar, the HTML parser, openpyxl) and
checked field by field against the demo sample's JSON: the same times at the venue (a course
written in an offset not its venue's zone's given as the instant, as chosen), the same online
time in the customer's zone, the same fee, experts, customer and note, one zone label, one minus
sign and no warning for the customer."""

from __future__ import annotations

import io
import json
from datetime import UTC, date, datetime, timedelta
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import openpyxl
import pypdf
import pytest

from catalogue_desktop.core.cache.store import FILE_NAME, Store
from catalogue_desktop.core.offers import offer as the_offer
from catalogue_desktop.core.offers.export_offerings import select
from catalogue_desktop.core.offers.sheet import Letterhead
from catalogue_desktop.core.offers.workbook import workbook
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.sync.ingest import ingest
from catalogue_desktop.demo.server import load_sample
from catalogue_desktop.ui.offers import sheet_pdf

SAMPLE = load_sample()
AT = "2026-11-20T09:30:00Z"
CHICAGO, BOSTON, WEBINAR = "course:6107@7114", "course:6102@7104", "webinar:50035"
NEW_YORK = ZoneInfo("America/New_York")


def _location(location_id: int) -> dict[str, Any]:
    return next(
        dict(loc, course=c)
        for c in json.loads(SAMPLE[Kind.COURSES])
        for loc in c["locations"]
        if loc["locationId"] == location_id
    )


@pytest.fixture(scope="module")
def offer(tmp_path_factory: pytest.TempPathFactory) -> the_offer.Offer:
    path = tmp_path_factory.mktemp("one-offer") / FILE_NAME
    for kind, payload in SAMPLE.items():
        assert ingest(str(path), kind.value, payload, None, None, AT).status == "updated"
    with Store(path) as store:
        selection = select(store, None, include_past=True, note=lambda _t: None, now=datetime(2026, 11, 26))
    wanted = [o for o in selection.items if the_offer.occasion_id(o) in (CHICAGO, BOSTON, WEBINAR)]
    assert len(wanted) == 3
    return the_offer.make(
        wanted,
        selection.as_of,
        schedules=selection.schedules,
        times=the_offer.INSTANT,
        title="Offer for Acme & Co",
        note="Dear Jane, the dates we spoke of.",
        valid_until=date(2026, 12, 18),
        letterhead=Letterhead("Jane Seller", "Whitfield Training", "jane@example.com"),
        currency="USD",
        customer_zone="America/New_York",
    )


def expected() -> dict[str, dict[str, Any]]:
    """Each occasion as the customer is to read it, worked out from the sample's JSON."""
    chicago, boston = _location(7114), _location(7104)
    webinar = next(w for w in json.loads(SAMPLE[Kind.WEBINARS]) if w["webinarId"] == 50035)
    w_start = datetime.fromisoformat(webinar["startDate"]).astimezone(NEW_YORK)
    w_end = datetime.fromisoformat(webinar["endDate"]).astimezone(NEW_YORK)
    return {
        CHICAGO: {  # written -06:00, CST on that date: as written
            "title": chicago["course"]["title"],
            "when": "8:30 AM – 4:30 PM CST each day",
            "start": datetime(2026, 12, 14, 8, 30),
            "end": datetime(2026, 12, 15, 16, 30),
            "zone": "CST",
            "day1": datetime(2026, 12, 14, 14, 30, tzinfo=UTC),
            "fee": chicago["fee"],
            "experts": "Samuel Oyelaran, CPA; Jennifer Aldridge",
        },
        BOSTON: {  # written 8:30 -05:00 while EDT (-04:00): the instant is 9:30 AM EDT
            "title": boston["course"]["title"],
            "when": "9:30 AM – 5:30 PM EDT each day",
            "start": datetime(2027, 3, 22, 9, 30),
            "end": datetime(2027, 3, 23, 17, 30),
            "zone": "EDT",
            "day1": datetime(2027, 3, 22, 13, 30, tzinfo=UTC),
            "fee": boston["fee"],
            "experts": "Olivia Grant, CPA, CGMA; William Ashford, Ph.D., CPA",
        },
        WEBINAR: {  # online: in the customer's zone
            "title": webinar["title"],
            "when": "2:00 PM – 3:30 PM EST",  # written 1:00 PM -06:00
            "start": w_start.replace(tzinfo=None),
            "end": w_end.replace(tzinfo=None),
            "zone": "EST",
            "day1": w_start.astimezone(UTC),
            "fee": webinar["fee"],
            "experts": "; ".join(e["name"] for e in webinar["experts"]),
        },
    }


def flat(text: str) -> str:
    return " ".join(text.split())


class _Cells(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.text: list[str] = []

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_every_format_says_the_same(qapp: Any, offer: the_offer.Offer, tmp_path: Path) -> None:
    want = expected()
    assert sorted(offer.resolved) == [BOSTON]  # the one doubtful time, given as the instant

    pdf = sheet_pdf.pdf_bytes(the_offer.sheet(offer), offer.title, offer.footer, "A4")
    pages = [p.extract_text() for p in pypdf.PdfReader(io.BytesIO(pdf)).pages]
    sheet = flat("\n".join(pages))
    ics = icalendar.Calendar.from_ical(the_offer.calendar_file(offer).text)
    events = ics.walk("VEVENT")
    text = the_offer.email_text(offer)
    cells = _Cells()
    cells.feed(the_offer.email_html(offer))
    html = flat(" ".join(cells.text))
    book = openpyxl.load_workbook(io.BytesIO(workbook(offer, ["Catalogue: demo", "Query: (all)"])))
    ws = book["Dates"]
    heads = [c.value for c in ws[1]]
    col = {h: i for i, h in enumerate(heads)}
    rows = {r[col["Date id"]].value: r for r in ws.iter_rows(min_row=2)}
    about = [c.value for c in book["About"]["A"]]

    # the offer's own fields: customer, note, validity, seller, the data's age with its zone
    for words in (
        "Offer for Acme & Co",
        "Dear Jane, the dates we spoke of.",
        "This offer is valid until Friday, December 18, 2026",
    ):
        assert words in sheet and words in text and words in html and words in about
    assert "Whitfield Training" in sheet and "Whitfield Training" in text and "Whitfield Training" in about
    assert offer.footer.endswith("; they may have changed since.") and " UTC" in offer.footer
    assert flat(offer.footer) in sheet and offer.footer in text and offer.footer in about

    for key, occasion in want.items():
        # the sheet (PDF) and the e-mail text and HTML: the same time with the same zone label
        assert occasion["when"] in sheet, (key, occasion["when"])
        line = next(x for x in text.splitlines() if x.startswith(occasion["title"]))
        assert occasion["when"] in line and f"USD\u00a0{occasion['fee']:,}" in line
        assert occasion["when"] in html
        assert f"USD {occasion['fee']:,}" in sheet
        # the calendar: the first event's instant; its description the same words
        first = next(e for e in events if str(e["SUMMARY"]).startswith(occasion["title"]))
        assert first.decoded("DTSTART") == occasion["day1"], key
        description = flat(str(first["DESCRIPTION"]))
        assert f"Fee: USD {occasion['fee']:,}" in description
        assert f"Experts: {occasion['experts']}" in description
        # the spreadsheet: the times at the venue (online: the customer's), the zone beside them
        row = rows[key]
        assert row[col["Start"]].is_date and row[col["Start"]].value == occasion["start"], key
        assert row[col["End"]].value == occasion["end"]
        assert row[col["Zone"]].value == occasion["zone"]
        assert row[col["Times"]].value == occasion["when"]  # the sheet's words: the daily hours
        assert row[col["Fee"]].value == occasion["fee"] and row[col["Fee"]].number_format == '"USD" #,##0'
        assert row[col["Experts"]].value == occasion["experts"]
    assert "Experts: Samuel Oyelaran, CPA; Jennifer Aldridge" in sheet  # (the group's line)

    # one minus sign, one label style, and nothing of the seller's doubts for the customer
    for output in (sheet, text, html, ics.to_ical().decode(), *map(str, about)):
        assert "UTC-" not in output and "Check the time" not in output and "may be an hour off" not in output
    assert len([e for e in events if str(e["SUMMARY"]).startswith(want[BOSTON]["title"])]) == 2
    day2 = next(e for e in events if str(e["SUMMARY"]) == f"{want[BOSTON]['title']} (day 2 of 2)")
    assert day2.decoded("DTEND") == datetime(2027, 3, 23, 21, 30, tzinfo=UTC)  # 5:30 PM EDT
    assert day2.decoded("DTSTART") - day2.decoded("DTEND") == timedelta(hours=-8)


def test_a_series_session_s_row_gives_the_series_price_as_the_sheet_does(qapp: Any, tmp_path: Path) -> None:
    path = tmp_path / FILE_NAME
    for kind, payload in SAMPLE.items():
        assert ingest(str(path), kind.value, payload, None, None, AT).status == "updated"
    with Store(path) as store:
        selection = select(store, None, include_past=True, note=lambda _t: None, now=datetime(2026, 11, 26))
    session = next(o for o in selection.items if o.kind == "session" and o.series_fees)
    offer = the_offer.make([session], selection.as_of, currency="USD")
    sheet = flat(
        "\n".join(
            p.extract_text()
            for p in pypdf.PdfReader(
                io.BytesIO(sheet_pdf.pdf_bytes(the_offer.sheet(offer), "x", "", "A4"))
            ).pages
        )
    )
    ws = openpyxl.load_workbook(io.BytesIO(workbook(offer)))["Dates"]
    heads = [c.value for c in ws[1]]
    (row,) = list(ws.iter_rows(min_row=2))
    series = row[heads.index("Series")].value
    price = f"USD {session.series_fees[0]:,} for the series"
    assert price in sheet and series.startswith(f"{session.series}: ")
    assert series.replace("\u00a0", " ").endswith(price)  # (a no-break space after the currency)


def test_the_sheet_s_blocks_are_spaced(qapp: Any, offer: the_offer.Offer) -> None:
    """The validity line does not touch the first heading, nor a group's line its table."""
    from PySide6.QtGui import QTextDocument, QTextTable

    doc = QTextDocument()
    doc.setTextWidth(700)
    doc.setHtml(the_offer.sheet(offer).html())
    layout = doc.documentLayout()

    def rect_of(words: str) -> Any:
        block = doc.begin()
        while block.isValid() and words not in block.text():
            block = block.next()
        assert block.isValid(), words
        return layout.blockBoundingRect(block)

    valid, heading = rect_of("This offer is valid until"), rect_of(expected()[CHICAGO]["title"])
    assert heading.top() - valid.bottom() >= 12  # px: a heading's space above it
    about = rect_of("Experts: Samuel Oyelaran, CPA; Jennifer Aldridge")
    tables = [f for f in doc.rootFrame().childFrames() if isinstance(f, QTextTable) and f.rows() > 1]
    first = min(
        layout.frameBoundingRect(t).top() for t in tables if layout.frameBoundingRect(t).top() > about.top()
    )
    assert first - about.bottom() >= 4
