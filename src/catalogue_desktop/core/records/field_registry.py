"""The record fields' registry: per table and scope, each field once, with every name and fact
about it that another module needs. The finder's fields (``core.query.fields``), the listing
columns (``core.listing.rows``), the facts (``core.listing.facts``) and the occasions' keys
(``core.query.offerings``, ``core.offers.occasions``) are derived from it.

A field has one name (what a query names it, what the docs call it, the key its code uses); each
other spelling is declared here, once, beside it:

* ``spec``: the service's name for it (``docs/catalogue-api-v1.md``); a query takes it too.
* ``fact``: the key of its value in the stored facts, when not the spec's name (``hasDescription``
  for a description of which only its presence is kept; ``id`` for a record's own id) — or None
  for a value no fact holds (one the engine derives, or a listing column computed from others).
* ``column``: the key of the listing column that shows it (None: no list shows it), when not its
  name: the Dates tab's row number is its column ``id`` and an occasion's record id its column
  ``record``; the date columns' keys are ``start`` and ``end``.
* ``aliases``: further names a query takes.
* ``type``: its value's type (``FieldType``; a query's value and a column's kind follow from it),
  None for what is only stored (a record's linked ids).
* ``label``: what people read for it (a column's header).
* ``offer``: its key in an offer's JSON and CSV (``export offerings``; the occasions only).

Which fields are facets (the finder's panel of values with counts, ``core.query.facets``) is
``FACETS``: by name, wherever a table has the field, titled by its label unless said otherwise.

Names are per table (the eight kinds and ``offerings``, the Dates tab's occasions) and scope
(``record``; ``location`` within a course, ``session`` within a series: the facts' nested dicts).
Stored facts keep the spec's names: renaming a fact would need every cache listed again.
"""

from __future__ import annotations

import enum
from collections.abc import Iterator
from typing import NamedTuple

__all__ = [
    "CHILD_KEYS",
    "FACETS",
    "RECORD_FIELDS",
    "FieldEntry",
    "FieldType",
    "column_keys",
    "fact_keys",
    "named",
    "offer_keys",
    "scopes",
    "tables",
]


class FieldType(enum.Enum):
    TEXT = "text"  # one text: contains, or = exact
    NAMES = "names"  # names of linked records (several): contains, or = exact, any of them
    ID = "id"  # an integer id: equals, compare, range
    NUMBER = "number"  # a count or other integer
    MONEY = "money"  # a fee (integer, or decimal text for certificates)
    DATE = "date"  # a date-time with its UTC offset
    BOOL = "bool"  # yes / no
    CODE = "code"  # a code the spec gives no meanings for (Webinar.type, Course.level)
    PRESENCE = "presence"  # only has:/no: (long texts that are not indexed)


class FieldEntry(NamedTuple):
    name: str
    spec: str | None = None
    fact: str | None = None
    column: str | None = None
    aliases: tuple[str, ...] = ()
    type: FieldType | None = None
    label: str = ""
    offer: str | None = None


T, NM, ID, N, M, D, B, C, P = (
    FieldType.TEXT,
    FieldType.NAMES,
    FieldType.ID,
    FieldType.NUMBER,
    FieldType.MONEY,
    FieldType.DATE,
    FieldType.BOOL,
    FieldType.CODE,
    FieldType.PRESENCE,
)

