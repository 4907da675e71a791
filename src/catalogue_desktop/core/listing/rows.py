"""What a list of records shows: per-kind columns, the row values and the links between records.

Rows are computed once, when a snapshot is stored, and kept in the store as plain JSON, so that the
window can show a whole catalogue without importing pydantic or re-reading full records.
Row values are JSON-able: dates as epoch milliseconds (UTC), money as int or decimal text,
fee ranges as ``[min, max]``. After the columns' values, a row holds one more item: the UTC
offsets (minutes) the service wrote its dates with, one per date column (``zone``), so that a date
shows as the service wrote it. This module does not import pydantic.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Iterable, Sequence
from datetime import datetime
from decimal import Decimal
from typing import Any, NamedTuple

from catalogue_desktop.core.records.field_names import column_keys
from catalogue_desktop.core.records.kinds import Kind


class ColumnType(enum.Enum):
    TEXT = "text"
    INT = "int"
    CODE = "code"  # an enum-like value the spec gives no meanings for: shown as it comes
    MONEY = "money"  # int, or decimal text for Certificate.fee
    MONEY_RANGE = "money_range"  # [min, max]
    DATE = "date"  # epoch milliseconds, UTC
    BOOL = "bool"


class Column(NamedTuple):
    key: str
    header: str
    type: ColumnType
    visible: bool = True  # shown by default (the user can show/hide any column)


T, N, C, M, R, D, B = (
    ColumnType.TEXT,
    ColumnType.INT,
    ColumnType.CODE,
    ColumnType.MONEY,
    ColumnType.MONEY_RANGE,
    ColumnType.DATE,
    ColumnType.BOOL,
)

COLUMNS: dict[Any, tuple[Column, ...]] = {
    Kind.WEBINARS: (
        Column("title", "Title", T),
        Column("type", "Type", C),
        Column("start", "Start", D),
        Column("end", "End", D, False),
        Column("fee", "Fee", M),
        Column("cle", "CLE", B),
        Column("cpe", "CPE", B),
        Column("expert", "Experts", T),
        Column("topic", "Topics", T, False),
        Column("produced", "Produced", D, False),
        Column("id", "ID", N, False),
        Column("session", "Session", N, False),
    ),
    Kind.SERIES: (
        Column("title", "Title", T),
        Column("sessions", "Sessions", N),
        Column("first", "First session", D),
        Column("last", "Last session", D),
        Column("fee", "Fee", M),
        Column("id", "ID", N, False),
    ),
    Kind.COURSES: (
        Column("title", "Title", T),
        Column("level", "Level", C),
        Column("next", "Next date", D),
        Column("last", "Last date", D, False),
        Column("cities", "Cities", T),
        Column("fee", "Fee", R),
        Column("cle", "CLE", B),
        Column("cpe", "CPE", B),
        Column("expert", "Experts", T, False),
        Column("id", "ID", N, False),
    ),
    Kind.CERTIFICATES: (
        Column("title", "Title", T),
        Column("fee", "Fee", M),
        Column("levels", "Levels", N),
        Column("courses", "Courses", N),
        Column("id", "ID", N, False),
    ),
    Kind.EXPERTS: (
        Column("name", "Name", T),
        Column("title", "Title", T),
        Column("education", "Education", T),
        Column("id", "ID", N, False),
        Column("webinars", "Webinars", N),
        Column("courses", "Courses", N),
    ),
}
# Who names a record is not in it: its counts of webinars and courses (after its id, so that rows
# listed before them keep their other columns' places) are blank in a stored row and filled from
# the loaded links (``core.listing.counts``).
for _kind, _counts in ((Kind.TOPICS, 2), (Kind.ROLES, 1), (Kind.SITUATIONS, 1)):
    COLUMNS[_kind] = (
        Column("title", "Title", T),
        Column("description", "Description", T),
        Column("id", "ID", N, False),
        Column("webinars", "Webinars", N),
        *((Column("courses", "Courses", N),) if _counts == 2 else ()),
    )


class Sheet(NamedTuple):
    """A list the window derives from the collections (not one the service sends): named like a
    ``Kind`` (``value``, ``label``, ``singular``) so that row sets and tabs take either."""

    value: str
    label: str
    singular: str


# The sales desk's "Dates": one row per bookable occasion (``core.query.offerings``). Its ``id`` is the
# row's own number (course and webinar ids repeat over locations and sessions); ``record`` is the
# course's or webinar's id.
DATES = Sheet("offerings", "Dates", "date")
TabKind = Kind | Sheet  # what a window's tab lists: a collection, or the Dates
COLUMNS[DATES] = (
    Column("title", "Title", T),
    Column("kind", "Kind", C),
    Column("start", "Start", D),
    Column("end", "End", D, False),
    Column("city", "City", T),
    Column("state", "State", T),
    Column("venue", "Venue", T),
    Column("fee", "Fee", M),
    Column("cle", "CLE", B),
    Column("cpe", "CPE", B),
    Column("expert", "Experts", T),
    Column("topic", "Topics", T, False),
    Column("series", "Series", T, False),
    Column("type", "Type", C, False),
    Column("ondemand", "On demand", B, False),
    Column("record", "ID", N, False),
    Column("series_id", "Series ID", N, False),
    Column("location", "Location ID", N, False),  # a course's location (what a booking names)
    Column("id", "Row", N, False),
)


def _check_columns() -> None:
    """Each list's columns are the fields the registry says it shows, under the keys it gives
    (``core.records.field_names``): a column added here without a name there stops the import."""
    for kind, columns in COLUMNS.items():
        keys, declared = sorted(c.key for c in columns), sorted(column_keys(kind.value))
        if keys != declared:
            raise ValueError(f"{kind.value}: columns {keys} but the field names say {declared}")


_check_columns()

LISTING_VERSION = 2
"""What ``row``, ``links`` and ``core.listing.facts.facts`` make: a snapshot stored by an older version is
listed again from its records (``core.sync.relist``). 1: no date offsets, no facts. 2: both."""

# The date column after which a record counts as past (shown greyed).
PAST_COLUMN: dict[Any, str] = {Kind.WEBINARS: "end", Kind.COURSES: "last", Kind.SERIES: "last", DATES: "end"}
# The column a dated kind's default order is by (upcoming first: ``ui.browse.past_rows``).
START_COLUMN: dict[Any, str] = {Kind.WEBINARS: "start", Kind.COURSES: "next", Kind.SERIES: "first"}

# Which kinds' ids each kind's links name, in the order of the links list.
LINK_KINDS: dict[Kind, tuple[Kind, ...]] = {
    Kind.WEBINARS: (Kind.EXPERTS, Kind.TOPICS, Kind.ROLES, Kind.SITUATIONS),
    Kind.SERIES: (Kind.WEBINARS,),
    Kind.COURSES: (Kind.EXPERTS, Kind.TOPICS),
    Kind.CERTIFICATES: (Kind.COURSES,),
}


def column_index(kind: Any, key: str) -> int:
    return next(i for i, c in enumerate(COLUMNS[kind]) if c.key == key)


# Per kind, the date columns in order: ``zone`` finds a column's offset by its place here.
DATE_COLUMNS: dict[Any, tuple[int, ...]] = {
    kind: tuple(i for i, c in enumerate(columns) if c.type is ColumnType.DATE)
    for kind, columns in COLUMNS.items()
}


def zone(kind: Any, row: Sequence[Any], column: int) -> int | None:
    """The UTC offset (minutes) the service wrote the date of ``column`` with; None if unknown
    (a row listed before offsets were kept)."""
    zones = row[len(COLUMNS[kind])] if len(row) > len(COLUMNS[kind]) else None
    if not zones:
        return None
    try:
        found: int | None = zones[DATE_COLUMNS[kind].index(column)]
        return found
    except (ValueError, IndexError):
        return None


def epoch_ms(value: datetime | None) -> int | None:
    return None if value is None else _ms(value)


def _ms(value: datetime) -> int:
    return int(value.timestamp() * 1000)


def offset(value: datetime | None) -> int | None:
    """The UTC offset of a date-time, in whole minutes (None without one)."""
    delta = None if value is None else value.utcoffset()
    return None if delta is None else int(delta.total_seconds()) // 60


def _moments(items: Iterable[Any] | None, attr: str) -> list[tuple[int, int | None]]:
    """(epoch ms, offset) of each item's date ``attr``, by time."""
    found = [(_ms(d), offset(d)) for i in items or () if (d := getattr(i, attr)) is not None]
    return sorted(found, key=lambda m: m[0])


