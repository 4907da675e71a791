"""Plain words read into conditions: what a person types ("texas courses under 1500") turned into
the query language (``state:TX kind:course fee:<1500``), shown before it is applied.

The contract the window, ``find``, ``export --query`` and saved searches rely on (issue 36):

* ``read(text, lexicon, now)`` never raises and is deterministic: the same text and lexicon give
  the same ``Reading``.
* A formal query reads as itself: clauses written in the language (``field:value``, AND/OR/NOT,
  parentheses, quotes) are kept as written; only bare words are read.
* ``Reading.query`` is the equivalent query in the language; ``read(reading.query, ...)`` reads
  the same conditions (the reading of a phrase equals the reading of its equivalent query).
* ``Reading.conditions`` are what was understood, in the order typed, each with the words it came
  from (``span`` in ``text``) so the window can show it as a removable chip; removing one is
  ``Reading.text_without(i)``: the typed text less those words.
* ``Reading.words`` is what stayed free words; ``Reading.table`` the tab (engine table: a
  ``Kind.value`` or "offerings") a kind word named, ``Reading.sort`` the order asked for.
* ``literal=True`` (the window's "search these words instead", ``find --words``) reads nothing:
  the text is parsed as the language alone, as before this module existed.

This first version is the seam only: it reads nothing yet (every reading is literal).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(frozen=True)
class Condition:
    """One thing understood: ``label`` in words for people ("Illinois", "CPE credit", "under
    1,500"), ``clause`` in the query language (``state:IL``), ``span`` the (start, end) of the typed
    words it was read from, ``other`` another reading the data also supports, as a clause (a city
    named like a state), or None."""

    label: str
    clause: str
    span: tuple[int, int]
    other: str | None = None


@dataclass(frozen=True)
class Reading:
    """What a typed text was read as. ``query`` is the equivalent query (what is evaluated and
    what a saved search keeps); ``suggestion`` a "did you mean" text for a word that matches
    nothing but is one edit from a known value (None if none)."""

    text: str
    query: str
    conditions: tuple[Condition, ...] = ()
    words: tuple[str, ...] = ()
    table: str | None = None
    sort: str | None = None
    suggestion: str | None = None
    literal: bool = False

    @property
    def understood(self) -> bool:
        """Whether anything was read beyond the language as typed."""
        return bool(self.conditions) or self.table is not None or self.sort is not None

    def text_without(self, index: int) -> str:
        """The typed text less the words condition ``index`` was read from."""
        start, end = self.conditions[index].span
        return " ".join((self.text[:start] + " " + self.text[end:]).split())


@dataclass(frozen=True)
class Lexicon:
    """The catalogue's own vocabulary of plain words (cities in the data, experts' names, topics'
    titles, webinar type labels), rebuilt at each sync and when a catalogue is opened, off the GUI
    thread."""

    cities: frozenset[str] = field(default_factory=frozenset)


def read(text: str, lexicon: Lexicon, now: datetime, *, literal: bool = False) -> Reading:
    """The reading of ``text`` (see the module's docstring)."""
    del lexicon, now
    return Reading(text=text, query=text, literal=True)
