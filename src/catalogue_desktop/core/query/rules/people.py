"""People and titles: an expert by name, the titles of the catalogue's records (topics, roles,
situations, series, courses ...) and membership ("in the tax series")."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from catalogue_desktop.core.query.fields import SCHEMA
from catalogue_desktop.core.query.lexicon import FIELD_ORDER, STOP, Person, Titled, singular
from catalogue_desktop.core.query.rules.counting import absence, count
from catalogue_desktop.core.query.rules.credits import credit, webinar_type
from catalogue_desktop.core.query.rules.glue import BY, GLUE
from catalogue_desktop.core.query.rules.money import money
from catalogue_desktop.core.query.rules.ordering import order
from catalogue_desktop.core.query.rules.places import country, place
from catalogue_desktop.core.query.rules.tabs import KIND_WORDS, kind, place_kind
from catalogue_desktop.core.query.rules.tokens import (
    Context,
    Match,
    Rule,
    Token,
    has,
    longest_at,
    phrase_table,
)
from catalogue_desktop.core.query.rules.when import when
from catalogue_desktop.core.query.syntax import quote


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
    after_by = i > 0 and toks[i - 1].key in BY
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
            if ctx.table is None and item.field in _ONLY_ELSEWHERE:
                continue  # (every kind at once, as find without --kind: course:lease would keep
                # the certificates naming such a course and leave out the course itself)
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


# Titles whose field only other kinds have (a course's title is ``course:`` on certificates):
# read on a tab, never for every kind at once.
_ONLY_ELSEWHERE = frozenset({"course", "certificate"})

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


_MEMBER_LEADS = phrase_table(
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
_MEMBER_OF = phrase_table(
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
    lead = longest_at(_MEMBER_LEADS, toks, i)
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
        after = longest_at(_MEMBER_OF, toks, at + used)
        if after is not None and after[1] == fld:
            size = at + used + after[0] - i
            then = longest_at(KIND_WORDS, toks, i + size)
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


# The rules other than titles that ``_strong`` asks (a place, a date, a credit ...).
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
