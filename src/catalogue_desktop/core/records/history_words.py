"""A record's history in words: "14 Nov 2026: fee 1,095 → 1,195 (Chicago, 14 Dec 2026)",
"location added: Dallas, 9 Mar 2027", for the detail pane's History section and
``catalogue-desktop history``; and the fee's values over time, for its chart.

Events are ``core.cache.record_history.Event``-like (``at``, ``change``, ``fields`` keyed by slash paths:
``locations/7114/fee``); the record's JSON (as stored, camelCase) names the nested record a path
points into (its city and start day, or its title). Service text is shown as written, cut to a
line; the caller escapes it for its output.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from typing import Any, Protocol

DateText = Callable[[date], str]
_NESTED_NAMES = {
    "locations": "location",
    "sessions": "session",
    "experts": "expert",
    "topics": "topic",
    "roles": "role",
    "situations": "situation",
    "levels": "level",
    "schedule": "schedule item",
}
_FIELD_WORDS = {
    "fee": "fee",
    "startDate": "start",
    "endDate": "end",
    "title": "title",
    "venue": "venue",
    "city": "city",
    "address": "address",
    "state": "state",
    "productionDate": "recorded",
    "cleAccreditation": "CLE",
    "cpeAccreditation": "CPE",
    "detailUrl": "link",
    "url": "link",
}
_LIMIT = 80


class EventLike(Protocol):
    @property
    def at(self) -> str: ...
    @property
    def change(self) -> str: ...
    @property
    def fields(self) -> dict[str, list[Any]]: ...


def day_text(day: date) -> str:
    """``14 Nov 2026`` (the default; the window passes the locale's short date)."""
    return f"{day.day} {day.strftime('%b')} {day.year}"


def iso_day_text(iso: str) -> str:
    """``day_text`` of the day an ISO date or timestamp names ("2026-11-14T09:00:00Z": "14 Nov
    2026"); the text itself when it names none. (Portable: no strftime flag only glibc knows.)"""
    try:
        return day_text(date.fromisoformat(iso[:10]))
    except ValueError:
        return iso


@dataclass(frozen=True, slots=True)
class Line:
    """One dated change in words."""

    day: date | None
    text: str


def describe(
    events: Iterable[EventLike], record: Mapping[str, object] | None, date_text: DateText = day_text
) -> list[Line]:
    """Each event as lines of words, oldest first; one line per changed field."""
    lines: list[Line] = []
    for event in events:
        day = _day(event.at)
        if event.change == "added":
            lines.append(Line(day, "added to the catalogue"))
        elif event.change == "removed":
            lines.append(Line(day, "withdrawn: no longer listed by the service"))
        else:
            lines += [
                Line(day, _field(path, old, new, record, date_text))
                for path, (old, new) in event.fields.items()
            ]
    return lines


def as_text(lines: Iterable[Line], date_text: DateText = day_text) -> list[str]:
    return [f"{date_text(line.day) if line.day else '?'}: {line.text}" for line in lines]


def fee_points(events: Iterable[EventLike]) -> dict[str, list[tuple[str, Decimal]]]:
    """The fee over time, per priced item (``""`` for the record's own fee, else the nested
    record's path, e.g. ``locations/7114``): (day of change, new fee) points, starting from the
    first old value seen; only items whose fee changed."""
    series: dict[str, list[tuple[str, Decimal]]] = {}
    for event in events:
        if event.change != "changed":
            continue
        for path, (old, new) in event.fields.items():
            parts = path.split("/")
            if parts[-1] != "fee":
                continue
            item = "/".join(parts[:-1])
            points = series.setdefault(item, [])
            before, after = _number(old), _number(new)
            if not points and before is not None:
                points.append(("", before))  # the value before the first change (undated)
            if after is not None:
                points.append((event.at, after))
    return {k: v for k, v in series.items() if len(v) >= 2}


def _field(
    path: str, old: object, new: object, record: Mapping[str, object] | None, date_text: DateText
) -> str:
    parts = path.split("/")
    if len(parts) >= 2 and parts[0] in _NESTED_NAMES:
        noun = _NESTED_NAMES[parts[0]]
        nested = _nested(record, parts[0], parts[1])
        if len(parts) == 2:  # a whole nested record came or went
            if old is None:
                return f"{noun} added: {_summary(new, date_text)}"
            if new is None:
                return f"{noun} removed: {_summary(old, date_text)}"
            return f"{noun} changed: {_summary(old, date_text)} → {_summary(new, date_text)}"
        where = _where(nested, date_text) or f"{noun} {parts[1]}"
        name = _FIELD_WORDS.get(parts[-1], parts[-1])
        return f"{name} {_value(parts[-1], old, date_text)} → {_value(parts[-1], new, date_text)} ({where})"
    name = _FIELD_WORDS.get(parts[-1], path.replace("/", " "))
    return f"{name} {_value(parts[-1], old, date_text)} → {_value(parts[-1], new, date_text)}"


def _nested(record: Mapping[str, object] | None, list_name: str, item_id: str) -> Mapping[str, Any] | None:
    items = (record or {}).get(list_name)
    if not isinstance(items, list):
        return None
    for item in items:
        if isinstance(item, dict) and any(str(v) == item_id for k, v in item.items() if k.endswith("Id")):
            return item
    return None


def _where(nested: Mapping[str, Any] | None, date_text: DateText) -> str:
    if not nested:
        return ""
    name = nested.get("city") or nested.get("title") or nested.get("venue")
    start = _day(nested.get("startDate"))
    parts = [_clip(str(name))] if isinstance(name, str) else []
    if start:
        parts.append(date_text(start))
    return ", ".join(parts)


def _summary(value: object, date_text: DateText) -> str:
    """``records.diff``'s summary of a nested record (``Dallas, 2027-03-09``) with its day in words."""
    text = _clip(str(value))
    head, _, tail = text.rpartition(", ")
    day = _day(tail) if head else None
    return f"{head}, {date_text(day)}" if day else text


def _value(name: str, value: object, date_text: DateText) -> str:
    if value is None:
        return "(none)"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if name == "fee" or name.endswith("Fee"):
        number = _number(value)
        if number is not None:
            return f"{number:,}"
    if isinstance(value, str) and name.endswith("Date"):
        day = _day(value)
        if day:
            return date_text(day) + _time(value)
    return _clip(str(value))


def _time(value: str) -> str:
    """`` 8:30`` when an ISO text carries a time of day other than midnight."""
    try:
        moment = datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return ""
    if "T" not in value or (moment.hour, moment.minute) == (0, 0):
        return ""
    return f" {moment.hour}:{moment.minute:02d}"


def _day(value: object) -> date | None:
    if not isinstance(value, str) or len(value) < 10:
        return None
    try:
        return date.fromisoformat(value[:10])
    except ValueError:
        return None


def _number(value: object) -> Decimal | None:
    if isinstance(value, bool) or value is None:
        return None
    try:
        number = Decimal(str(value))
    except InvalidOperation:
        return None
    return number if number.is_finite() else None


def _clip(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _LIMIT else text[: _LIMIT - 1] + "…"
