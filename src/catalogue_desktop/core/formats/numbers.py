"""Numbers: what a record may hold (decided once, at decode) and how they are written out.

**Numbers within reason.** A whole number (an id, a fee, a count, a code) must fit in 64 bits
(-2^63 to 2^63-1: what the cache's SQLite INTEGER holds); a decimal number (a certificate's fee,
the one field the spec gives decimals) must be finite, written with at most 17 significant digits
(as many as any double's shortest text has: ``0.30000000000000004`` is in) and no digit past the
17th decimal place, and below 10^15 (past it a spreadsheet's number loses cents): ``1E+14`` and
``1E-17`` are in, ``1E+15``, ``1E-18``, ``1E+5000`` and ``NaN`` out.
``core.records.models`` applies the rule to every number field and ``core.records.decode`` makes a
number outside it a problem of its record (named with field and value, shortened), never of the
whole collection.

**Written out** as plain numbers, as the spec promises them: never an exponent (a certificate fee of
1E+14 is written with all its digits, not ``1E+14``). Every writer here is total: for any value,
within reason or not, it returns text (bounded) and never raises or hangs.
"""

from __future__ import annotations

from decimal import Decimal, InvalidOperation

WHOLE_MIN, WHOLE_MAX = -(2**63), 2**63 - 1
DIGITS = 17  # significant digits of a decimal number, and decimal places at most
BELOW = 15  # a decimal number's magnitude stays below 10^BELOW
RULE = (
    "a number beyond what a fee, count or id can be (a whole number within 64 bits, "
    f"a decimal of at most {DIGITS} significant digits below 10^{BELOW})"
)
_PLAIN_DIGITS = 40  # beyond this many digits either side of the point a number is written as 1E+N


def within_reason(value: object) -> bool:
    """Whether ``value`` (int or Decimal) is a number a record may hold (see the module)."""
    if isinstance(value, bool):
        return True
    if isinstance(value, int):
        return WHOLE_MIN <= value <= WHOLE_MAX
    if isinstance(value, Decimal):
        if not value.is_finite():
            return False
        _sign, digits, exponent = value.as_tuple()
        assert isinstance(exponent, int)
        return len(digits) <= DIGITS and exponent >= -DIGITS and value.adjusted() < BELOW
    return True


def shown(value: object) -> str:
    """A number as a problem quotes it: whole if short, else its ends and how many digits it has
    ("99999999…999999 (5,001 digits)"); never raises, whatever its size."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 14_000:
        return f"a whole number of about {int(value.bit_length() * 0.30103):,} digits"
    text = str(value)
    if len(text) <= 30:
        return text
    digits = sum(c.isdigit() for c in text)
    return f"{text[:10]}…{text[-6:]} ({digits:,} digits)"


def plain_number(value: object) -> str:
    """``value`` (int, Decimal, float) written out in full; other values as ``str``. A number
    beyond reason (more than 40 digits either side of the point) is written as Python writes it
    (``1E+5000``), and a whole number too long for text (over 4,300 digits) by its size: bounded
    text, never a hang."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return str(value) if value.bit_length() <= _PLAIN_DIGITS * 4 else shown(value)
    if isinstance(value, float):
        try:
            value = Decimal(repr(value))
        except InvalidOperation:
            return str(value)
    if isinstance(value, Decimal):
        return format(value, "f") if plain_size(value) else str(value)
    return str(value)


def plain_size(value: Decimal) -> bool:
    """Whether a finite ``value`` is short enough to write with all its digits (at most 40 either
    side of the point): writing ``1E+999999999`` so would take a gigabyte."""
    if not value.is_finite():
        return False
    exponent = value.as_tuple().exponent
    assert isinstance(exponent, int)
    return exponent >= -_PLAIN_DIGITS and value.adjusted() < _PLAIN_DIGITS


def is_number(value: object) -> bool:
    """Whether ``value`` is a finite number or text that reads as one (booleans are not)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float, Decimal)):
        return True
    try:
        return Decimal(str(value)).is_finite()
    except ArithmeticError:
        return False
