"""Display text for row values and record fields: money, fee ranges, dates, booleans, codes.

One :class:`Formatter` per window, shared by the item models and the detail panes, so that a
locale or currency change shows everywhere. Money is a plain grouped number unless the user chose
a currency (the spec does not say which currency fees are in). Dates and times are written by
``common.times`` alone: in the event's own UTC offset with the offset written out ("3/9/27 8:30 AM
UTC−05:00"), or in the viewer's local time, labelled too (``event_zones`` False). A course time
whose written offset is not its venue's zone's on that day (``core.records.zones.check``) is
marked "⚠"; once the user chose how such times are read (``doubtful_times``: the first offer's
question, Preferences ▸ Offers), it is written as the offers write it, at the venue's clock
("9:30 AM CDT ⚠"), and its note says what the service wrote and what was chosen.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from typing import Any, NamedTuple

from PySide6.QtCore import QLocale

from catalogue_desktop.core.formats.drawn_text import drawn
from catalogue_desktop.core.formats.numbers import is_number, plain_number, plain_size, within_reason
from catalogue_desktop.core.listing.rows import Column, ColumnType
from catalogue_desktop.core.records import zones
from catalogue_desktop.ui.common import times
from catalogue_desktop.ui.common.times import utc_label

__all__ = ["BLANK", "Formatter", "people_locale", "utc_label"]

BLANK = "—"  # shown for a blank value in detail panes (tables show an empty cell)
_DASH = "–"


def people_locale() -> QLocale:
    """The locale the window writes in: the system's, or US English on an unconfigured system
    (the C locale writes a day "28 11 2026"). ``session`` makes it every widget's default, so that
    Qt's own dialogs (the file dialog's Date Modified) write as the tables do."""
    locale = QLocale()
    if locale.language() == QLocale.Language.C:
        return QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    return locale


class Formatter:
    """Formats values for people, in one locale and with an optional currency."""

    def __init__(self, locale: QLocale | None = None, currency: str | None = None) -> None:
        self.locale = people_locale() if locale is None else locale
        # how days and times are written (the core's writer, built from the locale: offers too)
        self.time_text = times.time_text(self.locale)
        self.currency: str | None = currency or None
        self.event_zones = True  # dates in the event's own offset (False: the viewer's zone)
        # how a doubtful course time is read (``zones.TIMES``); None: not chosen yet, as written
        self.doubtful_times: str | None = None
        from catalogue_desktop.core.query.vocabulary import Vocabulary

        # the labels of Webinar.type codes and which mean on demand (the user's: Preferences)
        self.vocabulary = Vocabulary()

    # -- codes ---------------------------------------------------------------------------------

    def code(self, key: str, value: object) -> str:
        """A code for people: a type's label ("Live", or "Type 7" when none is set), "Level 2"."""
        if value is None or value == "":
            return ""
        return self.vocabulary.label(key, value)

    def on_demand(self, type_code: object) -> bool:
        """Whether a webinar of this type is on demand (bookable at any time: never past)."""
        return type_code is not None and str(type_code) in self.vocabulary.on_demand

    def set_currency(self, currency: str | None) -> None:
        """ISO code ("EUR") or symbol ("€"); None or "" for plain numbers."""
        self.currency = (currency or "").strip() or None

    # -- numbers -------------------------------------------------------------------------------

    def number(self, value: object) -> str:
        """A grouped number; decimal text keeps exactly its decimals ("2495.00" -> "2,495.00").
        Total: a number beyond reason (``core.formats.numbers``; the decoder refuses them) is
        written as ``plain_number`` bounds it ("1E+5000"), never expanded."""
        if value is None:
            return ""
        if isinstance(value, bool):
            return str(value)
        if isinstance(value, int):
            if abs(value) < 2**63:
                return self.locale.toString(value)
            return self._grouped(value) if value.bit_length() <= 160 else plain_number(value)
        if isinstance(value, float):
            value = Decimal(repr(value))
        text = str(value).strip()
        try:
            number = Decimal(text)
        except InvalidOperation:
            return text  # not a number: shown as it comes
        if not plain_size(number):
            return text
        sign, _digits, exponent = number.as_tuple()
        decimals = max(0, -int(exponent))
        whole = int(abs(number))
        out = self.locale.toString(whole) if whole < 2**63 else self._grouped(whole)
        if decimals:
            fraction = f"{abs(number):.{decimals}f}".split(".")[1]
            out += self.locale.decimalPoint() + fraction
        if sign:
            out = self.locale.negativeSign() + out
        return out

    def _grouped(self, whole: int) -> str:
        """A whole number beyond QLocale's 64 bits (a fee of 1e308), grouped as the locale does."""
        return f"{whole:,}".replace(",", self.locale.groupSeparator())

    def money(self, value: object) -> str:
        """A fee, one way everywhere: whole amounts without cents ("2250.00" -> "2,250"), others
        with two decimals ("1899.5" -> "1,899.50")."""
        if value is None or value == "":
            return ""
        value = _money_value(value)
        text = self.number(value)
        if not self.currency or not is_number(value):
            return text
        if self.currency.isalpha():  # an ISO code: "USD 1,299"
            return f"{self.currency}\u00a0{text}"
        if isinstance(value, int) and abs(value) < 2**63:
            return self.locale.toCurrencyString(value, self.currency)
        number = Decimal(value) if isinstance(value, int) else Decimal(str(value))
        if not plain_size(number) or abs(number) >= 2**53:  # beyond a double's exact digits
            return f"{self.currency}{text}"
        decimals = max(0, -int(number.as_tuple().exponent))
        return self.locale.toCurrencyString(float(number), self.currency, decimals)

    def money_range(self, pair: object) -> str:
        """``[min, max]`` -> "495 – 1,295"; a single value when both are equal."""
        if pair is None:
            return ""
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            return self.money(pair)
        low, high = pair
        if high is None or _same(low, high):
            return self.money(low)
        if low is None:
            return self.money(high)
        return f"{self.money(low)} {_DASH} {self.money(high)}"

    # -- dates ---------------------------------------------------------------------------------

    def date(self, ms: object, offset: int | None = None) -> str:
        """Epoch milliseconds (UTC) -> short date, time and zone: at the UTC ``offset`` (minutes)
        the event was written with ("3/9/27 8:30 AM UTC−05:00"), or in the viewer's zone,
        labelled too, without one or when the user chose local time (``common.times``)."""
        if ms is None or isinstance(ms, bool):
            return ""
        whole = _whole(ms)
        if whole is None:
            return plain_number(ms)
        return times.short(self.time_text, whole, offset, self.event_zones)

    def moment(self, value: object) -> str:
        """An aware datetime, ISO text or epoch ms -> as ``date`` writes it (a datetime's or
        text's own offset kept)."""
        found = times.moment_of(value)
        return "" if found is None else times.short(self.time_text, found[0], found[1], self.event_zones)

    def date_long(self, value: object) -> str:
        """Epoch ms, ISO text or an aware datetime -> long date, time and zone, as ``date``
        chooses the zone. "Wednesday, December 9, 2026 1:00 PM UTC−05:00"."""
        found = times.moment_of(value)
        if found is None:
            return "" if value is None else str(value)
        return times.long(self.time_text, found[0], found[1], self.event_zones)

    def date_span(self, start: object, end: object) -> str:
        """From ``start`` to ``end`` as ``date_long`` writes them, a span within one day saying
        the day and zone once (``times.span``); one end alone when the other is missing or the
        same."""
        first, last = times.moment_of(start), times.moment_of(end)
        if first is None or last is None or first == last:
            return self.date_long(start if first is not None else end) if (first or last) else ""
        return times.span(self.time_text, first, last, self.event_zones)

    def day(self, value: object, offset: int | None = None) -> str:
        """The day alone ("3/9/27"), in the zone ``date`` would show it in."""
        found = times.moment_of(value)
        if found is None:
            return ""
        return times.day(self.time_text, found[0], found[1] if offset is None else offset, self.event_zones)

    # -- a course's times at its venue ---------------------------------------------------------

    def doubt(self, value: object, state: object) -> Doubt | None:
        """A course's time (epoch ms with its offset, ISO text, an aware datetime) whose written
        offset is not its venue's zone's on that day, read as the user chose (``doubtful_times``);
        None when it is not doubtful (or has no offset, or the state no known zone)."""
        found = value if isinstance(value, tuple) else times.moment_of(value)
        if found is None or found[1] is None or not isinstance(state, str):
            return None
        checked = _checked(found[0], found[1], state)
        if checked is None:
            return None
        written, check = checked
        read = None if self.doubtful_times is None else zones.read_as(written, check, self.doubtful_times)
        return Doubt(check, written, read)

    def venue_date(self, ms: int, offset: int | None, state: object) -> str:
        """A course's start as ``date`` writes it, or, when doubtful, marked "⚠" and read as the
        user chose, at the venue's clock as the offers write it ("7/16/27 9:30 AM CDT ⚠")."""
        doubt = self.doubt((ms, offset), state)
        if doubt is None:
            return self.date(ms, offset)
        if doubt.read is None:
            return f"{self.date(ms, offset)} ⚠"
        moment, label = _moment(doubt.read)
        return f"{times.short(self.time_text, *moment, self.event_zones, label)} ⚠"

    def venue_span(self, start: object, end: object, state: object) -> str:
        """A course location's first and last day as ``date_span`` writes them, doubtful times
        as ``venue_date`` reads them (and marked "⚠")."""
        first, last = (self.doubt(v, state) for v in (start, end))
        if first is None and last is None:
            return self.date_span(start, end)
        if (first is not None and first.read is None) or (last is not None and last.read is None):
            return f"{self.date_span(start, end)} ⚠"
        begin, finish = times.moment_of(start), times.moment_of(end)
        labels: list[str | None] = [None, None]
        ends: list[times.Moment | None] = [begin, finish]
        for n, doubt in enumerate((first, last)):
            if doubt is not None and doubt.read is not None:
                ends[n], labels[n] = _moment(doubt.read)
        a, b = ends
        if a is None or b is None or a == b:
            one, label = (a, labels[0]) if a is not None else (b, labels[1])
            text = "" if one is None else times.long(self.time_text, *one, self.event_zones, label)
        else:
            text = times.span(self.time_text, a, b, self.event_zones, (labels[0], labels[1]))
        return f"{text} ⚠"

    def doubt_note(self, doubt: Doubt, where: str) -> str:
        """What a doubtful time's "⚠" says: before a choice, what is wrong ("Check the time at
        Chicago, IL: written UTC−06:00, but CDT on that date is UTC−05:00: …"); after it, what
        the service wrote and what was chosen."""
        check = doubt.check
        if doubt.read is None:
            return f"Check the time at {where}: {check.mismatch}. The first offer asks which is right."
        clock = self.time_text.clock
        right = "the clock time is right" if self.doubtful_times == zones.CLOCK else "the instant is right"
        return (
            f"The service wrote {clock(doubt.written)} at {zones.offset_label(check.written)}, but {where} "
            f"is on {check.abbreviation} ({zones.offset_label(check.expected)}) that day. Shown as "
            f"chosen: {clock(doubt.read)} {check.abbreviation}, {right} (Preferences ▸ Offers ▸ "
            "Doubtful times)."
        )

    def data_time(self, iso: object) -> str | None:
        """When data was fetched: the viewer's local time, labelled (None stays None)."""
        found = times.moment_of(iso)
        if found is None:
            return None if iso is None else str(iso)
        return times.long(self.time_text, found[0], None, False)

    def on_demand_text(self, recorded: object = None, offset: int | None = None) -> str:
        """What an on-demand webinar shows where a start would be: "On demand", and the day it
        was recorded ("On demand · recorded 3/9/26"), never a past start that looks missed."""
        day = self.day(recorded, offset)
        return f"On demand · recorded {day}" if day else "On demand"

    # -- any column ----------------------------------------------------------------------------

    def boolean(self, value: object) -> str:
        if value is None:
            return ""
        return "Yes" if value else "No"

    def value(self, column: Column, value: object) -> str:
        """Display text of one row value of ``column``; blank for None."""
        if value is None:
            return ""
        if isinstance(value, int) and not within_reason(value):  # (refused at decode: shown bounded)
            return plain_number(value)
        type_ = column.type
        if type_ is ColumnType.DATE:
            return self.date(value)
        if type_ is ColumnType.MONEY:
            return self.money(value)
        if type_ is ColumnType.MONEY_RANGE:
            return self.money_range(value)
        if type_ is ColumnType.BOOL:
            return self.boolean(value) if isinstance(value, bool) else str(value)
        if type_ is ColumnType.TEXT:
            text = drawn(value if isinstance(value, str) else plain_number(value))  # (capped, bidi shown)
            if "\n" in text:
                text = " ".join(text.split())
            return text
        if type_ is ColumnType.CODE and column.key in ("type", "level"):
            return self.code(column.key, value)
        return plain_number(value)  # INT, other codes (shown as they come)


