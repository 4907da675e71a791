"""The rules of the reading: what a run of plain words at a position means (``core.query.reading``
applies them left to right, the longest match first).

Each rule looks at the words' keys (``lexicon.keys``: folded, apostrophes and periods dropped,
split at hyphens) from position ``i`` and answers the ``Match``es it sees there: a condition in
the query language (``state:IL``), a kind (the tab to show), an order, or glue to drop. A rule
whose field the table lacks answers nothing there (fees only where there are fees), so the word
stays a free word.

By what they read: ``tokens`` (the words, a match, the context, tables of phrases), ``glue``,
``tabs`` (kinds), ``credits`` (credits, types, levels), ``ordering``, ``places``, ``when``,
``money``, ``counting`` (counts and absences) and ``people`` (people and titles). Here, the rules
in order of preference.
"""

from __future__ import annotations

from catalogue_desktop.core.query.rules.counting import absence, count
from catalogue_desktop.core.query.rules.credits import credit, level, webinar_type
from catalogue_desktop.core.query.rules.glue import FILLER, glue
from catalogue_desktop.core.query.rules.money import money, year_range
from catalogue_desktop.core.query.rules.ordering import order
from catalogue_desktop.core.query.rules.people import ALIASES, member, person, phrase, titled
from catalogue_desktop.core.query.rules.places import country, place
from catalogue_desktop.core.query.rules.tabs import DATE_KINDS, kind, place_kind
from catalogue_desktop.core.query.rules.tokens import Context, Match, Rule, Token
from catalogue_desktop.core.query.rules.when import when

__all__ = ["ALIASES", "DATE_KINDS", "FILLER", "RULES", "Context", "Match", "Rule", "Token"]

# in order of preference among matches of one length
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
