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
