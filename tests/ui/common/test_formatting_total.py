"""The window's formatter is total (issue 35): for any value a row could hold, within reason or far
beyond it (``tests/numbers_strategy.py``: 1E+5000, 1E+999999999, NaN, sNaN, -0, 1E-5000, whole
numbers of thousands of digits, floats, text), ``money``, ``money_range`` and ``value`` return
bounded text and never raise (a raise inside a model's ``data()`` killed the window)."""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QLocale

from catalogue_desktop.core.listing.rows import Column, ColumnType
from catalogue_desktop.ui.common.formatting import Formatter
from tests.numbers_strategy import NUMBERS

LONGEST = 220
COLUMNS = [Column("fee", "Fee", type_) for type_ in ColumnType]
FORMATTERS = [
    Formatter(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)),
    Formatter(QLocale(QLocale.Language.German, QLocale.Country.Germany), "€"),
    Formatter(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates), "USD"),
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=NUMBERS, other=NUMBERS, which=st.integers(0, len(FORMATTERS) - 1))
def test_money_and_values_are_total(value: Any, other: Any, which: int) -> None:
    formatter = FORMATTERS[which]
    texts = [
        formatter.money(value),
        formatter.money_range([value, other]),
        formatter.money_range([value, value]),
    ]
    texts += [formatter.value(column, value) for column in COLUMNS]
    for text in texts:
        assert isinstance(text, str) and len(text) <= 2 * LONGEST + 10
