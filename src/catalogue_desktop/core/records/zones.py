"""Time zones a customer reads at a glance: a course location's zone from its US state or
Canadian province, checked against the UTC offset the service wrote, and the zones a seller
picks for online events. Qt-free.

The service writes each date with a UTC offset and no zone (``2027-02-08T08:30:00-06:00``). A
location's state or province names its zone (IL: America/Chicago); on that date the zone has one
offset (CST −06:00 in February, CDT −05:00 in summer). When the written offset is the zone's,
times read "8:30 AM CST"; when it is not (the demo's San Francisco course on 29 Mar 2027 is
written −08:00 while PDT is −07:00), ``ZoneCheck.mismatch`` says so in words, so that the row,
the ``check`` report and the offer say it instead of giving a time an hour off.

States split between zones list every zone in use there, the most populous first. A location is
taken to be in its state's main zone (the address names no finer one): an offset that is only
another part's (Dallas written −06:00 in July, Mountain time's) is doubtful like any other, said
with that part named, and written as the offset, never as a zone's name the app guessed.
``zoneinfo`` reads the system's zone data, or the ``tzdata`` package where there is none
(Windows, the bundle: ~0.5 MB).
"""

from __future__ import annotations

from datetime import datetime, timedelta
from functools import cache
from typing import TYPE_CHECKING, NamedTuple

from catalogue_desktop.core.records.regions import spellings

if TYPE_CHECKING:
    from zoneinfo import ZoneInfo

_E, _C, _M, _P = "America/New_York", "America/Chicago", "America/Denver", "America/Los_Angeles"

# US states, DC and territories; Canadian provinces and territories: their zones, the most
# populous first. Keys are the postal codes; names are read too (``records/regions.py``).
REGION_ZONES: dict[str, tuple[str, ...]] = {
    "AL": (_C,), "AK": ("America/Anchorage", "Pacific/Honolulu"), "AZ": ("America/Phoenix", _M),
    "AR": (_C,), "CA": (_P,), "CO": (_M,), "CT": (_E,), "DE": (_E,), "DC": (_E,),
    "FL": (_E, _C), "GA": (_E,), "HI": ("Pacific/Honolulu",), "ID": ("America/Boise", _P),
    "IL": (_C,), "IN": ("America/Indiana/Indianapolis", _C), "IA": (_C,), "KS": (_C, _M),
    "KY": ("America/Kentucky/Louisville", _C), "LA": (_C,), "ME": (_E,), "MD": (_E,), "MA": (_E,),
    "MI": ("America/Detroit", "America/Menominee"), "MN": (_C,), "MS": (_C,), "MO": (_C,),
    "MT": (_M,), "NE": (_C, _M), "NV": (_P, _M), "NH": (_E,), "NJ": (_E,), "NM": (_M,),
    "NY": (_E,), "NC": (_E,), "ND": (_C, _M), "OH": (_E,), "OK": (_C,), "OR": (_P, "America/Boise"),
    "PA": (_E,), "RI": (_E,), "SC": (_E,), "SD": (_C, _M), "TN": (_C, _E), "TX": (_C, _M),
    "UT": (_M,), "VT": (_E,), "VA": (_E,), "WA": (_P,), "WV": (_E,), "WI": (_C,), "WY": (_M,),
    "PR": ("America/Puerto_Rico",), "VI": ("America/St_Thomas",), "GU": ("Pacific/Guam",),
    "AS": ("Pacific/Pago_Pago",), "MP": ("Pacific/Saipan",),
    "AB": ("America/Edmonton",), "BC": ("America/Vancouver", "America/Creston"),
    "MB": ("America/Winnipeg",), "NB": ("America/Moncton",),
    "NL": ("America/St_Johns", "America/Goose_Bay"), "NS": ("America/Halifax",),
    "NT": ("America/Yellowknife",), "NU": ("America/Iqaluit", "America/Rankin_Inlet"),
    "ON": ("America/Toronto", "America/Winnipeg"), "PE": ("America/Halifax",),
    "QC": ("America/Toronto",), "SK": ("America/Regina",), "YT": ("America/Whitehorse",),
}  # fmt: skip


def _key(written: str) -> str:
    """A region's name as looked up: lower case, no full stops, single spaces."""
    return " ".join(written.lower().replace(".", " ").split())


_NAMES = {_key(name): code for name, code in spellings().items()}

