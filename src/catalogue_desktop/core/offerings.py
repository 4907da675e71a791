"""Offerings: every bookable occasion as one row (the sales desk's "Dates").

One row per course location, per series session, and per webinar that is no series' session
(a session is listed once, as a session with its series named, never as a webinar beside it).
On-demand webinars and sessions (their type is marked on demand) are rows without a date: they
are bookable whenever, never past. Rows come in that order (courses, sessions, webinars), each
source in its own order; the Dates tab sorts them by start.

Built column by column from the finder's tables (list comprehensions over whole columns: ~10x
faster than a dict per row), so the same columns make the finder's ``offerings`` table and the
tab's rows.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from catalogue_desktop.core.query.engine import Vocabulary
from catalogue_desktop.core.query.fields import OFFERINGS

__all__ = ["KEYS", "OFFERINGS", "as_facts", "columns", "refresh", "table"]
from catalogue_desktop.core.query.table import Table

KEYS = ("kind", "id", "locationId", "sessionId", "seriesId", "title", "type", "level",
        "startDate", "endDate", "venue", "address", "city", "state", "zip", "fee",
        "cleAccreditation", "cpeAccreditation", "experts", "topics", "roles", "situations",
        "series", "ondemand", "detailUrl")


def columns(tables: Mapping[str, Table], vocabulary: Vocabulary) -> dict[str, list[Any]]:
    """The offerings' columns (``KEYS``), from the tables of courses, series and webinars that
    are loaded (a missing one adds no rows)."""
    out: dict[str, list[Any]] = {key: [] for key in KEYS}
    for part in _parts(tables, vocabulary):
        n = len(part["id"])
        for key in KEYS:
            out[key].extend(part.get(key) or [None] * n)
    return out


def table(tables: Mapping[str, Table], vocabulary: Vocabulary) -> Table:
    """The finder's ``offerings`` table."""
    found = columns(tables, vocabulary)
    return Table(OFFERINGS, "record", found, len(found["id"]))


def _parts(tables: Mapping[str, Table], vocabulary: Vocabulary) -> Iterator[dict[str, list[Any]]]:
    courses, series, webinars = tables.get("courses"), tables.get("series"), tables.get("webinars")
    on_demand = vocabulary.on_demand
    if courses is not None and courses.child is not None:
        loc, parent = courses.child, courses.child.parent_of or []

        def up(key: str) -> list[Any]:
            values = courses.column(key)
            return [values[p] for p in parent]

        urls, course_urls = loc.column("detailUrl"), up("url")
        yield {
            "kind": ["course"] * loc.n, "id": up("id"), "locationId": loc.column("id"),
            "title": up("title"), "level": up("level"),
            **{k: loc.column(k) for k in ("startDate", "endDate", "venue", "address", "city",
                                           "state", "zip", "fee")},
            **{k: up(k) for k in ("cleAccreditation", "cpeAccreditation", "experts", "topics")},
            "ondemand": [False] * loc.n,
            "detailUrl": [u or c for u, c in zip(urls, course_urls, strict=True)],
        }
    listed: set[Any] = set()
    if series is not None and series.child is not None:
        ses, parent = series.child, series.child.parent_of or []
        listed = set(ses.ids)
        titles, fees, urls = series.column("title"), series.column("fee"), series.column("detailUrl")
        live = [t is None or str(t) not in on_demand for t in ses.column("type")]
        yield {
            "kind": ["session"] * ses.n, "id": ses.column("id"), "sessionId": ses.column("sessionId"),
            "seriesId": [series.ids[p] for p in parent],
            "series": [[titles[p]] if titles[p] else None for p in parent],
            "title": [t or titles[p] for t, p in zip(ses.column("title"), parent, strict=True)],
            "type": ses.column("type"),
            **_dates(ses, live),
            "fee": [f if f is not None else fees[p] for f, p in zip(ses.column("fee"), parent, strict=True)],
            **{k: ses.column(k) for k in ("cleAccreditation", "cpeAccreditation", "experts", "topics",
                                          "roles", "situations")},
            "ondemand": [not x for x in live],
            "detailUrl": [u or urls[p] for u, p in zip(ses.column("detailUrl"), parent, strict=True)],
        }
    if webinars is not None:
        keep = [i for i, rid in enumerate(webinars.ids) if rid not in listed]

        def pick(key: str) -> list[Any]:
            values = webinars.column(key)
            return [values[i] for i in keep]

        live = [t is None or str(t) not in on_demand for t in pick("type")]
        yield {
            "kind": ["webinar"] * len(keep), "id": pick("id"), "sessionId": pick("sessionId"),
            "title": pick("title"), "type": pick("type"),
            **_dates(None, live, pick("startDate"), pick("endDate")),
            **{k: pick(k) for k in ("fee", "cleAccreditation", "cpeAccreditation", "experts", "topics",
                                    "roles", "situations", "detailUrl")},
            "ondemand": [not x for x in live],
        }


def _dates(source: Table | None, live: list[bool], starts: list[Any] | None = None,
           ends: list[Any] | None = None) -> dict[str, list[Any]]:
    """Start and end dates, none for what is on demand."""
    if source is not None:
        starts, ends = source.column("startDate"), source.column("endDate")
    assert starts is not None and ends is not None
    return {
        "startDate": [s if ok else None for s, ok in zip(starts, live, strict=True)],
        "endDate": [e if ok else None for e, ok in zip(ends, live, strict=True)],
    }


def refresh(finder: Any) -> None:
    """Give ``finder`` the offerings of its current courses, series and webinars."""
    finder.set_table(table(finder.tables, finder.vocabulary))


def as_facts(found: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """The offerings as one dict per row (values that are None left out)."""
    keys = list(found)
    return [{k: v for k, v in zip(keys, row, strict=True) if v is not None}
            for row in zip(*(found[k] for k in keys), strict=True)]
