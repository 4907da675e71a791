"""The finder's fields: per table (the eight kinds and ``offerings``), what a query may name.

One list, read by the parser (names, aliases, value types, suggestions), the engine (where each
value comes from) and the help: ``reference_markdown()`` writes the field table of README and the
Help menu from it, so the documentation cannot drift from what the engine accepts.
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterator
from dataclasses import dataclass

OFFERINGS = "offerings"
TABLES: tuple[str, ...] = (
    "webinars",
    "series",
    "courses",
    "certificates",
    "experts",
    "topics",
    "roles",
    "situations",
    OFFERINGS,
)


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


NUMERIC = frozenset({FieldType.ID, FieldType.NUMBER, FieldType.MONEY})
TEXTUAL = frozenset({FieldType.TEXT, FieldType.NAMES})

_TYPE_WORDS = {
    FieldType.TEXT: "text",
    FieldType.NAMES: "names",
    FieldType.ID: "id",
    FieldType.NUMBER: "number",
    FieldType.MONEY: "fee",
    FieldType.DATE: "date",
    FieldType.BOOL: "yes/no",
    FieldType.CODE: "code",
    FieldType.PRESENCE: "has:/no: only",
}


@dataclass(frozen=True)
class Field:
    """One field of one table.

    ``key``: where the value comes from in the record's facts (``core.listing.facts``), or ``@name`` for
    a value the engine derives from other tables (names of linked records, counts of links).
    ``scope``: ``record``, or ``location`` (courses) / ``session`` (series): conditions on such
    fields in one AND group hold for the same location or session.
    ``searched``: a free word is looked for in this field.
    """

    name: str
    type: FieldType
    key: str
    doc: str
    spec: str | None = None
    aliases: tuple[str, ...] = ()
    scope: str = "record"
    searched: bool = False
    ahead: bool = True  # indexed in idle time, before a query asks (links: when first asked)

    @property
    def names(self) -> tuple[str, ...]:
        """Every name a query may use for it, canonical first (compared case-insensitively)."""
        extra = (self.spec,) if self.spec and self.spec.lower() != self.name else ()
        return (self.name, *extra, *self.aliases)


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


def _f(
    name: str,
    type_: FieldType,
    doc: str,
    spec: str | None = None,
    *aliases: str,
    key: str | None = None,
    scope: str = "record",
    searched: bool = False,
) -> Field:
    # Links are nearly all distinct (100,000 texts to index): asked for rarely, indexed then.
    ahead = not (spec or "").lower().endswith("url")
    return Field(name, type_, key or spec or name, doc, spec, aliases, scope, searched, ahead)


def _titled(kind: str, id_spec: str, *extra: Field) -> tuple[Field, ...]:
    return (
        _f("id", ID, f"the {kind}'s id", id_spec, key="id", searched=True),
        _f("title", T, "title", "title", searched=True),
        _f("description", T, "description", "description", searched=True),
        *extra,
    )


_WEBINAR_COMMON = (
    _f("type", C, "webinar type code, or its label (type:live)", "type", searched=True),
    _f("cle", B, "CLE accreditation", "cleAccreditation"),
    _f("cpe", B, "CPE accreditation", "cpeAccreditation"),
    _f("starts", D, "start date", "startDate", "start", "date"),
    _f("ends", D, "end date", "endDate", "end"),
)

FIELDS: dict[str, tuple[Field, ...]] = {
    "webinars": (
        _f("id", ID, "the webinar's id", "webinarId", key="id", searched=True),
        _f("session", ID, "session id", "sessionId"),
        _f("title", T, "title", "title", searched=True),
        _f("description", P, "has a description", "description", key="hasDescription"),
        *_WEBINAR_COMMON,
        _f("fee", M, "fee", "fee"),
        _f("produced", D, "production date", "productionDate", "production"),
        _f("url", T, "detail page link", "detailUrl", "detail"),
        _f("access", T, "access link", "accessUrl"),
        _f("expert", NM, "experts' names", "experts", key="experts", searched=True),
        _f("topic", NM, "topics' titles", "topics", key="topics", searched=True),
        _f("role", NM, "roles' titles", "roles", key="roles"),
        _f("situation", NM, "situations' titles", "situations", key="situations"),
        _f("series", NM, "titles of the series it is a session of", key="@series"),
        _f("ondemand", B, "on demand (its type is marked on demand)", key="@ondemand"),
    ),
    "series": (
        _f("id", ID, "the series' id", "seriesId", key="id", searched=True),
        _f("title", T, "title", "title", searched=True),
        _f("description", P, "has a description", "description", key="hasDescription"),
        _f("fee", M, "the series' fee", "fee"),
        _f("url", T, "detail page link", "detailUrl", "detail"),
        _f("sessions", N, "number of sessions", "sessions", key="sessionCount"),
        _f("webinar", ID, "a session's webinar id", "webinarId", key="id", scope="session"),
        _f("session", ID, "a session's session id", "sessionId", scope="session"),
        *(
            dataclasses.replace(f, doc=f"a session's {f.doc}", scope="session")
            for f in _WEBINAR_COMMON
            if f.name != "type"
        ),
        _f("type", C, "a session's type code or label", "type", scope="session"),
        _f("expert", NM, "a session's experts", "experts", key="experts", scope="session"),
        _f("topic", NM, "a session's topics", "topics", key="topics", scope="session"),
    ),
    "courses": (
        _f("id", ID, "the course's id", "courseId", key="id", searched=True),
        _f("title", T, "title", "title", searched=True),
        _f("description", P, "has a description", "description", key="hasDescription"),
        _f("curriculum", P, "has a curriculum", "curriculum", key="hasCurriculum"),
        _f("cle", B, "CLE accreditation", "cleAccreditation"),
        _f("cpe", B, "CPE accreditation", "cpeAccreditation"),
        _f("level", C, "level code", "level"),
        _f("url", T, "detail page link", "url", "detail"),
        _f("expert", NM, "experts' names", "experts", key="experts", searched=True),
        _f("topic", NM, "topics' titles", "topics", key="topics"),
        _f("locations", N, "number of locations", "locations", key="locationCount"),
        _f("certificate", NM, "titles of the certificates that include it", key="@certificate"),
        _f("location", ID, "a location's id", "locationId", key="id", scope="location"),
        _f("venue", T, "a location's venue", "venue", scope="location"),
        _f("address", T, "a location's street address", "address", scope="location"),
        _f("city", T, "a location's city", "city", scope="location", searched=True),
        _f("state", T, "a location's state", "state", scope="location"),
        _f("zip", T, "a location's zip code", "zip", scope="location"),
        _f("starts", D, "a location's start date", "startDate", "start", "date", scope="location"),
        _f("ends", D, "a location's end date", "endDate", "end", scope="location"),
        _f("fee", M, "a location's fee", "fee", scope="location"),
    ),
    "certificates": (
        *_titled("certificate", "certificateId"),
        _f("fee", M, "fee (a decimal number)", "fee"),
        _f("image", T, "image link", "imageUrl"),
        _f("levels", N, "number of levels", "levels", key="levelCount"),
        _f("courses", N, "number of courses named in its levels", key="courseCount"),
        _f("course", NM, "titles of the courses named in its levels", key="@course"),
    ),
    "experts": (
        _f("id", ID, "the expert's id", "expertId", key="id", searched=True),
        _f("name", T, "name", "name", searched=True),
        _f("title", T, "job title", "title", searched=True),
        _f("bio", T, "biography", "bio"),
        _f("education", T, "education", "education", searched=True),
        _f("image", T, "photo link", "imageUrl"),
        _f("image2x", T, "large photo link", "image2xUrl"),
        _f("webinars", N, "number of webinars naming the expert", key="@webinars"),
        _f("courses", N, "number of courses naming the expert", key="@courses"),
    ),
    "topics": _titled(
        "topic",
        "topicId",
        _f("webinars", N, "number of webinars with this topic", key="@webinars"),
        _f("courses", N, "number of courses with this topic", key="@courses"),
    ),
    "roles": _titled(
        "role", "roleId", _f("webinars", N, "number of webinars for this role", key="@webinars")
    ),
    "situations": _titled(
        "situation",
        "situationId",
        _f("webinars", N, "number of webinars for this situation", key="@webinars"),
    ),
    OFFERINGS: (
        _f("kind", C, "course, webinar or session", key="kind", searched=True),
        _f("id", ID, "the course's or webinar's id", key="id", searched=True),
        _f("location", ID, "a course location's id", "locationId", key="locationId"),
        _f("title", T, "title", "title", searched=True),
        _f("type", C, "webinar type code or label", "type"),
        _f("level", C, "course level code", "level"),
        _f("starts", D, "start date (none when on demand)", "startDate", "start", "date"),
        _f("ends", D, "end date", "endDate", "end"),
        _f("venue", T, "venue", "venue", searched=True),
        _f("address", T, "street address", "address"),
        _f("city", T, "city", "city", searched=True),
        _f("state", T, "state", "state", searched=True),
        _f("zip", T, "zip code", "zip"),
        _f("fee", M, "fee", "fee"),
        _f("cle", B, "CLE accreditation", "cleAccreditation"),
        _f("cpe", B, "CPE accreditation", "cpeAccreditation"),
        _f("expert", NM, "experts' names", "experts", key="experts", searched=True),
        _f("topic", NM, "topics' titles", "topics", key="topics", searched=True),
        _f("role", NM, "roles' titles", "roles", key="roles"),
        _f("situation", NM, "situations' titles", "situations", key="situations"),
        _f("series", NM, "the series a session belongs to", key="series", searched=True),
        _f("ondemand", B, "on demand (bookable, no date)", key="ondemand"),
        _f("url", T, "detail page link", "detailUrl", "detail"),
    ),
}

# Bare words that are dates: the table's start date (``past``/``future``: whether it has ended).
DATE_WORDS = (
    "today",
    "tomorrow",
    "yesterday",
    "this-week",
    "next-week",
    "last-week",
    "this-month",
    "next-month",
    "last-month",
    "this-year",
    "next-year",
    "last-year",
    "past",
    "future",
)
SPECIAL = {"has": "has:FIELD — the field has a value", "no": "no:FIELD — the field has none"}


class Schema:
    """Name lookups over ``FIELDS``: per table, and over all tables (for suggestions and value
    types, which are the same wherever a name occurs)."""

    def __init__(self, fields: dict[str, tuple[Field, ...]] = FIELDS) -> None:
        self.fields = fields
        self._by_table: dict[str, dict[str, Field]] = {}
        self.types: dict[str, FieldType] = {}  # canonical name -> type
        self._canonical: dict[str, str] = {}  # any name, folded -> canonical
        for table, items in fields.items():
            lookup = self._by_table[table] = {}
            for f in items:
                known = self.types.setdefault(f.name, f.type)
                if known is not f.type:
                    if {known, f.type} != {FieldType.TEXT, FieldType.PRESENCE}:
                        raise ValueError(f"field {f.name!r} has two types: {known} and {f.type}")
                    self.types[f.name] = FieldType.TEXT  # text where it is indexed
                for name in f.names:
                    lookup[name.lower()] = f
                    self._canonical.setdefault(name.lower(), f.name)

    def canonical(self, name: str) -> str | None:
        """The canonical name for any accepted name (any case), or None if no table has it."""
        return self._canonical.get(name.lower())

    def field(self, table: str, name: str) -> Field | None:
        return self._by_table[table].get(name.lower())

    def value_type(self, canonical: str) -> FieldType:
        """The type of values a name takes (text for a name that is text in one table and
        has:/no: only in another)."""
        return self.types[canonical]

    def names(self) -> list[str]:
        """Every accepted name (for suggestions)."""
        return sorted(self._canonical)

    def table_names(self, table: str) -> list[str]:
        """The canonical names of one table's fields, in their order (for completion)."""
        return [f.name for f in self.fields[table]]


SCHEMA = Schema()


def reference_rows() -> Iterator[tuple[str, Field]]:
    for table in TABLES:
        for f in FIELDS[table]:
            yield table, f


def reference_markdown() -> str:
    """The field reference: one table per kind, from ``FIELDS`` itself ("words": a free word is
    looked for in the field)."""
    out = []
    for table in TABLES:
        out.append(f"**{table}**\n")
        out.append("| field | also | type | words | what |")
        out.append("|---|---|---|---|---|")
        for f in FIELDS[table]:
            also = ", ".join(n for n in f.names[1:])
            scope = f" (same {f.scope})" if f.scope != "record" else ""
            words = "✓" if f.searched else ""
            out.append(f"| `{f.name}` | {also} | {_TYPE_WORDS[f.type]} | {words} | {f.doc}{scope} |")
        out.append("")
    return "\n".join(out)


if __name__ == "__main__":  # the table README.md shows between its fields markers
    print(reference_markdown(), end="")