# Zones a seller may pick for an online event's customer: (label, IANA zone). The label is the
# generic name people write ("1:00 PM ET"); a zone not listed is labelled by its abbreviation.
CUSTOMER_ZONES: tuple[tuple[str, str], ...] = (
    ("ET", "America/New_York"),
    ("CT", "America/Chicago"),
    ("MT", "America/Denver"),
    ("MST", "America/Phoenix"),
    ("PT", "America/Los_Angeles"),
    ("AKT", "America/Anchorage"),
    ("HT", "Pacific/Honolulu"),
    ("AT", "America/Halifax"),
    ("NT", "America/St_Johns"),
    ("UK", "Europe/London"),
    ("CET", "Europe/Berlin"),
    ("UTC", "UTC"),
)
_GENERIC = {
    **{zone: label for label, zone in CUSTOMER_ZONES},
    "America/Toronto": "ET",
    "America/Detroit": "ET",
    "America/Indiana/Indianapolis": "ET",
    "America/Kentucky/Louisville": "ET",
    "America/Winnipeg": "CT",
    "America/Regina": "CST",
    "America/Edmonton": "MT",
    "America/Boise": "MT",
    "America/Vancouver": "PT",
    "Europe/Paris": "CET",
    "Europe/Amsterdam": "CET",
    "Europe/Zurich": "CET",
    "Europe/Vienna": "CET",
}


class ZoneCheck(NamedTuple):
    """A location's zone on one date, and whether the offset the service wrote is that zone's."""

    zone: str  # IANA name
    abbreviation: str  # "CST", "PDT" on that date
    expected: int  # the zone's UTC offset on that date, minutes
    written: int  # the offset the service wrote, minutes
    other: str = ""  # another zone of the state whose offset was written ("MDT"), when not ok

    @property
    def ok(self) -> bool:
        return self.expected == self.written

    @property
    def mismatch(self) -> str:
        """ "" when the offsets agree; else the disagreement in words ("written UTC−08:00, but
        Pacific time on that date is PDT, UTC−07:00: the time may be an hour off")."""
        if self.ok:
            return ""
        hours = abs(self.expected - self.written) / 60
        amount = "an hour" if hours == 1 else f"{hours:g} hours"
        part = f" ({self.other} in part of the state)" if self.other else ""
        return (
            f"written {offset_label(self.written)}{part}, but {self.abbreviation} on that date is "
            f"{offset_label(self.expected)}: the time may be {amount} off"
        )


def local_now() -> datetime:
    """Now, in the local time zone (relative dates such as ``today`` and ``next30d`` use it, and
    the offers' checks: here, not with the searches, so a check imports no query engine)."""
    return datetime.now().astimezone()


def region_code(state: str | None) -> str | None:
    """The postal code of a US state or Canadian province written as a code or a name."""
    if not state or not isinstance(state, str):
        return None
    code = state.strip(" .").upper()
    if code in REGION_ZONES:
        return code
    return _NAMES.get(_key(state))


def region_zones(state: str | None) -> tuple[str, ...]:
    """The IANA zones in use in ``state`` (most populous first); () when it is not known."""
    code = region_code(state)
    return REGION_ZONES.get(code, ()) if code else ()


def check(moment: datetime, state: str | None) -> ZoneCheck | None:
    """The zone of a location in ``state`` at ``moment`` (an aware datetime as the service wrote
    it), checked against its offset; None when the state names no known zone.

    One rule for every place: the location is taken to be in its state's main zone (the most
    populous; the address names no finer zone), and a written offset that is not that zone's on
    that date is doubtful, the same in Chicago as in Dallas. Where the state has another zone
    whose offset it is (Texas's Mountain-time part at UTC−06:00 in July), ``other`` names it, so
    the doubt says why the time may still be right; the time is then written with its offset,
    never with that other zone's name ("MDT" for a Dallas hotel would be a guess)."""
    zones = [zone for zone in map(_zone, region_zones(state)) if zone is not None]
    written = _minutes(moment.utcoffset())
    if not zones or written is None:
        return None
    main = moment.astimezone(zones[0])
    expected = _minutes(main.utcoffset()) or 0
    other = ""
    if expected != written:
        for zone in zones[1:]:
            local = moment.astimezone(zone)
            if _minutes(local.utcoffset()) == written:
                other = local.tzname() or ""
                break
    return ZoneCheck(str(zones[0].key), main.tzname() or "", expected, written, other)


# How a doubtful time (``ZoneCheck`` not ok) is read, as the seller chose it (Preferences ▸ Offers,
# or the first offer's question): one rule for the offers and the window (``read_as``).
CLOCK, INSTANT = "clock", "instant"  # the clock time written is right; the instant written is
TIMES = (CLOCK, INSTANT)


def read_as(moment: datetime, found: ZoneCheck, times: str) -> datetime:
    """A doubtful ``moment`` (``found``: its check, not ok) read as ``times`` says, in the venue's
    zone: ``CLOCK`` keeps its clock time (8:30 AM written UTC−06:00 in a Chicago July is 8:30 AM
    CDT), ``INSTANT`` its instant (9:30 AM CDT)."""
    zone = zone_info(found.zone)
    if times == INSTANT:
        return moment.astimezone(zone)
    return moment.replace(tzinfo=zone)  # the wall clock kept


