"""The offers' outputs themselves, in one process, on a synthetic catalogue: the offer sheet of 50
occasions (layout and PDF), the calendar file of 1,000, the .xlsx of 10,000 (issue 27's Speed),
each rendered from an offer made by ``offer.make``, as the window makes it. The window's figures
(with its dialogs, from the Dates tab) are ``_dates.py``'s.

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
    from catalogue_desktop.core.offers import offer as offers
    from catalogue_desktop.core.offers.sheet import Letterhead
    from catalogue_desktop.core.offers.workbook import workbook
    from catalogue_desktop.ui.offers import sheet_pdf

    items = occasions(size)
    dated = [o for o in items if o.start]
    head = Letterhead("Jane Seller", "Whitfield Training", "jane@example.com", "+1 312 555 0100")

    def offer(chosen: list[Any]) -> offers.Offer:
        """The offer every format renders (one voice: ``offer.make``), as the window makes it."""
        return offers.make(
            chosen,
            "2026-11-26T17:01:00-05:00",
            title="Offer for Acme",
            letterhead=head,
            currency="USD",
            customer_zone="America/New_York",
        )

    sheet_offer, ics_offer, book_offer = offer(dated[:50]), offer(dated[:1000]), offer((items * 2)[:10_000])

    def sheet() -> bytes:
        return sheet_pdf.pdf_bytes(offers.sheet(sheet_offer), sheet_offer.title, sheet_offer.footer, "A4")

    sheet_pdf.gui_application()
    return {
        "occasions": len(items),
        "sheet_50": timed(repeat, sheet),
        "ics_1000": timed(repeat, lambda: offers.calendar_file(ics_offer).text.encode()),
        "xlsx_10000": timed(repeat, lambda: workbook(book_offer)),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--size", type=int, default=4000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    json.dump(main(args.size, args.repeat), sys.stdout)
    print()