class Doubt(NamedTuple):
    """A course time whose written offset is not its venue's zone's on that day (``Formatter.doubt``)."""

    check: zones.ZoneCheck
    written: datetime  # as the service wrote it
    read: datetime | None  # as the user chose to read it, at the venue; None: not chosen yet


@lru_cache(maxsize=4096)
def _checked(ms: int, offset: int, state: str) -> tuple[datetime, zones.ZoneCheck] | None:
    """The moment as written and its doubtful check (``zones.check``); None when not doubtful."""
    try:
        written = datetime.fromtimestamp(ms / 1000, timezone(timedelta(minutes=offset)))
    except (OverflowError, OSError, ValueError):  # (past Python's years: never doubted)
        return None
    check = zones.check(written, state)
    return None if check is None or check.ok else (written, check)


def _moment(read: datetime) -> tuple[times.Moment, str | None]:
    """A time read at its venue as a moment and its zone's name ("CDT")."""
    delta = read.utcoffset()
    offset = None if delta is None else int(delta.total_seconds()) // 60
    return (int(read.timestamp() * 1000), offset), read.tzname()


def _whole(value: Any) -> int | None:
    """``value`` as a 64-bit whole number (epoch milliseconds), None if it is none (``int()`` of
    ``1E+999999999`` would never end; Qt refuses more than 64 bits)."""
    try:
        if isinstance(value, float):
            value = Decimal(repr(value))
        if isinstance(value, Decimal):
            value = int(value) if plain_size(value) else None
        whole = int(value)
    except (TypeError, ValueError, ArithmeticError):
        return None
    return whole if within_reason(whole) else None


def _same(low: object, high: object) -> bool:
    """Whether a range's ends are one amount (a NaN's comparison may raise: not the same)."""
    try:
        return bool(low == high)
    except ArithmeticError:
        return False


def _money_value(value: object) -> Any:
    """An int for a whole amount, decimal text with two decimals for another; else as given
    (a number too large to write out in full as it is: ``int()`` of ``1E+999999999`` never ends)."""
    if isinstance(value, (bool, int)):
        return value
    try:
        number = Decimal(repr(value) if isinstance(value, float) else str(value).strip())
    except InvalidOperation:
        return value
    if not plain_size(number):
        return value
    if number == number.to_integral_value():
        return int(number)
    exponent = number.as_tuple().exponent
    decimals = -exponent if isinstance(exponent, int) else 0
    return f"{number.quantize(Decimal('0.01')) if decimals <= 2 else number}"
