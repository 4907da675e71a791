"""The eight collections the service publishes, and what each one holds.

Deliberately free of pydantic: the window's cold start reads the cache without importing it.
"""

from __future__ import annotations

import enum


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
