"""The names of a record's fields: one table, read by the listing columns (``core.listing.rows``),
the facts (``core.listing.facts``) and the finder's fields (``core.query.fields``).

A field has one name (what a query names it, what the docs call it, its listing column's key);
each other spelling is declared here, once, beside it:

* ``spec``: the service's name for it (``docs/catalogue-api-v1.md``); a query takes it too.
* ``fact``: the key of its value in the stored facts, when not the spec's name (``hasDescription``
  for a description of which only its presence is kept; ``id`` for a record's own id) — or None
  for a value no fact holds (one the engine derives, or a listing column computed from others).
* ``column``: the key of the listing column that shows it (None: no list shows it), when not its
  name: the Dates tab's row number is its column ``id`` and an occasion's record id its column
  ``record``; the date columns' keys are ``start`` and ``end``.
* ``aliases``: further names a query takes.

Names are per table (the eight kinds and ``offerings``, the Dates tab's occasions) and scope
(``record``; ``location`` within a course, ``session`` within a series: the facts' nested dicts).
Stored facts keep the spec's names: renaming a fact would need every cache listed again.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import NamedTuple

__all__ = ["CHILD_KEYS", "FIELD_NAMES", "FieldName", "column_keys", "fact_keys", "named"]


class FieldName(NamedTuple):
    name: str
    spec: str | None = None
    fact: str | None = None
    column: str | None = None
    aliases: tuple[str, ...] = ()


def _n(
    name: str,
    spec: str | None = None,
    *aliases: str,
    fact: str | None = None,
    column: str | bool = False,
    derived: bool = False,
) -> FieldName:
    """``column``: True if a column shows it under its name, or that column's key; ``fact``: the
    facts' key if not the spec's (else the name's); ``derived``: no fact holds it."""
    key = None if derived else (fact or spec or name)
    shown = name if column is True else (column or None)
    return FieldName(name, spec, key, shown, aliases)


def _titled(id_spec: str, *own: str, description: bool = True) -> tuple[FieldName, ...]:
    """``own``: the kind's own name, an alias of its title (``topic:tax`` on the Topics tab is
    the topics whose title has "tax", as on every other tab it is the records with such a topic)."""
    return (
        _n("id", id_spec, fact="id", column=True),
        _n("title", "title", *own, column=True),
        _n("description", "description", column=description),
    )


# What a webinar has, as a webinar and as a series' session (the session's own id: ``webinar``).
_WEBINAR_PARTS = (
    _n("session", "sessionId"),
    _n("type", "type"),
    _n("title", "title"),
    _n("fee", "fee"),
    _n("cle", "cleAccreditation"),
    _n("cpe", "cpeAccreditation"),
    _n("starts", "startDate", "start", "date", column="start"),
    _n("ends", "endDate", "end", column="end"),
    _n("url", "detailUrl", "detail"),
    _n("expert", "experts"),
    _n("topic", "topics"),
    _n("role", "roles"),
    _n("situation", "situations"),
)
_LISTED_WEBINAR = frozenset(
    {"session", "type", "title", "fee", "cle", "cpe", "starts", "ends", "expert", "topic"}
)

FIELD_NAMES: dict[tuple[str, str], tuple[FieldName, ...]] = {
    ("webinars", "record"): (
        _n("id", "webinarId", fact="id", column=True),
        *(f._replace(column=f.column or f.name) if f.name in _LISTED_WEBINAR else f for f in _WEBINAR_PARTS),
        _n("description", "description", fact="hasDescription"),
        _n("produced", "productionDate", "production", column=True),
        _n("access", "accessUrl"),
        _n("expertIds"),
        _n("topicIds"),
        _n("roleIds"),
        _n("situationIds"),
        _n("series", derived=True),
        _n("ondemand", derived=True),
    ),
    ("series", "record"): (
        _n("id", "seriesId", fact="id", column=True),
        _n("title", "title", "series", column=True),
        _n("description", "description", fact="hasDescription"),
        _n("fee", "fee", column=True),
        _n("url", "detailUrl", "detail"),
        _n("sessions", "sessions", fact="sessionCount", column=True),
        _n("first", column=True, derived=True),  # the first session's start
        _n("last", column=True, derived=True),  # the last session's start
    ),
    ("series", "session"): (_n("webinar", "webinarId", fact="id"), *_WEBINAR_PARTS),
    ("courses", "record"): (
        _n("id", "courseId", fact="id", column=True),
        _n("title", "title", column=True),
        _n("description", "description", fact="hasDescription"),
        _n("curriculum", "curriculum", fact="hasCurriculum"),
        _n("cle", "cleAccreditation", column=True),
        _n("cpe", "cpeAccreditation", column=True),
        _n("level", "level", column=True),
        _n("url", "url", "detail"),
        _n("expert", "experts", column=True),
        _n("expertIds"),
        _n("topic", "topics"),
        _n("topicIds"),
        _n("locations", "locations", fact="locationCount"),
        _n("certificate", derived=True),
        _n("next", column=True, derived=True),  # the next location's start (else the last's)
        _n("last", column=True, derived=True),  # the last location's end
        _n("cities", column=True, derived=True),  # its locations' cities
        _n("fee", column=True, derived=True),  # its locations' lowest and highest fee
    ),
    ("courses", "location"): (
        _n("location", "locationId", fact="id"),
        _n("venue", "venue"),
        _n("address", "address"),
        _n("city", "city"),
        _n("state", "state"),
        _n("zip", "zip"),
        _n("starts", "startDate", "start", "date"),
        _n("ends", "endDate", "end"),
        _n("fee", "fee"),
        _n("url", "detailUrl", "detail"),
    ),
    ("certificates", "record"): (
        *_titled("certificateId", description=False),
        _n("fee", "fee", column=True),
        _n("image", "imageUrl"),
        _n("levels", "levels", fact="levelCount", column=True),
        _n("courses", fact="courseCount", column=True),
        _n("courseIds"),
        _n("course", derived=True),
    ),
    ("experts", "record"): (
        _n("id", "expertId", fact="id", column=True),
        _n("name", "name", "expert", column=True),  # expert:okafor on the Experts tab: the expert
        _n("title", "title", column=True),
        _n("bio", "bio"),
        _n("education", "education", column=True),
        _n("image", "imageUrl"),
        _n("image2x", "image2xUrl"),
        _n("webinars", derived=True, column=True),
        _n("courses", derived=True, column=True),
    ),
    ("topics", "record"): (
        *_titled("topicId", "topic"),
        _n("webinars", derived=True, column=True),
        _n("courses", derived=True, column=True),
    ),
    ("roles", "record"): (*_titled("roleId", "role"), _n("webinars", derived=True, column=True)),
    ("situations", "record"): (
        *_titled("situationId", "situation"),
        _n("webinars", derived=True, column=True),
    ),
    # The Dates tab's occasions (``core.query.offerings``; their facts made there, not stored).
    ("offerings", "record"): (
        _n("kind", fact="kind", column=True),
        _n("id", fact="id", column="record"),  # the course's or webinar's id
        _n("row", column="id", derived=True),  # the occasion's own number (``RowSet.id_column``)
        _n("location", "locationId", column=True),
        _n("session", "sessionId"),
        _n("title", "title", column=True),
        _n("type", "type", column=True),
        _n("level", "level"),
        _n("starts", "startDate", "start", "date", column="start"),
        _n("ends", "endDate", "end", column="end"),
        _n("venue", "venue", column=True),
        _n("address", "address"),
        _n("city", "city", column=True),
        _n("state", "state", column=True),
        _n("zip", "zip"),
        _n("fee", "fee", column=True),
        _n("cle", "cleAccreditation", column=True),
        _n("cpe", "cpeAccreditation", column=True),
        _n("expert", "experts", column=True),
        _n("topic", "topics", column=True),
        _n("role", "roles"),
        _n("situation", "situations"),
        _n("series", fact="series", column=True),
        _n("series_id", "seriesId", column=True),
        # a session of several series: every one's id, fee and number of sessions (offers)
        _n("series_ids", fact="seriesIds"),
        _n("series_fees", fact="seriesFees"),
        _n("series_sessions", fact="seriesSessions"),
        _n("ondemand", fact="ondemand", column=True),
        _n("url", "detailUrl", "detail"),
    ),
}


# The facts' key of a scope's list of child dicts.
CHILD_KEYS: dict[tuple[str, str], str] = {
    ("courses", "location"): "locations",
    ("series", "session"): "sessions",
}


def _lookups() -> Iterator[tuple[tuple[str, str, str], FieldName]]:
    for (table, scope), names in FIELD_NAMES.items():
        seen: set[str] = set()
        for entry in names:
            if entry.name in seen:
                raise ValueError(f"{table}/{scope}: two fields named {entry.name!r}")
            seen.add(entry.name)
            yield (table, scope, entry.name), entry


_BY_NAME = dict(_lookups())


def named(table: str, scope: str, name: str) -> FieldName:
    """The field ``name`` of ``table`` in ``scope`` (KeyError: the table has no such field)."""
    return _BY_NAME[(table, scope, name)]


def fact_keys(table: str, scope: str = "record") -> dict[str, str]:
    """Name -> the facts' key, for the fields a fact holds."""
    return {f.name: f.fact for f in FIELD_NAMES[(table, scope)] if f.fact is not None}


def column_keys(table: str) -> dict[str, str]:
    """The listing column's key -> the name of the field it shows."""
    return {f.column: f.name for f in FIELD_NAMES[(table, "record")] if f.column is not None}