# A field's type and label by its name, wherever the name occurs (a field may say otherwise).
_TYPES: dict[str, FieldType] = {
    **dict.fromkeys(("id", "session", "webinar", "location", "series_id", "row"), ID),
    **dict.fromkeys(
        ("title", "description", "url", "access", "image", "image2x", "name", "bio", "education"), T
    ),
    **dict.fromkeys(("venue", "address", "city", "state", "zip"), T),
    **dict.fromkeys(
        ("expert", "topic", "role", "situation", "series", "certificate", "course", "cities"), NM
    ),
    **dict.fromkeys(("sessions", "locations", "levels", "courses", "webinars"), N),
    **dict.fromkeys(("starts", "ends", "produced", "first", "last", "next"), D),
    **dict.fromkeys(("cle", "cpe", "ondemand"), B),
    **dict.fromkeys(("type", "level", "kind"), C),
    "fee": M,
    "curriculum": P,
}
_LABELS = {
    "id": "ID",
    "cle": "CLE",
    "cpe": "CPE",
    "expert": "Experts",
    "topic": "Topics",
    "role": "Roles",
    "situation": "Situations",
    "starts": "Start",
    "ends": "End",
    "ondemand": "On demand",
    "series_id": "Series ID",
    "location": "Location ID",
    "url": "Link",
}


def _n(
    name: str,
    spec: str | None = None,
    *aliases: str,
    fact: str | None = None,
    column: str | bool = False,
    derived: bool = False,
    label: str | None = None,
    offer: str | None = None,
    typed: bool = True,
) -> FieldEntry:
    """``column``: True if a column shows it under its name, or that column's key; ``fact``: the
    facts' key if not the spec's (else the name's); ``derived``: no fact holds it; ``typed``:
    False for a value only stored (no query takes it, no column shows it). A fact that keeps only
    whether a text is there (``has...``) makes the field has:/no: only."""
    key = None if derived else (fact or spec or name)
    shown = name if column is True else (column or None)
    kind = (P if key and key.startswith("has") else _TYPES[name]) if typed else None
    text = label or _LABELS.get(name) or name.replace("_", " ").capitalize()
    return FieldEntry(name, spec, key, shown, aliases, kind, text, offer)


def _titled(id_spec: str, *own: str, description: bool = True) -> tuple[FieldEntry, ...]:
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

