"""Places: a state or province by code or name ("IL", "new york state"), and a country ("in
Canada", "US")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from catalogue_desktop.core.query import region_codes
from catalogue_desktop.core.query.lexicon import keys
from catalogue_desktop.core.query.rules.tokens import Context, Match, Token, has, longest_at, phrase_table
from catalogue_desktop.core.query.syntax import quote
from catalogue_desktop.core.records.regions import CODES

# Postal codes that are English words: read as a state only when typed in capitals ("in OH").
WORD_CODES = frozenset(
    [
        "in",
        "on",
        "me",
        "or",
        "hi",
        "ok",
        "oh",
        "de",
        "la",
        "id",
        "al",
        "pa",
        "ma",
        "mo",
        "ne",
        "co",
        "mi",
        "as",
        "ar",
        "va",
        "wa",
        "nd",
        "sc",
        "ga",
    ]
)
_STATE_NAMES: dict[tuple[str, ...], str] = {}
_STATE_WORDS = frozenset({"state", "province"})


def _state_name(toks: Sequence[Token], i: int) -> tuple[int, str] | None:
    """(tokens used, code) of a state or province named at ``i`` (by name, or by code: a code
    that is also an English word only in capitals)."""
    names = _STATE_NAMES or _state_names()
    state = None
    size_limit = 0 if toks[i].key not in _STATE_FIRST else min(4, len(toks) - i)
    for size in range(1, size_limit + 1):
        code = names.get(tuple(t.key for t in toks[i : i + size]))
        if code is not None:
            state = (size, code)
    tok = toks[i]
    typed_code = len(tok.key) == 2 and tok.key.upper() in CODES
    if state is None and typed_code and (tok.key not in WORD_CODES or (tok.upper and tok.raw.isalpha())):
        state = (1, tok.key.upper())
    return state


def _state_at(toks: Sequence[Token], i: int) -> tuple[int, str] | None:
    """A state named with the word "state": "washington state", "new york state", "state of
    texas", "the state of new york", "province of quebec"."""
    lead = 0
    if toks[i].key == "the" and i + 1 < len(toks) and toks[i + 1].key in _STATE_WORDS:
        lead = 1
    if toks[i + lead].key in _STATE_WORDS and i + lead + 2 < len(toks) + 1:
        if i + lead + 1 < len(toks) and toks[i + lead + 1].key == "of":
            found = _state_name(toks, i + lead + 2) if i + lead + 2 < len(toks) else None
            if found is not None:
                return lead + 2 + found[0], found[1]
        return None
    found = _state_name(toks, i)
    if found is not None and i + found[0] < len(toks) and toks[i + found[0]].key in _STATE_WORDS:
        return found[0] + 1, found[1]
    return None


def _state_names() -> dict[tuple[str, ...], str]:
    from catalogue_desktop.core.records.regions import spellings

    if not _STATE_NAMES:
        _STATE_NAMES.update({tuple(keys(name)): code for name, code in spellings().items()})
    return _STATE_NAMES


_STATE_FIRST = frozenset(k[0] for k in _state_names())


def place(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    """A state or province by name or code, or a city in the data (a city named like a state
    is read as the city, the state offered: the data has the city)."""
    out = []
    named = _state_at(toks, i)
    index = ctx.lexicon.index
    if named is not None:  # "washington state", "the state of texas": the state, never the city
        size, code = named
        if has(ctx, "state"):
            return [Match(size, "condition", f"state:{code}", _state_label(code, index.cities), rank=-1)]
        return []
    state = _state_name(toks, i)
    city = None
    for size in range(1, min(index.city_words, len(toks) - i) + 1):
        found = index.cities.get(tuple(t.key for t in toks[i : i + size]))
        if found is not None:
            city = (size, found)
    city_clause = f"city:{quote(city[1])}" if city else None
    state_clause = f"state:{state[1]}" if state else None
    if state and has(ctx, "state"):
        other = city_clause if city and city[0] == state[0] and has(ctx, "city") else None
        rank = 1 if other else 0
        out.append(
            Match(
                state[0],
                "condition",
                state_clause or "",
                _state_label(state[1], index.cities),
                other,
                rank=rank,
            )
        )
    if city and has(ctx, "city"):
        other = state_clause if state and state[0] == city[0] and has(ctx, "state") else None
        out.append(Match(city[0], "condition", city_clause or "", city[1], other))
    return out


def _state_label(code: str, cities: Mapping[tuple[str, ...], str]) -> str:
    """A state's name, said to be the state when a city of the data has that name ("Washington
    (state)" beside the city of Washington)."""
    name = region_codes.name_of(code) or code
    return f"{name} (state)" if tuple(keys(name)) in cities else name


_CANADA = tuple(list(CODES)[list(CODES).index("AB") :])  # the provinces and territories
_COUNTRIES = phrase_table(
    {
        "CA": ("canada,canadian,canadas",),
        "US": (
            "usa,america,domestic,stateside",
            "united states",
            "the us",
            "the usa",
            "the states",
            "u s",
            "u s a",
        ),
    }
)


def country(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    """``canada`` (its provinces and territories the data has; all of them when it has none), ``the
    us``/``usa`` (the US states the data has: nothing to narrow when it has no Canadian ones)."""
    found = longest_at(_COUNTRIES, toks, i)
    if found is None or not has(ctx, "state"):
        return []
    size, which = found
    held = ctx.lexicon.states
    if which == "CA":
        codes = [c for c in _CANADA if c in held] or list(_CANADA)
        label = "Canada"
    else:
        if not any(c in held for c in _CANADA):
            return [Match(size, "glue")]
        codes = [c for c in held if c not in _CANADA]
        label = "United States"
    clause = f"state:{codes[0]}" if len(codes) == 1 else "state:(" + " OR ".join(sorted(codes)) + ")"
    return [Match(size, "condition", clause, label, rank=-1)]
