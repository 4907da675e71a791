"""What the catalogue quotes now of the occasions the open offers quoted, read by their ids
(``course:COURSE@LOCATION``, ``session:SERIES@WEBINAR``, ``webinar:WEBINAR``): the offer check's
read of the catalogue (issue 40).

Each occasion is made as ``query.offerings`` makes it from the whole catalogue: a course
location's own dates, place and fee under its course's title; a series session's own values, or
its series' title and fee where it has none, undated when its type is on demand, listed only
under the first series it is a session of; a webinar only when it is no series' session. But of
only the records the ids name, each picked by SQLite down to what an offer quotes: the courses'
locations and the series' sessions in one query each (``Store.children_of``), the webinars by id
(``Store.facts_of``), and the first series listing each webinar from the series' stored links
(``Store.first_linking``), never every series' sessions. Its values are what an offer quotes of
the occasion (``logged.quoted``; tests hold them to the whole catalogue's occasions). Qt-free.
"""

from __future__ import annotations

import contextlib
from collections.abc import Collection
from typing import TYPE_CHECKING

from catalogue_desktop.core.formats.numbers import within_reason
from catalogue_desktop.core.offers.logged import Quoted, fee_value
from catalogue_desktop.core.offers.occasions import SOURCES, place_of
from catalogue_desktop.core.records.errors import StoreError
from catalogue_desktop.core.records.field_registry import CHILD_KEYS, fact_keys
from catalogue_desktop.core.records.kinds import Kind

if TYPE_CHECKING:
    from catalogue_desktop.core.cache.store import Store

_COURSE, _LOCATION = fact_keys("courses"), fact_keys("courses", "location")
_SERIES, _SESSION = fact_keys("series"), fact_keys("series", "session")
_WEBINAR = fact_keys("webinars")


def quotes_now(store: Store, wanted: Collection[str]) -> dict[str, Quoted] | None:
    """What an offer would quote now (no currency) of each occasion ``wanted`` that the catalogue
    lists, by its id (one it no longer lists is left out); None when none of the occasions'
    sources (courses, series, webinars) was ever synced."""
    from catalogue_desktop.core.query.vocabulary import Vocabulary
    from catalogue_desktop.core.searches import stored as finding

    if not any(store.state(k).has_data for k in SOURCES):
        return None
    finding.relist_stale(store, SOURCES, lambda _text: None)
    on_demand = Vocabulary().on_demand  # (the finder's own, as ``offerings`` is made with it)
    kept = _kept(store, wanted, on_demand)
    if kept is None and store.keep_occasion_values():  # (a store from before: made once)
        kept = _kept(store, wanted, on_demand)
    if kept is not None:
        return kept
    courses: set[int] = set()
    sessions: set[int] = set()  # the webinars quoted as sessions
    webinars: set[int] = set()  # those quoted as webinars
    for key in wanted:
        kind, _, rest = key.partition(":")
        head, at, tail = rest.partition("@")
        if kind == "course":
            _add_id(courses, head)
        elif kind == "session" and at:
            _add_id(sessions, tail)
        elif kind == "webinar" and not at:
            _add_id(webinars, head)
    out: dict[str, Quoted] = {}
    _courses(store, courses, wanted, out)
    first = store.first_linking(Kind.SERIES, sessions | webinars) if sessions or webinars else {}
    _sessions(store, {first[w] for w in sessions if w in first}, first, wanted, on_demand, out)
    _webinars(store, webinars - first.keys(), wanted, on_demand, out)
    return out


def _kept(store: Store, wanted: Collection[str], on_demand: frozenset[str]) -> dict[str, Quoted] | None:
    """The quoted occasions as the ingest kept their values (``Store.occasion_values``: the
    facts' values), made into quotes as below; None when they are not kept (the facts are read)."""
    try:
        found = store.occasion_values(wanted)
    except StoreError:
        return None
    if found is None:
        return None
    out: dict[str, Quoted] = {}
    for key, (_key, title, start, end, venue, city, state, fee, kind) in found.items():
        fee = fee if fee is None or within_reason(fee) else fee_value(fee)  # (an int: see ``valid``)
        if key[0] == "c":  # course:
            course = key[7:].partition("@")[0]
            out[key] = _location_quote(key, title, course, start, end, venue, city, state, fee)
        elif key[0] == "s":  # session:
            named = title or f"Session #{key.partition('@')[2]}"
            out[key] = _webinar_quote(key, named, kind, start, end, fee, on_demand)
        else:
            out[key] = _webinar_quote(key, title or f"Webinar #{key[8:]}", kind, start, end, fee, on_demand)
    return out


