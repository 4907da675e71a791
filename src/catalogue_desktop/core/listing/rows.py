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
from typing import TYPE_CHECKING, Any, NamedTuple

from catalogue_desktop.core.records.field_registry import FieldType, column_keys, named
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind, ListKind, per_kind

if TYPE_CHECKING:  # (the models only as types: a row is made of records decoded elsewhere)
    from catalogue_desktop.core.records.models import (
        Certificate,
        Course,
        Expert,
        Record,
        Role,
        Series,
        Situation,
        Topic,
        Webinar,
    )


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

# A column's kind by its field's type (the registry's); a column may say otherwise (``_columns``).
_COLUMN_TYPES = {
    FieldType.TEXT: T,
    FieldType.NAMES: T,  # names, "; " between
    FieldType.PRESENCE: T,
    FieldType.ID: N,
    FieldType.NUMBER: N,
    FieldType.MONEY: M,
    FieldType.DATE: D,
    FieldType.BOOL: B,
    FieldType.CODE: C,
}


def _columns(
    kind: ListKind, *keys: str, hidden: Iterable[str] = (), types: dict[str, ColumnType] | None = None
) -> tuple[Column, ...]:
    """``kind``'s columns, in order: each shows the registry's field its key names (``column_keys``:
    a key the registry has no field for stops the import), headed by its label, of its type's kind
    (``types``: a column's own), shown unless ``hidden``."""
    shows = column_keys(kind.value)
    out = []
    for key in keys:
        entry = named(kind.value, "record", shows[key])
        if entry.type is None:
            raise ValueError(
                f"{kind.value}.{entry.name}: a column shows it but the registry gives it no type"
            )
        kind_of = (types or {}).get(key) or _COLUMN_TYPES[entry.type]
        out.append(Column(key, entry.label, kind_of, key not in hidden))
    if sorted(keys) != sorted(shows):
        raise ValueError(f"{kind.value}: columns {sorted(keys)} but the registry shows {sorted(shows)}")
    return tuple(out)


COLUMNS: dict[ListKind, tuple[Column, ...]] = {
    Kind.WEBINARS: _columns(
        Kind.WEBINARS,
        *(
            "title",
            "type",
            "start",
            "end",
            "fee",
            "cle",
            "cpe",
            "expert",
            "topic",
            "produced",
            "id",
            "session",
        ),
        hidden=("end", "topic", "produced", "id", "session"),
    ),
    Kind.SERIES: _columns(Kind.SERIES, "title", "sessions", "first", "last", "fee", "id", hidden=("id",)),
    Kind.COURSES: _columns(
        Kind.COURSES,
        *("title", "level", "next", "last", "cities", "fee", "cle", "cpe", "expert", "id"),
        hidden=("last", "expert", "id"),
        types={"fee": R},  # its locations' lowest and highest
    ),
    Kind.CERTIFICATES: _columns(Kind.CERTIFICATES, "title", "fee", "levels", "courses", "id", hidden=("id",)),
    Kind.EXPERTS: _columns(
        Kind.EXPERTS, "name", "title", "education", "id", "webinars", "courses", hidden=("id",)
    ),
    # Who names a record is not in it: its counts of webinars and courses (after its id, so that rows
    # listed before them keep their other columns' places) are blank in a stored row and filled from
    # the loaded links (``core.listing.counts``).
    Kind.TOPICS: _columns(Kind.TOPICS, "title", "description", "id", "webinars", "courses", hidden=("id",)),
    Kind.ROLES: _columns(Kind.ROLES, "title", "description", "id", "webinars", hidden=("id",)),
    Kind.SITUATIONS: _columns(Kind.SITUATIONS, "title", "description", "id", "webinars", hidden=("id",)),
    # The sales desk's "Dates": one row per bookable occasion (``core.query.offerings``). Its ``id`` is
    # the row's own number (course and webinar ids repeat over locations and sessions); ``record`` is
    # the course's or webinar's id; ``location`` a course's location (what a booking names).
    OCCASIONS: _columns(
        OCCASIONS,
        *("title", "kind", "start", "end", "city", "state", "venue", "fee", "cle", "cpe", "expert"),
        *("topic", "series", "type", "ondemand", "record", "series_id", "location", "id"),
        hidden=("end", "topic", "series", "type", "ondemand", "record", "series_id", "location", "id"),
    ),
}

