"""The values a query writes: numbers, yes/no, dates and windows of time.

Dates are written as people write them too: month names (``march``: the coming March, this one
while it lasts; ``"march 2027"``, ``mar-2027``, ``2027-march``) and quarters (``2027-Q1``,
``q1-2027``, ``this-quarter``, ``next-quarter``, ``last-quarter``).

Parsing checks them when the query is typed (``'2027-13': month must be 1-12``); dates relative to
now are resolved when the query runs (``DateSpec.bounds``). Calendar dates compare with the date the
service wrote for the event, in the event's own UTC offset ("local"); windows such as ``next30d``,
``past`` and ``future`` compare exact instants with now ("instant").
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation

_NUMBER = re.compile(r"[$€£]?\s*([+-]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?)")
_YMD = re.compile(r"(\d{4})(?:-(\d{1,2})(?:-(\d{1,2}))?)?")
_WINDOW = re.compile(r"(next|last)(\d{1,4})(d|w|m|y)")
TRUE_WORDS = ("yes", "true", "y", "1")
FALSE_WORDS = ("no", "false", "n", "0")
CALENDAR_WORDS = (
    "today",
    "tomorrow",
    "yesterday",
    "this-week",
    "next-week",
    "last-week",
    "this-month",
    "next-month",
    "last-month",
    "this-year",
    "next-year",
    "last-year",
    "this-quarter",
    "next-quarter",
    "last-quarter",
)
_MONTHS = {
    name: number
    for number in range(1, 13)
    for name in {calendar.month_name[number].lower(), calendar.month_abbr[number].lower()}
} | {"sept": 9}
_MONTH_NAME = "(" + "|".join(sorted(_MONTHS, key=len, reverse=True)) + ")"
_MONTH_YEAR = re.compile(rf"{_MONTH_NAME}(?:[ -](\d{{4}}))?")  # march, mar-2027, "march 2027"
_YEAR_MONTH = re.compile(rf"(\d{{4}})-{_MONTH_NAME}")  # 2027-march
_QUARTER = re.compile(r"(?:(\d{4})-q([1-4])|q([1-4])-(\d{4}))")  # 2027-q1, q1-2027
_UNITS = {"d": "days", "w": "weeks", "m": "months", "y": "years"}


class LiteralError(ValueError):
    """A value that cannot be what its field takes; the message says what would be."""


def number(text: str) -> int | Decimal:
    """``300``, ``1,300``, ``$1,300``, ``99.50``."""
    match = _NUMBER.fullmatch(text.strip())
    if not match:
        raise LiteralError(f"'{text}' is not a number")
    digits = match.group(1).replace(",", "")
    if "." in digits:
        try:
            return Decimal(digits)
        except InvalidOperation:  # pragma: no cover - the pattern admits only valid decimals
            raise LiteralError(f"'{text}' is not a number") from None
    return int(digits)


def boolean(text: str) -> bool:
    word = text.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise LiteralError(f"'{text}': write yes or no")


def is_date_word(text: str) -> bool:
    """A bare word that means a date (``today``, ``next30d``, ``past``, ``2027-03``)."""
    word = text.lower()
    if word in CALENDAR_WORDS or word in ("past", "future") or _WINDOW.fullmatch(word):
        return True
    if _QUARTER.fullmatch(word) or _YEAR_MONTH.fullmatch(word):
        return True
    month = _MONTH_YEAR.fullmatch(word)
    if month and month.group(2) and "-" in word:  # mar-2027 (a month alone may be a word: may)
        return True
    return bool(_YMD.fullmatch(word)) and "-" in word


@dataclass(frozen=True)
class Bounds:
    """An inclusive range of day ordinals (``local``) or epoch milliseconds (``instant``); None
    for an open end."""

    mode: str
    lo: int | None
    hi: int | None


@dataclass(frozen=True)
class DateSpec:
    """One date value as written: a calendar date, month or year, or a window relative to now."""

    text: str

    def bounds(self, now: datetime) -> Bounds:
        """The days or instants it covers, ``now`` being an aware date-time in the viewer's zone."""
        word = self.text.lower()
        today = now.date()
        if word in ("past", "future"):
            ms = epoch_ms(now)
            return Bounds("instant", None, ms - 1) if word == "past" else Bounds("instant", ms, None)
        if word == "now":
            ms = epoch_ms(now)
            return Bounds("instant", ms, ms)
        window = _WINDOW.fullmatch(word)
        if window:
            step, count, unit = window.groups()
            other = shift(now, int(count) * (1 if step == "next" else -1), unit)
            a, b = sorted((epoch_ms(now), epoch_ms(other)))
            return Bounds("instant", a, b)
        if word in CALENDAR_WORDS:
            first, last = _calendar_range(word, today)
            return Bounds("local", first.toordinal(), last.toordinal())
        named = _named_range(word, today)
        first, last = named if named is not None else _ymd_range(self.text)
        return Bounds("local", first.toordinal(), last.toordinal())


