"""How a day and a time of day are written for people, one way everywhere: tables, details,
schedules, offers, the offer log and the command line. Qt-free: the window builds a ``TimeText``
from its locale (``ui.common.times.time_text``: the locale's patterns, month and day names, AM/PM
words); the default is US English, as the window's default locale.

Two forms: ``short`` ("12/3/26 1:00 PM") for a cell, ``long`` ("Thursday, December 3, 2026
1:00 PM") for a page or a customer. Which zone a moment is shown in, and its label, is the
caller's (``ui.common.times``, ``core.records.zones``): this writes the moment as it is given.

Patterns are Qt's (``QLocale.dateFormat``/``timeFormat``): d dd ddd dddd, M MM MMM MMMM, yy yyyy,
h hh H HH, m mm, s ss, AP ap Ap A a, 't' (a zone: left out, the caller writes it), 'quoted text'.
"""

from __future__ import annotations

import re
from datetime import date, datetime, time
from typing import NamedTuple

__all__ = ["US_ENGLISH", "TimeText"]

_MONTHS = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)  # fmt: skip
_DAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")
_SHORT_MONTHS = tuple(m[:3] for m in _MONTHS)
_SHORT_DAYS = tuple(d[:3] for d in _DAYS)
_TOKEN = re.compile(
    r"'(?:[^']|'')*'|d{1,4}|M{1,4}|y{4}|y{2}|h{1,2}|H{1,2}|m{1,2}|s{1,2}|AP|Ap|ap|aP|A|a|t+|.", re.S
)


class TimeText(NamedTuple):
    """A locale's way of writing days and times (US English unless given). A named tuple, not a
    dataclass: a dataclass is compiled at every start (docs/decisions.md)."""

    short_date: str = "M/d/yy"
    long_date: str = "dddd, MMMM d, yyyy"
    clock_pattern: str = "h:mm AP"
    months: tuple[str, ...] = _MONTHS  # January first
    short_months: tuple[str, ...] = _SHORT_MONTHS
    days: tuple[str, ...] = _DAYS  # Monday first
    short_days: tuple[str, ...] = _SHORT_DAYS
    am: str = "AM"
    pm: str = "PM"

    @property
    def hour12(self) -> bool:
        """Whether times are written with AM/PM ("1:00 PM", not "13:00")."""
        return any(t[0] in "aA" for t in _TOKEN.findall(self.clock_pattern) if t[0] != "'")

    def day(self, moment: date, *, long: bool = False) -> str:
        """The day alone: "12/3/26", or long "Thursday, December 3, 2026"."""
        return self._write(self.long_date if long else self.short_date, moment, None)

    def clock(self, moment: datetime | time) -> str:
        """The time of day: "1:00 PM" or "13:00"."""
        return self._write(self.clock_pattern, None, moment)

    def short(self, moment: datetime) -> str:
        """ "12/3/26 1:00 PM" (a table's cell)."""
        return f"{self.day(moment)} {self.clock(moment)}"

    def long(self, moment: datetime) -> str:
        """ "Thursday, December 3, 2026 1:00 PM" (a page, an offer)."""
        return f"{self.day(moment, long=True)} {self.clock(moment)}"

    def clock_of(self, text: str | None) -> str | None:
        """A wall-clock time as a service writes it ("08:30", "13:15:00") in this clock ("8:30
        AM"); the text itself when it is not one, None for none."""
        if text is None:
            return None
        try:
            return self.clock(time.fromisoformat(text.strip()))
        except ValueError:
            return text

    def _write(self, pattern: str, day: date | None, clock: datetime | time | None) -> str:
        out = []
        for token in _TOKEN.findall(pattern):
            head = token[0]
            if head == "'":
                out.append(token[1:-1].replace("''", "'") if len(token) > 2 else "'")
            elif head in "dMy":
                out.append(self._date_part(token, day) if day is not None else "")
            elif head in "hHmsAat":
                out.append(self._clock_part(token, clock) if clock is not None else "")
            else:
                out.append(token)
        return "".join(out).strip()

    def _date_part(self, token: str, day: date) -> str:
        n = len(token)
        if token[0] == "d":
            weekday = day.weekday()
            return (str(day.day), f"{day.day:02d}", self.short_days[weekday], self.days[weekday])[n - 1]
        if token[0] == "M":
            month = day.month - 1
            return (str(day.month), f"{day.month:02d}", self.short_months[month], self.months[month])[n - 1]
        return f"{day.year % 100:02d}" if n == 2 else f"{day.year:04d}"

    def _clock_part(self, token: str, clock: datetime | time) -> str:
        head, two = token[0], len(token) == 2
        if head == "t":
            return ""  # the zone: the caller writes it
        if head in "hHms":
            number = {"h": clock.hour % 12 or 12, "H": clock.hour, "m": clock.minute, "s": clock.second}[head]
            return f"{number:02d}" if two else str(number)
        word = self.am if clock.hour < 12 else self.pm
        if token in ("AP", "A"):
            return word.upper()
        return word.lower() if token in ("ap", "a") else word


US_ENGLISH = TimeText()  # the default: the window's on an unconfigured system, the command line's
