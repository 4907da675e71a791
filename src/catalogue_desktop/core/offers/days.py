"""The calendar events of an occasion: one per day it meets, never one across nights. Qt-free.

A course meets on each day from its start date to its end date (as the service wrote them, at
the location). With a ``schedule`` (day 1, 2, ... with start and end times, "08:30"), each day's
event runs from that day's first start to its last end, at the location: in its zone when the
offset the service wrote is the zone's (a course across a daylight-saving change keeps its wall
clock), else in the written offset. Without one, each day runs from the written start time to
the written end time when the end is later in the day, else each day is an all-day event.
An occasion within one day (or less than 24 hours), and any webinar, is one event, start to end
as written.

Each day's UID is the occasion's with the day's number (``uid``): stable across exports, so that
importing a newer file updates the days instead of adding copies. The schedules are read from the
courses' stored records (``schedules``): the offerings' columns do not carry them.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta, tzinfo
from typing import TYPE_CHECKING
from zoneinfo import ZoneInfo

from catalogue_desktop.core.offers.occasions import Occasion, instant
from catalogue_desktop.core.records import zones
from catalogue_desktop.core.records.kinds import Kind

if TYPE_CHECKING:
    from catalogue_desktop.core.cache.store import Store

MAX_DAYS = 31  # a longer span is not a course's days: one event, as written
_TIME = re.compile(r"^([01]?\d|2[0-3]):([0-5]\d)(?::[0-5]\d(?:\.\d+)?)?$")

# A course's days: day number (1 = its first) -> (start, end) times of day
Schedule = Mapping[int, tuple[time, time]]


@dataclass(frozen=True)
class Day:
    """One calendar event of an occasion: timed (``start``, ``end``) or all day (``on``)."""

    uid: str
    number: int  # 1, 2, ... (0: the occasion is one event)
    of: int  # how many days the occasion has
    start: datetime | None = None
    end: datetime | None = None
    on: date | None = None  # an all-day event's date


def uid(o: Occasion, number: int) -> str:
    """The UID of day ``number`` of ``o`` (0: the occasion's own)."""
    base = o.uid
    if not number:
        return base
    head, _, host = base.partition("@")
    return f"{head}-day{number}@{host}"


def days(o: Occasion, schedule: Schedule | None = None) -> list[Day]:
    """The calendar events of ``o`` (none without a date)."""
    begin, finish = instant(o.start), instant(o.end)
    if begin is None:
        return []
    if finish is None or finish <= begin:
        return [Day(o.uid, 0, 1, begin, begin)]
    first, last = begin.date(), finish.astimezone(begin.tzinfo).date()
    span = (last - first).days + 1
    if o.kind != "course" or span == 1 or span > MAX_DAYS or finish - begin < timedelta(hours=24):
        return [Day(o.uid, 0, 1, begin, finish)]  # a webinar, a day, an evening into the night
    zone = _zone(o, begin)
    out = []
    for n in range(1, span + 1):
        on = first + timedelta(days=n - 1)
        hours = (schedule or {}).get(n)
        if hours is None:  # no schedule, or none for that day: the written times
            if finish.timetz().replace(tzinfo=None) > begin.timetz().replace(tzinfo=None):
                hours = (begin.time(), finish.astimezone(begin.tzinfo).time())
            else:
                out.append(Day(uid(o, n), n, span, on=on))
                continue
        start = datetime.combine(on, hours[0], zone)
        end = datetime.combine(on, hours[1], zone)
        out.append(Day(uid(o, n), n, span, start, end if end > start else start))
    return out


def _zone(o: Occasion, begin: datetime) -> tzinfo:
    """The location's zone when the written offset is its zone's, else the written offset."""
    found = zones.check(begin, o.state) if o.kind == "course" else None
    if found is not None and found.ok:
        return ZoneInfo(found.zone)
    assert begin.tzinfo is not None
    return begin.tzinfo


def parse_schedule(items: object) -> dict[int, tuple[time, time]]:
    """A course's ``schedule`` (the service's JSON: day, startTime, endTime, ...) as each day's
    first start and last end; entries that are not such (hostile or broken data) are skipped."""
    out: dict[int, tuple[time, time]] = {}
    if not isinstance(items, list):
        return out
    for item in items:
        if not isinstance(item, dict):
            continue
        n, start, end = item.get("day"), _time(item.get("startTime")), _time(item.get("endTime"))
        if not isinstance(n, int) or isinstance(n, bool) or not 1 <= n <= MAX_DAYS or start is None:
            continue
        end = end if end is not None and end > start else start
        if n in out:
            start, end = min(start, out[n][0]), max(end, out[n][1])
        out[n] = (start, end)
    return out


def _time(text: object) -> time | None:
    if not isinstance(text, str):
        return None
    match = _TIME.match(text.strip())
    return time(int(match[1]), int(match[2])) if match else None


def schedules(store: Store, course_ids: Iterable[object]) -> dict[int, Schedule]:
    """The schedules of the courses ``course_ids``, from their stored records (a course without
    one, or not stored, is left out)."""
    out: dict[int, Schedule] = {}
    for cid in dict.fromkeys(course_ids):
        if not isinstance(cid, int):
            continue
        data = store.record_data(Kind.COURSES, cid)
        if not data:
            continue
        try:
            record = json.loads(data)
        except ValueError:
            continue
        found = parse_schedule(record.get("schedule") if isinstance(record, dict) else None)
        if found:
            out[cid] = found
    return out