RECORD_FIELDS: dict[tuple[str, str], tuple[FieldEntry, ...]] = {
    ("webinars", "record"): (
        _n("id", "webinarId", fact="id", column=True),
        *(f._replace(column=f.column or f.name) if f.name in _LISTED_WEBINAR else f for f in _WEBINAR_PARTS),
        _n("description", "description", fact="hasDescription"),
        _n("produced", "productionDate", "production", column=True),
        _n("access", "accessUrl"),
        _n("expertIds", typed=False),
        _n("topicIds", typed=False),
        _n("roleIds", typed=False),
        _n("situationIds", typed=False),
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
        _n("first", column=True, derived=True, label="First session"),  # the first session's start
        _n("last", column=True, derived=True, label="Last session"),  # the last session's start
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
        _n("expertIds", typed=False),
        _n("topic", "topics"),
        _n("topicIds", typed=False),
        _n("locations", "locations", fact="locationCount"),
        _n("certificate", derived=True),
        _n(
            "next", column=True, derived=True, label="Next date"
        ),  # the next location's start (else the last's)
        _n("last", column=True, derived=True, label="Last date"),  # the last location's end
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
        _n("courseIds", typed=False),
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
    # The Dates tab's occasions (``core.query.offerings``; their facts made there, not stored), in
    # the order of an offer's JSON keys (``offer``).
    ("offerings", "record"): (
        _n("kind", fact="kind", column=True, offer="kind"),
        _n("id", fact="id", column="record", offer="id"),  # the course's or webinar's id
        _n("location", "locationId", column=True, offer="locationId"),
        _n("session", "sessionId"),
        _n("series_id", "seriesId", column=True, offer="seriesId"),
        _n("title", "title", column=True, offer="title"),
        _n("type", "type", column=True),
        _n("level", "level"),
        _n("starts", "startDate", "start", "date", column="start", offer="start"),
        _n("ends", "endDate", "end", column="end", offer="end"),
        _n("city", "city", column=True, offer="city"),
        _n("state", "state", column=True, offer="state"),
        _n("venue", "venue", column=True, offer="venue"),
        _n("address", "address", offer="address"),
        _n("zip", "zip", offer="zip"),
        _n("fee", "fee", column=True, offer="fee"),
        _n("cle", "cleAccreditation", column=True, offer="cle"),
        _n("cpe", "cpeAccreditation", column=True, offer="cpe"),
        _n("expert", "experts", column=True, offer="experts"),
        _n("topic", "topics", column=True, offer="topics"),
        _n("role", "roles"),
        _n("situation", "situations"),
        _n("series", fact="series", column=True, offer="series"),
        # a session of several series: every one's id, fee and number of sessions (offers)
        _n("series_ids", fact="seriesIds", typed=False),
        _n("series_fees", fact="seriesFees", typed=False),
        _n("series_sessions", fact="seriesSessions", typed=False),
        _n("ondemand", fact="ondemand", column=True, offer="onDemand"),
        _n("url", "detailUrl", "detail", offer="url"),
        _n("row", column="id", derived=True),  # the occasion's own number (``RowSet.id_column``)
    ),
}


# The facts' key of a scope's list of child dicts.
CHILD_KEYS: dict[tuple[str, str], str] = {
    ("courses", "location"): "locations",
    ("series", "session"): "sessions",
}


def _lookups() -> Iterator[tuple[tuple[str, str, str], FieldEntry]]:
    for (table, scope), entries in RECORD_FIELDS.items():
        seen: set[str] = set()
        for entry in entries:
            if entry.name in seen:
                raise ValueError(f"{table}/{scope}: two fields named {entry.name!r}")
            seen.add(entry.name)
            yield (table, scope, entry.name), entry


_BY_NAME = dict(_lookups())


def named(table: str, scope: str, name: str) -> FieldEntry:
    """The field ``name`` of ``table`` in ``scope`` (KeyError: the table has no such field)."""
    return _BY_NAME[(table, scope, name)]


def tables() -> tuple[str, ...]:
    """Every table, in the registry's order (the eight kinds', then ``offerings``)."""
    return tuple(dict.fromkeys(table for table, _scope in RECORD_FIELDS))


def scopes(table: str, name: str) -> list[str]:
    """The scopes of ``table`` that have a field ``name``, the record's first."""
    found = [scope for (t, scope, n) in _BY_NAME if t == table and n == name]
    return sorted(found, key=lambda scope: scope != "record")


def fact_keys(table: str, scope: str = "record") -> dict[str, str]:
    """Name -> the facts' key, for the fields a fact holds."""
    return {f.name: f.fact for f in RECORD_FIELDS[(table, scope)] if f.fact is not None}


def column_keys(table: str) -> dict[str, str]:
    """The listing column's key -> the name of the field it shows."""
    return {f.column: f.name for f in RECORD_FIELDS[(table, "record")] if f.column is not None}


def offer_keys() -> dict[str, str]:
    """Name -> an offer's JSON key, for the occasions' fields an offer writes, in its order."""
    return {f.name: f.offer for f in RECORD_FIELDS[("offerings", "record")] if f.offer is not None}


# The facets, in the panel's order: (field name, title); a title is the field's label (the same in
# every table that has it) unless given here.
_FACETED: tuple[tuple[str, str | None], ...] = (
    ("topic", None),
    ("role", None),
    ("situation", None),
    ("expert", None),
    ("type", None),
    ("kind", None),
    ("cle", None),
    ("cpe", None),
    ("level", None),
    ("city", None),
    ("state", None),
    ("starts", "Start month"),  # a month's occasions
    ("fee", None),
)


def _facets() -> Iterator[tuple[str, str]]:
    for name, title in _FACETED:
        labels = {e.label for (_table, _scope, n), e in _BY_NAME.items() if n == name}
        if len(labels) != 1:
            raise ValueError(f"facet {name!r}: its field has the labels {sorted(labels)}, not one")
        yield name, title or labels.pop()


FACETS: tuple[tuple[str, str], ...] = tuple(_facets())
