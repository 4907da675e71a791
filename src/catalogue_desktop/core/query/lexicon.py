"""The catalogue's own vocabulary of plain words, for the reading of what people type
(``core.query.reading``): the cities and states its locations are in, its experts' names, the
titles of its topics, roles, situations and series, its venues, and the webinar type labels.

Built from the finder's tables (``Lexicon.from_finder``) at each sync and when a catalogue is
opened, off the GUI thread: a few column scans (bench/reading_bench.py). An empty lexicon
still reads states, months, money, credits, kinds and order: those need no data.
"""

from __future__ import annotations

import re
import weakref
from bisect import bisect_left
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from catalogue_desktop.core.query.engine import Finder
from catalogue_desktop.core.query.folding import fold
from catalogue_desktop.core.query.table import Table

_SPLIT = re.compile(r"[\s\-/–—]+")
_DROP = re.compile(r"['’‘`.]")
_EDGE = re.compile(r"^[^\w$&+<>]+|[^\w$&+%]+$")
# Words of a title that never name it alone ("and", "of" ...).
STOP = frozenset(
    [
        "a",
        "an",
        "and",
        "as",
        "at",
        "by",
        "for",
        "from",
        "in",
        "into",
        "of",
        "on",
        "or",
        "the",
        "to",
        "with",
        "new",
        "your",
        "our",
        "its",
        "via",
        "vs",
    ]
)
_CREDENTIALS = frozenset(
    ["cpa", "cfe", "cisa", "cgma", "phd", "jd", "esq", "llm", "mba", "cma", "cia", "cfa", "cfp"]
)


def keys(text: str) -> list[str]:
    """``text`` as the reading compares words: folded, split at spaces, hyphens and slashes,
    apostrophes and periods dropped ("O’Brien" is "obrien"), edge punctuation stripped."""
    out = []
    for piece in _SPLIT.split(_DROP.sub("", fold(text))):
        piece = _EDGE.sub("", piece)
        if piece:
            out.append(piece)
    return out


@lru_cache(maxsize=4096)
def singular(key: str) -> str:
    """A plural key made singular the simple way (controllers, auditors, cfos, topics)."""
    if len(key) > 3 and key.endswith("ies"):
        return key[:-3] + "y"
    if len(key) > 3 and key.endswith("s") and not key.endswith("ss"):
        return key[:-1]
    return key


@dataclass(frozen=True)
class Titled:
    """A record of the catalogue named by its title's words: ``field`` (topic, role, situation,
    series, venue) is the query field that finds what it names."""

    field: str
    title: str
    words: tuple[str, ...]
    spans: tuple[tuple[int, int], ...] = ()  # each word's place in the title

    def written(self, first: int, stop: int) -> str:
        """Words ``first``..``stop`` (excluded) as the title writes them ("year-end close")."""
        if len(self.spans) != len(self.words):
            return " ".join(self.words[first:stop])
        return self.title[self.spans[first][0] : self.spans[stop - 1][1]].lower()


@dataclass(frozen=True)
class Person:
    """An expert: ``name`` as the catalogue writes it, ``short`` without credentials
    ("Daniel Reyes"), ``words`` its keys, ``surname`` the last of them."""

    name: str
    short: str
    words: tuple[str, ...]

    @property
    def surname(self) -> str:
        return self.words[-1]