LISTING_VERSION = 3
"""What ``row``, ``links`` and ``core.listing.facts.facts`` make: a snapshot stored by an older version is
listed again from its records (``core.sync.relist``). 1: no date offsets, no facts. 2: both. 3: a
series' row ends with its sessions' dates and types (``SESSIONS_AT``)."""

# The date column after which a record counts as past (shown greyed).
PAST_COLUMN: dict[ListKind, str] = {
    Kind.WEBINARS: "end",
    Kind.COURSES: "last",
    Kind.SERIES: "last",
    OCCASIONS: "end",
}
# The column a dated kind's default order is by (upcoming first: ``ui.browse.past_rows``).
START_COLUMN: dict[ListKind, str] = {Kind.WEBINARS: "start", Kind.COURSES: "next", Kind.SERIES: "first"}

# Which kinds' ids each kind's links name, in the order of the links list.
LINK_KINDS: dict[Kind, tuple[Kind, ...]] = {
    Kind.WEBINARS: (Kind.EXPERTS, Kind.TOPICS, Kind.ROLES, Kind.SITUATIONS),
    Kind.SERIES: (Kind.WEBINARS,),
    Kind.COURSES: (Kind.EXPERTS, Kind.TOPICS),
    Kind.CERTIFICATES: (Kind.COURSES,),
}


def column_index(kind: ListKind, key: str) -> int:
    return next(i for i, c in enumerate(COLUMNS[kind]) if c.key == key)


# Per kind, the date columns in order: ``zone`` finds a column's offset by its place here.
DATE_COLUMNS: dict[ListKind, tuple[int, ...]] = {
    kind: tuple(i for i, c in enumerate(columns) if c.type is ColumnType.DATE)
    for kind, columns in COLUMNS.items()
}


def zone(kind: ListKind, row: Sequence[Any], column: int) -> int | None:
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


def _moments(dates: Iterable[datetime | None]) -> list[tuple[int, int | None]]:
    """(epoch ms, offset) of each date given, by time."""
    found = [(_ms(d), offset(d)) for d in dates if d is not None]
    return sorted(found, key=lambda m: m[0])


def money(value: int | Decimal | None) -> int | str | None:
    if isinstance(value, Decimal):
        return str(value)
    return value


def _joined(names: Iterable[str | None]) -> str | None:
    """The names given, but blank ones, joined by "; " (None: no item to name)."""
    given = list(names)
    return "; ".join(str(n) for n in given if n) if given else None


def _one_line(text: str | None, limit: int = 200) -> str | None:
    if not text:
        return text
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


_NONE = (None, None)


def _webinar(r: Webinar, now_ms: int) -> list[Any]:
    # (the most numerous record, made at every ingest: ``_joined`` and ``epoch_ms`` written out)
    start, end, produced, experts, topics = r.start_date, r.end_date, r.production_date, r.experts, r.topics
    return [
        r.title,
        r.type,
        None if start is None else int(start.timestamp() * 1000),
        None if end is None else int(end.timestamp() * 1000),
        r.fee,
        r.cle_accreditation,
        r.cpe_accreditation,
        "; ".join([str(e.name) for e in experts if e.name]) if experts else None,
        "; ".join([str(t.title) for t in topics if t.title]) if topics else None,
        None if produced is None else int(produced.timestamp() * 1000),
        r.webinar_id,
        r.session_id,
        [offset(start), offset(end), offset(produced)],
    ]


