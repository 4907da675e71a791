"""Counts and absences: how many of something a record has ("with 3 or more sessions", "several
experts"), and the fields it lacks ("no location", "without a fee")."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace

from catalogue_desktop.core.query.fields import SCHEMA, Field, FieldType
from catalogue_desktop.core.query.lexicon import keys, singular
from catalogue_desktop.core.query.rules.places import place
from catalogue_desktop.core.query.rules.tabs import KIND_WORDS
from catalogue_desktop.core.query.rules.tokens import (
    Context,
    Match,
    Phrases,
    Token,
    has,
    longest_at,
    phrase_table,
)
from catalogue_desktop.core.query.rules.when import NUMBER_WORDS, when

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
_COMPARE = phrase_table(
    {
        ">": ("more than", "over", "above", "greater than", ">"),
        ">=": ("at least", "min", "minimum", ">="),
        "<": ("fewer than", "less than", "under", "below", "<"),
        "<=": ("at most", "no more than", "up to", "<="),
        "=": ("exactly", "with", "having", "has"),
    }
)
_COUNT_AFTER = phrase_table({">=": ("or more", "and up", "plus"), "<=": ("or fewer", "or less")})
_NONE = frozenset({"no", "zero", "without"})
_SEVERAL = frozenset({"multiple", "several", "many", "various"})
_WITH_SOME = frozenset({"with", "having", "has", "have", "that have"})
# words after a counted noun that say more about it ("with courses in Dallas", "with webinars not
# in any series"): the query cannot count only those, so the noun is read as what is asked for
_QUALIFIED_BY = frozenset(
    {
        "not",
        "in",
        "at",
        "near",
        "from",
        "without",
        "that",
        "which",
        "where",
        "on",
        "about",
        "by",
        "under",
        "over",
    }
)


def _qualifies(toks: Sequence[Token], i: int, ctx: Context) -> bool:
    """Whether the words at ``i``, after a counted noun, say more about it: a word of
    ``_QUALIFIED_BY``, a place or a time ("with courses new york april 2027", "live with webinars
    this week": those courses or webinars, not experts with one)."""
    if toks[i].key in _QUALIFIED_BY:
        return True
    anywhere = replace(ctx, table=None)
    return bool(place(toks, i, anywhere) or when(toks, i, anywhere))


def _count_value(tok: Token) -> int | None:
    key = tok.key.rstrip("+")
    if key.isdigit():
        return int(key)
    return NUMBER_WORDS.get(key) if key not in ("a", "few", "couple") else None


def count(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    """``more than 9 webinars``, ``2+ webinars``, ``no courses``, ``one level``: where the table
    counts them."""
    out = []
    cmp = longest_at(_COMPARE, toks, i)
    at, op = (i + cmp[0], cmp[1]) if cmp else (i, "=")
    if at < len(toks) and toks[i].key in _NONE:
        field = counted(toks, i + 1, ctx)
        if field is not None:
            out.append(Match(2, "condition", f"{field}:0", f"no {field}", rank=-1))
    if toks[i].key in _SEVERAL:  # "multiple cities", "several dates": more than one
        field = counted(toks, i + 1, ctx)
        if field is not None:
            out.append(Match(2, "condition", f"{field}:>1", f"more than one {field}", rank=-1))
    if toks[i].key in _WITH_SOME and ctx.table is not None:  # "topics with webinars": at least one
        field = counted(toks, i + 1, ctx)
        qualified = i + 2 < len(toks) and _qualifies(toks, i + 2, ctx)
        if field is not None and toks[i + 1].key.endswith("s") and not qualified:
            out.append(Match(2, "condition", f"{field}:>0", f"with {field}", rank=-1))
    if at >= len(toks):
        return out
    value = _count_value(toks[at])
    if value is None:
        return out
    j = at + 1
    if toks[at].key.endswith("+"):
        op = ">="
    after = longest_at(_COUNT_AFTER, toks, j) if op == "=" else None
    if after is not None:
        op, j = after[1], j + after[0]
    field = counted(toks, j, ctx)
    if field is None:
        return out
    shown = {">": "more than", ">=": "at least", "<": "fewer than", "<=": "at most", "=": ""}[op]
    clause = f"{field}:{value}" if op == "=" else f"{field}:{op}{value}"
    out.append(Match(j + 1 - i, "condition", clause, " ".join(f"{shown} {value} {field}".split()), rank=-1))
    return out


def counted(toks: Sequence[Token], j: int, ctx: Context) -> str | None:
    if j >= len(toks):
        return None
    field = _COUNTED.get(singular(toks[j].key))
    if field is None or (ctx.table is not None and SCHEMA.field(ctx.table, field) is None):
        return None
    return field


_ABSENT_FIELDS = phrase_table(
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
_ABSENT = phrase_table(
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
        merged = {words: field for words, field in phrase_table(spec).items()}
        merged.update(_ABSENT_FIELDS)  # the words people use most: as they were
        made = Phrases(merged)
        made.longest = max(map(len, made), default=0)
        made.starts = frozenset((k[0],) for k in made)
        _ABSENT_BY_TABLE[table] = made
    return made


_ABSENT_BY_TABLE: dict[str | None, Phrases] = {}
_ABSENT_AFTER = phrase_table(
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
    after_field = longest_at(words, toks, i)
    if after_field is not None:  # "description missing", "photo is blank"
        field = after_field[1]
        trail = longest_at(_ABSENT_AFTER, toks, i + after_field[0])
        if trail is not None and has(ctx, field):
            size = after_field[0] + trail[0]
            label = f"no {_FIELD_WORDS.get(field, field)}"
            out.append(Match(size, "condition", f"no:{field}", label, rank=-1))
    for size in range(1, min(5, len(toks) - i) + 1):
        lead = _ABSENT.get(tuple(t.key for t in toks[i : i + size]))
        if lead is None:
            continue
        found = longest_at(words, toks, i + size)
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