def _location_quote(
    key: str,
    title: str | None,
    course: object,
    start: str | None,
    end: str | None,
    venue: str | None,
    city: str | None,
    state: str | None,
    fee: int | str | None,
) -> Quoted:
    """A course location quoted (a course without a title: "Course #ID")."""
    return Quoted(key, title or f"Course #{course}", start, end, place_of(venue, city, state), city, fee)


def _webinar_quote(
    key: str,
    title: str,
    kind: object,
    start: str | None,
    end: str | None,
    fee: int | str | None,
    on_demand: frozenset[str],
) -> Quoted:
    """A session or a webinar quoted: online (no place); on demand (its type): no times."""
    live = kind is None or str(kind) not in on_demand
    return Quoted(key, title, start if live else None, end if live else None, "", None, fee)


def _courses(store: Store, ids: set[int], wanted: Collection[str], out: dict[str, Quoted]) -> None:
    """Each quoted course location (a course repeated: its last copy, as the catalogue's)."""
    keys = [_COURSE[n] for n in ("id", "title")]
    own = [_LOCATION[n] for n in ("location", "starts", "ends", "venue", "city", "state", "fee")]
    for course, location in store.children_of(
        Kind.COURSES, ids, CHILD_KEYS[("courses", "location")], keys, own
    ):
        course_id, title = course
        location_id, start, end, venue, city, state, fee = location
        key = f"course:{course_id}" if location_id is None else f"course:{course_id}@{location_id}"
        if key in wanted:
            out[key] = _location_quote(key, title, course_id, start, end, venue, city, state, fee_value(fee))


def _sessions(
    store: Store,
    series: set[int],
    first: dict[int, int],
    wanted: Collection[str],
    on_demand: frozenset[str],
    out: dict[str, Quoted],
) -> None:
    """Each quoted session listed: of the first series it is a session of, its first copy there."""
    keys = [_SERIES[n] for n in ("id", "title", "fee")]
    own = [_SESSION[n] for n in ("webinar", "type", "title", "fee", "starts", "ends")]
    for of, session in store.children_of(Kind.SERIES, series, CHILD_KEYS[("series", "session")], keys, own):
        series_id, series_title, series_fee = of
        webinar, kind, title, fee, start, end = session
        key = f"session:{series_id}@{webinar}"
        if first.get(webinar) != series_id or key not in wanted or key in out:
            continue
        named = (title if title is not None else series_title) or f"Session #{webinar}"
        fee = fee_value(fee if fee is not None else series_fee)
        out[key] = _webinar_quote(key, named, kind, start, end, fee, on_demand)


def _webinars(
    store: Store, ids: set[int], wanted: Collection[str], on_demand: frozenset[str], out: dict[str, Quoted]
) -> None:
    """Each quoted webinar that is no series' session (repeated: its last copy)."""
    keys = [_WEBINAR[n] for n in ("id", "type", "title", "fee", "starts", "ends")]
    for facts in store.facts_of(Kind.WEBINARS, ids, keys):
        if facts is None:
            continue
        webinar, kind, title, fee, start, end = (facts.get(k) for k in keys)
        key = f"webinar:{webinar}"
        if key in wanted:
            out[key] = _webinar_quote(
                key, title or f"Webinar #{webinar}", kind, start, end, fee_value(fee), on_demand
            )


def _add_id(ids: set[int], text: str) -> None:
    """A record id as an occasion's id writes it (others are no record's: left out)."""
    with contextlib.suppress(ValueError):
        ids.add(int(text))