def date_spec(text: str) -> DateSpec:
    """Check a date value; raises ``LiteralError`` naming what is wrong."""
    word = text.strip().lower()
    if word in CALENDAR_WORDS or word in ("past", "future", "now"):
        return DateSpec(word)
    window = _WINDOW.fullmatch(word)
    if window:
        if int(window.group(2)) == 0:
            raise LiteralError(f"'{text}': the number of {_UNITS[window.group(3)]} must be 1 or more")
        return DateSpec(word)
    word = " ".join(word.split())
    if _named_range(word, date.today()) is not None:
        return DateSpec(word)
    _ymd_range(word)
    return DateSpec(word)


def _named_range(word: str, today: date) -> tuple[date, date] | None:
    """The days of a month named in words or of a quarter (None: neither)."""
    quarter = _QUARTER.fullmatch(word)
    if quarter:
        year, q = (quarter.group(1), quarter.group(2)) if quarter.group(1) else quarter.group(4, 3)
        return _quarter_range(int(year), int(q))
    by_year = _YEAR_MONTH.fullmatch(word)
    named = _MONTH_YEAR.fullmatch(word)
    if by_year:
        year, month = int(by_year.group(1)), _MONTHS[by_year.group(2)]
    elif named:
        month = _MONTHS[named.group(1)]
        year = int(named.group(2)) if named.group(2) else today.year + (month < today.month)
    else:
        return None
    if not 1 <= year <= 9999:
        raise LiteralError(f"'{word}': year must be 1-9999")
    return date(year, month, 1), date(year, month, calendar.monthrange(year, month)[1])


def _quarter_range(year: int, quarter: int) -> tuple[date, date]:
    if not 1 <= year <= 9999:
        raise LiteralError(f"year must be 1-9999 in Q{quarter} {year}")
    first_month = 3 * (quarter - 1) + 1
    last_month = first_month + 2
    return date(year, first_month, 1), date(year, last_month, calendar.monthrange(year, last_month)[1])


def _ymd_range(text: str) -> tuple[date, date]:
    match = _YMD.fullmatch(text)
    if not match:
        raise LiteralError(
            f"'{text}' is not a date: write 2027, 2027-03, 2027-03-15, march, mar-2027, 2027-Q1, "
            "or a window such as today, this-month, this-quarter, next30d, past"
        )
    year, month, day = (int(g) if g else None for g in match.groups())
    assert year is not None
    if not 1 <= year <= 9999:
        raise LiteralError(f"'{text}': year must be 1-9999")
    if month is None:
        return date(year, 1, 1), date(year, 12, 31)
    if not 1 <= month <= 12:
        raise LiteralError(f"'{text}': month must be 1-12")
    days = calendar.monthrange(year, month)[1]
    if day is None:
        return date(year, month, 1), date(year, month, days)
    if not 1 <= day <= days:
        name = calendar.month_name[month]
        raise LiteralError(f"'{text}': day must be 1-{days} in {name} {year}")
    return date(year, month, day), date(year, month, day)


def _calendar_range(word: str, today: date) -> tuple[date, date]:
    if word in ("today", "tomorrow", "yesterday"):
        day = today + timedelta(days={"today": 0, "tomorrow": 1, "yesterday": -1}[word])
        return day, day
    step = {"this": 0, "next": 1, "last": -1}[word.split("-")[0]]
    unit = word.split("-")[1]
    if unit == "quarter":
        index = today.year * 4 + (today.month - 1) // 3 + step
        return _quarter_range(index // 4, index % 4 + 1)
    if unit == "week":  # weeks start on Monday (ISO 8601)
        monday = today - timedelta(days=today.weekday()) + timedelta(weeks=step)
        return monday, monday + timedelta(days=6)
    if unit == "month":
        index = today.year * 12 + today.month - 1 + step
        year, month = divmod(index, 12)
        return date(year, month + 1, 1), date(year, month + 1, calendar.monthrange(year, month + 1)[1])
    year = today.year + step
    return date(year, 1, 1), date(year, 12, 31)


def shift(moment: datetime, count: int, unit: str) -> datetime:
    """``moment`` moved by ``count`` days, weeks, months or years (a month keeps its day where it
    can: 31 January + 1 month is 28 or 29 February)."""
    if unit == "d":
        return moment + timedelta(days=count)
    if unit == "w":
        return moment + timedelta(weeks=count)
    months = count * (12 if unit == "y" else 1)
    index = moment.year * 12 + moment.month - 1 + months
    year, month = divmod(index, 12)
    year = min(max(year, 1), 9999)
    day = min(moment.day, calendar.monthrange(year, month + 1)[1])
    return moment.replace(year=year, month=month + 1, day=day)


def epoch_ms(moment: datetime) -> int:
    return int(moment.timestamp() * 1000)


def local_day_bounds_ms(first_ordinal: int, last_ordinal: int, now: datetime) -> tuple[int, int]:
    """The instants of days ``first..last`` in the viewer's zone (``now``'s offset)."""
    zone = now.tzinfo
    start = datetime.combine(date.fromordinal(first_ordinal), datetime.min.time(), zone)
    end = datetime.combine(date.fromordinal(last_ordinal) + timedelta(days=1), datetime.min.time(), zone)
    return epoch_ms(start), epoch_ms(end) - 1
