"""Only an ISO 4217 code is a currency (``core.formats.currencies``): codes in any case, a word or
symbol that names one currency, refusals with the codes meant; the command line's ``--currency``
and the remembered value read by it."""

from __future__ import annotations

import argparse

import pytest

from catalogue_desktop.cli.parser import currency_code
from catalogue_desktop.core.formats.currencies import CODES, NAMES, read


@pytest.mark.parametrize(
    ("typed", "code"),
    [
        ("USD", "USD"),
        (" usd ", "USD"),
        ("eur", "EUR"),
        ("€", "EUR"),
        ("Euro", "EUR"),
        ("pounds", "GBP"),
        ("£", "GBP"),
        ("US$", "USD"),
        ("canadian dollars", "CAD"),
        ("chf", "CHF"),
        ("yen", "JPY"),
    ],
)
def test_a_code_or_a_word_for_one_currency_is_read_as_its_code(typed: str, code: str) -> None:
    assert read(typed).code == code and not read(typed).problem


@pytest.mark.parametrize("typed", ["dollars", "DOLLARS", "$", "Dollar", "pesos"])
def test_a_word_for_several_currencies_is_refused_with_them(typed: str) -> None:
    found = read(typed)
    assert found.code is None and "may be several currencies" in found.problem
    assert found.suggestions[0] in CODES and f"“{typed}”" in found.problem


@pytest.mark.parametrize(("typed", "first"), [("USX", "USD"), ("banana", "USD"), ("EUROS1", "EUR")])
def test_anything_else_is_refused_with_the_nearest_codes(typed: str, first: str) -> None:
    found = read(typed)
    assert found.code is None and found.problem.startswith(f"“{typed}” is not a currency code")
    assert first in found.suggestions


def test_nothing_typed_is_no_currency_without_a_problem() -> None:
    assert read("") == read("   ") == read(None) and read("").code is None and not read("").problem


def test_the_table_holds_codes_only() -> None:
    assert all(len(c) == 3 and c.isalpha() and c.isupper() for c in CODES) and set(NAMES) <= CODES
    assert len(CODES) > 150


def test_the_command_lines_currency_is_a_code() -> None:
    assert currency_code("usd") == "USD" and currency_code("") == ""
    with pytest.raises(argparse.ArgumentTypeError, match="may be several currencies: USD"):
        currency_code("dollars")
