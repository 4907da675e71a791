"""``catalogue-desktop export``: a cached collection as CSV or JSON, or the occasions (offerings)
as CSV, JSON, a calendar file or the offer sheet, offline."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from catalogue_desktop.cli.common import note, open_store, query_of, write_whole
from catalogue_desktop.cli.connection import offline_cache
from catalogue_desktop.core.records.kinds import Kind


def run(args: argparse.Namespace) -> int:
    from catalogue_desktop.core.export.records import export_collection

    if args.kind == "offerings":
        return run_offerings(args)
    if (
        args.format not in ("csv", "json")
        or args.include_past
        or args.paper
        or args.title != "Offer"
        or args.group != "course"
    ):
        print(
            "catalogue-desktop export: --format ics and pdf, --include-past, --title, --group and "
            "--paper are for offerings only",
            file=sys.stderr,
        )
        return 2
    parsed, query = query_of(args)
    if not parsed:
        return 2
    with open_store(*offline_cache(args)) as store:
        positions = None
        if query is not None:
            from catalogue_desktop.core.query import stored as finding

            positions = finding.select(store, Kind(args.kind), query, note)
        if args.output:
            target = Path(args.output)
            counted: list[int] = []

            def write(tmp: Path) -> None:
                with tmp.open("w", encoding="utf-8", newline="") as out:
                    counted.append(
                        export_collection(
                            store, Kind(args.kind), args.format, out, positions, demo=args.cache_demo
                        )
                    )

            if not write_whole(target, write):
                return 1
            print(f"Wrote {counted[0]} {args.kind} to {target}", file=sys.stderr)
        else:
            sys.stdout.reconfigure(encoding="utf-8")  # type: ignore[union-attr]
            export_collection(
                store, Kind(args.kind), args.format, sys.stdout, positions, demo=args.cache_demo
            )
    return 0


def run_offerings(args: argparse.Namespace) -> int:
    """``export offerings``: ``core.offers.export`` does the work; the PDF is drawn with Qt
    (``ui.offers.sheet_pdf``, imported for it alone: the other formats import no Qt)."""
    from catalogue_desktop.core.offers import export as offers_export

    parsed, query = query_of(args)
    if not parsed:
        return 2
    with open_store(*offline_cache(args)) as store:
        selection = offers_export.select(store, query, include_past=args.include_past, note=note)
    render = paper = None
    if args.format == "pdf":
        from catalogue_desktop.ui.offers import sheet_pdf

        render = sheet_pdf.pdf_bytes
        paper = {"a4": "A4", "letter": "Letter"}.get(args.paper or "") or sheet_pdf.default_paper()
    data = offers_export.document(
        selection, args.format, title=args.title, group=args.group, paper=paper or "A4", render_pdf=render
    )
    if selection.empty_reason:
        print(f"catalogue-desktop: {selection.empty_reason}", file=sys.stderr)
    raw = data if isinstance(data, bytes) else data.encode("utf-8")
    if not args.output:
        sys.stdout.flush()
        sys.stdout.buffer.write(raw)
        sys.stdout.buffer.flush()
        return 0
    target = Path(args.output)
    if not write_whole(target, lambda tmp: tmp.write_bytes(raw)):
        return 1
    print(f"Wrote {offers_export.summary(selection, args.format)} to {target}", file=sys.stderr)
    return 0
