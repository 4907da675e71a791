"""The .xlsx exports read back by openpyxl: typed cells (dates, their zone beside them, fees as
numbers in the currency's format, links as hyperlinks, Yes/No), a frozen header, widths, and the
data's age; checked against the demo sample's JSON."""

from __future__ import annotations

import io
import json
from datetime import datetime
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from catalogue_desktop.core.cache.store import FILE_NAME, Store
from catalogue_desktop.core.export import spreadsheet
from catalogue_desktop.core.offers import occasions as offers
from catalogue_desktop.core.offers.export_offerings import offer_of, select
from catalogue_desktop.core.offers.offer import make
from catalogue_desktop.core.offers.workbook import workbook
from catalogue_desktop.core.records.decode import decode_record
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.sync.ingest import ingest
from catalogue_desktop.demo.server import load_sample

SAMPLE = load_sample()
AT = "2026-11-20T09:30:00Z"


@pytest.fixture(scope="module")
def store_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("xlsx-cache")
    for kind, payload in SAMPLE.items():
        assert ingest(str(path / FILE_NAME), kind.value, payload, None, None, AT).status == "updated"
    return path / FILE_NAME


def _sheet(data: bytes) -> Any:
    assert data[:2] == b"PK"  # a zip: the .xlsx container
    return openpyxl.load_workbook(io.BytesIO(data))


def test_offerings_cells_are_typed(store_path: Path) -> None:
    with Store(store_path) as store:
        selection = select(
            store, None, include_past=True, note=lambda _text: None, now=datetime(2026, 11, 26)
        )
    data = workbook(offer_of(selection, currency="USD"), ["Catalogue: the demo"])
    book = _sheet(data)
    ws = book["Dates"]
    heads = [c.value for c in ws[1]]
    assert heads[:5] == ["Kind", "Title", "Start", "End", "Zone"]
    assert ws.freeze_panes == "A2"
    assert all(c.font.bold for c in ws[1])
    col = {h: i for i, h in enumerate(heads)}
    chicago = next(
        r
        for r in ws.iter_rows(min_row=2)
        if "Chicago" in r[col["Place"]].value and r[col["Title"]].value.startswith("Advanced Lease")
    )
    start = chicago[col["Start"]]
    assert start.is_date and start.value == datetime(2027, 2, 8, 8, 30)
    assert chicago[col["Zone"]].value == "CST"
    assert chicago[col["End"]].value == datetime(2027, 2, 9, 16, 30)
    assert chicago[col["Date id"]].value == "course:6101@7101"
    fee = chicago[col["Fee"]]
    assert fee.data_type == "n" and fee.value == 1295 and fee.number_format == '"USD" #,##0'
    assert chicago[col["Credits"]].value == "CPE"
    assert (
        chicago[col["Place"]].value == "The Drake Conference Center, 140 East Walton Place, Chicago, IL 60611"
    )
    link = chicago[col["Link"]]
    assert link.hyperlink is not None and link.hyperlink.target == link.value
    assert link.value.startswith("https://")
    # the San Francisco course written -08:00 in PDT: its clock time as written, at the venue
    sf = next(r for r in ws.iter_rows(min_row=2) if r[col["Start"]].value == datetime(2027, 3, 29, 8, 30))
    assert sf[col["Zone"]].value == "PDT"
    # the widths follow the content; the age on its own sheet
    assert ws.column_dimensions["B"].width > ws.column_dimensions["A"].width
    about = [c.value for c in book["About"]["A"]]
    assert about[0] == "Offer" and about[-1] == "Catalogue: the demo"
    assert about[-2].startswith("Prices and dates as of Friday, November 20, 2026")
    assert ws.max_row == len(selection.items) + 1


def test_a_collection_as_a_spreadsheet(store_path: Path) -> None:
    with Store(store_path) as store:
        records = [decode_record(Kind.WEBINARS, e.data) for e in store.entries(Kind.WEBINARS)]
    raw = json.loads(SAMPLE[Kind.WEBINARS])
    book = _sheet(spreadsheet.collection_xlsx(Kind.WEBINARS, records, ["as of"], None))
    ws = book["Webinars"]
    heads = [c.value for c in ws[1]]
    col = {h: i for i, h in enumerate(heads)}
    assert heads[col["startDate"] + 1] == "startDate zone"
    rows = {r[col["webinarId"]].value: r for r in ws.iter_rows(min_row=2)}
    assert len(rows) == len(raw)
    for w in raw:
        row = rows[w["webinarId"]]
        assert row[col["webinarId"]].data_type == "n"
        if w.get("fee") is not None:
            assert row[col["fee"]].value == w["fee"] and row[col["fee"]].number_format == "#,##0"
        if w.get("startDate"):
            written = datetime.fromisoformat(w["startDate"])
            assert row[col["startDate"]].value == written.replace(tzinfo=None, microsecond=0)
            assert row[col["startDate zone"]].value.startswith("UTC")
        yes_no = {True: "Yes", False: "No", None: None}[w.get("cleAccreditation")]
        assert row[col["cleAccreditation"]].value == yes_no
        if w.get("experts"):
            assert row[col["experts"]].value == "; ".join(e["name"] for e in w["experts"])


def test_hostile_text_stays_text() -> None:
    item = offers.Occasion(
        kind="webinar", id=1, title='=HYPERLINK("http://x")', fee="1e400", url="javascript:alert(1)"
    )
    ws = _sheet(workbook(make([item], None, currency="€")))["Dates"]
    row = ws[2]
    at = {c.value: i for i, c in enumerate(ws[1])}
    assert row[1].data_type == "s" and row[1].value == '=HYPERLINK("http://x")'
    assert row[at["Fee"]].data_type == "s"  # too big for a spreadsheet's number: kept as written
    assert row[at["Link"]].hyperlink is None and row[at["Link"]].value == "javascript:alert(1)"
