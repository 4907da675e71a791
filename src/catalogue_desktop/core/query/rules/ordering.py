"""Order: the words that sort ("cheapest first", "soonest", "most sessions"), and the vague
price words ("cheap", "free")."""

from __future__ import annotations

from collections.abc import Sequence

from catalogue_desktop.core.query.rules.counting import counted
from catalogue_desktop.core.query.rules.tokens import Context, Match, Token, has, longest_at, phrase_table

_ORDER = phrase_table(
    {
        "fee": (
            "cheapest",
            "cheapest first",
            "lowest price",
            "lowest price first",
            "lowest fee",
            "least expensive",
            "least expensive first",
            "price low to high",
            "low to high",
            "by price",
            "sorted by price",
            "sort by price",
            "cheapest to most expensive",
        ),
        "-fee": (
            "most expensive",
            "most expensive first",
            "priciest",
            "priciest first",
            "highest price",
            "highest price first",
            "price high to low",
            "high to low",
            "dearest",
        ),
        "starts": (
            "soonest",
            "soonest first",
            "earliest",
            "earliest first",
            "by date",
            "sorted by date",
            "sort by date",
            "next up",
            "chronological",
            "chronologically",
            "in date order",
        ),
        "-starts": (
            "latest",
            "latest first",
            "most recent",
            "most recent first",
            "newest",
            "newest first",
            "last first",
        ),
    }
)
SORT_LABEL = {
    "fee": "cheapest first",
    "-fee": "most expensive first",
    "starts": "soonest first",
    "-starts": "latest first",
}


# Vague price words: no amount to compare with, so the honest reading is an order (the cheap
# ones first); a word the catalogue's titles use stays a word to find. Where there is no fee, glue.
_VAGUE_PRICE = phrase_table(
    {
        "fee": (
            "cheap,cheaper,inexpensive,affordable,budget,bargain,economical,lowcost",
            "low cost",
            "low price",
            "low priced",
            "lower cost",
            "lower priced",
            "budget friendly",
            "not expensive",
            "not too expensive",
            "less expensive",
            "reasonably priced",
        ),
        "-fee": (
            "expensive,pricey,pricy,premium,costly,upscale,luxury",
            "high end",
            "high priced",
            "higher priced",
            "more expensive",
            "top tier",
        ),
    }
)
_FREE = phrase_table({"": ("free", "free of charge", "no cost", "no charge", "complimentary", "at no cost")})


_MOST = phrase_table(
    {
        "-": ("most", "the most", "most number of", "highest number of"),
        "": ("fewest", "the fewest", "least", "the least"),
    }
)


def order(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    out = []
    most = longest_at(_MOST, toks, i)
    if most is not None and ctx.table is not None:  # "topics with the most webinars"
        field = counted(toks, i + most[0], ctx)
        if field is not None:
            words = "most" if most[1] else "fewest"
            out.append(Match(most[0] + 1, "sort", f"sort:{most[1]}{field}", f"{words} {field} first"))
    found = longest_at(_ORDER, toks, i)
    if found is not None and has(ctx, found[1].lstrip("-")):
        size, key = found
        out.append(Match(size, "sort", f"sort:{key}", SORT_LABEL[key]))
    vague = longest_at(_VAGUE_PRICE, toks, i)
    if vague is not None and not (vague[0] == 1 and toks[i].key in ctx.lexicon.index.at_word):
        size, key = vague
        if has(ctx, "fee"):
            out.append(Match(size, "sort", f"sort:{key}", SORT_LABEL[key], rank=1))
        else:
            out.append(Match(size, "glue", rank=9))
    free = longest_at(_FREE, toks, i)
    if (
        free is not None
        and has(ctx, "fee")
        and not (free[0] == 1 and toks[i].key in ctx.lexicon.index.at_word)
    ):
        out.append(Match(free[0], "condition", "fee:0", "free"))
    return out