def money(value: int | Decimal | None) -> int | str | None:
    if isinstance(value, Decimal):
        return str(value)
    return value


def _names(items: Iterable[Any] | None, attr: str) -> str | None:
    if not items:
        return None
    return "; ".join(str(getattr(i, attr)) for i in items if getattr(i, attr, None))


def _ids(items: Iterable[Any] | None, attr: str) -> list[int]:
    return [getattr(i, attr) for i in items or ()]


def _one_line(text: str | None, limit: int = 200) -> str | None:
    if not text:
        return text
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


_NONE = (None, None)


def _webinar(r: Any, now_ms: int) -> list[Any]:
    return [
        r.title,
        r.type,
        epoch_ms(r.start_date),
        epoch_ms(r.end_date),
        r.fee,
        r.cle_accreditation,
        r.cpe_accreditation,
        _names(r.experts, "name"),
        _names(r.topics, "title"),
        epoch_ms(r.production_date),
        r.webinar_id,
        r.session_id,
        [offset(r.start_date), offset(r.end_date), offset(r.production_date)],
    ]


def _series(r: Any, now_ms: int) -> list[Any]:
    starts = _moments(r.sessions, "start_date")
    first, last = (starts[0], starts[-1]) if starts else (_NONE, _NONE)
    return [r.title, len(r.sessions or ()), first[0], last[0], r.fee, r.series_id, [first[1], last[1]]]


