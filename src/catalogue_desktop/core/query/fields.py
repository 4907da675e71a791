"""The finder's fields: per table (the eight kinds and ``offerings``), what a query may name.

One list, read by the parser (names, aliases, value types, suggestions), the engine (where each
value comes from) and the help: ``reference_markdown()`` writes the field table of README and the
Help menu from it, so the documentation cannot drift from what the engine accepts. What a field
is (its names, type, scope, facts' key) is the registry's (``core.records.field_registry``); this list
says which fields a query takes, in the help's order, with their help text and whether a free
word is looked for in them.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from catalogue_desktop.core.query.literals import CALENDAR_WORDS
from catalogue_desktop.core.records.field_registry import FieldType as FieldType
from catalogue_desktop.core.records.field_registry import named, scopes, tables
from catalogue_desktop.core.records.kinds import Kind

OFFERINGS = "offerings"
TABLES: tuple[str, ...] = tables()  # the eight kinds', then OFFERINGS


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


def _f(name: str, doc: str, *, searched: bool = False) -> Field:
    """A field; its type, other names, scope and facts' key are the registry's (``_named``)."""
    return Field(name, FieldType.TEXT, "", doc, searched=searched)  # (type, key, scope: ``_named``)


def _scope(table: str, name: str) -> str:
    """Where a query finds field ``name`` of ``table``: in the record, when its facts hold it or
    no location or session has it (a value the engine derives); else in each location's or
    session's facts (a course's fee: the record's is derived for the listing, a location's kept)."""
    found = scopes(table, name)
    if not found:
        raise ValueError(f"{table}.{name}: the registry has no such field")
    kept = [scope for scope in found if named(table, scope, name).fact is not None]
    return (kept or found)[0]


def _named(table: str, f: Field) -> Field:
    """``f`` as the registry (``core.records.field_registry``) has it: its type, the spec's
    name, aliases, scope and where its facts keep its value (``@name``: no fact holds it, the
    engine derives it from other tables)."""
    scope = _scope(table, f.name)
    entry = named(table, scope, f.name)
    if entry.type is None:
        raise ValueError(f"{table}.{f.name}: the registry gives it no type")
    # Links are nearly all distinct (100,000 texts to index): asked for rarely, indexed then.
    ahead = not (entry.spec or "").lower().endswith("url")
    return dataclasses.replace(
        f,
        type=entry.type,
        key=entry.fact or f"@{f.name}",
        spec=entry.spec,
        aliases=entry.aliases,
        scope=scope,
        ahead=ahead,
    )


def _titled(kind: str, *extra: Field) -> tuple[Field, ...]:
    return (
        _f("id", f"the {kind}'s id", searched=True),
        _f("title", "title", searched=True),
        _f("description", "description", searched=True),
        *extra,
    )


_WEBINAR_COMMON = (
    _f("type", "webinar type code, or its label (type:live)", searched=True),
    _f("cle", "CLE accreditation"),
    _f("cpe", "CPE accreditation"),
    _f("starts", "start date"),
    _f("ends", "end date"),
)

_FIELDS: dict[str, tuple[Field, ...]] = {
    "webinars": (
        _f("id", "the webinar's id", searched=True),
        _f("session", "session id"),
        _f("title", "title", searched=True),
        _f("description", "has a description"),
        *_WEBINAR_COMMON,
        _f("fee", "fee"),
        _f("produced", "production date"),
        _f("url", "detail page link"),
        _f("access", "access link"),
        _f("expert", "experts' names", searched=True),
        _f("topic", "topics' titles", searched=True),
        _f("role", "roles' titles"),
        _f("situation", "situations' titles"),
        _f("series", "titles of the series it is a session of"),
        _f("ondemand", "on demand (its type is marked on demand)"),
    ),
    "series": (
        _f("id", "the series' id", searched=True),
        _f("title", "title", searched=True),
        _f("description", "has a description"),
        _f("fee", "the series' fee"),
        _f("url", "detail page link"),
        _f("sessions", "number of sessions"),
        _f("webinar", "a session's webinar id"),
        _f("session", "a session's session id"),
        *(dataclasses.replace(f, doc=f"a session's {f.doc}") for f in _WEBINAR_COMMON if f.name != "type"),
        _f("type", "a session's type code or label"),
        _f("expert", "a session's experts"),
        _f("topic", "a session's topics"),
    ),
    "courses": (
        _f("id", "the course's id", searched=True),
        _f("title", "title", searched=True),
        _f("description", "has a description"),
        _f("curriculum", "has a curriculum"),
        _f("cle", "CLE accreditation"),
        _f("cpe", "CPE accreditation"),
        _f("level", "level code"),
        _f("url", "detail page link"),
        _f("expert", "experts' names", searched=True),
        _f("topic", "topics' titles", searched=True),
        _f("locations", "number of locations"),
        _f("certificate", "titles of the certificates that include it"),
        _f("location", "a location's id"),
        _f("venue", "a location's venue"),
        _f("address", "a location's street address"),
        _f("city", "a location's city", searched=True),
        _f("state", "a location's state (code or name: IL, illinois)"),
        _f("zip", "a location's zip code"),
        _f("starts", "a location's start date"),
        _f("ends", "a location's end date"),
        _f("fee", "a location's fee"),
    ),
    "certificates": (
        *_titled("certificate"),
        _f("fee", "fee (a decimal number)"),
        _f("image", "image link"),
        _f("levels", "number of levels"),
        _f("courses", "number of courses named in its levels"),
        _f("course", "titles of the courses named in its levels"),
    ),
    "experts": (
        _f("id", "the expert's id", searched=True),
        _f("name", "name", searched=True),
        _f("title", "job title", searched=True),
        _f("bio", "biography"),
        _f("education", "education", searched=True),
        _f("image", "photo link"),
        _f("image2x", "large photo link"),
        _f("webinars", "number of webinars naming the expert"),
        _f("courses", "number of courses naming the expert"),
    ),
    "topics": _titled(
        "topic",
        _f("webinars", "number of webinars with this topic"),
        _f("courses", "number of courses with this topic"),
    ),
    "roles": _titled("role", _f("webinars", "number of webinars for this role")),
    "situations": _titled(
        "situation",
        _f("webinars", "number of webinars for this situation"),
    ),
    OFFERINGS: (
        _f("kind", "course, webinar or session", searched=True),
        _f("id", "the course's or webinar's id", searched=True),
        _f("location", "a course location's id"),
        _f("title", "title", searched=True),
        _f("type", "webinar type code or label"),
        _f("level", "course level code"),
        _f("starts", "start date (none when on demand)"),
        _f("ends", "end date"),
        _f("venue", "venue", searched=True),
        _f("address", "street address"),
        _f("city", "city", searched=True),
        _f("state", "state (code or name: IL, illinois)", searched=True),
        _f("zip", "zip code"),
        _f("fee", "fee"),
        _f("cle", "CLE accreditation"),
        _f("cpe", "CPE accreditation"),
        _f("expert", "experts' names", searched=True),
        _f("topic", "topics' titles", searched=True),
        _f("role", "roles' titles"),
        _f("situation", "situations' titles"),
        _f("series", "the series a session belongs to", searched=True),
        _f("ondemand", "on demand (bookable, no date)"),
        _f("url", "detail page link"),
    ),
}
FIELDS: dict[str, tuple[Field, ...]] = {
    table: tuple(_named(table, f) for f in fields) for table, fields in _FIELDS.items()
}

# kind:VALUE names a table: every row of it (none of another); on the offerings, kind: is also the
# offering's own kind (course, webinar, session), as it always was.
_KIND_NAMES = {kind.singular: kind.value for kind in Kind} | dict.fromkeys(
    ("offering", "date", "dates"), OFFERINGS
)


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
    too (``kind:courses`` is the occasions of courses, ``kind:series`` the series' sessions), as
    ``find`` reads "texas courses" (the Dates tab's reading writes the singular: ``kind:course``)."""
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
        out.append(f"**{'dates' if table == OFFERINGS else table}**\n")  # (the Dates tab's, as people say)
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
