"""Kinds: the words that name the tab to show ("webinars", "certificates", "what's on"), and
"in person" and "online" (a filter on the Dates tab, the tab to show elsewhere). On the Dates tab,
a kind of date ("courses", "webinars", "sessions") is a filter too: the dates of that kind, on
the tab where offers are made."""

from __future__ import annotations

from collections.abc import Sequence

from catalogue_desktop.core.query.fields import OFFERINGS
from catalogue_desktop.core.query.rules.tokens import Context, Match, Token, longest_at, phrase_table

KIND_WORDS = phrase_table(
    {
        "courses": ("course,courses,class,classes", "in person courses"),
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
        # (a seminar is any of the catalogue's dates, a course's or a webinar's: "tax seminars")
        OFFERINGS: (
            "date,dates,offering,offerings,schedule,calendar,events,seminar,seminars,training,trainings",
            "whats on",
            "what on",
        ),
    }
)
# The value ``kind:`` takes to name each tab: the table's own name, plural (``fields.tab_of_kind``;
# on the Dates tab, kind:course is the occasions of courses, as it always was).
KIND_VALUE = {table: table for table in KIND_WORDS.values()} | {OFFERINGS: "dates"}
KIND_LABEL = {OFFERINGS: "Dates"}
# On the Dates tab, the kinds a date is of, as a condition: ``kind:`` in the singular (a kind, not
# a tab: ``fields.tab_of_kind``), "webinars" with the series' sessions (``engine.is_webinar_kind``).
DATE_KINDS = {"courses": ("course", "Courses"), "webinars": ("webinar", "Webinars")}
_SESSIONS = phrase_table({"session": ("session,sessions", "series session", "series sessions")})


def kind(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    found = longest_at(_KINDS, toks, i)
    if ctx.table == OFFERINGS:
        sessions = longest_at(_SESSIONS, toks, i)
        if sessions is not None and (found is None or sessions[0] >= found[0]):
            return [Match(sessions[0], "condition", "kind:session", "Sessions")]
        if found is not None and found[1] in DATE_KINDS:  # the dates of that kind: the tab stays
            value, label = DATE_KINDS[found[1]]
            return [Match(found[0], "condition", f"kind:{value}", label)]
    if found is None:
        return []
    size, table = found
    label = KIND_LABEL.get(table, table.capitalize())
    weak = tuple(t.key for t in toks[i : i + size]) in (("whats", "on"), ("what", "on"))
    return [Match(size, "kind", f"kind:{KIND_VALUE[table]}", label, table=table, rank=5 if weak else 1)]


_KINDS = KIND_WORDS
_PERSON = phrase_table({"": ("in person", "inperson", "classroom", "onsite", "on site", "face to face")})
_ONLINE = phrase_table({"": ("online", "virtual", "remote")})


def place_kind(toks: Sequence[Token], i: int, ctx: Context) -> list[Match]:
    """ "in person" (courses) and "online" (webinars and sessions): a filter on the Dates tab, the
    tab to show elsewhere."""
    person = longest_at(_PERSON, toks, i)
    if person is not None:
        if ctx.table in (None, OFFERINGS):
            return [Match(person[0], "condition", "has:location", "in person")]
        # (on Courses too: the tab it names, shown as a chip and kept in the query when the words
        # were typed on another tab and the reading moved there)
        return [Match(person[0], "kind", "kind:courses", "Courses", table="courses")]
    online = longest_at(_ONLINE, toks, i)
    if online is not None:
        if ctx.table in (None, OFFERINGS):
            return [Match(online[0], "condition", "no:location", "online")]
        return [Match(online[0], "kind", "kind:webinars", "Webinars", table="webinars")]
    return []