def _course(r: Any, now_ms: int) -> list[Any]:
    starts = _moments(r.locations, "start_date")
    ends = _moments(r.locations, "end_date") or starts
    upcoming = [m for m in starts if m[0] >= now_ms]
    nxt = upcoming[0] if upcoming else (starts[-1] if starts else _NONE)
    last = ends[-1] if ends else _NONE
    fees = [loc.fee for loc in r.locations or () if loc.fee is not None]
    cities = sorted({loc.city for loc in r.locations or () if loc.city})
    return [
        r.title,
        r.level,
        nxt[0],
        last[0],
        "; ".join(cities) or None,
        [min(fees), max(fees)] if fees else None,
        r.cle_accreditation,
        r.cpe_accreditation,
        _names(r.experts, "name"),
        r.course_id,
        [nxt[1], last[1]],
    ]


def _certificate(r: Any, now_ms: int) -> list[Any]:
    levels = r.levels or ()
    courses = {c.course_id for level in levels for c in level.courses or ()}
    return [r.title, money(r.fee), len(levels), len(courses), r.certificate_id, []]


def _expert(r: Any, now_ms: int) -> list[Any]:
    return [r.name, r.title, _one_line(r.education), r.expert_id, None, None, []]


def _titled(id_attr: str, counts: int) -> Callable[[Any, int], list[Any]]:
    def row(r: Any, now_ms: int) -> list[Any]:
        return [r.title, _one_line(r.description), getattr(r, id_attr), *[None] * counts, []]

    return row


ROWS: dict[Kind, Callable[[Any, int], list[Any]]] = {
    Kind.WEBINARS: _webinar,
    Kind.SERIES: _series,
    Kind.COURSES: _course,
    Kind.CERTIFICATES: _certificate,
    Kind.EXPERTS: _expert,
    Kind.TOPICS: _titled("topic_id", 2),
    Kind.ROLES: _titled("role_id", 1),
    Kind.SITUATIONS: _titled("situation_id", 1),
}


def row(kind: Kind, record: Any, now_ms: int) -> list[Any]:
    """The values of ``COLUMNS[kind]`` for one record (a model of that kind), then its dates'
    offsets (see ``zone``)."""
    return ROWS[kind](record, now_ms)


def links(kind: Kind, record: Any) -> list[list[int]]:
    """Ids of the records this one refers to, one list per ``LINK_KINDS[kind]``."""
    if kind is Kind.WEBINARS:
        return [
            _ids(record.experts, "expert_id"),
            _ids(record.topics, "topic_id"),
            _ids(record.roles, "role_id"),
            _ids(record.situations, "situation_id"),
        ]
    if kind is Kind.SERIES:
        return [_ids(record.sessions, "webinar_id")]
    if kind is Kind.COURSES:
        return [_ids(record.experts, "expert_id"), _ids(record.topics, "topic_id")]
    if kind is Kind.CERTIFICATES:
        seen = dict.fromkeys(c.course_id for lv in record.levels or () for c in lv.courses or ())
        return [list(seen)]
    return []
