"""When: the dates words name ("in March", "next week", "Q3", "early fall", "between May 3 and
10", "ending by June", "this weekend")."""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from datetime import date

from catalogue_desktop.core.query.rules.tokens import Context, Match, Token, has, longest_at, phrase_table

MONTHS = {
    name: number
    for number in range(1, 13)
    for name in {calendar.month_name[number].lower(), calendar.month_abbr[number].lower()}
} | {"sept": 9}
_QUARTER = re.compile(r"q([1-4])")
_ORDINAL = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_SEASONS = {"spring": (3, 5), "summer": (6, 8), "fall": (9, 11), "autumn": (9, 11), "winter": (12, 2)}
NUMBER_WORDS = {
    w: n
    for n, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        ]
    )
} | {
    "a": 1,
    "couple": 2,
    "few": 3,
    "fourteen": 14,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "sixty": 60,
    "ninety": 90,
}
_RELATIVE = phrase_table(
    {
        "today": ("today", "tonight", "todays"),
        "tomorrow": ("tomorrow", "tomorrows"),
        "this-week": ("this week", "current week", "this weeks"),
        "next-week": ("next week", "coming week", "next weeks", "this coming week", "the coming week"),
        "last-week": ("last week",),
        "this-month": ("this month", "current month"),
        "next-month": ("next month", "coming month", "next months", "this coming month"),
        "last-month": ("last month",),
        "this-quarter": ("this quarter", "current quarter"),
        "next-quarter": ("next quarter", "coming quarter"),
        "last-quarter": ("last quarter",),
        "this-year": ("this year", "current year"),
        "next-year": ("next year", "coming year"),
        "last-year": ("last year",),
        "future": ("upcoming", "coming up", "future"),
        "next30d": ("soon", "coming soon"),
    }
)
_RELATIVE_LABEL = {"future": "upcoming", "next30d": "in the next 30 days"}
_UNIT = {
    "day": "d",
    "days": "d",
    "week": "w",
    "weeks": "w",
    "month": "m",
    "months": "m",
    "year": "y",
    "years": "y",
}
RANGE_START = frozenset({"between", "from"})
RANGE_JOIN = frozenset({"and", "to", "through", "thru", "until", "till"})


def year_of(tok: Token | None) -> int | None:
    if tok is not None and tok.key.isdigit() and len(tok.key) == 4 and 2000 <= int(tok.key) <= 2099:
        return int(tok.key)
    return None


def _month_at(toks: Sequence[Token], i: int, today: date) -> tuple[int, int, int, bool] | None:
    """(tokens used, year, month, whether a year was written) of a month named at ``i``."""
    if i >= len(toks) or toks[i].key not in MONTHS:
        return None
    month = MONTHS[toks[i].key]
    j = i + 1
    if j < len(toks) and toks[j].key == "of" and year_of(toks[j + 1] if j + 1 < len(toks) else None):
        j += 1
    year = year_of(toks[j] if j < len(toks) else None)
    if year is None and j < len(toks) and re.fullmatch(r"'\d\d", toks[j].raw):  # mar '27
        year = 2000 + int(toks[j].raw[1:])
    if year is not None:
        return j + 1 - i, year, month, True
    return 1, today.year + (month < today.month), month, False


def _month_text(year: int, month: int) -> str:
    return f"{year:04d}-{month:02d}"


_ENDING = frozenset({"ending", "ends", "finishing", "finishes", "wrapping", "concluding"})


