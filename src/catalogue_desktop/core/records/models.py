"""Pydantic models of the catalogue service's records (spec: docs/catalogue-api-v1.md).

Every field except a record's own id may be null or absent (the spec does not say which may be).
Types are strict (a string where an integer belongs rejects the record), dates are tolerant of the
ISO 8601 variants real servers send, and unknown extra fields are kept (``model_extra``) so that
they can be counted and shown.
"""

from __future__ import annotations

from datetime import UTC, datetime
from decimal import Decimal
from typing import Annotated

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, PlainValidator, Strict, WrapValidator
from pydantic.alias_generators import to_camel
from pydantic_core import PydanticCustomError
from pydantic_core.core_schema import ValidatorFunctionWrapHandler

from catalogue_desktop.core.formats.numbers import RULE, WHOLE_MAX, WHOLE_MIN, within_reason

__all__ = [
    "Certificate",
    "Course",
    "Expert",
    "Level",
    "LevelCourse",
    "Location",
    "Option",
    "Record",
    "Role",
    "Schedule",
    "Series",
    "Situation",
    "Topic",
    "Track",
    "Webinar",
]

# Numbers within reason (core.formats.numbers): a whole number fits 64 bits, what the cache's SQLite
# INTEGER holds; a larger one rejects its record alone (core.records.decode names the rule).
Int = Annotated[int, Strict(), Field(ge=WHOLE_MIN, le=WHOLE_MAX)]
RecordId = Int
Str = Annotated[str, Strict()]
Bool = Annotated[bool, Strict()]


def _aware_datetime(value: object, handler: ValidatorFunctionWrapHandler) -> datetime:
    """Parse an ISO 8601 date-time; a value without a UTC offset is taken as UTC."""
    if isinstance(value, str) and len(value) == 10:  # date only: midnight UTC
        value = value + "T00:00:00Z"
    parsed: datetime = handler(value)
    if parsed.tzinfo is None:
        return parsed.replace(tzinfo=UTC)
    try:
        parsed.astimezone(UTC)
    except OverflowError:  # e.g. 9999-12-31T20:00-12:00: no output could show or convert it
        raise ValueError("the date's UTC instant falls outside years 1-9999") from None
    return parsed


Date = Annotated[datetime, WrapValidator(_aware_datetime)]


def _decimal_within_reason(value: Decimal) -> Decimal:
    if not within_reason(value):
        raise PydanticCustomError("number_beyond_reason", RULE)
    return value


# Decimal must come from the exact number text: the certificate decoder parses floats as Decimal.
# At most 17 significant digits, below 10^15 (core.formats.numbers): ``1E+5000`` rejects its record.
Money = Annotated[Decimal, Strict(False), AfterValidator(_decimal_within_reason)]


def _code(value: object) -> int | str:
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise ValueError("expected a numeric or text code")
    if isinstance(value, int) and not within_reason(value):
        raise PydanticCustomError("number_beyond_reason", RULE)
    return value


# Webinar.Type: numeric in the example payload, allowed values not shown; keep whatever comes.
TypeCode = Annotated[int | str, PlainValidator(_code)]


class Record(BaseModel):
    """Base of every record: immutable, camelCase JSON names, extra fields kept.

    Its validators are built when first asked for (``defer_build``), not as the module is
    imported: ``core.records.decode.build_validators`` builds them a model at a time, so that a
    window importing this module on its event loop's thread never holds the loop for all of
    them at once (docs/decisions.md, "Start-up and Qt")."""

    model_config = ConfigDict(
        frozen=True,
        extra="allow",
        alias_generator=to_camel,
        populate_by_name=True,
        cache_strings="keys",
        defer_build=True,
    )


class Expert(Record):
    expert_id: RecordId
    name: Str | None = None
    title: Str | None = None
    bio: Str | None = None
    education: Str | None = None
    image_url: Str | None = None
    image2x_url: Str | None = Field(default=None, alias="image2xUrl")  # to_camel gives image2XUrl


class Topic(Record):
    topic_id: RecordId
    title: Str | None = None
    description: Str | None = None

    @property
    def own_id(self) -> int:
        """Its id, read as every titled kind's is (``kinds.TITLED``)."""
        return self.topic_id


class Role(Record):
    role_id: RecordId
    title: Str | None = None
    description: Str | None = None

    @property
    def own_id(self) -> int:
        """Its id, read as every titled kind's is (``kinds.TITLED``)."""
        return self.role_id


class Situation(Record):
    situation_id: RecordId
    title: Str | None = None
    description: Str | None = None

    @property
    def own_id(self) -> int:
        """Its id, read as every titled kind's is (``kinds.TITLED``)."""
        return self.situation_id


class Webinar(Record):
    webinar_id: RecordId
    session_id: Int | None = None
    type: TypeCode | None = None
    title: Str | None = None
    description: Str | None = None
    fee: Int | None = None
    cle_accreditation: Bool | None = None
    cpe_accreditation: Bool | None = None
    production_date: Date | None = None
    start_date: Date | None = None
    end_date: Date | None = None
    detail_url: Str | None = None
    access_url: Str | None = None
    topics: list[Topic] | None = None
    roles: list[Role] | None = None
    situations: list[Situation] | None = None
    experts: list[Expert] | None = None


class Series(Record):
    series_id: RecordId
    title: Str | None = None
    description: Str | None = None
    fee: Int | None = None
    detail_url: Str | None = None
    sessions: list[Webinar] | None = None


class Location(Record):
    location_id: Int
    venue: Str | None = None
    address: Str | None = None
    city: Str | None = None
    state: Str | None = None
    zip: Str | None = None
    detail_url: Str | None = None
    start_date: Date | None = None
    end_date: Date | None = None
    fee: Int | None = None
    travel_info: Str | None = None
    travel_group_rate: Str | None = None


class Schedule(Record):
    day: Int | None = None
    start_time: Str | None = None
    end_time: Str | None = None
    break_mins: Int | None = None
    title: Str | None = None
    description: Str | None = None


class Course(Record):
    course_id: RecordId
    title: Str | None = None
    description: Str | None = None
    curriculum: Str | None = None
    cle_accreditation: Bool | None = None
    cpe_accreditation: Bool | None = None
    experts: list[Expert] | None = None
    level: Int | None = None
    url: Str | None = None
    topics: list[Topic] | None = None
    locations: list[Location] | None = None
    schedule: list[Schedule] | None = None


class Option(Record):
    option_id: Int
    num: Int | None = None
    courses_min: Int | None = None
    courses_total: Int | None = None
    courses_operator: Str | None = None


class Track(Record):
    track_id: Int
    name: Str | None = None
    display_order: Int | None = None


class LevelCourse(Record):
    course_id: Int
    option_id: Int | None = None
    track_id: Int | None = None


class Level(Record):
    id: Int
    type: Int | None = None
    selection: Int | None = None
    options_min: Int | None = None
    courses_min: Int | None = None
    options: list[Option] | None = None
    tracks: list[Track] | None = None
    courses: list[LevelCourse] | None = None


class Certificate(Record):
    certificate_id: RecordId
    title: Str | None = None
    description: Str | None = None
    fee: Money | None = None
    image_url: Str | None = None
    levels: list[Level] | None = None
