"""Every writer of a number is total (issue 35): for any value, within reason or far beyond it
(``tests/numbers_strategy.py``), it returns bounded text and never raises; each output is read back
by its real parser (csv, json, openpyxl)."""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from typing import Any

import openpyxl
from hypothesis import HealthCheck, given, settings

from catalogue_desktop.core.export.records import cell
from catalogue_desktop.core.formats.numbers import plain_number, shown
from catalogue_desktop.core.listing import rows
from catalogue_desktop.core.offers import mail
from catalogue_desktop.core.offers import occasions as offers
from catalogue_desktop.core.offers.customer_text import Style
from catalogue_desktop.core.offers.offer import make
from catalogue_desktop.core.offers.workbook import workbook
from catalogue_desktop.core.query import table
from tests.numbers_strategy import NUMBERS

LONGEST = 200  # no number's text is longer (a number of 6,000 digits is written by its size)
EXAMPLES = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _occasion(fee: Any) -> offers.Occasion:
    start, end = "2027-03-09T08:30:00.000-05:00", "2027-03-09T16:30:00.000-05:00"
    return offers.Occasion("course", 1, title="C", start=start, end=end, location_id=1, fee=fee)


@EXAMPLES
@given(value=NUMBERS)
def test_number_writers_are_total_and_bounded(value: Any) -> None:
    for text in (plain_number(value), shown(value), offers.money(value), offers.money(value, "USD")):
        assert isinstance(text, str) and len(text) <= LONGEST + 10
    if isinstance(value, (int, Decimal)) and not isinstance(value, bool):
        assert len(cell(value)) <= LONGEST
        rows.money(value)
    table.money(value)
    items = [_occasion(value)]
    out = io.StringIO()
    offers.write_csv(items, out)
    (row,) = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert len(row["fee"]) <= LONGEST
    json.loads(json.dumps(offers.json_rows(items)))
    assert len(mail.plain(items, "as of", Style())) < 1000


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=NUMBERS)
def test_the_spreadsheet_writes_any_fee(value: Any) -> None:
    data = workbook(make([_occasion(value)], None, currency="USD"), ["about"])
    sheet = openpyxl.load_workbook(io.BytesIO(data))["Dates"]
    assert sheet.cell(row=1, column=8).value == "Fee"  # (after Zone and Times)
    fee = sheet.cell(row=2, column=8).value
    assert fee is None or isinstance(fee, (int, float)) or len(str(fee)) <= LONGEST


def test_the_worst_are_written_briefly() -> None:
    assert plain_number(Decimal("1E+999999999")) == "1E+999999999"
    assert plain_number(Decimal("1E+14")) == "100000000000000"  # within reason: every digit
    assert plain_number(10**6000).startswith("a whole number of about 6,000 digits")
    assert offers.money(Decimal("sNaN")) == "sNaN"
