"""The offers' outputs themselves, in one process, on a synthetic catalogue: the offer sheet of 50
occasions (layout and PDF), the calendar file of 1,000, the .xlsx of 10,000 (issue 27's Speed).
The window's figures (with its dialogs, from the Dates tab) are ``_dates.py``'s.

``python bench/_offers_outputs.py [--size N] [--repeat R]`` prints one JSON object (milliseconds).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from typing import Any

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


def occasions(size: int) -> list[Any]:
    from catalogue_desktop.core.listing.facts import facts
    from catalogue_desktop.core.offers import occasions as offers
    from catalogue_desktop.core.query import offerings
    from catalogue_desktop.core.query.engine import Finder
    from catalogue_desktop.core.query.table import TableBuilder
    from catalogue_desktop.core.records.decode import decode_collection
    from catalogue_desktop.demo.synthetic import generate

    finder = Finder()
    for kind, payload in generate(size, 7).items():
        builder = TableBuilder(kind.value)
        builder.add([facts(kind, r) for _pos, r in decode_collection(kind, payload).records])
        finder.set_table(builder.finish())
    found = offerings.columns(finder.tables, finder.vocabulary)
    return offers.by_start(offers.occasions(found, range(found.n)))


def timed(repeat: int, work: Any) -> dict[str, Any]:
    runs = []
    for _ in range(repeat + 1):
        started = time.perf_counter()
        result = work()
        runs.append((time.perf_counter() - started) * 1000)
    return {"first_ms": runs[0], "median_ms": statistics.median(runs[1:]), "bytes": len(result)}


def main(size: int, repeat: int) -> dict[str, Any]:
    from catalogue_desktop.core.export import spreadsheet
    from catalogue_desktop.core.offers import calendar as offer_calendar
    from catalogue_desktop.core.offers import occasions as offers
    from catalogue_desktop.core.offers.customer_text import Style
    from catalogue_desktop.core.offers.sheet import Letterhead, Sheet
    from catalogue_desktop.ui.offers import sheet_pdf

    items = occasions(size)
    dated = [o for o in items if o.start]
    as_of = "Thu 26 Nov 2026, 5:01 PM"
    style = Style(currency="USD", customer_zone="America/New_York")
    head = Letterhead("Jane Seller", "Whitfield Training", "jane@example.com", "+1 312 555 0100")

    def sheet() -> bytes:
        doc = Sheet(dated[:50], as_of, title="Offer for Acme", style=style, letterhead=head)
        return sheet_pdf.pdf_bytes(doc, "Offer for Acme", offers.age_line(as_of), "A4")

    sheet_pdf.gui_application()
    return {
        "occasions": len(items),
        "sheet_50": timed(repeat, sheet),
        "ics_1000": timed(repeat, lambda: offer_calendar.ics(dated[:1000], as_of).encode()),
        "xlsx_10000": timed(repeat, lambda: spreadsheet.offerings_xlsx((items * 2)[:10_000], [as_of], "USD")),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    json.dump(main(args.size, args.repeat), sys.stdout)
    print()
