"""How every date and time the window shows is written: one place for the zone and the label.

A moment is epoch milliseconds (UTC) and, when the service wrote one, the UTC offset (minutes) it
was written with. It is shown at that offset with the offset written out ("3/9/27 8:30 AM
UTC−05:00") or, when the user chose local time (``event_zones`` False) or the service gave no
offset, in the viewer's zone, labelled too ("3/9/27 2:30 PM CET (UTC+01:00)"): a time never goes
without its zone. Day and time are written as the locale writes them (12 or 24 hours, order).
``Formatter`` (``formatting``) calls these; nothing else formats a moment.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import QDateTime, QLocale, QTimeZone

from catalogue_desktop.core.formats.time_text import TimeText
from catalogue_desktop.core.records.zones import offset_label

__all__ = ["Moment", "at", "moment_of", "time_text", "utc_label"]

Moment = tuple[int, int | None]  # (epoch ms, UTC offset in minutes or None)


# UTC offset minutes as people read them ("UTC−05:00", "UTC+05:30"): one writer for the window,
# the offer sheet, the e-mail and the calendars.
utc_label = offset_label


def at(ms: int, offset: int | None, event_zones: bool, label: str | None = None) -> tuple[QDateTime, str]:
    """The moment as a QDateTime in the zone it is shown in, and that zone's label (``label``, a
    venue's zone's name such as "CDT", instead of the offset when given)."""
    if offset is not None and event_zones:
        written = QTimeZone.fromSecondsAheadOfUtc(offset * 60)
        return QDateTime.fromMSecsSinceEpoch(ms, written), label or utc_label(offset)
    local = QDateTime.fromMSecsSinceEpoch(ms)
    zone = utc_label(local.offsetFromUtc() // 60)
    abbreviation = local.timeZoneAbbreviation()
    if abbreviation and abbreviation != zone and not abbreviation.startswith(("UTC", "GMT+", "GMT-")):
        zone = f"{abbreviation} ({zone})"
    return local, zone


def time_text(locale: QLocale) -> TimeText:
    """The core's writer of days and times, as ``locale`` writes them (its short and long date,
    its clock, its month and day names): the one the window, the offers and the offer log use.
    The narrow no-break space newer locale data puts before "AM" is written as a space, one
    spacing in a cell, a mail and a printed sheet (whose fonts may lack it)."""
    short_, long_ = QLocale.FormatType.ShortFormat, QLocale.FormatType.LongFormat
    return TimeText(
        short_date=locale.dateFormat(short_),
        long_date=locale.dateFormat(long_),
        clock_pattern=locale.timeFormat(short_).replace("\u202f", " "),
        months=tuple(locale.monthName(m, long_) for m in range(1, 13)),
        short_months=tuple(locale.monthName(m, short_) for m in range(1, 13)),
        days=tuple(locale.dayName(d, long_) for d in range(1, 8)),
        short_days=tuple(locale.dayName(d, short_) for d in range(1, 8)),
        am=locale.amText(),
        pm=locale.pmText(),
    )


def _wall(dt: QDateTime) -> datetime | None:
    """The moment's wall clock (date and time of day as shown), without a zone; None past
    Python's years (1-9999), which Qt's dates still hold (then Qt writes it, see ``_beyond``)."""
    d, t = dt.date(), dt.time()
    try:
        return datetime(d.year(), d.month(), d.day(), t.hour(), t.minute(), t.second())
    except ValueError:
        return None


def _beyond(dt: QDateTime, form: QLocale.FormatType, *, with_time: bool = True) -> str:
    """A moment past Python's years, as the window's locale writes it (still total: a service's
    year 10000 is shown, never a crash)."""
    return QLocale().toString(dt if with_time else dt.date(), form)


def short(writer: TimeText, ms: int, offset: int | None, event_zones: bool, label: str | None = None) -> str:
    """ "3/9/27 8:30 AM UTC−05:00" (the locale's short date and time, then the zone)."""
    dt, zone = at(ms, offset, event_zones, label)
    wall = _wall(dt)
    text = _beyond(dt, QLocale.FormatType.ShortFormat) if wall is None else writer.short(wall)
    return f"{text} {zone}"


def long(writer: TimeText, ms: int, offset: int | None, event_zones: bool, label: str | None = None) -> str:
    """ "Wednesday, December 9, 2026 1:00 PM UTC−05:00"."""
    dt, zone = at(ms, offset, event_zones, label)
    wall = _wall(dt)
    text = _beyond(dt, QLocale.FormatType.LongFormat) if wall is None else writer.long(wall)
    return f"{text} {zone}"


def span(
    writer: TimeText,
    start: Moment,
    end: Moment,
    event_zones: bool,
    labels: tuple[str | None, str | None] = (None, None),
) -> str:
    """ "Friday, July 16, 2027 8:30 AM – 4:30 PM UTC−06:00": a span within one day says the day
    and zone once; else both ends whole ("Monday, December 14, 2026 8:30 AM UTC−06:00 – Tuesday,
    December 15, 2026 4:30 PM UTC−06:00")."""
    (first, zone), (last, last_zone) = at(*start, event_zones, labels[0]), at(*end, event_zones, labels[1])
    a, b = _wall(first), _wall(last)
    if a is None or b is None:  # (past Python's years: each end as ``long`` writes it)
        return (
            f"{long(writer, *start, event_zones, labels[0])} – {long(writer, *end, event_zones, labels[1])}"
        )
    if a.date() == b.date() and zone == last_zone:
        return f"{writer.long(a)} – {writer.clock(b)} {zone}"
    return f"{writer.long(a)} {zone} – {writer.long(b)} {last_zone}"


def day(writer: TimeText, ms: int, offset: int | None, event_zones: bool) -> str:
    """The day alone, in the locale's short form ("3/9/27"): for "recorded …"."""
    dt, _zone = at(ms, offset, event_zones)
    wall = _wall(dt)
    if wall is None:
        return _beyond(dt, QLocale.FormatType.ShortFormat, with_time=False)
    return writer.day(wall.date())


def moment_of(value: Any) -> Moment | None:
    """Epoch ms (an int), an aware datetime (its offset kept), or ISO text -> a moment; None
    for no value or one that is not a time."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, str):
        try:
            value = datetime.fromisoformat(value.strip().replace("Z", "+00:00"))
        except ValueError:
            return None
    if isinstance(value, datetime):
        if value.tzinfo is None:
            value = value.replace(tzinfo=UTC)
        delta = value.utcoffset()
        return int(value.timestamp() * 1000), None if delta is None else int(delta.total_seconds()) // 60
    try:
        return int(value), None
    except (TypeError, ValueError, OverflowError):
        return None
