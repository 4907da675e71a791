"""Formatter: money, ranges, dates, booleans and codes."""

from __future__ import annotations

from datetime import UTC, datetime

from PySide6.QtCore import QLocale

from catalogue_desktop.core.listing.rows import COLUMNS, Column, ColumnType
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.common.formatting import Formatter
from tests.ui.fixtures_components import *  # noqa: F403


def test_money_plain_and_decimal(en_formatter: Formatter) -> None:
    f = en_formatter
    assert f.money(1299) == "1,299"
    assert f.money("2495.00") == "2,495"  # one format: whole amounts without cents
    assert f.money("1899.50") == "1,899.50"
    assert f.money("0.5") == "0.50"
    assert f.money(None) == ""
    assert f.money("n/a") == "n/a"  # not a number: shown as it comes


def test_money_with_currency(en_formatter: Formatter) -> None:
    f = en_formatter
    f.set_currency("$")
    assert f.money(1299) == "$1,299"
    assert f.money("1899.50") == "$1,899.50"
    f.set_currency("EUR")
    assert f.money(1299) == "EUR\u00a01,299"
    f.set_currency(None)
    assert f.money(1299) == "1,299"


def test_money_range(en_formatter: Formatter) -> None:
    assert en_formatter.money_range([495, 1295]) == "495 – 1,295"
    assert en_formatter.money_range([995, 995]) == "995"
    assert en_formatter.money_range(None) == ""


def test_dates(en_formatter: Formatter) -> None:
    ms = int(datetime(2026, 12, 9, 18, 0, tzinfo=UTC).timestamp() * 1000)
    short = en_formatter.date(ms)
    assert "12/9/26" in short or "2026" in short
    long = en_formatter.date_long(ms)
    assert "December" in long and "2026" in long and "UTC" in long
    assert en_formatter.date_long(datetime(2026, 12, 9, 18, 0, tzinfo=UTC)) == long
    assert en_formatter.date(None) == ""


def test_value_by_column_type(en_formatter: Formatter) -> None:
    f = en_formatter
    assert f.value(Column("cle", "CLE", ColumnType.BOOL), True) == "Yes"
    assert f.value(Column("cle", "CLE", ColumnType.BOOL), False) == "No"
    assert f.value(Column("cle", "CLE", ColumnType.BOOL), None) == ""
    # type codes by their labels (the defaults, or the user's), never a bare number
    assert f.value(Column("type", "Type", ColumnType.CODE), 1) == "On demand"
    assert f.value(Column("type", "Type", ColumnType.CODE), 2) == "Live"
    assert f.value(Column("type", "Type", ColumnType.CODE), 3) == "Type 3"
    assert f.value(Column("type", "Type", ColumnType.CODE), "webcast") == "Type webcast"
    assert f.value(Column("level", "Level", ColumnType.CODE), 2) == "Level 2"
    from catalogue_desktop.core.query.vocabulary import Vocabulary

    f.vocabulary = Vocabulary({"3": "Hybrid"}, frozenset({"3"}))
    assert f.value(Column("type", "Type", ColumnType.CODE), 3) == "Hybrid"
    assert f.value(Column("type", "Type", ColumnType.CODE), 1) == "Type 1"
    assert f.on_demand(3) and not f.on_demand(1)
    assert f.value(Column("id", "ID", ColumnType.INT), 50007) == "50007"
    assert f.value(Column("t", "T", ColumnType.TEXT), "a\nb") == "a b"
    fee = next(c for c in COLUMNS[Kind.COURSES] if c.key == "fee")
    assert f.value(fee, [495, 1295]) == "495 – 1,295"


def test_default_locale_is_readable() -> None:
    f = Formatter()
    assert f.locale.language() != QLocale.Language.C
