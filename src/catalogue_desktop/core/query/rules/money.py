"""Money: amounts and the price they bound ("under $500", "between 200 and 400 dollars"), and a
range of years."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

from catalogue_desktop.core.query.rules.tokens import Context, Match, Token, has, longest_at, phrase_table
from catalogue_desktop.core.query.rules.when import RANGE_JOIN, RANGE_START, year_of

_AMOUNT = re.compile(r"\$?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?)(k)?\$?")
_CURRENCY = frozenset({"dollars", "dollar", "usd", "bucks", "$"})
_BELOW = phrase_table(
    {
        "<": ("under", "below", "less than", "cheaper than", "lower than", "beneath", "<"),
        "<=": ("up to", "at most", "no more than", "not more than", "max", "maximum", "upto", "<="),
        ">": ("over", "above", "more than", "greater than", "pricier than", "more expensive than", ">"),
        ">=": ("at least", "min", "minimum", "starting at", "from", ">="),
    }
)
_AFTER = phrase_table(
    {
        "<=": (
            "or less",
            "or under",
            "or cheaper",
            "or below",
            "and under",
            "and below",
            "max",
            "maximum",
            "or lower",
        ),
        ">=": ("or more", "and up", "and above", "plus", "or higher", "and over", "or over"),
    }
)


# Words after a number that say it counts something else than money: "more than 2 days" is not a
# fee over $2, "8 cpe credits" not a fee of $8.
_UNITS = frozenset(
    {
        *("day", "days", "hour", "hours", "hr", "hrs", "minute", "minutes", "min", "mins"),
        *("week", "weeks", "month", "months", "year", "years", "night", "nights"),
        *("session", "sessions", "level", "levels", "module", "modules", "part", "parts"),
        *("credit", "credits", "cpe", "cle", "ce", "cpd", "pdh", "pdhs", "unit", "units", "points"),
        *("people", "person", "persons", "seat", "seats", "attendee", "attendees", "participants"),
        *("student", "students", "times", "percent"),
    }
)


def _counts_else(toks: Sequence[Token], j: int) -> bool:
    """Whether the word at ``j``, right after a number, says the number counts something else."""
    return j < len(toks) and toks[j].key in _UNITS


_ABOUT_MONEY = frozenset(
    {"around", "about", "approximately", "approx", "roughly", "circa", "~", "ca", "near"}
)


def amount(tok: Token | None) -> int | Decimal | None:
    """A sum of money as typed: 1500, $1,500, 1.5k, 99.50."""
    if tok is None:
        return None
    match = _AMOUNT.fullmatch(tok.raw.lower().rstrip("+"))
    if not match:
        return None
    digits = match.group(1).replace(",", "")
    value: int | Decimal = Decimal(digits) if "." in digits else int(digits)
    if match.group(2):
        value = value * 1000
        value = int(value) if value == int(value) else value
    return value


def _money_text(value: int | Decimal) -> str:
    return str(value)


def _shown(value: int | Decimal) -> str:
    return f"${value:,}"


def _with_currency(toks: Sequence[Token], j: int) -> int:
    return j + 1 if j < len(toks) and toks[j].key in _CURRENCY else j


_PRICE_NOUNS = phrase_table(
    {
        "": (
            "fee,fees,price,prices,priced,cost,costs,costing,pricing,tuition,that cost,that costs,at",
            "fee is",
            "price is",
            "priced at",
            "costing",
            "which cost",
            "for",
        )
    }
)


def money(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    if not has(ctx, "fee"):
        return []
    noun = longest_at(_PRICE_NOUNS, toks, i)
    if noun is not None and i + noun[0] < len(toks):  # "fees under 1200", "priced below 900"
        priced = [m for m in money(toks, i + noun[0], ctx) if m.what == "condition"]
        if priced:
            widest = max(priced, key=lambda m: m.size)
            return [Match(widest.size + noun[0], "condition", widest.clause, widest.label, rank=widest.rank)]
    out = []
    below = longest_at(_BELOW, toks, i)
    if below is not None:
        size, op = below
        value = amount(toks[i + size] if i + size < len(toks) else None)
        if _counts_else(toks, i + size + 1):
            value = None
        if value is not None and not (op == ">=" and toks[i].key == "from" and _is_range(toks, i + size + 1)):
            end = _with_currency(toks, i + size + 1)
            words = {"<": "under", "<=": "up to", ">": "over", ">=": "at least"}[op]
            out.append(
                Match(end - i, "condition", f"fee:{op}{_money_text(value)}", f"{words} {_shown(value)}")
            )
    if toks[i].key in _ABOUT_MONEY and i + 1 < len(toks) and toks[i + 1].raw.startswith("$"):
        near = amount(toks[i + 1])
        if near is not None:  # "around $200": within a fifth of it
            bottom, top = int(near * Decimal("0.8")), int(near * Decimal("1.2") + Decimal("0.5"))
            out.append(
                Match(
                    _with_currency(toks, i + 2) - i,
                    "condition",
                    f"fee:{bottom}..{top}",
                    f"around {_shown(near)}",
                )
            )
    value = amount(toks[i])
    if value is not None and not _counts_else(toks, i + 1):
        j = _with_currency(toks, i + 1)
        after = longest_at(_AFTER, toks, j)
        if toks[i].raw.rstrip().endswith("+"):
            out.append(Match(j - i, "condition", f"fee:>={_money_text(value)}", f"{_shown(value)} or more"))
        elif after is not None:
            op = after[1]
            words = "or less" if op == "<=" else "or more"
            out.append(
                Match(
                    j + after[0] - i, "condition", f"fee:{op}{_money_text(value)}", f"{_shown(value)} {words}"
                )
            )
        elif j > i + 1 or toks[i].raw.startswith("$"):
            out.append(Match(j - i, "condition", f"fee:{_money_text(value)}", _shown(value)))
        # 500-1000, $500 to $1,000
        if j < len(toks) and (toks[j].key in ("to", "and") or toks[j].word == toks[i].word):
            k = j + (toks[j].key in ("to", "and"))
            high = amount(toks[k] if k < len(toks) else None)
            if (
                high is not None
                and high >= value
                and (
                    toks[i].raw.startswith("$") or toks[j].word == toks[i].word or toks[k].raw.startswith("$")
                )
            ):
                end = _with_currency(toks, k + 1)
                out.append(_range(end - i, value, high))
    if toks[i].key in RANGE_START:
        low = amount(toks[i + 1] if i + 1 < len(toks) else None)
        j = _with_currency(toks, i + 2)
        if low is not None and j < len(toks) and toks[j].key in RANGE_JOIN:
            high = amount(toks[j + 1] if j + 1 < len(toks) else None)
            if (
                high is not None
                and not _counts_else(toks, j + 2)
                and not (year_of(toks[i + 1]) and year_of(toks[j + 1]) and has(ctx, "starts"))
            ):
                end = _with_currency(toks, j + 2)
                out.append(_range(end - i, low, high))
    return out


def _is_range(toks: Sequence[Token], j: int) -> bool:
    return j < len(toks) and toks[j].key in RANGE_JOIN


def _range(size: int, low: int | Decimal, high: int | Decimal) -> Match:
    low, high = min(low, high), max(low, high)
    return Match(size, "condition", f"fee:{low}..{high}", f"{_shown(low)} to {_shown(high)}")


def year_range(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    """``between 2027 and 2028``: years, where the table has dates."""
    if toks[i].key not in RANGE_START or not has(ctx, "starts") or i + 3 >= len(toks):
        return []
    lo, hi = year_of(toks[i + 1]), year_of(toks[i + 3])
    if lo is None or hi is None or toks[i + 2].key not in RANGE_JOIN or hi < lo:
        return []
    return [Match(4, "condition", f"starts:{lo}..{hi}", f"{lo} to {hi}", rank=-1)]
