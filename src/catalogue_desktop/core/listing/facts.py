"""What the finder and the sales desk need of a record, beyond the row a list shows.

``facts(kind, record)`` is computed once, when a snapshot is stored (like ``rows.row``), and
kept in the store as JSON: a dict with the spec's field names as keys, absent where the value is
null. Dates are ISO 8601 text in the event's own UTC offset, as the service wrote them (the row
keeps only the instant); linked records appear by name and id; course locations and series
sessions are lists of such dicts. Long texts (webinar, series and course descriptions, course
curricula) appear only as "has one". No pydantic import: records are models passed in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from datetime import datetime
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from catalogue_desktop.core.records.field_registry import CHILD_KEYS, fact_keys
from catalogue_desktop.core.records.kinds import Kind, per_kind

if TYPE_CHECKING:  # (the models only as types, as in ``rows``)
    from catalogue_desktop.core.records.models import (
        Certificate,
        Course,
        Expert,
        Location,
        Record,
        Role,
        Series,
        Situation,
        Topic,
        Webinar,
    )


def iso(value: datetime | None) -> str | None:
    """A date-time as the service writes it: milliseconds and the UTC offset kept."""
    return None if value is None else value.isoformat(timespec="milliseconds")


# Name -> the facts' key, per table and scope (``core.records.field_registry``): the writers below
# name each value as a query does (``produced``), the stored key is the registry's (``productionDate``).
_WEBINAR = fact_keys("webinars")
_SERIES = fact_keys("series")
_SESSION = fact_keys("series", "session")
_COURSE = fact_keys("courses")
_LOCATION = fact_keys("courses", "location")
_CERTIFICATE = fact_keys("certificates")
_EXPERT = fact_keys("experts")
_SESSIONS, _LOCATIONS = CHILD_KEYS[("series", "session")], CHILD_KEYS[("courses", "location")]


def _put(out: dict[str, Any], keys: dict[str, str], **values: object) -> dict[str, Any]:
    """``out`` with each value (but None and []) under its name's facts key (``keys``)."""
    for name, value in values.items():
        if value is not None and value != []:
            out[keys[name]] = value
    return out


def _names(names: Iterable[str | None]) -> list[str]:
    """The names given, but blank ones."""
    return [str(n) for n in names if n]


def _webinar(r: Webinar, *, session: bool = False) -> dict[str, Any]:
    # (the most numerous record, computed at every ingest: written out rather than through
    # ``_put``, each list walked once; the same keys in the same order, issue 40)
    keys = _SESSION if session else _WEBINAR
    out: dict[str, Any] = {keys["webinar" if session else "id"]: r.webinar_id}
    for name, value in (
        ("session", r.session_id),
        ("type", r.type),
        ("title", r.title),
        ("fee", r.fee),
        ("cle", r.cle_accreditation),
        ("cpe", r.cpe_accreditation),
    ):
        if value is not None:
            out[keys[name]] = value
    date = r.start_date
    if date is not None:
        out[keys["starts"]] = date.isoformat(timespec="milliseconds")
    date = r.end_date
    if date is not None:
        out[keys["ends"]] = date.isoformat(timespec="milliseconds")
    if r.detail_url is not None:
        out[keys["url"]] = r.detail_url
    experts, topics, roles, situations = r.experts or (), r.topics or (), r.roles or (), r.situations or ()
    for name, names in (
        ("expert", [str(e.name) for e in experts if e.name]),
        ("topic", [str(t.title) for t in topics if t.title]),
        ("role", [str(x.title) for x in roles if x.title]),
        ("situation", [str(x.title) for x in situations if x.title]),
    ):
        if names:
            out[keys[name]] = names
    if session:
        return out
    if r.description:
        out[keys["description"]] = True
    date = r.production_date
    if date is not None:
        out[keys["produced"]] = date.isoformat(timespec="milliseconds")
    if r.access_url is not None:
        out[keys["access"]] = r.access_url
    for name, ids in (
        ("expertIds", [e.expert_id for e in experts]),
        ("topicIds", [t.topic_id for t in topics]),
        ("roleIds", [x.role_id for x in roles]),
        ("situationIds", [x.situation_id for x in situations]),
    ):
        if ids:
            out[keys[name]] = ids
    return out


def _series(r: Series) -> dict[str, Any]:
    sessions = r.sessions or []
    return _put(
        {},
        _SERIES,
        id=r.series_id,
        title=r.title,
        description=bool(r.description) or None,
        fee=r.fee,
        url=r.detail_url,
        sessions=len(sessions),
    ) | _children(_SESSIONS, [_webinar(s, session=True) for s in sessions])


def _children(key: str, children: list[dict[str, Any]]) -> dict[str, Any]:
    """A record's child dicts (locations, sessions) under their key; none: nothing."""
    return {key: children} if children else {}


def _location(loc: Location) -> dict[str, Any]:
    return _put(
        {},
        _LOCATION,
        location=loc.location_id,
        venue=loc.venue,
        address=loc.address,
        city=loc.city,
        state=loc.state,
        zip=loc.zip,
        starts=iso(loc.start_date),
        ends=iso(loc.end_date),
        fee=loc.fee,
        url=loc.detail_url,
    )


def _course(r: Course) -> dict[str, Any]:
    locations = r.locations or []
    return _put(
        {},
        _COURSE,
        id=r.course_id,
        title=r.title,
        description=bool(r.description) or None,
        curriculum=bool(r.curriculum) or None,
        cle=r.cle_accreditation,
        cpe=r.cpe_accreditation,
        level=r.level,
        url=r.url,
        expert=_names(e.name for e in r.experts or ()),
        expertIds=[e.expert_id for e in r.experts or ()],
        topic=_names(t.title for t in r.topics or ()),
        topicIds=[t.topic_id for t in r.topics or ()],
        locations=len(locations),
    ) | _children(_LOCATIONS, [_location(loc) for loc in locations])


def _certificate(r: Certificate) -> dict[str, Any]:
    levels = r.levels or []
    course_ids = list(dict.fromkeys(c.course_id for lv in levels for c in lv.courses or ()))
    fee = r.fee
    return _put(
        {},
        _CERTIFICATE,
        id=r.certificate_id,
        title=r.title,
        description=r.description,
        fee=str(fee) if isinstance(fee, Decimal) else fee,
        image=r.image_url,
        levels=len(levels),
        courses=len(course_ids),
        courseIds=course_ids,
    )


def _expert(r: Expert) -> dict[str, Any]:
    return _put(
        {},
        _EXPERT,
        id=r.expert_id,
        name=r.name,
        title=r.title,
        bio=r.bio,
        education=r.education,
        image=r.image_url,
        image2x=r.image2x_url,
    )


def _titled(kind: Kind) -> Callable[[Topic | Role | Situation], dict[str, Any]]:
    """The maker of a topic's, role's or situation's facts (``kind``'s)."""
    keys = fact_keys(kind.value)

    def made(r: Topic | Role | Situation) -> dict[str, Any]:
        return _put({}, keys, id=r.own_id, title=r.title, description=r.description)

    return made


# Each maker takes its kind's model (``facts`` is given a record of ``kind``'s model).
FACTS: dict[Kind, Callable[[Any], dict[str, Any]]] = per_kind(
    webinars=_webinar,
    series=_series,
    courses=_course,
    certificates=_certificate,
    experts=_expert,
    titled=_titled,
)


def facts(kind: Kind, record: Record) -> dict[str, Any]:
    """The facts of one record (a model of ``kind``)."""
    return FACTS[kind](record)
