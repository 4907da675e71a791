"""Display text for row values and record fields: money, fee ranges, dates, booleans, codes.

One :class:`Formatter` per window, shared by the item models and the detail panes, so that a
locale or currency change shows everywhere. Money is a plain grouped number unless the user chose
a currency (the spec does not say which currency fees are in). Dates show as the service wrote
them, in the event's own UTC offset with the offset written out ("3/9/27 8:30 AM UTC−05:00"),
unless the user chose the viewer's local time (``event_zones`` False).
"""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal, InvalidOperation
from typing import Any

from PySide6.QtCore import QDateTime, QLocale, QTimeZone

from catalogue_desktop.core.formats.text import drawn
from catalogue_desktop.core.listing.rows import Column, ColumnType

__all__ = ["BLANK", "Formatter"]

BLANK = "—"  # shown for a blank value in detail panes (tables show an empty cell)
_DASH = "–"


class Formatter:
    """Formats values for people, in one locale and with an optional currency."""

    def __init__(self, locale: QLocale | None = None, currency: str | None = None) -> None:
        if locale is None:
            locale = QLocale()
            if locale.language() == QLocale.Language.C:  # unconfigured system: readable default
                locale = QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
        self.locale = locale
        self.currency: str | None = currency or None
        self.event_zones = True  # dates in the event's own offset (False: the viewer's zone)
        from catalogue_desktop.core.query.vocabulary import Vocabulary

        # the labels of Webinar.type codes and which mean on demand (the user's: Preferences)
        self.vocabulary = Vocabulary()

    # -- codes ---------------------------------------------------------------------------------

    def code(self, key: str, value: Any) -> str:
        """A code for people: a type's label ("Live", or "Type 7" when none is set), "Level 2"."""
        if value is None or value == "":
            return ""
        return self.vocabulary.label(key, value)

    def on_demand(self, type_code: Any) -> bool:
        """Whether a webinar of this type is on demand (bookable at any time: never past)."""
        return type_code is not None and str(type_code) in self.vocabulary.on_demand

    def set_currency(self, currency: str | None) -> None:
        """ISO code ("EUR") or symbol ("€"); None or "" for plain numbers."""
        self.currency = (currency or "").strip() or None

    # -- numbers -------------------------------------------------------------------------------

    def number(self, value: Any) -> str:
        """A grouped number; decimal text keeps exactly its decimals ("2495.00" -> "2,495.00")."""
        if value is None:
            return ""
        if isinstance(value, bool):
            return str(value)
        if isinstance(value, int):
            return self.locale.toString(value) if abs(value) < 2**63 else self._grouped(value)
        if isinstance(value, float):
            value = Decimal(repr(value))
        text = str(value).strip()
        try:
            number = Decimal(text)
        except InvalidOperation:
            return text  # not a number: shown as it comes
        if not number.is_finite():
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

    def money(self, value: Any) -> str:
        """A fee: int or decimal text. Decimals are kept as sent ("1,899.50")."""
        if value is None or value == "":
            return ""
        text = self.number(value)
        if not self.currency or not _is_number(value):
            return text
        if self.currency.isalpha():  # an ISO code: "USD 1,299"
            return f"{self.currency}\u00a0{text}"
        if isinstance(value, int) and abs(value) < 2**63:
            return self.locale.toCurrencyString(value, self.currency)
        number = Decimal(str(value))
        if abs(number) >= 2**53:  # beyond a double's exact digits: Qt would write an exponent
            return f"{self.currency}{text}"
        decimals = max(0, -int(number.as_tuple().exponent))
        return self.locale.toCurrencyString(float(number), self.currency, decimals)

    def money_range(self, pair: Any) -> str:
        """``[min, max]`` -> "495 – 1,295"; a single value when both are equal."""
        if pair is None:
            return ""
        if not isinstance(pair, (list, tuple)) or len(pair) != 2:
            return self.money(pair)
        low, high = pair
        if low == high or high is None:
            return self.money(low)
        if low is None:
            return self.money(high)
        return f"{self.money(low)} {_DASH} {self.money(high)}"

    # -- dates ---------------------------------------------------------------------------------

    def date(self, ms: Any, offset: int | None = None) -> str:
        """Epoch milliseconds (UTC) -> short date and time: at the UTC ``offset`` (minutes) the
        event was written with, which is then shown ("3/9/27 8:30 AM UTC−05:00"); in the
        viewer's zone without one (or when the user chose local time)."""
        if ms is None or isinstance(ms, bool):
            return ""
        try:
            ms = int(ms)
        except (TypeError, ValueError, OverflowError):
            return str(ms)
        if offset is None or not self.event_zones:
            return self.locale.toString(QDateTime.fromMSecsSinceEpoch(ms), QLocale.FormatType.ShortFormat)
        dt = QDateTime.fromMSecsSinceEpoch(ms, QTimeZone.fromSecondsAheadOfUtc(offset * 60))
        return f"{self.locale.toString(dt, QLocale.FormatType.ShortFormat)} {utc_label(offset)}"

    def date_long(self, value: Any) -> str:
        """Epoch ms or an aware datetime -> long date, time and zone: a datetime at the offset
        the service wrote it with (unless the user chose local time), epoch ms in the viewer's
        zone. "Wednesday, December 9, 2026 1:00 PM UTC−05:00"."""
        if value is None:
            return ""
        offset = None
        if isinstance(value, datetime):
            if value.tzinfo is None:
                from datetime import UTC

                value = value.replace(tzinfo=UTC)
            ms = int(value.timestamp() * 1000)
            delta = value.utcoffset()
            offset = None if delta is None else int(delta.total_seconds()) // 60
        else:
            try:
                ms = int(value)
            except (TypeError, ValueError):
                return str(value)
        if offset is not None and self.event_zones:
            dt = QDateTime.fromMSecsSinceEpoch(ms, QTimeZone.fromSecondsAheadOfUtc(offset * 60))
            day = self.locale.toString(dt.date(), QLocale.FormatType.LongFormat)
            time = self.locale.toString(dt.time(), QLocale.FormatType.ShortFormat)
            return f"{day} {time} {utc_label(offset)}"
        dt = QDateTime.fromMSecsSinceEpoch(ms)
        day = self.locale.toString(dt.date(), QLocale.FormatType.LongFormat)
        time = self.locale.toString(dt.time(), QLocale.FormatType.ShortFormat)
        offset = dt.offsetFromUtc()
        sign = "+" if offset >= 0 else "−"
        hours, minutes = divmod(abs(offset) // 60, 60)
        zone = f"UTC{sign}{hours:02d}:{minutes:02d}"
        abbreviation = dt.timeZoneAbbreviation()
        if abbreviation and abbreviation != zone and not abbreviation.startswith(("UTC", "GMT+", "GMT-")):
            zone = f"{abbreviation} ({zone})"
        return f"{day} {time} {zone}"

    # -- any column ----------------------------------------------------------------------------

    def boolean(self, value: Any) -> str:
        if value is None:
            return ""
        return "Yes" if value else "No"

    def value(self, column: Column, value: Any) -> str:
        """Display text of one row value of ``column``; blank for None."""
        if value is None:
            return ""
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
            text = drawn(value)  # bidi controls visible, capped (core.formats.text)
            if "\n" in text:
                text = " ".join(text.split())
            return text
        if type_ is ColumnType.CODE and column.key in ("type", "level"):
            return self.code(column.key, value)
        return str(value)  # INT, other codes (shown as they come)


def utc_label(offset: int) -> str:
    """UTC offset minutes as people read them: "UTC−05:00", "UTC+05:30", "UTC+00:00"."""
    sign = "+" if offset >= 0 else "−"
    hours, minutes = divmod(abs(offset), 60)
    return f"UTC{sign}{hours:02d}:{minutes:02d}"


def _is_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float, Decimal)):
        return True
    try:
        return Decimal(str(value)).is_finite()
    except InvalidOperation:
        return False