def when(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    if not has(ctx, "starts"):
        return []
    if toks[i].key in _ENDING and has(ctx, "ends"):  # "ending in march": the end date
        j = i + 1 + (i + 1 < len(toks) and toks[i + 1].key in ("in", "on", "by", "before", "after"))
        lead = toks[i + 1].key in ("by", "before", "after") if i + 1 < len(toks) else False
        found = when(toks, j - lead, ctx) if j - lead < len(toks) else []
        return [
            Match(
                m.size + j - lead - i,
                "condition",
                "ends:" + m.clause.removeprefix("starts:"),
                f"ending {m.label}",
            )
            for m in found
            if m.clause.startswith("starts:")
        ]
    today = ctx.now.date()
    out: list[Match] = []
    rel = longest_at(_RELATIVE, toks, i)
    if rel is not None:
        size, word = rel
        clause = word if word == "future" else f"starts:{word}"
        out.append(Match(size, "condition", clause, _RELATIVE_LABEL.get(word, word.replace("-", " "))))
    out += _window(toks, i)
    month = _month_at(toks, i, today)
    if month is not None:
        size, year, m, _ = month
        out.append(
            Match(size, "condition", f"starts:{_month_text(year, m)}", f"{calendar.month_name[m]} {year}")
        )
        out += _month_range(toks, i, i + size, year, m, month[3], today)
    if toks[i].key in RANGE_START:
        begin = _month_at(toks, i + 1, today)
        if begin is not None:
            out += _month_range(toks, i, i + 1 + begin[0], begin[1], begin[2], begin[3], today)
    bare = year_of(toks[i])
    if bare is not None:
        out.append(Match(1, "condition", f"starts:{bare}", str(bare)))
        quarter = _QUARTER.fullmatch(toks[i + 1].key) if i + 1 < len(toks) else None
        if quarter:
            q = int(quarter.group(1))
            out.append(Match(2, "condition", f"starts:{bare}-Q{q}", f"Q{q} {bare}"))
    out += _quarter(toks, i, today)
    out += _season(toks, i, today)
    out += _open_range(toks, i, today)
    out += _part(toks, i, today)
    out += _until(toks, i, today)
    out += _day(toks, i, today)
    out += _joined_dates(toks, i, today)
    out += _weekday(toks, i, today)
    out += _weekend(toks, i, today)
    return out


_BY_WORDS = frozenset({"by", "before", "until", "till", "til", "thru", "through"})
_ENDS = phrase_table(
    {
        "12-31": (
            "year end,yearend,eoy",
            "end of year",
            "end of the year",
            "the end of the year",
            "new year,new years",
            "the new year",
            "the holidays,holidays",
        ),
        "12-24": ("christmas,xmas",),
        "month": ("month end", "end of month", "end of the month", "the end of the month", "eom"),
        "quarter": ("quarter end", "end of quarter", "end of the quarter", "the end of the quarter", "eoq"),
    }
)


_REST = phrase_table(
    {
        "12-31": ("rest of the year", "rest of this year", "remainder of the year", "rest of year"),
        "month": ("rest of the month", "rest of this month", "remainder of the month"),
        "quarter": ("rest of the quarter", "rest of this quarter"),
    }
)


def _until(toks: Sequence[Token], i: int, today: date) -> list[Match]:
    """``by year end``, ``before christmas``, ``by the end of the month``, ``rest of the year``:
    from today to then."""
    rest = longest_at(_REST, toks, i)
    if rest is not None:
        found: tuple[int, str] | None = (rest[0] - 1, rest[1])
    elif toks[i].key in _BY_WORDS:
        found = longest_at(_ENDS, toks, i + 1)
    else:
        return []
    if found is None:
        return []
    size, end = found
    if end == "month":
        last = date(today.year, today.month, calendar.monthrange(today.year, today.month)[1])
    elif end == "quarter":
        q_last = ((today.month - 1) // 3 + 1) * 3
        last = date(today.year, q_last, calendar.monthrange(today.year, q_last)[1])
    else:
        month, day = map(int, end.split("-"))
        last = date(today.year, month, day)
        if last < today:
            last = date(today.year + 1, month, day)
    label = f"from today to {last:%B} {last.day}, {last.year}"
    return [Match(size + 1, "condition", f"starts:{today.isoformat()}..{last.isoformat()}", label, rank=-1)]


_DAY = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?")


def _day_of(tok: Token | None) -> int | None:
    match = _DAY.fullmatch(tok.key) if tok is not None else None
    return int(match.group(1)) if match and 1 <= int(match.group(1)) <= 31 else None


def _day(toks: Sequence[Token], i: int, today: date) -> list[Match]:
    """A day: ``march 3rd``, ``march 3``, ``mar 3 2027``, ``3rd of march``, ``the 3rd of march``."""
    if i >= len(toks):
        return []
    j = i + (toks[i].key == "the")
    day = _day_of(toks[j]) if j < len(toks) else None
    if day is not None and (j > i or toks[j].key != str(day)):
        k = j + 1 + (j + 1 < len(toks) and toks[j + 1].key == "of")
        month = _month_at(toks, k, today)
        if month is None:
            return []
        size, year, m, _ = month
        end = k + size
    else:
        month = _month_at(toks, i, today)
        if month is None or month[3]:
            return []
        day = _day_of(toks[i + 1] if i + 1 < len(toks) else None)
        if day is None:
            return []
        _, year, m, _ = month
        end = i + 2
        written = year_of(toks[end] if end < len(toks) else None)
        if written is not None:
            year, end = written, end + 1
        elif (year, m, day) < (today.year, today.month, today.day):
            year += 1
    if day > calendar.monthrange(year, m)[1]:
        return []
    found = date(year, m, day)
    out = [Match(end - i, "condition", f"starts:{found.isoformat()}", f"{found:%B} {day}, {year}")]
    if end < len(toks) and toks[end].key in RANGE_JOIN and not (i > 0 and toks[i - 1].key in _BY_WORDS):
        second = _day(toks, end + 1, today) or _joined_dates(toks, end + 1, today)
        if second and second[0].clause.count("-") == 2 and ".." not in second[0].clause:
            hi = second[0].clause.removeprefix("starts:")
            span = f"starts:{found.isoformat()}..{hi}"
            out.append(
                Match(end + 1 + second[0].size - i, "condition", span, f"{out[0].label} to {second[0].label}")
            )
    return out


def _joined_dates(toks: Sequence[Token], i: int, today: date) -> list[Match]:
    """One typed word of two dates: ``jan-mar`` (the months from one to the other), ``q1-q2``,
    ``12/2026`` and ``3/2027`` (a month of a year)."""
    if i + 1 >= len(toks) or toks[i + 1].word != toks[i].word:
        return []
    a, b = toks[i].key, toks[i + 1].key
    if a.isdigit() and b.isdigit() and 1 <= int(a) <= 12 and 1 <= int(b) <= 31 and len(b) <= 2:
        month, day = int(a), int(b)  # 3/15: a day (the coming one)
        year = today.year + ((month, day) < (today.month, today.day))
        if day <= calendar.monthrange(year, month)[1]:
            found = date(year, month, day)
            out = [Match(2, "condition", f"starts:{found.isoformat()}", f"{found:%B} {day}, {year}", rank=-1)]
            if i + 2 < len(toks) and toks[i + 2].key in RANGE_JOIN:
                second = _joined_dates(toks, i + 3, today)
                if second and ".." not in second[0].clause and second[0].clause.count("-") == 2:
                    span = f"starts:{found.isoformat()}..{second[0].clause.removeprefix('starts:')}"
                    out.append(
                        Match(
                            3 + second[0].size,
                            "condition",
                            span,
                            f"{out[0].label} to {second[0].label}",
                            rank=-1,
                        )
                    )
            return out
    if a.isdigit() and 1 <= int(a) <= 12 and year_of(toks[i + 1]) is not None:
        month = int(a)
        return [
            Match(
                2,
                "condition",
                f"starts:{_month_text(int(b), month)}",
                f"{calendar.month_name[month]} {b}",
                rank=-1,
            )
        ]
    one, two = _month_at(toks, i, today), _month_at(toks, i + 1, today)
    if one is not None and two is not None and one[0] == 1:
        y1, m1 = one[1], one[2]
        y2 = two[1] if two[3] else y1 + (two[2] < m1)
        span = f"starts:{_month_text(y1, m1)}..{_month_text(y2, two[2])}"
        return [
            Match(
                1 + two[0],
                "condition",
                span,
                f"{calendar.month_name[m1]} to {calendar.month_name[two[2]]}",
                rank=-1,
            )
        ]
    q1, q2 = _QUARTER.fullmatch(a), _QUARTER.fullmatch(b)
    if q1 and q2:
        given = year_of(toks[i + 2]) if i + 2 < len(toks) else None
        lo, hi = _quarter(toks, i, today), _quarter(toks, i + 1, today)
        if given is not None:
            lo_text, hi_text = f"{given}-Q{q1.group(1)}", f"{given}-Q{q2.group(1)}"
        else:
            lo_text, hi_text = lo[0].clause.removeprefix("starts:"), hi[0].clause.removeprefix("starts:")
            if hi_text < lo_text:
                hi_text = f"{int(lo_text[:4]) + (q2.group(1) < q1.group(1))}-Q{q2.group(1)}"
        size = 2 + (given is not None)
        return [Match(size, "condition", f"starts:{lo_text}..{hi_text}", f"{lo_text} to {hi_text}", rank=-1)]
    return []


_WEEKDAYS = {
    name: number
    for number in range(7)
    for name in (
        calendar.day_name[number].lower(),
        calendar.day_abbr[number].lower(),
        calendar.day_name[number].lower() + "s",
    )
} | {"tues": 1, "thur": 3, "thurs": 3, "weds": 2}


def _weekday(toks: Sequence[Token], i: int, today: date) -> list[Match]:
    """``tuesday``, ``this tuesday``, ``next tuesday``: the coming one (a week on when it is today
    and "next" was said)."""
    lead = toks[i].key in ("this", "next", "coming") and i + 1 < len(toks)
    at = i + lead
    day = _WEEKDAYS.get(toks[at].key)
    if day is None:
        return []
    ahead = (day - today.weekday()) % 7
    if ahead == 0 and toks[i].key == "next":
        ahead = 7
    found = date.fromordinal(today.toordinal() + ahead)
    return [Match(at + 1 - i, "condition", f"starts:{found.isoformat()}", f"{found:%A, %B} {found.day}")]


def _weekend(toks: Sequence[Token], i: int, today: date) -> list[Match]:
    """``this weekend`` (the coming Saturday and Sunday; this one while it lasts), ``next
    weekend`` (the one after)."""
    if i + 1 >= len(toks) or toks[i + 1].key not in ("weekend", "weekends"):
        return []
    key = toks[i].key
    if key not in ("this", "next", "coming"):
        return []
    saturday = date.fromordinal(today.toordinal() + (5 - today.weekday()) % 7)
    if today.weekday() == 6:  # a Sunday: this weekend is today
        saturday = date.fromordinal(today.toordinal() - 1)
    if key == "next":
        saturday = date.fromordinal(saturday.toordinal() + 7)
    sunday = date.fromordinal(saturday.toordinal() + 1)
    return [Match(2, "condition", f"starts:{saturday.isoformat()}..{sunday.isoformat()}", f"{key} weekend")]


# Parts of a year, season, quarter or month: early = the first half, mid = the middle half, late
# (end of) = the second half; of a season or quarter (three months): its first, middle, last month.
_PART = phrase_table(
    {
        "early": (
            "early,earlyish",
            "early in",
            "beginning of",
            "beginning",
            "start of",
            "first half of",
            "first half",
            "1st half of",
            "1st half",
            "first part of",
            "h1",
        ),
        "mid": ("mid,middle,midyear", "middle of", "mid of", "midway through", "mid year"),
        "late": (
            "late,later,lateish",
            "late in",
            "later in",
            "end of",
            "second half of",
            "second half",
            "2nd half of",
            "2nd half",
            "latter half of",
            "last part of",
            "towards the end of",
            "toward the end of",
            "h2",
        ),
    }
)
_HALF_ALONE = frozenset(
    {("first", "half"), ("second", "half"), ("1st", "half"), ("2nd", "half"), ("h1",), ("h2",)}
)
_PART_LABEL = {"early": "early", "mid": "mid", "late": "late"}


def _span_at(toks: Sequence[Token], j: int, today: date) -> tuple[int, str, int, int, int] | None:
    """What a part is of, at ``j``: (tokens used, "year"/"month"/"months", year, first month,
    last month) of a year, "this year", a month [year], a season [year] or a quarter [year]."""
    if j >= len(toks):
        return None
    key = toks[j].key
    year = year_of(toks[j])
    if year is not None:
        return 1, "year", year, 1, 12
    if key == "year" or (key == "the" and j + 1 < len(toks) and toks[j + 1].key == "year"):
        return 1 + (key == "the"), "year", today.year, 1, 12
    if key in ("this", "next", "coming") and j + 1 < len(toks) and toks[j + 1].key in ("year", "month"):
        if toks[j + 1].key == "year":
            return 2, "year", today.year + (key != "this"), 1, 12
        y, m0 = divmod(today.year * 12 + today.month - 1 + (key != "this"), 12)
        return 2, "month", y, m0 + 1, m0 + 1
    month = _month_at(toks, j, today)
    if month is not None:
        return month[0], "month", month[1], month[2], month[2]
    for found in _season(toks, j, today) + _quarter(toks, j, today):
        lo, _, hi = found.clause.removeprefix("starts:").partition("..")
        if not hi:  # a quarter: 2027-Q1
            year_text, quarter_text = lo.split("-Q")
            first = (int(quarter_text) - 1) * 3 + 1
            return found.size, "months", int(year_text), first, first + 2
        (y1, m1), (y2, m2) = (map(int, lo.split("-")), map(int, hi.split("-")))
        return found.size, "months", y1, m1, m1 + (y2 - y1) * 12 + m2 - m1
    return None


def _part(toks: Sequence[Token], i: int, today: date) -> list[Match]:
    """``early 2027``, ``end of january``, ``late spring``, ``first half of 2027``, ``mid march``,
    ``second half`` (of this year; next year's when this one's is over)."""
    lead = longest_at(_PART, toks, i)
    if lead is None:
        return []
    size, part = lead
    j = i + size
    if j < len(toks) and toks[j].key in ("of", "in", "the") and toks[j - 1].key not in ("of", "in"):
        j += 1 + (j + 1 < len(toks) and toks[j + 1].key == "the")
    span = _span_at(toks, j, today)
    if span is None:
        if tuple(t.key for t in toks[i : i + size]) not in _HALF_ALONE:
            return []
        year = today.year + (part == "early" and today.month > 6)
        span, j = (0, "year", year, 1, 12), i + size
    used, what, year, first, last = span
    if what == "month":
        end_day = calendar.monthrange(year, first)[1]
        days = {"early": (1, 15), "mid": (8, 22), "late": (16, end_day)}[part]
        lo = f"{_month_text(year, first)}-{days[0]:02d}"
        hi = f"{_month_text(year, first)}-{days[1]:02d}"
        label = f"{part} {calendar.month_name[first]} {year}"
    else:
        length = last - first + 1
        if what == "year":
            a, b = {"early": (0, 5), "mid": (3, 8), "late": (6, 11)}[part]
        else:
            a, b = {"early": (0, 0), "mid": (length // 2, length // 2), "late": (length - 1, length - 1)}[
                part
            ]
        y1, m1 = divmod(year * 12 + first - 1 + a, 12)
        y2, m2 = divmod(year * 12 + first - 1 + b, 12)
        lo, hi = _month_text(y1, m1 + 1), _month_text(y2, m2 + 1)
        label = (
            f"{part} {year}" if what == "year" else f"{part} {' '.join(t.raw for t in toks[j : j + used])}"
        )
    return [Match(j + used - i, "condition", f"starts:{lo}..{hi}", label, rank=-1)]


def _season(toks: Sequence[Token], i: int, today: date) -> list[Match]:
    """``summer``, ``summer 2027``, ``this fall``, ``next spring``: its months."""
    lead = toks[i].key in ("this", "next", "coming") and i + 1 < len(toks)
    at = i + 1 if lead else i
    season = _SEASONS.get(toks[at].key)
    if season is None:
        return []
    given = year_of(toks[at + 1] if at + 1 < len(toks) else None)
    first, last = season
    wraps = first > last
    y = given if given is not None else today.year + (today.month > last if wraps else last < today.month)
    lo_year = y - 1 if first > last else y
    span = f"starts:{_month_text(lo_year, first)}..{_month_text(y, last)}"
    size = at - i + 1 + (given is not None)
    return [Match(size, "condition", span, f"{toks[at].key} {y}")]


_AFTER_WORDS = frozenset({"after", "since", "starting", "from"})
_BEFORE_WORDS = frozenset({"before", "until", "till", "by"})


def _open_range(toks: Sequence[Token], i: int, today: date) -> list[Match]:
    """``after march``, ``since september`` (the last one), ``before june``: from or up to a month."""
    key = toks[i].key
    if key not in _AFTER_WORDS and key not in _BEFORE_WORDS:
        return []
    day = _day(toks, i + 1, today)
    if day:  # after march 15, before the 3rd of march
        at = day[0].clause.removeprefix("starts:")
        if key in _AFTER_WORDS:
            return [Match(day[0].size + 1, "condition", f"starts:{at}..", f"{key} {day[0].label}")]
        if key != "by":
            return [Match(day[0].size + 1, "condition", f"starts:..{at}", f"before {day[0].label}")]
    year = year_of(toks[i + 1]) if i + 1 < len(toks) else None
    if year is not None and (i + 2 >= len(toks) or toks[i + 2].key not in MONTHS):
        if key in _AFTER_WORDS:
            first_year = year + (key == "after")
            return [Match(2, "condition", f"starts:{first_year}..", f"{key} {year}")]
        if key != "by":
            return [Match(2, "condition", f"starts:..{year - 1}", f"before {year}")]
    month = _month_at(toks, i + 1, today)
    if month is None:
        return []
    size, year, m, written = month
    if key == "since" and not written:
        year = today.year - (m > today.month)
    name = f"{calendar.month_name[m]} {year}"
    if key in _AFTER_WORDS:
        start = m + 1 if key == "after" else m
        lo = _month_text(year + (start > 12), (start - 1) % 12 + 1)
        return [Match(size + 1, "condition", f"starts:{lo}..", f"{key} {name}")]
    if key == "by" and not written:
        return []  # "by" is more often a person's
    hi_year, hi = (year, m - 1) if m > 1 else (year - 1, 12)
    return [Match(size + 1, "condition", f"starts:..{_month_text(hi_year, hi)}", f"before {name}")]


def _month_range(
    toks: Sequence[Token], i: int, j: int, year: int, month: int, written: bool, today: date
) -> list[Match]:
    """``[between|from] M1 [Y] and|to|through M2 [Y]``: the months from M1 to M2 (M2 after M1)."""
    if j >= len(toks) or toks[j].key not in RANGE_JOIN:
        return []
    second = _month_at(toks, j + 1, today)
    if second is None:
        return []
    size, year2, month2, written2 = second
    if not written2:
        year2 = year + (month2 < month)
    if not written and written2:
        year = year2 - (month > month2)
    lo, hi = _month_text(year, month), _month_text(year2, month2)
    label = f"{calendar.month_name[month]} {year} to {calendar.month_name[month2]} {year2}"
    return [Match(j + 1 + size - i, "condition", f"starts:{lo}..{hi}", label)]


def _quarter(toks: Sequence[Token], i: int, today: date) -> list[Match]:
    key = toks[i].key
    quarter = _QUARTER.fullmatch(key)
    size = 1
    if quarter:
        q = int(quarter.group(1))
    elif key in _ORDINAL and i + 1 < len(toks) and toks[i + 1].key == "quarter":
        q, size = _ORDINAL[key], 2
    else:
        return []
    j = i + size
    if j < len(toks) and toks[j].key == "of" and year_of(toks[j + 1] if j + 1 < len(toks) else None):
        j += 1
    year = year_of(toks[j] if j < len(toks) else None)
    if year is not None:
        size = j + 1 - i
    else:
        year = today.year + (q < (today.month - 1) // 3 + 1)
    return [Match(size, "condition", f"starts:{year}-Q{q}", f"Q{q} {year}")]


def _window(toks: Sequence[Token], i: int) -> list[Match]:
    """``next 30 days``, ``next two weeks``, ``within 3 months``."""
    if toks[i].key not in ("next", "within", "coming", "in") or i + 2 >= len(toks):
        return []
    skip = toks[i + 2].key == "of" and i + 3 < len(toks)  # "next couple of weeks"
    count_key, unit_key = toks[i + 1].key, toks[i + 2 + skip].key
    count = int(count_key) if count_key.isdigit() else NUMBER_WORDS.get(count_key)
    unit = _UNIT.get(unit_key)
    if count is None or unit is None or not 0 < count < 10000:
        return []
    return [Match(3 + skip, "condition", f"starts:next{count}{unit}", f"next {count} {unit_key}")]
