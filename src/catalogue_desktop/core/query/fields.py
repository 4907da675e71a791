"""The finder's fields: per table (the eight kinds and ``offerings``), what a query may name.

One list, read by the parser (names, aliases, value types, suggestions), the engine (where each
value comes from) and the help: ``reference_markdown()`` writes the field table of README and the
Help menu from it, so the documentation cannot drift from what the engine accepts.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass

from catalogue_desktop.core.query.literals import CALENDAR_WORDS
from catalogue_desktop.core.records.field_names import named

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
    *,
    key: str | None = None,
    scope: str = "record",
    searched: bool = False,
) -> Field:
    """A field; its other names and its facts' key are the registry's (``_named``). ``key``: only
    ``@name``, a value the engine derives."""
    return Field(name, type_, key or "", doc, scope=scope, searched=searched)


def _named(table: str, f: Field) -> Field:
    """``f`` with the names the registry (``core.records.field_names``) gives it: the spec's
    name, aliases and where its facts keep its value."""
    names = named(table, f.scope, f.name)
    key = f.key or names.fact
    if key is None:
        raise ValueError(f"{table}.{f.name}: no fact holds it and the engine derives no '@' key")
    # Links are nearly all distinct (100,000 texts to index): asked for rarely, indexed then.
    ahead = not (names.spec or "").lower().endswith("url")
    return dataclasses.replace(f, key=key, spec=names.spec, aliases=names.aliases, ahead=ahead)


def _titled(kind: str, *extra: Field) -> tuple[Field, ...]:
    return (
        _f("id", ID, f"the {kind}'s id", searched=True),
        _f("title", T, "title", searched=True),
        _f("description", T, "description", searched=True),
        *extra,
    )


_WEBINAR_COMMON = (
    _f("type", C, "webinar type code, or its label (type:live)", searched=True),
    _f("cle", B, "CLE accreditation"),
    _f("cpe", B, "CPE accreditation"),
    _f("starts", D, "start date"),
    _f("ends", D, "end date"),
)

_FIELDS: dict[str, tuple[Field, ...]] = {
    "webinars": (
        _f("id", ID, "the webinar's id", searched=True),
        _f("session", ID, "session id"),
        _f("title", T, "title", searched=True),
        _f("description", P, "has a description"),
        *_WEBINAR_COMMON,
        _f("fee", M, "fee"),
        _f("produced", D, "production date"),
        _f("url", T, "detail page link"),
        _f("access", T, "access link"),
        _f("expert", NM, "experts' names", searched=True),
        _f("topic", NM, "topics' titles", searched=True),
        _f("role", NM, "roles' titles"),
        _f("situation", NM, "situations' titles"),
        _f("series", NM, "titles of the series it is a session of", key="@series"),
        _f("ondemand", B, "on demand (its type is marked on demand)", key="@ondemand"),
    ),
    "series": (
        _f("id", ID, "the series' id", searched=True),
        _f("title", T, "title", searched=True),
        _f("description", P, "has a description"),
        _f("fee", M, "the series' fee"),
        _f("url", T, "detail page link"),
        _f("sessions", N, "number of sessions"),
        _f("webinar", ID, "a session's webinar id", scope="session"),
        _f("session", ID, "a session's session id", scope="session"),
        *(
            dataclasses.replace(f, doc=f"a session's {f.doc}", scope="session")
            for f in _WEBINAR_COMMON
            if f.name != "type"
        ),
        _f("type", C, "a session's type code or label", scope="session"),
        _f("expert", NM, "a session's experts", scope="session"),
        _f("topic", NM, "a session's topics", scope="session"),
    ),
    "courses": (
        _f("id", ID, "the course's id", searched=True),
        _f("title", T, "title", searched=True),
        _f("description", P, "has a description"),
        _f("curriculum", P, "has a curriculum"),
        _f("cle", B, "CLE accreditation"),
        _f("cpe", B, "CPE accreditation"),
        _f("level", C, "level code"),
        _f("url", T, "detail page link"),
        _f("expert", NM, "experts' names", searched=True),
        _f("topic", NM, "topics' titles", searched=True),
        _f("locations", N, "number of locations"),
        _f("certificate", NM, "titles of the certificates that include it", key="@certificate"),
        _f("location", ID, "a location's id", scope="location"),
        _f("venue", T, "a location's venue", scope="location"),
        _f("address", T, "a location's street address", scope="location"),
        _f("city", T, "a location's city", scope="location", searched=True),
        _f("state", T, "a location's state (code or name: IL, illinois)", scope="location"),
        _f("zip", T, "a location's zip code", scope="location"),
        _f("starts", D, "a location's start date", scope="location"),
        _f("ends", D, "a location's end date", scope="location"),
        _f("fee", M, "a location's fee", scope="location"),
    ),
    "certificates": (
        *_titled("certificate"),
        _f("fee", M, "fee (a decimal number)"),
        _f("image", T, "image link"),
        _f("levels", N, "number of levels"),
        _f("courses", N, "number of courses named in its levels"),
        _f("course", NM, "titles of the courses named in its levels", key="@course"),
    ),
    "experts": (
        _f("id", ID, "the expert's id", searched=True),
        _f("name", T, "name", searched=True),
        _f("title", T, "job title", searched=True),
        _f("bio", T, "biography"),
        _f("education", T, "education", searched=True),
        _f("image", T, "photo link"),
        _f("image2x", T, "large photo link"),
        _f("webinars", N, "number of webinars naming the expert", key="@webinars"),
        _f("courses", N, "number of courses naming the expert", key="@courses"),
    ),
    "topics": _titled(
        "topic",
        _f("webinars", N, "number of webinars with this topic", key="@webinars"),
        _f("courses", N, "number of courses with this topic", key="@courses"),
    ),
    "roles": _titled("role", _f("webinars", N, "number of webinars for this role", key="@webinars")),
    "situations": _titled(
        "situation",
        _f("webinars", N, "number of webinars for this situation", key="@webinars"),
    ),
    OFFERINGS: (
        _f("kind", C, "course, webinar or session", searched=True),
        _f("id", ID, "the course's or webinar's id", searched=True),
        _f("location", ID, "a course location's id"),
        _f("title", T, "title", searched=True),
        _f("type", C, "webinar type code or label"),
        _f("level", C, "course level code"),
        _f("starts", D, "start date (none when on demand)"),
        _f("ends", D, "end date"),
        _f("venue", T, "venue", searched=True),
        _f("address", T, "street address"),
        _f("city", T, "city", searched=True),
        _f("state", T, "state (code or name: IL, illinois)", searched=True),
        _f("zip", T, "zip code"),
        _f("fee", M, "fee"),
        _f("cle", B, "CLE accreditation"),
        _f("cpe", B, "CPE accreditation"),
        _f("expert", NM, "experts' names", searched=True),
        _f("topic", NM, "topics' titles", searched=True),
        _f("role", NM, "roles' titles"),
        _f("situation", NM, "situations' titles"),
        _f("series", NM, "the series a session belongs to", searched=True),
        _f("ondemand", B, "on demand (bookable, no date)"),
        _f("url", T, "detail page link"),
    ),
}
FIELDS: dict[str, tuple[Field, ...]] = {
    table: tuple(_named(table, f) for f in fields) for table, fields in _FIELDS.items()
}

# kind:VALUE names a table: every row of it (none of another); on the offerings, kind: is also the
# offering's own kind (course, webinar, session), as it always was.
_KIND_NAMES = {
    "course": "courses",
    "webinar": "webinars",
    "series": "series",
    "certificate": "certificates",
    "expert": "experts",
    "topic": "topics",
    "role": "roles",
    "situation": "situations",
    "offering": OFFERINGS,
    "date": OFFERINGS,
    "dates": OFFERINGS,
}


def table_of_kind(value: str) -> str | None:
    """The table ``kind:VALUE`` names (``course``, ``courses``, any case; ``dates`` and
    ``offerings``: the offerings), or None."""
    word = value.strip().lower()
    if word in TABLES:
        return word
    return _KIND_NAMES.get(word) or _KIND_NAMES.get(word[:-1] if word.endswith("s") else word)


def tab_of_kind(value: str) -> str | None:
    """The tab ``kind:VALUE`` names when it names one: a table's own name (``courses``, any case),
    ``dates`` or ``offerings``; a singular (``kind:course``) is a kind, not a tab: on the Dates tab,
    the occasions of courses."""
    word = value.strip().lower()
    return OFFERINGS if word in ("dates", OFFERINGS) else word if word in TABLES else None


_OFFERING_KINDS = {"courses": "course", "webinars": "webinar", "series": "session", "sessions": "session"}


def offering_kind(value: object) -> object:
    """An offering's own kind as ``kind:VALUE`` on the offerings may name it: by its table's name
    too (``kind:courses`` is the occasions of courses, ``kind:series`` the series' sessions), as the
    reading writes it ("texas courses" on the Dates tab)."""
    return _OFFERING_KINDS.get(value.strip().lower(), value) if isinstance(value, str) else value


# Bare words that are dates: the table's start date (``past``/``future``: whether it has ended).
DATE_WORDS = (*CALENDAR_WORDS, "past", "future")


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


SCHEMA = Schema()


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
