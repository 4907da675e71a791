"""``catalogue-desktop export``: a cached collection as CSV or JSON, or the occasions (offerings)
as CSV, JSON, a calendar file or the offer sheet, offline."""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from catalogue_desktop.cli.common import note, open_store, query_of, read_query
from catalogue_desktop.cli.connection import offline_cache
from catalogue_desktop.cli.output import say
from catalogue_desktop.core.records.kinds import Kind


def run(args: argparse.Namespace) -> int:
    from catalogue_desktop.core.export.records import export_collection

    if args.kind == "offerings":
        return run_offerings(args)
    if (
        args.format not in ("csv", "json", "xlsx")
        or args.include_past
        or args.paper
        or args.title is not None
        or args.note
        or args.times
        or args.group != "course"
    ):
        say(
            "catalogue-desktop export: --format ics, pdf and email, --include-past, --title, --note, "
            "--times, --group and --paper are for dates only",
            sys.stderr,
        )
        return 2
    parsed, query = query_of(args)
    if not parsed:
        return 2
    with open_store(*offline_cache(args), reading=True) as store:
        positions = None
        query = read_query(store, args, args.kind, query)
        if query is not None:
            from catalogue_desktop.core.searches import stored as finding

            positions = finding.select(store, Kind(args.kind), query, note)
        if args.format == "xlsx":
            from catalogue_desktop.cli.export_xlsx import write_collection

            return write_collection(args, store, positions, currency(args))
        if args.output:
            from catalogue_desktop.cli.output import write_output
            from catalogue_desktop.core.formats.files import text_writer

            counted: list[int] = []

            def write(out: TextIO) -> None:
                kind = Kind(args.kind)
                if args.excel and args.format == "csv":
                    out.write(BOM)
                counted.append(
                    export_collection(store, kind, args.format, out, positions, demo=args.cache_demo)
                )

            if write_output(args.output, text_writer(write)) is not None:
                say(f"Wrote {counted[0]} {args.kind} to {args.output}", sys.stderr)
        else:
            sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
            if args.excel and args.format == "csv":
                sys.stdout.write(BOM)
            export_collection(
                store, Kind(args.kind), args.format, sys.stdout, positions, demo=args.cache_demo
            )
    return 0


BOM = "\ufeff"  # --excel: a UTF-8 byte-order mark first, so that Excel reads the CSV as UTF-8


def currency(args: argparse.Namespace) -> str | None:
    """``--currency``, else the one the window remembers (``cli.remembered``), else none."""
    from catalogue_desktop.cli import remembered

    chosen = (args.export_currency or "").strip().upper() or remembered.currency()
    return chosen[:8] if chosen else None


def run_offerings(args: argparse.Namespace) -> int:
    """``export offerings``: ``core.offers.export_offerings`` does the work, an offer made as the window
    makes it (``core.offers.offer``: Preferences' letterhead, currency, customer zone and choice
    of doubtful times, read without Qt: ``cli.remembered``); the PDF is drawn with Qt
    (``ui.offers.sheet_pdf``, imported for it alone: the other formats import no Qt)."""
    from catalogue_desktop.cli import remembered
    from catalogue_desktop.core.offers import export_offerings as offers_export
    from catalogue_desktop.core.offers.offer import CLOCK

    parsed, query = query_of(args)
    if not parsed:
        return 2
    with open_store(*offline_cache(args), reading=True) as store:
        query = read_query(store, args, "offerings", query)
        selection = offers_export.select(store, query, include_past=args.include_past, note=note)
        catalogue = f"Catalogue: {store.path}"
    made = None
    if args.format in offers_export.OFFER_FORMATS:
        made = offers_export.offer_of(
            selection,
            times=args.times or remembered.offer_times() or CLOCK,
            title=" ".join((args.title or "").split()) or "Offer",
            note=args.note.strip(),
            letterhead=remembered.letterhead(),
            currency=currency(args),
            customer_zone=remembered.customer_zone(),
        )
    render = paper = None
    if args.format == "pdf":
        from catalogue_desktop.ui.offers import sheet_pdf

        render = sheet_pdf.pdf_bytes
        paper = {"a4": "A4", "letter": "Letter"}.get(args.paper or "") or sheet_pdf.default_paper()
    about = [catalogue, f"Query: {query.text}" if query is not None and query.text else "Query: (all)"]
    data = offers_export.document(
        selection, args.format, made, group=args.group, paper=paper or "A4", render_pdf=render, about=about
    )
    if selection.empty_reason:
        say(f"catalogue-desktop: {selection.empty_reason}", sys.stderr)
    for text in offers_export.notes(selection, args.format, made):
        say(f"catalogue-desktop: {text}", sys.stderr)
    raw = data if isinstance(data, bytes) else data.encode("utf-8")
    if args.excel and args.format == "csv":
        raw = BOM.encode("utf-8") + raw
    if not args.output:
        sys.stdout.flush()
        sys.stdout.buffer.write(raw)
        sys.stdout.buffer.flush()
    else:
        from catalogue_desktop.cli.output import write_output

        written = write_output(args.output, lambda out: out.write(raw))
        if written is not None:
            say(f"Wrote {offers_export.summary(selection, args.format)} to {args.output}", sys.stderr)
    if args.title is not None:  # an offer: logged (``catalogue-desktop offers``)
        from catalogue_desktop.cli.offers import remember_export

        remember_export(args, selection.items, currency(args))  # (as the catalogue gave them)
    return 0
