"""The eight collections the service publishes, what each one holds, and the one list the window
derives from them (the occasions: ``Derived``); ``ListKind`` is either, what a tab lists.

Deliberately free of pydantic: the window's cold start reads the cache without importing it.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from typing import TypeAlias, TypeVar


class Kind(enum.Enum):
    """One collection of the service: ``value`` is its CLI/store name."""

    WEBINARS = "webinars"
    SERIES = "series"
    COURSES = "courses"
    CERTIFICATES = "certificates"
    EXPERTS = "experts"
    TOPICS = "topics"
    ROLES = "roles"
    SITUATIONS = "situations"

    @property
    def path(self) -> str:
        """Path of the endpoint below ``{base_url}/v1``."""
        return "/v1/webinars/series" if self is Kind.SERIES else f"/v1/{self.value}"

    @property
    def id_field(self) -> str:
        """JSON name of the record's own id."""
        return _ID_FIELDS[self]

    @property
    def label(self) -> str:
        """Plural label for people ("Webinars")."""
        return self.value.capitalize()

    @property
    def singular(self) -> str:
        """Singular name used in ``--open KIND:ID`` and messages ("webinar")."""
        return _SINGULAR[self]

    @classmethod
    def parse(cls, text: str) -> Kind:
        """Accept the plural or singular name, in any case ("webinar", "Series")."""
        key = text.strip().lower()
        for kind in cls:
            if key in (kind.value, kind.singular):
                return kind
        names = ", ".join(k.value for k in cls)
        raise ValueError(f"unknown kind {text!r}: expected one of {names}")


_ID_FIELDS = {
    Kind.WEBINARS: "webinarId",
    Kind.SERIES: "seriesId",
    Kind.COURSES: "courseId",
    Kind.CERTIFICATES: "certificateId",
    Kind.EXPERTS: "expertId",
    Kind.TOPICS: "topicId",
    Kind.ROLES: "roleId",
    Kind.SITUATIONS: "situationId",
}

_SINGULAR = {
    Kind.WEBINARS: "webinar",
    Kind.SERIES: "series",
    Kind.COURSES: "course",
    Kind.CERTIFICATES: "certificate",
    Kind.EXPERTS: "expert",
    Kind.TOPICS: "topic",
    Kind.ROLES: "role",
    Kind.SITUATIONS: "situation",
}

ALL_KINDS: tuple[Kind, ...] = tuple(Kind)


# The kinds whose records are a title and a description under an id of their own (``own_id``).
TITLED: tuple[Kind, ...] = (Kind.TOPICS, Kind.ROLES, Kind.SITUATIONS)

_Made = TypeVar("_Made")


def per_kind(
    *,
    webinars: _Made,
    series: _Made,
    courses: _Made,
    certificates: _Made,
    experts: _Made,
    titled: Callable[[Kind], _Made],
) -> dict[Kind, _Made]:
    """One maker per kind (a record's row, its facts, its details page), in the kinds' order:
    given for each kind with fields of its own, made by ``titled`` for each ``TITLED`` kind (one
    maker for the three, told which). A kind added without a maker here stops the import
    (KeyError, naming it); named here, it stops the type check until each reader gives one."""
    given = {
        Kind.WEBINARS: webinars,
        Kind.SERIES: series,
        Kind.COURSES: courses,
        Kind.CERTIFICATES: certificates,
        Kind.EXPERTS: experts,
    }
    made = given | {kind: titled(kind) for kind in TITLED}
    return {kind: made[kind] for kind in Kind}  # (the kinds' order)


class Derived(enum.Enum):
    """A list the window derives from the collections, not one the service publishes; it has a
    ``value``, ``label`` and ``singular`` as a ``Kind`` has, so that row sets and tabs take either.

    ``OCCASIONS``: every bookable date (a course location, a series session, a webinar; the sales
    desk's "Dates" tab, ``core.query.offerings``). Its ``value``, ``offerings``, is the name the
    finder's table, the stored settings, queries (``kind:offerings``) and the command line use.
    """

    OCCASIONS = "offerings"

    @property
    def label(self) -> str:
        """Plural label for people: the tab's title ("Dates")."""
        return "Dates"

    @property
    def singular(self) -> str:
        """Singular name for people ("date")."""
        return "date"


OCCASIONS = Derived.OCCASIONS


class OccasionKind(enum.StrEnum):
    """What an occasion is of: ``value`` as the Dates tab shows it ("Course"), ``code`` as the
    offerings' ``kind`` field and queries name it (``kind:course``)."""

    COURSE = "Course"  # a course's location
    SESSION = "Session"  # a series' session
    WEBINAR = "Webinar"  # a webinar that is no series' session

    @property
    def code(self) -> str:
        return self.value.lower()

    @property
    def opens(self) -> Kind:
        """The kind of the record the occasion opens: its course, its series, its webinar."""
        return _OPENS[self]


_OPENS = {
    OccasionKind.COURSE: Kind.COURSES,
    OccasionKind.SESSION: Kind.SERIES,
    OccasionKind.WEBINAR: Kind.WEBINARS,
}

# What a tab, a row set or a list's columns are of: a collection or the occasions.
ListKind: TypeAlias = Kind | Derived
