"""Offers: bookable occasions (``query.offerings``) handed to a customer — JSON and CSV rows here;
the calendar file is ``calendar``'s, the e-mail text ``mail``'s, the offer sheet ``sheet``'s (the
window and the command line render it to PDF with Qt), their words ``text``'s.

Every output names the data's age (``age_line``: "Prices and dates as of Thu 26 Nov 2026, 5:01 PM",
the oldest of the courses', series' and webinars' last sync that reached the service:
``data_as_of``). Server text is data: each format's encoder in ``core.formats`` handles it (CSV
and e-mail cells made inert to spreadsheets, HTML escaped, drawn text capped and its bidi
controls made visible, the calendar written by ``icalendar``). Times are the exact instants the
service wrote; an offer gives them at the venue (``offer``, ``text``). Qt-free.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, TextIO

from catalogue_desktop.core.formats.csv_cells import CsvWriter
from catalogue_desktop.core.formats.links import left_out
from catalogue_desktop.core.formats.numbers import plain_number, within_reason
from catalogue_desktop.core.formats.time_text import US_ENGLISH, TimeText
from catalogue_desktop.core.query.table import parse_date
from catalogue_desktop.core.records import zones
from catalogue_desktop.core.records.field_registry import fact_keys, offer_keys
from catalogue_desktop.core.records.kinds import Kind

if TYPE_CHECKING:
    from catalogue_desktop.core.cache.store import CollectionState

_CREDITS = (("cle", "CLE"), ("cpe", "CPE"))
# An offer's JSON and CSV keys, by field name (the registry's ``offer`` keys, in their order).
_OFFER = offer_keys()
JSON_KEYS = tuple(_OFFER.values())
# Where the offerings' columns keep each field (the registry's facts' keys).
OFFERING_KEYS = fact_keys("offerings")  # the offerings columns' keys, by field name
_FACT = OFFERING_KEYS


@dataclass(frozen=True)
class Occasion:
    """One bookable occasion: a course location, a series session or a webinar."""

    kind: str  # course, session, webinar
    id: Any  # the course's or webinar's id
    title: str
    start: str | None = None  # ISO 8601 with the service's offset; None: on demand
    end: str | None = None
    location_id: Any = None
    series_id: Any = None
    series: str | None = None
    venue: str | None = None
    address: str | None = None
    city: str | None = None
    state: str | None = None
    zip: str | None = None
    fee: Any = None
    cle: bool | None = None
    cpe: bool | None = None
    experts: list[str] = field(default_factory=list)
    topics: list[str] = field(default_factory=list)
    url: str | None = None
    on_demand: bool = False
    # a session: every series it is a session of (titles, ids, fees, numbers of sessions)
    all_series: tuple[str, ...] = ()
    series_ids: tuple[Any, ...] = ()
    series_fees: tuple[Any, ...] = ()
    series_sizes: tuple[Any, ...] = ()

    @property
    def uid(self) -> str:
        """Stable across exports (re-importing updates the event): from the course and location,
        or the webinar (one event whether listed as a webinar or a session, of however many
        series)."""
        key = f"course:{self.id}:{self.location_id or ''}" if self.kind == "course" else f"webinar:{self.id}"
        return f"{hashlib.sha1(key.encode()).hexdigest()[:20]}@catalogue-desktop"

    def credits(self) -> str:
        return ", ".join(name for attr, name in _CREDITS if getattr(self, attr)) or ""

    def place(self) -> str:
        return place_of(self.venue, self.city, self.state)


def place_of(venue: str | None, city: str | None, state: str | None) -> str:
    """Where an occasion is: "Hyatt Regency, Chicago, IL" ("" online)."""
    return ", ".join(p for p in (venue, city, state) if p)


def occasions(found: dict[str, list[Any]], rows: Iterable[int]) -> list[Occasion]:
    """The occasions of offerings rows ``rows`` (columns as ``query.offerings.columns`` makes)."""
    rows = list(rows)

    def pick(name: str) -> list[Any]:  # (each column looked up once, not once a row)
        column = found.get(_FACT[name])
        return [None] * len(rows) if column is None else [column[i] for i in rows]

    names = (
        "kind", "id", "title", "starts", "ends", "location", "series_id", "series", "series_ids",
        "series_fees", "series_sessions", "venue", "address", "city", "state", "zip", "fee", "cle",
        "cpe", "expert", "topic", "url", "ondemand",
    )  # fmt: skip
    out = []
    for (
        kind, id_, title, start, end, location, series_id, series, series_ids, series_fees,
        series_sizes, venue, address, city, state, zip_, fee, cle, cpe, experts, topics, url, ondemand,
    ) in zip(*map(pick, names), strict=True):  # fmt: skip
        out.append(
            Occasion(
                kind=kind,
                id=id_,
                title=title or f"{kind.capitalize()} #{id_}",
                start=start,
                end=end,
                location_id=location,
                series_id=series_id,
                series=(series or [None])[0],
                all_series=tuple(series or ()),
                series_ids=tuple(series_ids or ()),
                series_fees=tuple(series_fees or ()),
                series_sizes=tuple(series_sizes or ()),
                venue=venue,
                address=address,
                city=city,
                state=state,
                zip=zip_,
                fee=fee,
                cle=cle,
                cpe=cpe,
                experts=list(experts or ()),
                topics=list(topics or ()),
                url=url,
                on_demand=bool(ondemand),
            )
        )
    return out


def by_start(items: Sequence[Occasion]) -> list[Occasion]:
    """By start time, on-demand ones last (in their order)."""

    def key(o: Occasion) -> tuple[int, int]:
        moment = parse_date(o.start)
        return (0, moment[1]) if moment else (1, 0)

    return sorted(items, key=key)


# -- text -------------------------------------------------------------------------------------


def when(iso: str | None, *, local: bool = False, time_text: TimeText = US_ENGLISH) -> str:
    """ "Tuesday, March 9, 2027 8:30 AM UTC−05:00": the date and time as written, with the offset
    (with ``local``, the same instant in the viewer's zone, with its offset)."""
    if not iso:
        return "on demand"
    moment = instant(iso)
    if moment is None:
        return iso
    if local:
        moment = _local(moment)
    offset = moment.utcoffset()
    minutes = 0 if offset is None else int(offset.total_seconds()) // 60
    return f"{time_text.long(moment)} {zones.offset_label(minutes)}"


def _local(moment: datetime) -> datetime:
    """``moment`` in the viewer's zone; in its own offset when that would leave years 1-9999."""
    try:
        return moment.astimezone()
    except (OverflowError, ValueError):
        return moment


def money(fee: object, currency: str | None = None) -> str:
    """A fee as written: plain digits (never an exponent), thousands grouped for whole numbers."""
    if fee is None:
        return ""
    whole = isinstance(fee, int) and not isinstance(fee, bool) and fee.bit_length() <= 160
    text = f"{fee:,}" if whole else plain_number(fee)  # (total: a huge one bounded, never raising)
    return f"{currency} {text}" if currency else text


SOURCES = (Kind.COURSES, Kind.SERIES, Kind.WEBINARS)  # what the occasions are made of


def data_as_of(states: Mapping[Kind, CollectionState]) -> str | None:
    """The time an offer's data is as of: for each source (courses, series, webinars) the last
    sync that reached the service (its ``checked_at``: a 304 counts; else when it was fetched),
    and of those the oldest, since an offer may mix them. None when none was ever synced."""
    stamps = [s.checked_at or s.fetched_at for k, s in states.items() if k in SOURCES and s.has_data]
    known = [t for t in stamps if t]
    return min(known, key=lambda t: instant(t) or datetime.min.replace(tzinfo=UTC)) if known else None


def age(stamp: str | None, now: datetime | None = None) -> timedelta | None:
    """How old data of time ``stamp`` is (None: unknown)."""
    moment = instant(stamp)
    return None if moment is None else (now or datetime.now(UTC)) - moment


def as_of_text(stamp: str | None, time_text: TimeText = US_ENGLISH) -> str | None:
    """The data's time as people read it, in the viewer's time with its zone: "Thursday,
    November 26, 2026 5:01 PM CST"."""
    moment = instant(stamp)
    if moment is None:
        return stamp
    local = _local(moment)
    return f"{time_text.long(local)} {zones.zone_name(local)}"


def age_line(as_of: str | None) -> str:
    """The line every output carries (``as_of``: a time as people read it, ``as_of_text``)."""
    if not as_of:
        return "Prices and dates of unknown age: they may have changed since."
    return f"Prices and dates as of {as_of}; they may have changed since."


# -- rows -----------------------------------------------------------------------------------


def _fee(o: Occasion) -> Any:
    """A fee as JSON carries it: an integer within reason, else its plain digits as text."""
    fee = o.fee
    return fee if fee is None or (isinstance(fee, int) and within_reason(fee)) else plain_number(fee)


# What an offer writes of each field the registry gives an ``offer`` key (a key without a writer, or
# a writer without a key, stops the import).
_WRITERS: dict[str, Callable[[Occasion], Any]] = {
    "kind": lambda o: o.kind,
    "id": lambda o: o.id,
    "location": lambda o: o.location_id,
    "series_id": lambda o: o.series_id,
    "title": lambda o: o.title,
    "starts": lambda o: o.start,
    "ends": lambda o: o.end,
    "city": lambda o: o.city,
    "state": lambda o: o.state,
    "venue": lambda o: o.venue,
    "address": lambda o: o.address,
    "zip": lambda o: o.zip,
    "fee": _fee,
    "cle": lambda o: o.cle,
    "cpe": lambda o: o.cpe,
    "expert": lambda o: o.experts,
    "topic": lambda o: o.topics,
    "series": lambda o: o.series,
    "ondemand": lambda o: o.on_demand,
    "url": lambda o: o.url,
}
if _WRITERS.keys() != _OFFER.keys():
    raise ValueError(f"offers write {sorted(_WRITERS)} but the registry's offer keys name {sorted(_OFFER)}")


def json_rows(items: Sequence[Occasion]) -> list[dict[str, Any]]:
    """What ``export offerings --format json`` writes: one object per occasion (``JSON_KEYS``)."""
    writers = [(key, _WRITERS[name]) for name, key in _OFFER.items()]
    return [{key: write(o) for key, write in writers} for o in items]


def write_csv(items: Sequence[Occasion], out: TextIO) -> None:
    writer = CsvWriter(out)
    writer.writerow(JSON_KEYS)
    for row in json_rows(items):
        writer.writerow(
            [
                "; ".join(v)
                if isinstance(v, list)
                else ""
                if v is None
                else str(v).lower()
                if isinstance(v, bool)
                else v
                for v in row.values()
            ]
        )


# -- links and dates ------------------------------------------------------------------------------


def links_left_out(items: Sequence[Occasion]) -> int:
    """How many of ``items`` have a link that is not a web link (no output makes it one)."""
    return sum(1 for o in items if left_out(o.url))


def dated(items: Sequence[Occasion]) -> int:
    """How many of ``items`` have a date (an event in the calendar file)."""
    return sum(1 for o in items if instant(o.start) is not None)


def instant(iso: object) -> datetime | None:
    """ISO 8601 text as an aware datetime (UTC if it has no offset); None if not a date, or if
    its UTC instant falls outside years 1-9999 (no output can show it: the decoder rejects it)."""
    if not iso or not isinstance(iso, str):
        return None
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return None
    if moment.tzinfo is None:
        return moment.replace(tzinfo=UTC)
    try:
        moment.astimezone(UTC)
    except OverflowError:
        return None
    return moment
