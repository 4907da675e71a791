"""``catalogue-desktop export offerings``: the Dates tab's occasions from the cache, offline, as
CSV, JSON, or an offer (``offer.Offer``, made as the window makes it): an iCalendar file, the
offer sheet (PDF), the e-mail text or a spreadsheet.

The occasions are the finder's ``offerings`` rows (``core.query.offerings``: one per course
location, series session, or other webinar) matching ``--query``, past ones left out as on the
Dates tab (an implicit ``future``, unless the query has a date clause or ``--include-past``),
sorted by start, on-demand ones last. Every document names the data's age (``occasions.age_line``).

The PDF is rendered with Qt (``ui.offers.sheet_pdf``): the command line hands a renderer in, so
that this module, and every other format, stays Qt-free.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Unpack

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.offers import calendar, offer
from catalogue_desktop.core.offers import occasions as offers
from catalogue_desktop.core.offers import sheet as offer_sheet
from catalogue_desktop.core.offers.days import Schedule, schedules
from catalogue_desktop.core.offers.workbook import workbook
from catalogue_desktop.core.query.fields import OFFERINGS
from catalogue_desktop.core.query.offerings import upcoming
from catalogue_desktop.core.query.syntax import Parsed, parse
from catalogue_desktop.core.records.errors import CatalogueError
from catalogue_desktop.core.searches import stored as finding

FORMATS = ("csv", "json", "ics", "pdf", "email", "xlsx")
OFFER_FORMATS = ("ics", "pdf", "email", "xlsx")  # what renders an offer (``offer.Offer``)
# (sheet, title, footer, paper) -> the PDF's bytes
PdfRenderer = Callable[[offer_sheet.Sheet, str, str, str], bytes]


class NothingToOffer(CatalogueError):
    """None of the occasions' sources (courses, series, webinars) was ever synced."""


@dataclass
class Selection:
    """The occasions an export writes, how old their data is, and why there are none (if so)."""

    items: list[offers.Occasion]
    as_of: str | None  # the stamp (ISO 8601) of ``occasions.data_as_of``
    empty_reason: str | None = None
    schedules: dict[int, Schedule] = field(default_factory=dict)  # the courses' days (calendar)

    @property
    def as_of_text(self) -> str | None:
        return offers.as_of_text(self.as_of)


def select(
    store: Store,
    query: Parsed | None,
    *,
    include_past: bool,
    note: Callable[[str], None],
    now: datetime | None = None,
) -> Selection:
    """The occasions matching ``query`` (which parsed), sorted by start, on-demand last. Raises
    ``NothingToOffer`` when courses, series and webinars were all never synced."""

    states = store.states()
    missing = [k.value for k in offers.SOURCES if not states[k].has_data]
    if len(missing) == len(offers.SOURCES):
        raise NothingToOffer(
            f"nothing was ever synced into {store.path}: no dates to export; "
            "run 'catalogue-desktop sync' first"
        )
    if missing:
        note(f"{' and '.join(missing)} were never synced into this cache: their dates are missing")
    parsed = query or parse("")
    kinds = finding.kinds_needed([OFFERINGS], [parsed])
    finding.relist_stale(store, kinds, note)
    catalogue = finding.load(store, kinds, [OFFERINGS])
    effective = parsed if include_past else upcoming(parsed)
    outcome = catalogue.finder.evaluate(effective, OFFERINGS, now or finding.local_now())
    as_of = offers.data_as_of(states)
    if outcome.missing is not None:
        return Selection([], as_of, f"{outcome.message()}: no dates match")
    table = catalogue.table(OFFERINGS)
    items = offers.by_start(offers.occasions(table.columns, outcome.rows))
    reason = None
    if not items:
        what = f"no dates match {parsed.text!r}" if parsed.root is not None else "no dates"
        left_out = effective is not parsed
        reason = what + (" (past ones are left out: --include-past lists them)" if left_out else "")
    found = schedules(store, [o.id for o in items if o.kind == "course"])
    return Selection(items, as_of, reason, found)


def offer_of(
    selection: Selection, *, times: str = offer.CLOCK, **fields: Unpack[offer.OfferFields]
) -> offer.Offer:
    """The offer of ``selection`` (``offer.make``: the window's, from the same Preferences),
    ``fields`` its title, note, letterhead, currency and customer zone."""
    return offer.make(selection.items, selection.as_of, schedules=selection.schedules, times=times, **fields)


def document(
    selection: Selection,
    fmt: str,
    made: offer.Offer | None = None,
    *,
    group: str = "course",
    paper: str = "A4",
    render_pdf: PdfRenderer | None = None,
    now: datetime | None = None,
    about: Sequence[str] = (),
) -> str | bytes:
    """The export of ``selection`` in format ``fmt`` (text, or bytes for the PDF and the
    spreadsheet); the offer's formats (ics, pdf, email, xlsx) render ``made`` (default: the
    plain offer of ``selection``); ``about``: the spreadsheet's lines on its source."""
    items = selection.items
    if fmt == "json":
        return json.dumps(offers.json_rows(items), indent=2, ensure_ascii=False) + "\n"
    if fmt == "csv":
        out = io.StringIO()
        offers.write_csv(items, out)
        return out.getvalue()
    made = made or offer_of(selection)
    if fmt == "ics":
        return offer.calendar_file(made, now).text
    if fmt == "email":
        return offer.email_text(made)
    if fmt == "xlsx":
        return workbook(made, about)
    if fmt == "pdf":
        if render_pdf is None:
            raise ValueError("a PDF needs a renderer (ui.offers.sheet_pdf)")
        return render_pdf(offer.sheet(made, group), made.title, made.footer, paper)
    raise ValueError(f"unknown format {fmt!r}: expected one of {', '.join(FORMATS)}")


def notes(selection: Selection, fmt: str, made: offer.Offer | None = None) -> list[str]:
    """What the export of ``selection`` as ``fmt`` left out or changed, in words: links that are
    not web links (a control character, a space), in a calendar UIDs made unique, and the
    occasions whose times were written in an offset not their venue's zone's (given as chosen)."""
    made = made or offer_of(selection)
    out = []
    if made.resolved and fmt in OFFER_FORMATS:
        how = "the clock time as written" if made.times == offer.CLOCK else "the instant written"
        n = len(made.resolved)
        out.append(
            f"{n:,} course time{'s' if n != 1 else ''} written in an offset that is not the venue's "
            f"zone's on that date ({', '.join(made.resolved)}): given as {how} (--times)"
        )
    if fmt == "ics":
        return out + offer.calendar_file(made).notes
    bad = offers.links_left_out(selection.items)
    if bad and fmt == "pdf":
        out.append(f"{bad:,} link{'s' if bad != 1 else ''} printed as text: not a web link")
    return out


def summary(selection: Selection, fmt: str) -> str:
    """What a written export holds, in words ("12 occasions (15 events: a day each for 2 courses
    of several days; 2 on demand have no date)")."""
    n = len(selection.items)
    text = f"{n:,} date{'s' if n != 1 else ''}"
    if fmt == "ics":
        dated = offers.dated(selection.items)
        events = calendar.count(selection.items, selection.schedules)
        why = []
        if events != dated:
            why.append("a day each for courses of several days")
        if dated != n:
            why.append(f"{n - dated:,} on demand have no date")
        if why:
            text += f" ({events:,} event{'s' if events != 1 else ''}: {'; '.join(why)})"
    return text