def offset_label(minutes: int) -> str:
    """ "UTC−05:00", "UTC+05:30" (a real minus sign)."""
    sign = "+" if minutes >= 0 else "−"
    hours, rest = divmod(abs(minutes), 60)
    return f"UTC{sign}{hours:02d}:{rest:02d}"


def clock(moment: datetime, hour12: bool = True) -> str:
    """The time of day as people write it: "8:30 AM" (12-hour) or "08:30"."""
    if not hour12:
        return f"{moment:%H:%M}"
    hour = moment.hour % 12 or 12
    return f"{hour}:{moment:%M} {'AM' if moment.hour < 12 else 'PM'}"


def zone_label(zone_name: str, moment: datetime) -> str:
    """The name a customer knows a zone by: "ET", "CT" for the usual ones, else its
    abbreviation at ``moment`` ("CEST"), else its city."""
    generic = _GENERIC.get(zone_name)
    if generic:
        return generic
    zone = _zone(zone_name)
    abbreviation = moment.astimezone(zone).tzname() if zone is not None else None
    if abbreviation and abbreviation[0].isalpha() and not abbreviation.startswith(("UTC", "GMT")):
        return abbreviation
    return zone_name.rsplit("/", 1)[-1].replace("_", " ")


def at_location(moment: datetime, state: str | None, hour12: bool = True) -> str:
    """A course's time at its location: "8:30 AM CST" when the written offset is the zone's;
    the offset alone when no zone is known ("8:30 AM UTC−06:00"); the offset and what is wrong
    with it otherwise ("8:30 AM UTC−08:00 (written UTC−08:00, but PDT on that date is
    UTC−07:00: ...)")."""
    found = check(moment, state)
    time = clock(moment, hour12)
    if found is None:
        return f"{time} {offset_label(_minutes(moment.utcoffset()) or 0)}"
    if found.ok:
        return f"{time} {found.abbreviation}"
    return f"{time} {offset_label(found.written)} ({found.mismatch})"


def zone_name(moment: datetime, zone_name: str | None = None) -> str:
    """The one label an offer gives a time's zone: the abbreviation on that date ("CST", "EDT",
    "CET"; of ``zone_name`` when given, else of ``moment``'s own zone), else the UTC offset
    ("UTC−05:00", a real minus sign: never a zone's "-05" or "UTC-05:00")."""
    zone = _zone(zone_name) if zone_name else None
    local = moment.astimezone(zone) if zone is not None else moment
    name, minutes = local.tzname() or "", _minutes(local.utcoffset()) or 0
    if name.isalpha() and name.isupper() and (name not in ("UTC", "GMT") or minutes == 0):
        return "UTC" if name == "GMT" else name
    return offset_label(minutes)


def for_customer(moment: datetime, zone_name: str | None, hour12: bool = True) -> str:
    """An online event's time in the zone a seller picked for the customer, with that zone's
    offset: "1:00 PM ET (UTC−05:00)"; without a zone, as written: "1:00 PM UTC−05:00"."""
    zone = _zone(zone_name) if zone_name else None
    if zone is None:
        return f"{clock(moment, hour12)} {offset_label(_minutes(moment.utcoffset()) or 0)}"
    local = moment.astimezone(zone)
    assert zone_name is not None
    label = zone_label(zone_name, local)
    return f"{clock(local, hour12)} {label} ({offset_label(_minutes(local.utcoffset()) or 0)})"


def customer_moment(moment: datetime, zone_name: str | None) -> datetime:
    """``moment`` in the customer's zone (as written without one)."""
    zone = _zone(zone_name) if zone_name else None
    return moment if zone is None else moment.astimezone(zone)


def zone_info(zone_name: str) -> ZoneInfo:
    """The zone named ``zone_name`` (an IANA name this module gave: ``ZoneCheck.zone``)."""
    zone = _zone(zone_name)
    if zone is None:
        raise ValueError(f"unknown time zone {zone_name!r}")
    return zone


def known_zone(zone_name: str | None) -> bool:
    return bool(zone_name) and _zone(zone_name) is not None


@cache
def _zone(name: str | None) -> ZoneInfo | None:
    if not name:
        return None
    # (imported when a zone is first asked for: zoneinfo and the sysconfig it reads were ~2 ms of
    # the window's start-up, which shows no zone before its first paint)
    from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def _minutes(delta: timedelta | None) -> int | None:
    return None if delta is None else int(delta.total_seconds()) // 60
