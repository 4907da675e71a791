"""The occasions of whole records: a series' sessions, a course's locations, a webinar's date.

A seller who selects a series on the Series tab (or a course, or a webinar) and makes an offer
offers what a customer can still book of it: the offerings rows (``query.offerings``) that belong
to the selected records and are not over (an on-demand one is never over), in the Dates tab's
order. All the sessions of a series chosen this way are one item on the sheet and in the e-mail
("Series: N sessions, USD 699 for the series": ``offers.customer_text.whole_series``). Qt-free.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime
from typing import Any

from catalogue_desktop.core.offers.occasions import instant
from catalogue_desktop.core.records.field_registry import fact_keys

# The tabs whose records an offer can be made of, and the offerings kinds each one's ids name.
_DATE = fact_keys("offerings")  # a date's keys by field name (the registry's: ``starts`` is ``startDate``)
OFFERED_KINDS = {"series": ("session",), "courses": ("course",), "webinars": ("webinar", "session")}


def rows_of(found: Mapping[str, Sequence[Any]], table: str, ids: Collection[Any], now: datetime) -> list[int]:
    """The offerings rows (in ``found``: the offerings' columns) of the records ``ids`` of
    ``table`` ("series", "courses" or "webinars") that are not over at ``now``."""
    kinds = OFFERED_KINDS.get(table)
    if not kinds or not ids:
        return []
    wanted = set(ids)
    kind, record, series, end, start, on_demand = (
        found.get(_DATE[name]) or [] for name in ("kind", "id", "series_ids", "ends", "starts", "ondemand")
    )
    rows = []
    for row in range(len(kind)):
        if kind[row] not in kinds:
            continue
        if table == "series":
            if not wanted.intersection(series[row] or ()):
                continue
        elif record[row] not in wanted:
            continue
        if _bookable(row, end, start, on_demand, now):
            rows.append(row)
    return rows


def _bookable(
    row: int, end: Sequence[Any], start: Sequence[Any], on_demand: Sequence[Any], now: datetime
) -> bool:
    if row < len(on_demand) and on_demand[row]:
        return True
    last = instant(end[row] if row < len(end) else None) or instant(start[row] if row < len(start) else None)
    return last is None or last >= now
