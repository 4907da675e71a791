"""The rules of the reading: what a run of plain words at a position means (``core.query.reading``
applies them left to right, the longest match first).

Each rule looks at the words' keys (``lexicon.keys``: folded, apostrophes and periods dropped,
split at hyphens) from position ``i`` and answers the ``Match``es it sees there: a condition in
the query language (``state:IL``), a kind (the tab to show), an order, or glue to drop. A rule
whose field the table lacks answers nothing there (fees only where there are fees), so the word
stays a free word.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from catalogue_desktop.core.query import regions
from catalogue_desktop.core.query.fields import OFFERINGS, SCHEMA, Field, FieldType
from catalogue_desktop.core.query.lexicon import FIELD_ORDER, STOP, Lexicon, Person, Titled, keys, singular
from catalogue_desktop.core.query.syntax import quote
from catalogue_desktop.core.records.regions import CODES


@dataclass(frozen=True)
class Token:
    """One word (or a hyphen's piece of one) of the typed text: ``key`` compared, ``raw`` as typed
    (edge punctuation stripped), ``start``/``end`` the whole typed word's span, ``word`` its
    number, ``upper`` whether it was typed in capitals."""

    key: str
    raw: str
    start: int
    end: int
    word: int
    upper: bool = False


@dataclass(frozen=True)
class Match:
    """What ``size`` tokens mean: ``what`` is glue, condition, kind, sort or not (a negation of what
    follows); ``clause`` the query language, ``label`` in words, ``other`` another reading."""

    size: int
    what: str
    clause: str = ""
    label: str = ""
    other: str | None = None
    table: str | None = None
    rank: int = 0  # among matches of one size, the lower wins


@dataclass(frozen=True)
class Context:
    lexicon: Lexicon
    table: str | None  # the table the reading is for (None: any)
    now: datetime


def has(ctx: Context, name: str) -> bool:
    """Whether the table has field ``name`` by that name (any table does when the reading is for
    none; a kind's own name, the title's alias on its tab, does not count)."""
    if ctx.table is None:
        return True
    found = SCHEMA.field(ctx.table, name)
    return found is not None and found.name == name


class Phrases(dict[tuple[str, ...], str]):
    """Phrases (as key tuples) -> their value; ``longest`` the most words one has."""

    longest = 0
    starts: frozenset[tuple[str, ...]] = frozenset()  # each phrase's first word, as a 1-tuple


def _phrases(spec: dict[str, Sequence[str]]) -> Phrases:
    """Phrases (a string may list several, separated by commas) -> their value."""
    found = Phrases(
        (tuple(p.split()), value) for value, texts in spec.items() for text in texts for p in text.split(",")
    )
    found.longest = max(map(len, found), default=0)
    found.starts = frozenset((k[0],) for k in found)
    return found


def _longest(table: Phrases, toks: Sequence[Token], i: int) -> tuple[int, str] | None:
    if i >= len(toks) or (toks[i].key,) not in table.starts:
        return None
    keys = tuple(t.key for t in toks[i : i + table.longest])
    best = None
    for size in range(1, len(keys) + 1):
        found = table.get(keys[:size])
        if found is not None:
            best = (size, found)
    return best


_EXTRA_GLUE = (
    "how many",
    "how much",
    "do you have",
    "you have",
    "got any",
    "are there any",
    "im",
    "it",
    "starting",
    "start",
    "starts",
    "beginning",
    "begins",
    "dr",
    "mr",
    "mrs",
    "ms",
    "prof",
    "w",
    "held",
    "held in",
    "offer",
    "near me",
    "whatever",
    "kind of",
    "type of",
    "types of",
    "kinds of",
)

# -- glue ------------------------------------------------------------------------------------------

GLUE = frozenset(
    tuple(p.split())
    for p in [
        *_EXTRA_GLUE,
        "the",
        "a",
        "an",
        "any",
        "anything",
        "all",
        "in",
        "on",
        "for",
        "with",
        "about",
        "at",
        "of",
        "by",
        "from",
        "to",
        "within",
        "around",
        "near",
        "during",
        "that",
        "which",
        "what",
        "whats",
        "where",
        "when",
        "who",
        "is",
        "are",
        "do",
        "does",
        "have",
        "has",
        "got",
        "available",
        "offered",
        "happening",
        "scheduled",
        "held",
        "running",
        "please",
        "can",
        "you",
        "i",
        "we",
        "our",
        "us",
        "some",
        "me",
        "show",
        "list",
        "find",
        "search",
        "named",
        "called",
        "stuff",
        "things",
        "something",
        "there",
        "and",
        "used",
        "taught",
        "presented",
        "led",
        "hosted",
        "given",
        "featuring",
        "covering",
        "regarding",
        "related",
        "session",
        "sessions",
        "credit",
        "credits",
        "eligible",
        "listed",
        "only",
        "just",
        "get",
        "see",
        "give",
        "want",
        "need",
        "looking",
        "program",
        "programs",
        "ones",
        "one's",
        "thats",
        "whose",
        "also",
    ]
) | frozenset(
    tuple(p.split())
    for p in (
        "show me",
        "give me",
        "is there",
        "are there",
        "do we have",
        "looking for",
        "i need",
        "taught by",
        "presented by",
        "led by",
        "given by",
        "hosted by",
        "used by",
        "related to",
        "who went to",
        "went to",
        "studied at",
        "what is on",
        "on the topic of",
    )
)
_BY = frozenset({"by", "with", "featuring", "from", "named", "called"})


# Words people add that cannot narrow a catalogue question: glue, unless the catalogue's own
# titles use them (then they name something in the data and stay words to find).
FILLER = frozenset(
    tuple(p.split())
    for p in (
        "everything",
        "anything",
        "all",
        "every",
        "both",  # (cle and cpe: both, as the words beside it say)
        "either",
        "something",
        "stuff",
        "option",
        "options",
        "choice",
        "choices",
        "available",
        "availability",
        "offered",
        "offering now",
        "currently",
        "current",
        "open",
        "do you have",
        "do you guys have",
        "do we have",
        "do we offer",
        "do you offer",
        "we offer",
        "you offer",
        "are there",
        "is there",
        "i need",
        "we need",
        "need",
        "needs",
        "i want",
        "want",
        "wants",
        "looking for",
        "im looking for",
        "looking",
        "searching for",
        "please",
        "pls",
        "plz",
        "thanks",
        "thank you",
        "thx",
        "ty",
        "hi",
        "hello",
        "hey",
        "list",
        "list of",
        "listing",
        "find",
        "find me",
        "give me",
        "get me",
        "pull up",
        "can you",
        "could you",
        "can i",
        "can i see",
        "can i get",
        "id like",
        "i would like",
        "would like",
        "like",
        "which",
        "which ones",
        "what are",
        "what do we have",
        "whats available",
        "lookup",
        "look up",
        "check",
        "tell me",
        "info",
        "information",
        "details on",
        "quick",
        "asap",
        "kindly",
        "maybe",
        "really",
        "still",
        "there",
        "here",
        "ones",
        "customer",
        "client",
        "my client",
        "a client",
        "for a client",
        "for my client",
        "wants to know",
        "asking",
        "asking about",
        "interested in",
        "good",
        "also",
        "again",
        "right now",
        "now",
        "at the moment",
        "be",
        "will",
        "would",
        "could",
        "should",
        "there be",
        "going on",
        "taking place",
        "take place",
        "coming",
        "i",
        "u",
        "ya",
        "popular",
        "most popular",
        "top",
        "best",
        "recommended",
        "featured",
        "new",
        "teaching",
        "teaches",
        "teach",
        "speaking",
        "speaking on",
        "speaks",
        "speaks on",
        "talks",
        "talking about",
        "type",
        "kind",
        "happen",
        "happens",
        "include",
        "includes",
        "including",
        "containing",
        "contains",
        "contain",
        "between",
        "events",
    )
)


def glue(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    out = []
    titles = ctx.lexicon.index.at_word
    for size in range(1, min(5, len(toks) - i) + 1):
        words = tuple(t.key for t in toks[i : i + size])
        if words in GLUE or (words in FILLER and not any(w in titles for w in words if w not in STOP)):
            out.append(Match(size, "glue", rank=9))
    return out


# -- kinds (the tab to show) -------------------------------------------------------------------------

KIND_WORDS = _phrases(
    {
        "courses": ("course,courses,class,classes,seminar,seminars", "in person courses"),
        "webinars": ("webinar,webinars", "web seminar", "web seminars", "online webinars"),
        "series": ("series", "webinar series"),
        "certificates": (
            "certificate,certificates,cert,certs,certification,certifications",
            "certificate program",
            "certificate programs",
        ),
        "experts": (
            "expert,experts,speaker,speakers,presenter,presenters,instructor,instructors,faculty,trainers",
        ),
        "topics": ("topic,topics,subject,subjects",),
        "roles": ("role,roles",),
        "situations": ("situation,situations",),
        OFFERINGS: ("date,dates,offering,offerings,schedule,calendar,events", "whats on", "what on"),
    }
)
# The value ``kind:`` takes to name each tab: the table's own name, plural (``fields.tab_of_kind``;
# on the Dates tab, kind:course is the occasions of courses, as it always was).
KIND_VALUE = {table: table for table in KIND_WORDS.values()} | {OFFERINGS: "dates"}
KIND_LABEL = {OFFERINGS: "Dates"}


def kind(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    found = _longest(_KINDS, toks, i)
    if found is None:
        return []
    size, table = found
    label = KIND_LABEL.get(table, table.capitalize())
    weak = tuple(t.key for t in toks[i : i + size]) in (("whats", "on"), ("what", "on"))
    return [Match(size, "kind", f"kind:{KIND_VALUE[table]}", label, table=table, rank=5 if weak else 1)]


_KINDS = KIND_WORDS
_PERSON = _phrases({"": ("in person", "inperson", "classroom", "onsite", "on site", "face to face")})
_ONLINE = _phrases({"": ("online", "virtual", "remote")})


def place_kind(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    """ "in person" (courses) and "online" (webinars and sessions): a filter on the Dates tab, the
    tab to show elsewhere."""
    person = _longest(_PERSON, toks, i)
    if person is not None:
        if ctx.table in (None, OFFERINGS):
            return [Match(person[0], "condition", "has:location", "in person")]
        # (on Courses too: the tab it names, shown as a chip and kept in the query when the words
        # were typed on another tab and the reading moved there)
        return [Match(person[0], "kind", "kind:courses", "Courses", table="courses")]
    online = _longest(_ONLINE, toks, i)
    if online is not None:
        if ctx.table in (None, OFFERINGS):
            return [Match(online[0], "condition", "no:location", "online")]
        return [Match(online[0], "kind", "kind:webinars", "Webinars", table="webinars")]
    return []


# -- credits, types, levels ------------------------------------------------------------------------

_CREDITS = _phrases(
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
_NO_CREDIT = _phrases({"": ("no", "without", "non", "not", "excluding", "without any")})


def credit(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    out = []
    neg = _longest(_NO_CREDIT, toks, i)
    at = i + (neg[0] if neg else 0)
    found = _longest(_CREDITS, toks, at)
    if found is not None and has(ctx, found[1]):
        name = found[1]
        if neg:
            out.append(Match(neg[0] + found[0], "condition", f"{name}:no", f"no {name.upper()} credit"))
        else:
            plain = _longest(_CREDITS, toks, i)
            if plain is not None:
                out.append(Match(plain[0], "condition", f"{name}:yes", f"{name.upper()} credit"))
    return out


_ON_DEMAND = _phrases(
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
_LIVE = _phrases({"": ("live,livestream,livestreamed", "live stream", "real time", "live online")})


def webinar_type(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    lexicon = ctx.lexicon
    labels = lexicon.index.labels
    out = []
    on_demand = _longest(_ON_DEMAND, toks, i)
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
    live = _longest(_LIVE, toks, i)
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


# -- order -----------------------------------------------------------------------------------------

_ORDER = _phrases(
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
_VAGUE_PRICE = _phrases(
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
_FREE = _phrases({"": ("free", "free of charge", "no cost", "no charge", "complimentary", "at no cost")})


_MOST = _phrases(
    {
        "-": ("most", "the most", "most number of", "highest number of"),
        "": ("fewest", "the fewest", "least", "the least"),
    }
)


def order(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    out = []
    most = _longest(_MOST, toks, i)
    if most is not None and ctx.table is not None:  # "topics with the most webinars"
        field = _counted(toks, i + most[0], ctx)
        if field is not None:
            words = "most" if most[1] else "fewest"
            out.append(Match(most[0] + 1, "sort", f"sort:{most[1]}{field}", f"{words} {field} first"))
    found = _longest(_ORDER, toks, i)
    if found is not None and has(ctx, found[1].lstrip("-")):
        size, key = found
        out.append(Match(size, "sort", f"sort:{key}", SORT_LABEL[key]))
    vague = _longest(_VAGUE_PRICE, toks, i)
    if vague is not None and not (vague[0] == 1 and toks[i].key in ctx.lexicon.index.at_word):
        size, key = vague
        if has(ctx, "fee"):
            out.append(Match(size, "sort", f"sort:{key}", SORT_LABEL[key], rank=1))
        else:
            out.append(Match(size, "glue", rank=9))
    free = _longest(_FREE, toks, i)
    if (
        free is not None
        and has(ctx, "fee")
        and not (free[0] == 1 and toks[i].key in ctx.lexicon.index.at_word)
    ):
        out.append(Match(free[0], "condition", "fee:0", "free"))
    return out


# -- places ----------------------------------------------------------------------------------------

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
    from catalogue_desktop.core.query.lexicon import keys
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
    if named is not None:  # "washington state", "the state of texas": the state, never the city
        size, code = named
        if has(ctx, "state"):
            return [Match(size, "condition", f"state:{code}", regions.name_of(code) or code, rank=-1)]
        return []
    state = _state_name(toks, i)
    index = ctx.lexicon.index
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
                regions.name_of(state[1]) or state[1],
                other,
                rank=rank,
            )
        )
    if city and has(ctx, "city"):
        other = state_clause if state and state[0] == city[0] and has(ctx, "state") else None
        out.append(Match(city[0], "condition", city_clause or "", city[1], other))
    return out


_CANADA = tuple(list(CODES)[list(CODES).index("AB") :])  # the provinces and territories
_COUNTRIES = _phrases(
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
    found = _longest(_COUNTRIES, toks, i)
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


# -- when ------------------------------------------------------------------------------------------

MONTHS = {
    name: number
    for number in range(1, 13)
    for name in {calendar.month_name[number].lower(), calendar.month_abbr[number].lower()}
} | {"sept": 9}
_QUARTER = re.compile(r"q([1-4])")
_ORDINAL = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4}
_SEASONS = {"spring": (3, 5), "summer": (6, 8), "fall": (9, 11), "autumn": (9, 11), "winter": (12, 2)}
NUMBER_WORDS = {
    w: n
    for n, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
        ]
    )
} | {
    "a": 1,
    "couple": 2,
    "few": 3,
    "fourteen": 14,
    "fifteen": 15,
    "twenty": 20,
    "thirty": 30,
    "sixty": 60,
    "ninety": 90,
}
_RELATIVE = _phrases(
    {
        "today": ("today", "tonight", "todays"),
        "tomorrow": ("tomorrow", "tomorrows"),
        "this-week": ("this week", "current week", "this weeks"),
        "next-week": ("next week", "coming week", "next weeks", "this coming week", "the coming week"),
        "last-week": ("last week",),
        "this-month": ("this month", "current month"),
        "next-month": ("next month", "coming month", "next months", "this coming month"),
        "last-month": ("last month",),
        "this-quarter": ("this quarter", "current quarter"),
        "next-quarter": ("next quarter", "coming quarter"),
        "last-quarter": ("last quarter",),
        "this-year": ("this year", "current year"),
        "next-year": ("next year", "coming year"),
        "last-year": ("last year",),
        "future": ("upcoming", "coming up", "future"),
        "next30d": ("soon", "coming soon"),
    }
)
_RELATIVE_LABEL = {"future": "upcoming", "next30d": "in the next 30 days"}
_UNIT = {
    "day": "d",
    "days": "d",
    "week": "w",
    "weeks": "w",
    "month": "m",
    "months": "m",
    "year": "y",
    "years": "y",
}
_RANGE_START = frozenset({"between", "from"})
_RANGE_JOIN = frozenset({"and", "to", "through", "thru", "until", "till"})


def _year(tok: Token | None) -> int | None:
    if tok is not None and tok.key.isdigit() and len(tok.key) == 4 and 2000 <= int(tok.key) <= 2099:
        return int(tok.key)
    return None


def _month_at(toks: Sequence[Token], i: int, today: date) -> tuple[int, int, int, bool] | None:
    """(tokens used, year, month, whether a year was written) of a month named at ``i``."""
    if i >= len(toks) or toks[i].key not in MONTHS:
        return None
    month = MONTHS[toks[i].key]
    j = i + 1
    if j < len(toks) and toks[j].key == "of" and _year(toks[j + 1] if j + 1 < len(toks) else None):
        j += 1
    year = _year(toks[j] if j < len(toks) else None)
    if year is None and j < len(toks) and re.fullmatch(r"'\d\d", toks[j].raw):  # mar '27
        year = 2000 + int(toks[j].raw[1:])
    if year is not None:
        return j + 1 - i, year, month, True
    return 1, today.year + (month < today.month), month, False


def _month_text(year: int, month: int) -> str:
    return f"{year:04d}-{month:02d}"


_ENDING = frozenset({"ending", "ends", "finishing", "finishes", "wrapping", "concluding"})


def when(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    if not has(ctx, "starts"):
        return []
    if toks[i].key in _ENDING and has(ctx, "ends"):  # "ending in march": the end date
        j = i + 1 + (i + 1 < len(toks) and toks[i + 1].key in ("in", "on", "by", "before", "after"))
        lead = toks[i + 1].key in ("by", "before", "after") if i + 1 < len(toks) else False
        found = when(toks, j - lead, ctx) if j - lead < len(toks) else []
        return [
            Match(
                m.size + j - lead - i,
                "condition",
                "ends:" + m.clause.removeprefix("starts:"),
                f"ending {m.label}",
            )
            for m in found
            if m.clause.startswith("starts:")
        ]
    today = ctx.now.date()
    out: list[Match] = []
    rel = _longest(_RELATIVE, toks, i)
    if rel is not None:
        size, word = rel
        clause = word if word == "future" else f"starts:{word}"
        out.append(Match(size, "condition", clause, _RELATIVE_LABEL.get(word, word.replace("-", " "))))
    out += _window(toks, i)
    month = _month_at(toks, i, today)
    if month is not None:
        size, year, m, _ = month
        out.append(
            Match(size, "condition", f"starts:{_month_text(year, m)}", f"{calendar.month_name[m]} {year}")
        )
        out += _month_range(toks, i, i + size, year, m, month[3], today)
    if toks[i].key in _RANGE_START:
        begin = _month_at(toks, i + 1, today)
        if begin is not None:
            out += _month_range(toks, i, i + 1 + begin[0], begin[1], begin[2], begin[3], today)
    bare = _year(toks[i])
    if bare is not None:
        out.append(Match(1, "condition", f"starts:{bare}", str(bare)))
        quarter = _QUARTER.fullmatch(toks[i + 1].key) if i + 1 < len(toks) else None
        if quarter:
            q = int(quarter.group(1))
            out.append(Match(2, "condition", f"starts:{bare}-Q{q}", f"Q{q} {bare}"))
    out += _quarter(toks, i, today)
    out += _season(toks, i, today)
    out += _open_range(toks, i, today)
    out += _part(toks, i, today)
    out += _until(toks, i, today)
    out += _day(toks, i, today)
    out += _joined_dates(toks, i, today)
    out += _weekday(toks, i, today)
    out += _weekend(toks, i, today)
    return out


_BY_WORDS = frozenset({"by", "before", "until", "till", "til", "thru", "through"})
_ENDS = _phrases(
    {
        "12-31": (
            "year end,yearend,eoy",
            "end of year",
            "end of the year",
            "the end of the year",
            "new year,new years",
            "the new year",
            "the holidays,holidays",
        ),
        "12-24": ("christmas,xmas",),
        "month": ("month end", "end of month", "end of the month", "the end of the month", "eom"),
        "quarter": ("quarter end", "end of quarter", "end of the quarter", "the end of the quarter", "eoq"),
    }
)


_REST = _phrases(
    {
        "12-31": ("rest of the year", "rest of this year", "remainder of the year", "rest of year"),
        "month": ("rest of the month", "rest of this month", "remainder of the month"),
        "quarter": ("rest of the quarter", "rest of this quarter"),
    }
)


def _until(toks: Sequence[Token], i: int, today: date) -> list[Match]:
    """``by year end``, ``before christmas``, ``by the end of the month``, ``rest of the year``:
    from today to then."""
    rest = _longest(_REST, toks, i)
    if rest is not None:
        found: tuple[int, str] | None = (rest[0] - 1, rest[1])
    elif toks[i].key in _BY_WORDS:
        found = _longest(_ENDS, toks, i + 1)
    else:
        return []
    if found is None:
        return []
    size, end = found
    if end == "month":
        last = date(today.year, today.month, calendar.monthrange(today.year, today.month)[1])
    elif end == "quarter":
        q_last = ((today.month - 1) // 3 + 1) * 3
        last = date(today.year, q_last, calendar.monthrange(today.year, q_last)[1])
    else:
        month, day = map(int, end.split("-"))
        last = date(today.year, month, day)
        if last < today:
            last = date(today.year + 1, month, day)
    label = f"from today to {last:%B} {last.day}, {last.year}"
    return [Match(size + 1, "condition", f"starts:{today.isoformat()}..{last.isoformat()}", label, rank=-1)]


_DAY = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?")


def _day_of(tok: Token | None) -> int | None:
    match = _DAY.fullmatch(tok.key) if tok is not None else None
    return int(match.group(1)) if match and 1 <= int(match.group(1)) <= 31 else None


def _day(toks: Sequence[Token], i: int, today: date) -> list[Match]:
    """A day: ``march 3rd``, ``march 3``, ``mar 3 2027``, ``3rd of march``, ``the 3rd of march``."""
    if i >= len(toks):
        return []
    j = i + (toks[i].key == "the")
    day = _day_of(toks[j]) if j < len(toks) else None
    if day is not None and (j > i or toks[j].key != str(day)):
        k = j + 1 + (j + 1 < len(toks) and toks[j + 1].key == "of")
        month = _month_at(toks, k, today)
        if month is None:
            return []
        size, year, m, _ = month
        end = k + size
    else:
        month = _month_at(toks, i, today)
        if month is None or month[3]:
            return []
        day = _day_of(toks[i + 1] if i + 1 < len(toks) else None)
        if day is None:
            return []
        _, year, m, _ = month
        end = i + 2
        written = _year(toks[end] if end < len(toks) else None)
        if written is not None:
            year, end = written, end + 1
        elif (year, m, day) < (today.year, today.month, today.day):
            year += 1
    if day > calendar.monthrange(year, m)[1]:
        return []
    found = date(year, m, day)
    out = [Match(end - i, "condition", f"starts:{found.isoformat()}", f"{found:%B} {day}, {year}")]
    if end < len(toks) and toks[end].key in _RANGE_JOIN and not (i > 0 and toks[i - 1].key in _BY_WORDS):
        second = _day(toks, end + 1, today) or _joined_dates(toks, end + 1, today)
        if second and second[0].clause.count("-") == 2 and ".." not in second[0].clause:
            hi = second[0].clause.removeprefix("starts:")
            span = f"starts:{found.isoformat()}..{hi}"
            out.append(
                Match(end + 1 + second[0].size - i, "condition", span, f"{out[0].label} to {second[0].label}")
            )
    return out


def _joined_dates(toks: Sequence[Token], i: int, today: date) -> list[Match]:
    """One typed word of two dates: ``jan-mar`` (the months from one to the other), ``q1-q2``,
    ``12/2026`` and ``3/2027`` (a month of a year)."""
    if i + 1 >= len(toks) or toks[i + 1].word != toks[i].word:
        return []
    a, b = toks[i].key, toks[i + 1].key
    if a.isdigit() and b.isdigit() and 1 <= int(a) <= 12 and 1 <= int(b) <= 31 and len(b) <= 2:
        month, day = int(a), int(b)  # 3/15: a day (the coming one)
        year = today.year + ((month, day) < (today.month, today.day))
        if day <= calendar.monthrange(year, month)[1]:
            found = date(year, month, day)
            out = [Match(2, "condition", f"starts:{found.isoformat()}", f"{found:%B} {day}, {year}", rank=-1)]
            if i + 2 < len(toks) and toks[i + 2].key in _RANGE_JOIN:
                second = _joined_dates(toks, i + 3, today)
                if second and ".." not in second[0].clause and second[0].clause.count("-") == 2:
                    span = f"starts:{found.isoformat()}..{second[0].clause.removeprefix('starts:')}"
                    out.append(
                        Match(
                            3 + second[0].size,
                            "condition",
                            span,
                            f"{out[0].label} to {second[0].label}",
                            rank=-1,
                        )
                    )
            return out
    if a.isdigit() and 1 <= int(a) <= 12 and _year(toks[i + 1]) is not None:
        month = int(a)
        return [
            Match(
                2,
                "condition",
                f"starts:{_month_text(int(b), month)}",
                f"{calendar.month_name[month]} {b}",
                rank=-1,
            )
        ]
    one, two = _month_at(toks, i, today), _month_at(toks, i + 1, today)
    if one is not None and two is not None and one[0] == 1:
        y1, m1 = one[1], one[2]
        y2 = two[1] if two[3] else y1 + (two[2] < m1)
        span = f"starts:{_month_text(y1, m1)}..{_month_text(y2, two[2])}"
        return [
            Match(
                1 + two[0],
                "condition",
                span,
                f"{calendar.month_name[m1]} to {calendar.month_name[two[2]]}",
                rank=-1,
            )
        ]
    q1, q2 = _QUARTER.fullmatch(a), _QUARTER.fullmatch(b)
    if q1 and q2:
        given = _year(toks[i + 2]) if i + 2 < len(toks) else None
        lo, hi = _quarter(toks, i, today), _quarter(toks, i + 1, today)
        if given is not None:
            lo_text, hi_text = f"{given}-Q{q1.group(1)}", f"{given}-Q{q2.group(1)}"
        else:
            lo_text, hi_text = lo[0].clause.removeprefix("starts:"), hi[0].clause.removeprefix("starts:")
            if hi_text < lo_text:
                hi_text = f"{int(lo_text[:4]) + (q2.group(1) < q1.group(1))}-Q{q2.group(1)}"
        size = 2 + (given is not None)
        return [Match(size, "condition", f"starts:{lo_text}..{hi_text}", f"{lo_text} to {hi_text}", rank=-1)]
    return []


_WEEKDAYS = {
    name: number
    for number in range(7)
    for name in (
        calendar.day_name[number].lower(),
        calendar.day_abbr[number].lower(),
        calendar.day_name[number].lower() + "s",
    )
} | {"tues": 1, "thur": 3, "thurs": 3, "weds": 2}


def _weekday(toks: Sequence[Token], i: int, today: date) -> list[Match]:
    """``tuesday``, ``this tuesday``, ``next tuesday``: the coming one (a week on when it is today
    and "next" was said)."""
    lead = toks[i].key in ("this", "next", "coming") and i + 1 < len(toks)
    at = i + lead
    day = _WEEKDAYS.get(toks[at].key)
    if day is None:
        return []
    ahead = (day - today.weekday()) % 7
    if ahead == 0 and toks[i].key == "next":
        ahead = 7
    found = date.fromordinal(today.toordinal() + ahead)
    return [Match(at + 1 - i, "condition", f"starts:{found.isoformat()}", f"{found:%A, %B} {found.day}")]


def _weekend(toks: Sequence[Token], i: int, today: date) -> list[Match]:
    """``this weekend`` (the coming Saturday and Sunday; this one while it lasts), ``next
    weekend`` (the one after)."""
    if i + 1 >= len(toks) or toks[i + 1].key not in ("weekend", "weekends"):
        return []
    key = toks[i].key
    if key not in ("this", "next", "coming"):
        return []
    saturday = date.fromordinal(today.toordinal() + (5 - today.weekday()) % 7)
    if today.weekday() == 6:  # a Sunday: this weekend is today
        saturday = date.fromordinal(today.toordinal() - 1)
    if key == "next":
        saturday = date.fromordinal(saturday.toordinal() + 7)
    sunday = date.fromordinal(saturday.toordinal() + 1)
    return [Match(2, "condition", f"starts:{saturday.isoformat()}..{sunday.isoformat()}", f"{key} weekend")]


# Parts of a year, season, quarter or month: early = the first half, mid = the middle half, late
# (end of) = the second half; of a season or quarter (three months): its first, middle, last month.
_PART = _phrases(
    {
        "early": (
            "early,earlyish",
            "early in",
            "beginning of",
            "beginning",
            "start of",
            "first half of",
            "first half",
            "1st half of",
            "1st half",
            "first part of",
            "h1",
        ),
        "mid": ("mid,middle,midyear", "middle of", "mid of", "midway through", "mid year"),
        "late": (
            "late,later,lateish",
            "late in",
            "later in",
            "end of",
            "second half of",
            "second half",
            "2nd half of",
            "2nd half",
            "latter half of",
            "last part of",
            "towards the end of",
            "toward the end of",
            "h2",
        ),
    }
)
_HALF_ALONE = frozenset(
    {("first", "half"), ("second", "half"), ("1st", "half"), ("2nd", "half"), ("h1",), ("h2",)}
)
_PART_LABEL = {"early": "early", "mid": "mid", "late": "late"}


def _span_at(toks: Sequence[Token], j: int, today: date) -> tuple[int, str, int, int, int] | None:
    """What a part is of, at ``j``: (tokens used, "year"/"month"/"months", year, first month,
    last month) of a year, "this year", a month [year], a season [year] or a quarter [year]."""
    if j >= len(toks):
        return None
    key = toks[j].key
    year = _year(toks[j])
    if year is not None:
        return 1, "year", year, 1, 12
    if key == "year" or (key == "the" and j + 1 < len(toks) and toks[j + 1].key == "year"):
        return 1 + (key == "the"), "year", today.year, 1, 12
    if key in ("this", "next", "coming") and j + 1 < len(toks) and toks[j + 1].key in ("year", "month"):
        if toks[j + 1].key == "year":
            return 2, "year", today.year + (key != "this"), 1, 12
        y, m0 = divmod(today.year * 12 + today.month - 1 + (key != "this"), 12)
        return 2, "month", y, m0 + 1, m0 + 1
    month = _month_at(toks, j, today)
    if month is not None:
        return month[0], "month", month[1], month[2], month[2]
    for found in _season(toks, j, today) + _quarter(toks, j, today):
        lo, _, hi = found.clause.removeprefix("starts:").partition("..")
        if not hi:  # a quarter: 2027-Q1
            year_text, quarter_text = lo.split("-Q")
            first = (int(quarter_text) - 1) * 3 + 1
            return found.size, "months", int(year_text), first, first + 2
        (y1, m1), (y2, m2) = (map(int, lo.split("-")), map(int, hi.split("-")))
        return found.size, "months", y1, m1, m1 + (y2 - y1) * 12 + m2 - m1
    return None


def _part(toks: Sequence[Token], i: int, today: date) -> list[Match]:
    """``early 2027``, ``end of january``, ``late spring``, ``first half of 2027``, ``mid march``,
    ``second half`` (of this year; next year's when this one's is over)."""
    lead = _longest(_PART, toks, i)
    if lead is None:
        return []
    size, part = lead
    j = i + size
    if j < len(toks) and toks[j].key in ("of", "in", "the") and toks[j - 1].key not in ("of", "in"):
        j += 1 + (j + 1 < len(toks) and toks[j + 1].key == "the")
    span = _span_at(toks, j, today)
    if span is None:
        if tuple(t.key for t in toks[i : i + size]) not in _HALF_ALONE:
            return []
        year = today.year + (part == "early" and today.month > 6)
        span, j = (0, "year", year, 1, 12), i + size
    used, what, year, first, last = span
    if what == "month":
        end_day = calendar.monthrange(year, first)[1]
        days = {"early": (1, 15), "mid": (8, 22), "late": (16, end_day)}[part]
        lo = f"{_month_text(year, first)}-{days[0]:02d}"
        hi = f"{_month_text(year, first)}-{days[1]:02d}"
        label = f"{part} {calendar.month_name[first]} {year}"
    else:
        length = last - first + 1
        if what == "year":
            a, b = {"early": (0, 5), "mid": (3, 8), "late": (6, 11)}[part]
        else:
            a, b = {"early": (0, 0), "mid": (length // 2, length // 2), "late": (length - 1, length - 1)}[
                part
            ]
        y1, m1 = divmod(year * 12 + first - 1 + a, 12)
        y2, m2 = divmod(year * 12 + first - 1 + b, 12)
        lo, hi = _month_text(y1, m1 + 1), _month_text(y2, m2 + 1)
        label = (
            f"{part} {year}" if what == "year" else f"{part} {' '.join(t.raw for t in toks[j : j + used])}"
        )
    return [Match(j + used - i, "condition", f"starts:{lo}..{hi}", label, rank=-1)]


def _season(toks: Sequence[Token], i: int, today: date) -> list[Match]:
    """``summer``, ``summer 2027``, ``this fall``, ``next spring``: its months."""
    lead = toks[i].key in ("this", "next", "coming") and i + 1 < len(toks)
    at = i + 1 if lead else i
    season = _SEASONS.get(toks[at].key)
    if season is None:
        return []
    given = _year(toks[at + 1] if at + 1 < len(toks) else None)
    first, last = season
    wraps = first > last
    y = given if given is not None else today.year + (today.month > last if wraps else last < today.month)
    lo_year = y - 1 if first > last else y
    span = f"starts:{_month_text(lo_year, first)}..{_month_text(y, last)}"
    size = at - i + 1 + (given is not None)
    return [Match(size, "condition", span, f"{toks[at].key} {y}")]


_AFTER_WORDS = frozenset({"after", "since", "starting", "from"})
_BEFORE_WORDS = frozenset({"before", "until", "till", "by"})


def _open_range(toks: Sequence[Token], i: int, today: date) -> list[Match]:
    """``after march``, ``since september`` (the last one), ``before june``: from or up to a month."""
    key = toks[i].key
    if key not in _AFTER_WORDS and key not in _BEFORE_WORDS:
        return []
    day = _day(toks, i + 1, today)
    if day:  # after march 15, before the 3rd of march
        at = day[0].clause.removeprefix("starts:")
        if key in _AFTER_WORDS:
            return [Match(day[0].size + 1, "condition", f"starts:{at}..", f"{key} {day[0].label}")]
        if key != "by":
            return [Match(day[0].size + 1, "condition", f"starts:..{at}", f"before {day[0].label}")]
    year = _year(toks[i + 1]) if i + 1 < len(toks) else None
    if year is not None and (i + 2 >= len(toks) or toks[i + 2].key not in MONTHS):
        if key in _AFTER_WORDS:
            first_year = year + (key == "after")
            return [Match(2, "condition", f"starts:{first_year}..", f"{key} {year}")]
        if key != "by":
            return [Match(2, "condition", f"starts:..{year - 1}", f"before {year}")]
    month = _month_at(toks, i + 1, today)
    if month is None:
        return []
    size, year, m, written = month
    if key == "since" and not written:
        year = today.year - (m > today.month)
    name = f"{calendar.month_name[m]} {year}"
    if key in _AFTER_WORDS:
        start = m + 1 if key == "after" else m
        lo = _month_text(year + (start > 12), (start - 1) % 12 + 1)
        return [Match(size + 1, "condition", f"starts:{lo}..", f"{key} {name}")]
    if key == "by" and not written:
        return []  # "by" is more often a person's
    hi_year, hi = (year, m - 1) if m > 1 else (year - 1, 12)
    return [Match(size + 1, "condition", f"starts:..{_month_text(hi_year, hi)}", f"before {name}")]


def _month_range(
    toks: Sequence[Token], i: int, j: int, year: int, month: int, written: bool, today: date
) -> list[Match]:
    """``[between|from] M1 [Y] and|to|through M2 [Y]``: the months from M1 to M2 (M2 after M1)."""
    if j >= len(toks) or toks[j].key not in _RANGE_JOIN:
        return []
    second = _month_at(toks, j + 1, today)
    if second is None:
        return []
    size, year2, month2, written2 = second
    if not written2:
        year2 = year + (month2 < month)
    if not written and written2:
        year = year2 - (month > month2)
    lo, hi = _month_text(year, month), _month_text(year2, month2)
    label = f"{calendar.month_name[month]} {year} to {calendar.month_name[month2]} {year2}"
    return [Match(j + 1 + size - i, "condition", f"starts:{lo}..{hi}", label)]


def _quarter(toks: Sequence[Token], i: int, today: date) -> list[Match]:
    key = toks[i].key
    quarter = _QUARTER.fullmatch(key)
    size = 1
    if quarter:
        q = int(quarter.group(1))
    elif key in _ORDINAL and i + 1 < len(toks) and toks[i + 1].key == "quarter":
        q, size = _ORDINAL[key], 2
    else:
        return []
    j = i + size
    if j < len(toks) and toks[j].key == "of" and _year(toks[j + 1] if j + 1 < len(toks) else None):
        j += 1
    year = _year(toks[j] if j < len(toks) else None)
    if year is not None:
        size = j + 1 - i
    else:
        year = today.year + (q < (today.month - 1) // 3 + 1)
    return [Match(size, "condition", f"starts:{year}-Q{q}", f"Q{q} {year}")]


def _window(toks: Sequence[Token], i: int) -> list[Match]:
    """``next 30 days``, ``next two weeks``, ``within 3 months``."""
    if toks[i].key not in ("next", "within", "coming", "in") or i + 2 >= len(toks):
        return []
    skip = toks[i + 2].key == "of" and i + 3 < len(toks)  # "next couple of weeks"
    count_key, unit_key = toks[i + 1].key, toks[i + 2 + skip].key
    count = int(count_key) if count_key.isdigit() else NUMBER_WORDS.get(count_key)
    unit = _UNIT.get(unit_key)
    if count is None or unit is None or not 0 < count < 10000:
        return []
    return [Match(3 + skip, "condition", f"starts:next{count}{unit}", f"next {count} {unit_key}")]


# -- money -----------------------------------------------------------------------------------------

_AMOUNT = re.compile(r"\$?((?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d{1,2})?)(k)?\$?")
_CURRENCY = frozenset({"dollars", "dollar", "usd", "bucks", "$"})
_BELOW = _phrases(
    {
        "<": ("under", "below", "less than", "cheaper than", "lower than", "beneath", "<"),
        "<=": ("up to", "at most", "no more than", "not more than", "max", "maximum", "upto", "<="),
        ">": ("over", "above", "more than", "greater than", "pricier than", "more expensive than", ">"),
        ">=": ("at least", "min", "minimum", "starting at", "from", ">="),
    }
)
_AFTER = _phrases(
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


_PRICE_NOUNS = _phrases(
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
    noun = _longest(_PRICE_NOUNS, toks, i)
    if noun is not None and i + noun[0] < len(toks):  # "fees under 1200", "priced below 900"
        priced = [m for m in money(toks, i + noun[0], ctx) if m.what == "condition"]
        if priced:
            widest = max(priced, key=lambda m: m.size)
            return [Match(widest.size + noun[0], "condition", widest.clause, widest.label, rank=widest.rank)]
    out = []
    below = _longest(_BELOW, toks, i)
    if below is not None:
        size, op = below
        value = amount(toks[i + size] if i + size < len(toks) else None)
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
    if value is not None:
        j = _with_currency(toks, i + 1)
        after = _longest(_AFTER, toks, j)
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
    if toks[i].key in _RANGE_START:
        low = amount(toks[i + 1] if i + 1 < len(toks) else None)
        j = _with_currency(toks, i + 2)
        if low is not None and j < len(toks) and toks[j].key in _RANGE_JOIN:
            high = amount(toks[j + 1] if j + 1 < len(toks) else None)
            if high is not None and not (_year(toks[i + 1]) and _year(toks[j + 1]) and has(ctx, "starts")):
                end = _with_currency(toks, j + 2)
                out.append(_range(end - i, low, high))
    return out


def _is_range(toks: Sequence[Token], j: int) -> bool:
    return j < len(toks) and toks[j].key in _RANGE_JOIN


def _range(size: int, low: int | Decimal, high: int | Decimal) -> Match:
    low, high = min(low, high), max(low, high)
    return Match(size, "condition", f"fee:{low}..{high}", f"{_shown(low)} to {_shown(high)}")


def year_range(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    """``between 2027 and 2028``: years, where the table has dates."""
    if toks[i].key not in _RANGE_START or not has(ctx, "starts") or i + 3 >= len(toks):
        return []
    lo, hi = _year(toks[i + 1]), _year(toks[i + 3])
    if lo is None or hi is None or toks[i + 2].key not in _RANGE_JOIN or hi < lo:
        return []
    return [Match(4, "condition", f"starts:{lo}..{hi}", f"{lo} to {hi}", rank=-1)]


# -- counts and absences ---------------------------------------------------------------------------

_COUNTED = {
    "webinar": "webinars",
    "course": "courses",
    "session": "sessions",
    "location": "locations",
    "level": "levels",
    "city": "locations",
    "date": "locations",
    "venue": "locations",
}
_COMPARE = _phrases(
    {
        ">": ("more than", "over", "above", "greater than", ">"),
        ">=": ("at least", "min", "minimum", ">="),
        "<": ("fewer than", "less than", "under", "below", "<"),
        "<=": ("at most", "no more than", "up to", "<="),
        "=": ("exactly", "with", "having", "has"),
    }
)
_COUNT_AFTER = _phrases({">=": ("or more", "and up", "plus"), "<=": ("or fewer", "or less")})
_NONE = frozenset({"no", "zero", "without"})
_SEVERAL = frozenset({"multiple", "several", "many", "various"})
_WITH_SOME = frozenset({"with", "having", "has", "have", "that have"})


def _count_value(tok: Token) -> int | None:
    key = tok.key.rstrip("+")
    if key.isdigit():
        return int(key)
    return NUMBER_WORDS.get(key) if key not in ("a", "few", "couple") else None


def count(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    """``more than 9 webinars``, ``2+ webinars``, ``no courses``, ``one level``: where the table
    counts them."""
    out = []
    cmp = _longest(_COMPARE, toks, i)
    at, op = (i + cmp[0], cmp[1]) if cmp else (i, "=")
    if at < len(toks) and toks[i].key in _NONE:
        field = _counted(toks, i + 1, ctx)
        if field is not None:
            out.append(Match(2, "condition", f"{field}:0", f"no {field}", rank=-1))
    if toks[i].key in _SEVERAL:  # "multiple cities", "several dates": more than one
        field = _counted(toks, i + 1, ctx)
        if field is not None:
            out.append(Match(2, "condition", f"{field}:>1", f"more than one {field}", rank=-1))
    if toks[i].key in _WITH_SOME and ctx.table is not None:  # "topics with webinars": at least one
        field = _counted(toks, i + 1, ctx)
        if field is not None and toks[i + 1].key.endswith("s"):
            out.append(Match(2, "condition", f"{field}:>0", f"with {field}", rank=-1))
    if at >= len(toks):
        return out
    value = _count_value(toks[at])
    if value is None:
        return out
    j = at + 1
    if toks[at].key.endswith("+"):
        op = ">="
    after = _longest(_COUNT_AFTER, toks, j) if op == "=" else None
    if after is not None:
        op, j = after[1], j + after[0]
    field = _counted(toks, j, ctx)
    if field is None:
        return out
    shown = {">": "more than", ">=": "at least", "<": "fewer than", "<=": "at most", "=": ""}[op]
    clause = f"{field}:{value}" if op == "=" else f"{field}:{op}{value}"
    out.append(Match(j + 1 - i, "condition", clause, " ".join(f"{shown} {value} {field}".split()), rank=-1))
    return out


def _counted(toks: Sequence[Token], j: int, ctx: Context) -> str | None:
    if j >= len(toks):
        return None
    field = _COUNTED.get(singular(toks[j].key))
    if field is None or (ctx.table is not None and SCHEMA.field(ctx.table, field) is None):
        return None
    return field


_ABSENT_FIELDS = _phrases(
    {
        "access": (
            "access link",
            "access url",
            "access",
            "join link",
            "joining link",
            "link to join",
            "zoom link",
            "access links",
        ),
        "url": (
            "link",
            "links",
            "url",
            "detail link",
            "details link",
            "detail page",
            "web page",
            "webpage",
            "page",
        ),
        "expert": (
            "expert",
            "experts",
            "speaker",
            "speakers",
            "presenter",
            "presenters",
            "instructor",
            "instructors",
            "faculty",
        ),
        "topic": ("topic", "topics"),
        "role": ("role", "roles"),
        "situation": ("situation", "situations"),
        "description": ("description", "descriptions"),
        "curriculum": ("curriculum",),
        "starts": ("date", "dates", "start date", "start dates"),
        "ends": ("end date",),
        "fee": ("fee", "price"),
        "image": ("image", "photo", "picture", "headshot", "images", "photos"),
        "bio": ("bio", "biography"),
        "education": ("education",),
        "certificate": ("certificate", "certificates"),
        "series": ("series",),
        "venue": ("venue",),
        "address": ("address",),
    }
)
_ABSENT = _phrases(
    {
        "no": (
            "no",
            "without",
            "with no",
            "missing",
            "lacking",
            "having no",
            "that have no",
            "without a",
            "without an",
            "without any",
            "with no",
            "not in",
            "not in a",
            "not in an",
            "not in any",
            "not part of",
            "not part of a",
            "not part of any",
            "no known",
            "empty",
            "blank",
            "no listed",
            "not having",
            "without the",
            "with missing",
            "with empty",
            "with blank",
            "that are missing",
            "that lack",
            "lack",
            "lacks",
        ),
        "has": (
            "with a",
            "with an",
            "having a",
            "that have a",
            "with its",
            "that has a",
            "that has an",
            "with",
            "having",
            "that have",
            "that has",
            "have",
            "has",
            "who have",
            "who have a",
        ),
    }
)


# Natural words for a field's own words (from its names and the field table's "what").
_FIELD_SYNONYMS = {
    "photo": ("picture", "pic", "headshot", "head shot", "portrait", "photograph"),
    "image": ("picture", "pic", "photo", "graphic", "logo"),
    "description": ("desc", "summary", "blurb", "overview", "abstract", "writeup", "write up"),
    "detail page": (
        "details page",
        "detail link",
        "details link",
        "web page",
        "webpage",
        "page",
        "website",
        "link",
    ),
    " id": (" number", " no"),
    "fee": ("price", "cost", "pricing"),
    "biography": ("bio", "profile"),
    "zip code": ("zip", "postal code", "zipcode", "postcode"),
    "street address": ("address",),
    "access link": ("join link", "zoom link", "meeting link", "webinar link", "access url", "login link"),
    "end date": ("end", "end time", "finish date", "ending date"),
    "start date": ("date", "start", "start time", "starting date", "dates"),
    "production date": ("produced date", "recording date", "recorded date"),
    "curriculum": ("syllabus", "outline", "agenda"),
    "venue": ("venue name", "location name"),
    "education": ("school", "schools", "degree", "degrees"),
    "job title": ("title", "position"),
}
_LEADS = re.compile(r"^(?:a course location's |a location's |a session's |has an? |the |an |a )")


def _field_phrases(f: Field) -> set[str]:
    """The words a field is named by: its names (``sessionId``: "session id"), its "what" in the
    field table ("detail page link": also "detail page"), their natural synonyms and plurals."""
    found = {f.name}
    for name in (f.spec or "", *f.aliases):
        if name:
            found.add(re.sub(r"(?<=[a-z])(?=[A-Z0-9])", " ", name).lower())
    doc = _LEADS.sub("", re.sub(r"\s*\(.*\)", "", f.doc.lower()).strip())
    if not doc.startswith(("number of", "titles of", "the series")) and "'" not in doc.replace("'s id", ""):
        found.add(_LEADS.sub("", doc))
    elif doc.endswith("'s id"):
        found.add(doc.split()[-2].removesuffix("'s") + " id")
    for text in list(found):
        if text.endswith((" link", " url")) and len(text.split()) > 1:
            found.add(text.rsplit(" ", 1)[0])
    for text in list(found):
        for word, others in _FIELD_SYNONYMS.items():
            if text == word or (text.endswith(" " + word) if word[0] != " " else text.endswith(word)):
                found.update(text[: len(text) - len(word)] + o for o in others)
    found |= {t + "s" for t in found if not t.endswith("s") and t[-1:].isalpha()}
    return {" ".join(keys(t)) for t in found if keys(t)}


def _absent_words(table: str | None) -> Phrases:
    """The words of every field ``table`` has (any table: None), and the synonyms above."""
    made = _ABSENT_BY_TABLE.get(table)
    if made is None:
        spec: dict[str, Sequence[str]] = {}
        for f in (f for t, fs in SCHEMA.fields.items() if table in (None, t) for f in fs):
            if f.type in (FieldType.NUMBER, FieldType.BOOL) or f.name in ("kind", "title", "name"):
                continue  # counts and yes/no fields have their own words
            for text in sorted(_field_phrases(f)):
                spec[f.name] = [*spec.get(f.name, ()), text]
        merged = {words: field for words, field in _phrases(spec).items()}
        merged.update(_ABSENT_FIELDS)  # the words people use most: as they were
        made = Phrases(merged)
        made.longest = max(map(len, made), default=0)
        made.starts = frozenset((k[0],) for k in made)
        _ABSENT_BY_TABLE[table] = made
    return made


_ABSENT_BY_TABLE: dict[str | None, Phrases] = {}
_ABSENT_AFTER = _phrases(
    {
        "": (
            "missing",
            "is missing",
            "are missing",
            "empty",
            "is empty",
            "blank",
            "is blank",
            "not set",
            "unset",
        )
    }
)


def absence(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    out = []
    words = _absent_words(ctx.table)
    after_field = _longest(words, toks, i)
    if after_field is not None:  # "description missing", "photo is blank"
        field = after_field[1]
        trail = _longest(_ABSENT_AFTER, toks, i + after_field[0])
        if trail is not None and has(ctx, field):
            size = after_field[0] + trail[0]
            label = f"no {_FIELD_WORDS.get(field, field)}"
            out.append(Match(size, "condition", f"no:{field}", label, rank=-1))
    for size in range(1, min(5, len(toks) - i) + 1):
        lead = _ABSENT.get(tuple(t.key for t in toks[i : i + size]))
        if lead is None:
            continue
        found = _longest(words, toks, i + size)
        if found is None:
            continue
        field = found[1]
        if not has(ctx, field):
            continue
        if (field == "certificate" or field == "series") and ctx.table is None:
            continue
        named = tuple(t.key for t in toks[i + size : i + size + found[0]])
        bare = lead == "has" and toks[i + size - 1].key not in ("a", "an", "its")
        if bare and (ctx.table is None or named in KIND_WORDS):
            continue  # "texas with courses": a kind, not a field
        total = size + found[0]
        if lead == "no":
            out.append(
                Match(total, "condition", f"no:{field}", f"no {_FIELD_WORDS.get(field, field)}", rank=-1)
            )
        else:
            out.append(
                Match(total, "condition", f"has:{field}", f"with {_FIELD_WORDS.get(field, field)}", rank=-1)
            )
    return out


_FIELD_WORDS = {
    "access": "access link",
    "url": "link",
    "starts": "date",
    "ends": "end date",
    "image": "image",
}


# -- people and titles -----------------------------------------------------------------------------


def person(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    """An expert by name or surname (accents and punctuation ignored): a lone first name only
    after "by" or "with"."""
    index = ctx.lexicon.index
    field = "name" if ctx.table == "experts" else "expert"
    if not has(ctx, field) and ctx.table is not None:
        return []
    people = index.by_word.get(toks[i].key)
    if not people:
        return []
    size = 1
    found = list(people)
    while i + size < len(toks):
        narrower = [p for p in found if toks[i + size].key in p.words]
        if not narrower:
            break
        found, size = narrower, size + 1
    typed = [t.key for t in toks[i : i + size]]
    after_by = i > 0 and toks[i - 1].key in _BY
    if size == 1 and not after_by and all(p.words[0] == typed[0] != p.surname for p in found):
        return []  # a first name alone
    return [_person_match(size, found, typed, field, index.people)]


def _person_match(
    size: int, found: list[Person], typed: list[str], field: str, everyone: list[Person]
) -> Match:
    if len(found) == 1:
        p = found[0]
        surname = p.short.split()[-1].lower()
        namesakes = [q for q in everyone if q.surname == p.surname]
        value = surname if len(namesakes) == 1 else p.short.lower()
        return Match(size, "condition", f"{field}:{quote(value)}", p.short, rank=2)
    return Match(size, "condition", f"{field}:{quote(' '.join(typed))}", " ".join(typed).title(), rank=2)


_OWN_TABLE = {
    "topic": "topics",
    "role": "roles",
    "situation": "situations",
    "series": "series",
}
ALIASES = {
    "ip": ("intellectual", "property"),
    "m&a": ("mergers",),
    "cyber": ("cybersecurity",),
    "genai": ("generative", "ai"),
}
_GENERIC = frozenset(
    [
        "center",
        "centre",
        "conference",
        "hall",
        "street",
        "square",
        "learning",
        "professional",
        "education",
        "executive",
        "hotel",
        "resort",
        "the",
        "annual",
        "update",
        "essentials",
        "intensive",
        "boot",
        "camp",
        "program",
        "management",
        "practice",
    ]
)


def titled(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    """A topic, role, situation, series or venue by the words of its title ("privacy", "tax
    pros", "year end close"): typed words that begin consecutive words of one title (a word alone
    is a whole word of it; a word like "in" only inside a hyphenated one: "in-house")."""
    index = ctx.lexicon.index
    typed: list[str] = []  # the keys, aliases expanded ("m&a": "mergers")
    token_of: list[int] = []  # each key's token
    for n, t in enumerate(toks[i : i + 8]):
        for key in ALIASES.get(t.key, (t.key,)):
            typed.append(key)
            token_of.append(n)
    first = singular(typed[0])
    if (toks[i].key,) in KIND_WORDS:
        return []  # "certificates in ...": the kind, not "Certificate in Forensic Accounting"
    hyphenated = i + 1 < len(toks) and toks[i + 1].word == toks[i].word
    if len(first) < 2 or (first in STOP and not hyphenated):
        return []
    words = dict.fromkeys((first, typed[0], *(index.starting(typed[0]) if len(typed[0]) >= 4 else ())))
    best: tuple[int, Titled, int] | None = None
    for word in words:
        single = False  # a title taking the one word was found (they are in order: the first wins)
        for item, start in index.at_word.get(word, ()):
            if len(typed) > 1 and start + 1 < len(item.words) and _names(typed[1], item.words[start + 1], 1):
                used = _extend(typed, item, start)
            elif single or (best is not None and best[0] > 1):
                continue
            else:
                used = _extend(typed[:1], item, start)
            fewest = 1 if ctx.table == _OWN_TABLE.get(item.field) else _FEWEST.get(item.field, 1)
            if item.field == "series" and fewest > 1 and not _in_own_titles(item.words[start], ctx):
                fewest = 1  # a series' word the tab's own titles lack: the series (its sessions)
            if not used or used < fewest or not _applies(item, ctx):
                continue
            if best is None or _better(used, item, best):
                best = (used, item, start)
            single = single or used == 1
    if best is None:
        return []
    used, item, start = best
    value = _value(typed[:used], item, start)
    size = token_of[used - 1] + 1
    field = item.field if has(ctx, item.field) else "title"
    if item.field == "venue" and used == 1 and value in _GENERIC:
        return []
    typed_words = list(dict.fromkeys(t.raw for t in toks[i : i + size]))
    other = " ".join(quote(w) for w in typed_words)  # the words, found anywhere
    # The label says what the clause finds: the title when the whole title was typed, else the
    # words in any such title ("tax" finds every topic with "tax" in it, not one of them).
    whole = value.casefold() == item.title.casefold()
    label = item.title if whole else f"{_NAMED.get(item.field, item.field.capitalize())} “{value}”"
    return [Match(size, "condition", f"{field}:{quote(value)}", label, other=other, rank=3)]


_NAMED = {"topic": "Topic", "expert": "Expert", "role": "Role", "situation": "Situation", "series": "Series"}


_PHRASE_TABLES = (
    "webinars",
    "series",
    "courses",
    "certificates",
    "offerings",
    "topics",
    "roles",
    "situations",
)
_LABELS = frozenset({"topic", "role", "situation"})  # records that label others: wider than a phrase
_ABOUT = frozenset({"about", "on", "in", "regarding", "covering", "re"})


def _title_phrases(ctx: Context) -> list[Mapping[tuple[str, ...], str]]:
    phrases = ctx.lexicon.phrases
    if ctx.table is not None:
        found = phrases.get(ctx.table)
        return [found] if found else []
    return [phrases[t] for t in _PHRASE_TABLES if t in phrases]


def _in_own_titles(word: str, ctx: Context) -> bool:
    return _written_as((word,), _title_phrases(ctx)) is not None


def _written_as(key: tuple[str, ...], tables: list[Mapping[tuple[str, ...], str]]) -> str | None:
    return next((w for t in tables if (w := t.get(key)) is not None), None)


def phrase(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    """Words the titles of the tab's records have together ("lease accounting", "boot camp"):
    that phrase, a free phrase (found in titles, and in series' titles and topics through the
    words). A series' or course's title that the words name is offered instead; a topic, role or
    situation named whole by them (or after "about", "on", "in") is read as it (``titled``)."""
    tables = _title_phrases(ctx)
    if not tables or i + 1 >= len(toks) or toks[i].key in STOP:
        return []
    words = [singular(t.key) for t in toks[i : i + 8]]
    if _written_as(tuple(words[:2]), tables) is None or _strong(toks, i, ctx):
        return []
    size = 1
    while size < len(words):
        key = tuple(words[max(0, size - 2) : size + 1]) if size >= 2 else tuple(words[:2])
        if _written_as(key, tables) is None or _strong(toks, i + size, ctx):
            break
        size += 1
    while size > 1 and words[size - 1] in STOP:
        size -= 1
    if size < 2:
        return []
    written = _written_as(tuple(words[:size]), tables) if size <= 3 else None
    if written is None:
        written = " ".join(t.raw.lower() for t in toks[i : i + size])
    named = [m for m in titled(toks, i, ctx) if m.size == size]
    if named:
        field = named[0].clause.split(":", 1)[0]
        label_field = next((f for f in _LABELS if field == f), None)
        after_about = i > 0 and toks[i - 1].key in _ABOUT
        if label_field is not None or after_about or field == "title":
            return []
    other = named[0].clause if named else " ".join(quote(t.raw) for t in toks[i : i + size])
    return [Match(size, "condition", quote(written), f'"{written}"', other=other, rank=3)]


_MEMBER_LEADS = _phrases(
    {
        "": (
            "in the",
            "in",
            "in a",
            "part of the",
            "part of",
            "part of a",
            "from the",
            "of the",
            "within the",
            "included in the",
            "included in",
            "that are part of the",
            "that count toward the",
            "toward the",
            "towards the",
            "for the",
        ),
        "series": (
            "sessions of",
            "sessions of the",
            "sessions in",
            "sessions in the",
            "episodes of",
            "parts of",
        ),
    }
)
_MEMBER_OF = _phrases(
    {
        "certificate": (
            "certificate,certificates,cert,certs,certification,certifications",
            "certificate program",
            "certificate programs",
            "certification program",
        ),
        "series": ("series", "webinar series"),
    }
)


def member(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    """What a certificate or series holds, named by its title's words: "in the forensic accounting
    certificate", "forensic accounting certificate courses", "part of the audit quality boot camp
    series", "sessions of estate planning intensive" (``certificate:``/``series:``, where the
    tab has the field)."""
    lead = _longest(_MEMBER_LEADS, toks, i)
    at = i + (lead[0] if lead else 0)
    if at >= len(toks):
        return []
    if not (lead and lead[1] == "series") and not any(
        (t.key,) in _MEMBER_OF.starts for t in toks[at + 1 : at + 9]
    ):
        return []  # no "certificate" or "series" after the words
    out = []
    for fld in ("certificate", "series"):
        if ctx.table is None or SCHEMA.field(ctx.table, fld) is None:
            continue
        found = _title_run(toks, at, fld, ctx)
        if found is None:
            continue
        used, item, start = found
        value = _value([t.key for t in toks[at : at + used]], item, start)
        after = _longest(_MEMBER_OF, toks, at + used)
        if after is not None and after[1] == fld:
            size = at + used + after[0] - i
            then = _longest(KIND_WORDS, toks, i + size)
            held = (toks[i + size].key in ("session", "sessions")) if i + size < len(toks) else False
            if lead is None and not held and (then is None or then[1] in ("series", "certificates")):
                continue  # "multistate series": the series, not what it holds
        elif lead is not None and lead[1] == "series" and fld == "series":
            size = at + used - i
        else:
            continue
        out.append(Match(size, "condition", f"{fld}:{quote(value)}", item.title, rank=-1))
    return out


def _title_run(toks: Sequence[Token], at: int, fld: str, ctx: Context) -> tuple[int, Titled, int] | None:
    """The most typed words from ``at`` that are consecutive words of one ``fld`` title."""
    typed = [t.key for t in toks[at : at + 8]]
    best: tuple[int, Titled, int] | None = None
    at_word = ctx.lexicon.index.at_word
    firsts = dict.fromkeys((singular(typed[0]), typed[0]))
    for item, start in (found for first in firsts for found in at_word.get(first, ())):
        if item.field != fld:
            continue
        k = 0
        while k < len(typed) and start + k < len(item.words) and _names(typed[k], item.words[start + k], k):
            k += 1
        if k and (best is None or k > best[0]):
            best = (k, item, start)
    return best


def _strong(toks: Sequence[Token], k: int, ctx: Context) -> bool:
    """Whether a rule other than titles reads the word at ``k`` (a place, a date, a credit ...)."""
    return any(m.what in ("condition", "kind", "sort") for rule in _STRONG for m in rule(toks, k, ctx))


# Courses', certificates' and series' titles name them by two words or more (a series by one
# word the tab's own titles lack too) ("trial advocacy"): one word
# of theirs is better looked for as a word (it finds the records' own titles too).
_FEWEST = {"course": 2, "certificate": 2, "series": 2}


def _better(used: int, item: Titled, best: tuple[int, Titled, int]) -> bool:
    """More words of a title, else a topic before a role ... (``FIELD_ORDER``), else by title."""
    rank = (-used, FIELD_ORDER[item.field], item.title)
    return rank < (-best[0], FIELD_ORDER[best[1].field], best[1].title)


def _applies(item: Titled, ctx: Context) -> bool:
    """The table finds what ``item`` names: by its field, or it is the item's own table (title)."""
    return has(ctx, item.field) or _OWN_TABLE.get(item.field) == ctx.table


