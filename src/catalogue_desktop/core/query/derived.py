"""Columns a table takes from other tables: names of linked records and counts of links.

``derive(finder, table, key)`` makes the column ``key`` ("@series", "@webinars", ...) of a table
from the finder's current tables; the finder drops these columns when any table is replaced.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any, Protocol

from catalogue_desktop.core.query.table import Table
from catalogue_desktop.core.query.vocabulary import Vocabulary

# (table, key) -> (source table, its column of linked ids)
_COUNTS = {
    ("experts", "@webinars"): ("webinars", "expertIds"),
    ("experts", "@courses"): ("courses", "expertIds"),
    ("topics", "@webinars"): ("webinars", "topicIds"),
    ("topics", "@courses"): ("courses", "topicIds"),
    ("roles", "@webinars"): ("webinars", "roleIds"),
    ("situations", "@webinars"): ("webinars", "situationIds"),
}


class Sources(Protocol):
    """What derived columns are made from: the tables and the vocabulary of an ``engine.Finder``
    (which makes its columns through this module, so it is named by what is used)."""

    @property
    def tables(self) -> Mapping[str, Table]: ...

    @property
    def vocabulary(self) -> Vocabulary: ...


def derive(finder: Sources, table: Table, key: str) -> list[Any]:
    """The derived column ``key`` of ``table`` (one value per row); ``finder`` is the
    ``engine.Finder`` holding the tables (and the vocabulary) it comes from."""
    tables = finder.tables
    if (table.name, key) in _COUNTS:
        source, column = _COUNTS[(table.name, key)]
        counts: Counter[Any] = Counter()
        if source in tables:
            for ids in tables[source].column(column):
                if ids:
                    counts.update(set(ids))
        return [counts.get(i, 0) for i in table.ids]
    if key == "@series":  # webinars: the series that hold them as sessions
        return _names_by_id(table.ids, _series_of(tables.get("series")))
    if key == "@certificate":  # courses: the certificates that name them
        found: dict[Any, list[str]] = {}
        certificates = tables.get("certificates")
        if certificates is not None:
            for title, ids in zip(
                certificates.column("title"), certificates.column("courseIds"), strict=True
            ):
                for course_id in ids or ():
                    found.setdefault(course_id, []).append(title or "")
        return _names_by_id(table.ids, found)
    if key == "@course":  # certificates: the titles of the courses they name
        courses = tables.get("courses")
        titles = dict(zip(courses.ids, courses.column("title"), strict=True)) if courses else {}
        return [
            [titles.get(i) or f"Course #{i}" for i in ids] if ids else None
            for ids in table.column("courseIds")
        ]
    if key == "@ondemand":
        codes = finder.vocabulary.on_demand
        return [v is not None and str(v) in codes for v in table.column("type")]
    raise KeyError(f"{table.name} has no derived column {key}")


def _series_of(series: Table | None) -> dict[Any, list[str]]:
    found: dict[Any, list[str]] = {}
    if series is None or series.child is None:
        return found
    titles = series.column("title")
    for webinar_id, parent in zip(series.child.ids, series.child.parent_of or (), strict=True):
        names = found.setdefault(webinar_id, [])
        title = titles[parent] or ""
        if title not in names:
            names.append(title)
    return found


def _names_by_id(ids: Iterable[Any], names: dict[Any, list[str]]) -> list[Any]:
    return [names.get(i) for i in ids]
