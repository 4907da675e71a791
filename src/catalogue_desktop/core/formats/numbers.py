"""Fees as plain numbers, as the spec promises them: never an exponent (a certificate fee of
1e308 is written with all its digits, not ``1E+308``)."""

from __future__ import annotations

from decimal import Decimal, InvalidOperation
from typing import Any


def plain_number(value: Any) -> str:
    """``value`` (int, Decimal, float) written out in full; other values as ``str``."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        try:
            value = Decimal(repr(value))
        except InvalidOperation:
            return str(value)
    if isinstance(value, Decimal):
        return format(value, "f") if value.is_finite() else str(value)
    return str(value)


def is_number(value: Any) -> bool:
    """Whether ``value`` is a finite number or text that reads as one (booleans are not)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float, Decimal)):
        return True
    try:
        return Decimal(str(value)).is_finite()
    except ArithmeticError:
        return False
