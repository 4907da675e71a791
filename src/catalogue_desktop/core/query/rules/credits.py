"""Credits, types and levels: CPE and CLE credit (and none: "no CPE"), a webinar's type (live,
on demand, a label as written in Preferences), and "level 2"."""

from __future__ import annotations

from collections.abc import Sequence

from catalogue_desktop.core.query.rules.tokens import Context, Match, Token, has, longest_at, phrase_table
from catalogue_desktop.core.query.syntax import quote

_CREDITS = phrase_table(
    {
        "cpe": (
            "cpe,cpes",
            "cpe credit",
            "cpe credits",
            "cpe hours",
            "cpe eligible",
            "cpe accredited",
            "cpe accreditation",
            # who needs which: accountants count CPE, lawyers CLE ("ethics webinars for CPAs")
            "cpa,cpas,accountant,accountants",
            "for cpas",
            "for accountants",
        ),
        "cle": (
            "cle,cles,mcle",
            "cle credit",
            "cle credits",
            "cle hours",
            "cle eligible",
            "cle accredited",
            "cle accreditation",
            "lawyer,lawyers,attorney,attorneys",
            "for lawyers",
            "for attorneys",
        ),
    }
)
_NO_CREDIT = phrase_table({"": ("no", "without", "non", "not", "excluding", "without any")})


def credit(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    out = []
    neg = longest_at(_NO_CREDIT, toks, i)
    at = i + (neg[0] if neg else 0)
    found = longest_at(_CREDITS, toks, at)
    if found is not None and has(ctx, found[1]):
        name = found[1]
        if neg:
            out.append(Match(neg[0] + found[0], "condition", f"{name}:no", f"no {name.upper()} credit"))
        else:
            plain = longest_at(_CREDITS, toks, i)
            if plain is not None:
                out.append(Match(plain[0], "condition", f"{name}:yes", f"{name.upper()} credit"))
    return out


_ON_DEMAND = phrase_table(
    {
        "": (
            "ondemand,recorded,recording,recordings,prerecorded,replay,replays,archived",
            "on demand",
            "pre recorded",
            "self paced",
            "watch anytime",
        )
    }
)
_LIVE = phrase_table({"": ("live,livestream,livestreamed", "live stream", "real time", "live online")})


def webinar_type(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    lexicon = ctx.lexicon
    labels = lexicon.index.labels
    out = []
    on_demand = longest_at(_ON_DEMAND, toks, i)
    for words, code in labels.items():  # a label as written in Preferences
        if tuple(t.key for t in toks[i : i + len(words)]) == words:
            size = len(words)
            if code in lexicon.on_demand:
                on_demand = max(on_demand or (0, ""), (size, ""))
            else:
                out += _type_match(size, code, ctx)
    if on_demand is not None:
        if has(ctx, "ondemand"):
            out.append(Match(on_demand[0], "condition", "ondemand:yes", "on demand"))
        elif has(ctx, "type") and lexicon.on_demand:
            out += _type_match(on_demand[0], min(lexicon.on_demand), ctx, "on demand")
    live = longest_at(_LIVE, toks, i)
    if live is not None:
        live_code = next(
            (
                c
                for c, label in lexicon.type_labels.items()
                if c not in lexicon.on_demand and "live" in label.lower()
            ),
            None,
        )
        if live_code is not None:
            out += _type_match(live[0], live_code, ctx)
    return out


def _type_match(size: int, code: str, ctx: Context, label: str | None = None) -> list[Match]:
    if not has(ctx, "type"):
        return []
    text = ctx.lexicon.type_labels.get(code, f"Type {code}")
    others = [t for c, t in ctx.lexicon.type_labels.items() if c != code]
    clean = text.lower()
    value = quote(clean) if all(clean not in o.lower() for o in others) else code
    return [Match(size, "condition", f"type:{value}", label or text)]


def level(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    if toks[i].key == "level" and i + 1 < len(toks) and toks[i + 1].key.isdigit() and has(ctx, "level"):
        return [Match(2, "condition", f"level:{toks[i + 1].key}", f"level {toks[i + 1].key}")]
    return []
