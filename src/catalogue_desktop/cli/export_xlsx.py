"""``export KIND --format xlsx``: a collection's records as a spreadsheet (``core.export.spreadsheet``:
typed cells), with the data's age on its "About" sheet (the occasions' is the offer's:
``core.offers.workbook``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Collection
from typing import TYPE_CHECKING

from catalogue_desktop.cli.output import say
from catalogue_desktop.core.export import spreadsheet
from catalogue_desktop.core.records.kinds import Kind

if TYPE_CHECKING:
    from catalogue_desktop.core.cache.store import Store


def write_collection(
    args: argparse.Namespace, store: Store, positions: Collection[int] | None, currency: str | None
) -> int:
    """Write ``args.kind``'s records (those at ``positions``, or all) as a workbook to
    ``--output`` or standard output; the exit status."""
    from catalogue_desktop.core.cache.location import never_synced
    from catalogue_desktop.core.export.records import NothingToExport
    from catalogue_desktop.core.offers.occasions import age_line, as_of_text
    from catalogue_desktop.core.records.decode import decode_record

    kind = Kind(args.kind)
    state = store.state(kind)
    if not state.has_data:
        raise NothingToExport(never_synced(kind, store.path, demo=args.cache_demo))
    chosen = set(positions) if positions is not None else None
    records = []
    for entry in store.entries(kind):
        if chosen is None or entry.pos in chosen:
            try:
                records.append(decode_record(kind, entry.data))
            except ValueError:  # kept by an older version, beyond today's rules: left out, as by CSV
                continue
    about = [
        f"{kind.value}: {len(records):,} records",
        age_line(as_of_text(state.checked_at or state.fetched_at)),
    ]
    notes: list[str] = []
    data = spreadsheet.collection_xlsx(kind, records, about, currency, notes)
    for note in notes:  # (also on the About sheet)
        print(note, file=sys.stderr)
    if not args.output:
        sys.stdout.flush()
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return 0
    from catalogue_desktop.cli.output import write_output

    if write_output(args.output, lambda out: out.write(data)) is not None:  # (None: "-", stdout)
        say(f"Wrote {len(records)} {args.kind} to {args.output}", sys.stderr)
    return 0
