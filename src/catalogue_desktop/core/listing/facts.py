"""What the finder and the sales desk need of a record, beyond the row a list shows.

``facts(kind, record)`` is computed once, when a snapshot is stored (like ``listing.row``), and
kept in the store as JSON: a dict with the spec's field names as keys, absent where the value is
null. Dates are ISO 8601 text in the event's own UTC offset, as the service wrote them (the row
keeps only the instant); linked records appear by name and id; course locations and series
sessions are lists of such dicts. Long texts (webinar, series and course descriptions, course
curricula) appear only as "has one". No pydantic import: records are models passed in.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from decimal import Decimal
from typing import Any

from catalogue_desktop.core.records.kinds import Kind


def iso(value: datetime | None) -> str | None:
    """A date-time as the service writes it: milliseconds and the UTC offset kept."""
    return None if value is None else value.isoformat(timespec="milliseconds")


def _put(out: dict[str, Any], **values: Any) -> dict[str, Any]:
    for key, value in values.items():
        if value is not None and value != []:
            out[key] = value
    return out


def _names(items: Iterable[Any] | None, attr: str) -> list[str]:
    return [str(v) for i in items or () if (v := getattr(i, attr, None))]


def _ids(items: Iterable[Any] | None, attr: str) -> list[int]:
    return [getattr(i, attr) for i in items or ()]


def _webinar(r: Any, *, session: bool = False) -> dict[str, Any]:
    out: dict[str, Any] = {"id": r.webinar_id}
    _put(
        out,
        sessionId=r.session_id,
        type=r.type,
        title=r.title,
        fee=r.fee,
        cleAccreditation=r.cle_accreditation,
        cpeAccreditation=r.cpe_accreditation,
        startDate=iso(r.start_date),
        endDate=iso(r.end_date),
        detailUrl=r.detail_url,
        experts=_names(r.experts, "name"),
        topics=_names(r.topics, "title"),
        roles=_names(r.roles, "title"),
        situations=_names(r.situations, "title"),
    )
    if not session:
        _put(
            out,
            hasDescription=bool(r.description) or None,
            productionDate=iso(r.production_date),
            accessUrl=r.access_url,
            expertIds=_ids(r.experts, "expert_id"),
            topicIds=_ids(r.topics, "topic_id"),
            roleIds=_ids(r.roles, "role_id"),
            situationIds=_ids(r.situations, "situation_id"),
        )
    return out


def _series(r: Any) -> dict[str, Any]:
    sessions = r.sessions or []
    return _put(
        {"id": r.series_id},
        title=r.title,
        hasDescription=bool(r.description) or None,
        fee=r.fee,
        detailUrl=r.detail_url,
        sessionCount=len(sessions),
        sessions=[_webinar(s, session=True) for s in sessions],
    )


def _location(loc: Any) -> dict[str, Any]:
    return _put(
        {"id": loc.location_id},
        venue=loc.venue,
        address=loc.address,
        city=loc.city,
        state=loc.state,
        zip=loc.zip,
        startDate=iso(loc.start_date),
        endDate=iso(loc.end_date),
        fee=loc.fee,
        detailUrl=loc.detail_url,
    )


def _course(r: Any) -> dict[str, Any]:
    locations = r.locations or []
    return _put(
        {"id": r.course_id},
        title=r.title,
        hasDescription=bool(r.description) or None,
        hasCurriculum=bool(r.curriculum) or None,
        cleAccreditation=r.cle_accreditation,
        cpeAccreditation=r.cpe_accreditation,
        level=r.level,
        url=r.url,
        experts=_names(r.experts, "name"),
        expertIds=_ids(r.experts, "expert_id"),
        topics=_names(r.topics, "title"),
        topicIds=_ids(r.topics, "topic_id"),
        locationCount=len(locations),
        locations=[_location(loc) for loc in locations],
    )


def _certificate(r: Any) -> dict[str, Any]:
    levels = r.levels or []
    course_ids = list(dict.fromkeys(c.course_id for lv in levels for c in lv.courses or ()))
    fee = r.fee
    return _put(
        {"id": r.certificate_id},
        title=r.title,
        description=r.description,
        fee=str(fee) if isinstance(fee, Decimal) else fee,
        imageUrl=r.image_url,
        levelCount=len(levels),
        courseCount=len(course_ids),
        courseIds=course_ids,
    )


def _expert(r: Any) -> dict[str, Any]:
    return _put(
        {"id": r.expert_id},
        name=r.name,
        title=r.title,
        bio=r.bio,
        education=r.education,
        imageUrl=r.image_url,
        image2xUrl=r.image2x_url,
    )


def _titled(id_attr: str) -> Any:
    def facts(r: Any) -> dict[str, Any]:
        return _put({"id": getattr(r, id_attr)}, title=r.title, description=r.description)

    return facts


_FACTS = {
    Kind.WEBINARS: _webinar,
    Kind.SERIES: _series,
    Kind.COURSES: _course,
    Kind.CERTIFICATES: _certificate,
    Kind.EXPERTS: _expert,
    Kind.TOPICS: _titled("topic_id"),
    Kind.ROLES: _titled("role_id"),
    Kind.SITUATIONS: _titled("situation_id"),
}


def facts(kind: Kind, record: Any) -> dict[str, Any]:
    """The facts of one record (a model of ``kind``)."""
    return _FACTS[kind](record)