def _extend(typed: list[str], item: Titled, start: int) -> int:
    """How many of ``typed`` begin the words of ``item``'s title at ``start``: each key the word
    itself (or its singular), or the beginning of it (0: none, or one word that is not a whole
    word of the title: "audit" is no topic's word)."""
    words = item.words
    k = 0
    while k < len(typed) and start + k < len(words) and _names(typed[k], words[start + k], k):
        k += 1
    while k and (words[start + k - 1] in STOP or (typed[k - 1],) in GLUE):  # not the glue after them
        k -= 1
    if k == 1 and (words[start] in STOP or singular(typed[0]) != words[start] != typed[0]):
        return 0
    return k


def _names(key: str, word: str, k: int) -> bool:
    one = singular(key)
    return (
        key == word or one == word or (word.startswith(one) and (len(one) >= 4 or (k > 0 and len(one) >= 3)))
    )


def _value(typed: list[str], item: Titled, start: int) -> str:
    """The title's words ``typed`` names, as the title writes them, or as typed where a key was
    the beginning of a word ("tax pro")."""
    words = item.words[start : start + len(typed)]
    if all(key == word or singular(key) == word for key, word in zip(typed, words, strict=True)):
        return item.written(start, start + len(typed))
    return " ".join(singular(k) for k in typed)


# -- the rules, in order of preference among matches of one length --------------------------------

Rule = Callable[[Sequence[Token], int, Context], list[Match]]
RULES: tuple[Rule, ...] = (
    member,
    count,
    absence,
    year_range,
    credit,
    webinar_type,
    level,
    order,
    when,
    money,
    place,
    country,
    place_kind,
    kind,
    person,
    phrase,
    titled,
    glue,
)
_STRONG: tuple[Rule, ...] = (
    count,
    absence,
    credit,
    webinar_type,
    order,
    when,
    money,
    place,
    country,
    place_kind,
    kind,
    person,
)