@dataclass(frozen=True)
class Lexicon:
    """The catalogue's own vocabulary of plain words (cities in the data, experts' names, topics'
    titles, webinar type labels), rebuilt at each sync and when a catalogue is opened, off the GUI
    thread.

    ``cities``: city names as written; ``places``: per city, its locations' count per state code
    (which of "Washington" the city and Washington the state the data holds more of);
    ``states``: the codes locations are in, with their count; ``experts``: names as written;
    ``titles``: (field, title) of topics, roles, situations, series and venues; ``type_labels``:
    webinar type code -> label; ``on_demand``: the codes marked on demand."""

    cities: frozenset[str] = field(default_factory=frozenset)
    places: Mapping[str, Mapping[str, int]] = field(default_factory=dict)
    states: Mapping[str, int] = field(default_factory=dict)
    experts: tuple[str, ...] = ()
    titles: tuple[tuple[str, str], ...] = ()
    type_labels: Mapping[str, str] = field(default_factory=lambda: {"1": "On demand", "2": "Live"})
    on_demand: frozenset[str] = frozenset({"1"})
    # per table, the words, word pairs and triples of its records' titles (singular keys): words typed
    # together that a title has together are read as that phrase
    phrases: Mapping[str, Mapping[tuple[str, ...], str]] = field(default_factory=dict)
    _index: _Index = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", _Index(self))

    @property
    def index(self) -> _Index:
        return self._index

    @classmethod
    def from_finder(cls, finder: Finder) -> Lexicon:
        """The vocabulary of ``finder``'s tables (an ``engine.Finder``; any table may be missing)."""
        tables = finder.tables
        places: dict[str, dict[str, int]] = {}
        states: dict[str, int] = {}
        cities: dict[str, str] = {}
        for name in ("courses",):
            table = tables.get(name)
            child = table.child if table is not None else None
            if child is None:
                continue
            counted: dict[tuple[Any, Any], int] = {}
            for pair in zip(child.column("city"), child.column("state"), strict=True):
                counted[pair] = counted.get(pair, 0) + 1
            for (city, state), count in counted.items():
                code = str(state).strip().upper() if isinstance(state, str) and state.strip() else ""
                if code:
                    states[code] = states.get(code, 0) + count
                if isinstance(city, str) and city.strip():
                    shown = cities.setdefault(" ".join(keys(city)), city.strip())
                    per = places.setdefault(shown, {})
                    per[code] = per.get(code, 0) + count
        experts: dict[str, None] = {}
        table = tables.get("experts")
        if table is not None:
            experts.update((n, None) for n in table.column("name") if isinstance(n, str) and n.strip())
        for name in ("webinars", "courses") if not experts else ():  # (no experts table: their names)
            table = tables.get(name)
            if table is not None and "experts" in table.columns:
                for names in table.column("experts"):
                    for n in names or ():
                        if isinstance(n, str) and n.strip():
                            experts.setdefault(n, None)
        titles: dict[tuple[str, str], None] = {}
        for name, fld in (
            ("topics", "topic"),
            ("roles", "role"),
            ("situations", "situation"),
            ("series", "series"),
        ):
            table = tables.get(name)
            if table is not None:
                titles.update(((fld, t), None) for t in _distinct(table.column("title")))
        courses = tables.get("courses")
        if courses is not None:
            titles.update((("course", t), None) for t in _distinct(courses.column("title")))
        certificates = tables.get("certificates")
        if certificates is not None:
            titles.update((("certificate", t), None) for t in _distinct(certificates.column("title")))
        if courses is not None and courses.child is not None:
            titles.update((("venue", t), None) for t in _distinct(courses.child.column("venue")))
        vocabulary = finder.vocabulary
        return cls(
            cities=frozenset(cities.values()),
            places=places,
            states=states,
            experts=tuple(experts),
            titles=tuple(titles),
            type_labels=dict(vocabulary.type_labels),
            on_demand=frozenset(vocabulary.on_demand),
            phrases=_phrases_of(tables),
        )


# The tables whose records' titles are searched as phrases (experts' "title" is a job title).
_PHRASED = ("webinars", "series", "courses", "certificates", "offerings", "topics", "roles", "situations")
_TITLE_WORD = re.compile(r"[^\W_]+(?:['’.&][^\W_]+)*")


def _phrases_of(tables: Mapping[str, Table]) -> dict[str, Mapping[tuple[str, ...], str]]:
    """Per table with titles, its titles' phrases."""
    return {
        name: title_phrases(table.column("title"))
        for name in _PHRASED
        if (table := tables.get(name)) is not None and "title" in table.columns
    }


def title_phrases(titles: Iterable[Any]) -> dict[tuple[str, ...], str]:
    """The words, pairs and triples of consecutive words (singular keys) in ``titles``, each with the
    words as the first title having them writes them ("year-end close"); each distinct title is
    split once (a word is letters and digits, apostrophes inside it dropped)."""
    found: dict[tuple[str, ...], str] = {}
    for title in sorted({t for t in titles if isinstance(t, str)}):
        folded = fold(title)
        if len(folded) != len(title):
            folded = title.lower()
        spans = [(m.start(), m.end()) for m in _TITLE_WORD.finditer(folded)]
        words = [singular(_DROP.sub("", folded[a:b])) for a, b in spans]
        for k in range(len(words)):
            for n in (1, 2, 3):
                if k + n <= len(words):
                    found.setdefault(
                        tuple(words[k : k + n]), title[spans[k][0] : spans[k + n - 1][1]].lower()
                    )
    return found


_MADE: weakref.WeakKeyDictionary[Finder, tuple[tuple[Any, ...], Lexicon]] = weakref.WeakKeyDictionary()


def of_finder(finder: Finder) -> Lexicon:
    """``Lexicon.from_finder(finder)``, made again only when its tables or vocabulary changed
    (tables are replaced, never changed, when data reloads)."""
    key = (*map(id, finder.tables.values()), finder.vocabulary.key())
    made = _MADE.get(finder)
    if made is None or made[0] != key:
        made = _MADE[finder] = (key, Lexicon.from_finder(finder))
    return made[1]