# A series' row, after its dates' offsets: its sessions' ``[starts (epoch ms), their offsets, type
# codes]``, three lists by start (undated ones last), so that the window can skip the sessions the
# user counts as on demand (``core.listing.series_dates``): the user's choice, not known when the
# row is made.
SESSIONS_AT = len(COLUMNS[Kind.SERIES]) + 1


def _series(r: Series, now_ms: int) -> list[Any]:
    sessions = r.sessions or ()
    starts = _moments(s.start_date for s in sessions)
    first, last = (starts[0], starts[-1]) if starts else (_NONE, _NONE)
    ordered = sorted(
        ((epoch_ms(s.start_date), offset(s.start_date), s.type) for s in sessions),
        key=lambda d: (d[0] is None, d[0] or 0),
    )
    kept = [[d[i] for d in ordered] for i in range(3)]
    return [r.title, len(sessions), first[0], last[0], r.fee, r.series_id, [first[1], last[1]], kept]


def _course(r: Course, now_ms: int) -> list[Any]:
    starts = _moments(loc.start_date for loc in r.locations or ())
    ends = _moments(loc.end_date for loc in r.locations or ()) or starts
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
        _joined(e.name for e in r.experts or ()),
        r.course_id,
        [nxt[1], last[1]],
    ]


def _certificate(r: Certificate, now_ms: int) -> list[Any]:
    levels = r.levels or ()
    courses = {c.course_id for level in levels for c in level.courses or ()}
    return [r.title, money(r.fee), len(levels), len(courses), r.certificate_id, []]


def _expert(r: Expert, now_ms: int) -> list[Any]:
    return [r.name, r.title, _one_line(r.education), r.expert_id, None, None, []]


def _titled(kind: Kind) -> Callable[[Topic | Role | Situation, int], list[Any]]:
    """The maker of a topic's, role's or situation's row (``kind``'s): its counts (the columns
    after its id) are filled when listed."""
    counts = len(COLUMNS[kind]) - column_index(kind, "id") - 1

    def made(r: Topic | Role | Situation, now_ms: int) -> list[Any]:
        return [r.title, _one_line(r.description), r.own_id, *[None] * counts, []]

    return made


# Each maker takes its kind's model; the table's type cannot say which (``row`` is given a record
# of ``kind``'s model), the makers themselves are checked against the models.
ROWS: dict[Kind, Callable[[Any, int], list[Any]]] = per_kind(
    webinars=_webinar,
    series=_series,
    courses=_course,
    certificates=_certificate,
    experts=_expert,
    titled=_titled,
)


def row(kind: Kind, record: Record, now_ms: int) -> list[Any]:
    """The values of ``COLUMNS[kind]`` for one record (a model of that kind), then its dates'
    offsets (see ``zone``)."""
    return ROWS[kind](record, now_ms)


def _webinar_links(r: Webinar) -> list[list[int]]:
    return [
        [e.expert_id for e in r.experts or ()],
        [t.topic_id for t in r.topics or ()],
        [x.role_id for x in r.roles or ()],
        [x.situation_id for x in r.situations or ()],
    ]


def _series_links(r: Series) -> list[list[int]]:
    return [[s.webinar_id for s in r.sessions or ()]]


def _course_links(r: Course) -> list[list[int]]:
    return [[e.expert_id for e in r.experts or ()], [t.topic_id for t in r.topics or ()]]


def _certificate_links(r: Certificate) -> list[list[int]]:
    return [list(dict.fromkeys(c.course_id for lv in r.levels or () for c in lv.courses or ()))]


_LINKS: dict[Kind, Callable[[Any], list[list[int]]]] = {
    Kind.WEBINARS: _webinar_links,
    Kind.SERIES: _series_links,
    Kind.COURSES: _course_links,
    Kind.CERTIFICATES: _certificate_links,
}


def links(kind: Kind, record: Record) -> list[list[int]]:
    """Ids of the records this one refers to, one list per ``LINK_KINDS[kind]``."""
    found = _LINKS.get(kind)
    return [] if found is None else found(record)