def _words(title: str) -> tuple[tuple[str, ...], tuple[tuple[int, int], ...]]:
    """A title's keys and where each is in the title."""
    words: list[str] = []
    spans: list[tuple[int, int]] = []
    for m in re.finditer(r"[^\s\-/–—]+", title):
        found = keys(m.group())
        if len(found) == 1:
            words.append(found[0])
            spans.append(
                (
                    m.start() + len(m.group()) - len(m.group().lstrip("\"'(")),
                    m.end() - (len(m.group()) - len(m.group().rstrip(",;:)\"'?!"))),
                )
            )
    return tuple(words), tuple(spans)


def _distinct(values: Iterable[Any]) -> list[str]:
    return sorted({v.strip() for v in values if isinstance(v, str) and v.strip()})


def _always_known() -> tuple[str, ...]:
    """Words a typo may be corrected to in any catalogue: states' and provinces' names, months,
    kinds."""
    import calendar

    from catalogue_desktop.core.records.regions import CODES

    words = {w for name in CODES.values() for w in keys(name) if len(w) >= 5}
    words |= {calendar.month_name[m].lower() for m in range(1, 13) if len(calendar.month_name[m]) >= 5}
    words |= {"webinar", "webinars", "course", "courses", "series", "certificate", "certificates", "expert"}
    return tuple(sorted(words))


_ALWAYS_KNOWN = _always_known()

# What people call some cities.
CITY_ALIASES = {
    "nyc": "New York",
    "new york city": "New York",
    "manhattan": "New York",
    "sf": "San Francisco",
    "san fran": "San Francisco",
    "frisco": "San Francisco",
    "la": "Los Angeles",
    "philly": "Philadelphia",
    "vegas": "Las Vegas",
    "nola": "New Orleans",
    "chi town": "Chicago",
    "chitown": "Chicago",
}

# Which record a title names first when several do (a topic before a role ...).
FIELD_ORDER = {"topic": 0, "role": 1, "situation": 2, "series": 3, "venue": 4, "certificate": 5, "course": 6}


class _Index:
    """The lexicon's lookups, made once: cities by their keys, people by each word of their name,
    titled records by their words."""

    def starting(self, prefix: str) -> list[str]:
        """The title words that begin with ``prefix``."""
        words = self.title_words
        found = []
        for k in range(bisect_left(words, prefix), len(words)):
            if not words[k].startswith(prefix):
                break
            found.append(words[k])
        return found

    def __init__(self, lexicon: Lexicon) -> None:
        self.cities: dict[tuple[str, ...], str] = {tuple(keys(c)): c for c in lexicon.cities}
        for alias, city in CITY_ALIASES.items():  # nyc, san fran, philly: where the data has the city
            found = self.cities.get(tuple(keys(city)))
            if found is not None:
                self.cities.setdefault(tuple(keys(alias)), found)
        self.city_words = max((len(k) for k in self.cities), default=0)
        self.people: list[Person] = []
        self.by_word: dict[str, list[Person]] = {}
        for name in lexicon.experts:
            short = name.split(",")[0].strip()
            words = tuple(w for w in keys(short) if w not in _CREDENTIALS)
            if not words:
                continue
            person = Person(name, short, words)
            self.people.append(person)
            for w in set(words):
                if len(w) > 1:
                    self.by_word.setdefault(w, []).append(person)
        # each word of a title -> where it is: (title, position), titles in order of preference
        self.at_word: dict[str, list[tuple[Titled, int]]] = {}
        titled = [Titled(fld, title, *_words(title)) for fld, title in lexicon.titles]
        titled.sort(key=lambda t: (FIELD_ORDER.get(t.field, 9), t.title))
        firsts: dict[tuple[str, tuple[str, ...]], Titled] = {}  # titles alike but for case: the first
        for t in titled:
            firsts.setdefault((t.field, t.words), t)
        titled = list(firsts.values())
        for item in titled:
            for position, w in enumerate(item.words):
                self.at_word.setdefault(w, []).append((item, position))
        self.title_words = sorted(self.at_word)
        self.labels: dict[tuple[str, ...], str] = {
            tuple(keys(label)): code for code, label in lexicon.type_labels.items()
        }
        # what a typo may be corrected to: the words of cities, states and experts' names
        self.known: dict[str, str] = {}
        for c in lexicon.cities:
            for w in keys(c):
                self.known.setdefault(w, c)
        for p in self.people:
            for w in p.words:
                if len(w) >= 4:
                    self.known.setdefault(w, p.short)
        for w in _ALWAYS_KNOWN:
            self.known.setdefault(w, w)
        self.known_words = list(self.known)
