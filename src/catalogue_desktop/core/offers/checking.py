"""The offer log checked against the catalogue: after every refresh (the window, ``sync``) and
by ``offers``, every open offer's occasions are looked up in the catalogue as it is now.

The quoted occasions are read once per check (``now_occasions``: made as the finder's
``offerings`` table makes them, as ``export offerings`` does, but of only the records the open
offers quoted: ``quoted_tables``), indexed by their id, so a check of 1,000 offers costs one
read of those records and a dictionary look-up per item. An item is
**over** once its end (or start) has passed; **withdrawn** when the catalogue no longer lists it;
**changed** when its fee, start, end or place differs from the quote (times compared as instants:
the same moment written in another offset is no change). An offer is ``past`` when all its
occasions are over, else ``withdrawn``, ``changed`` or ``current`` by its items (the worst
first); a re-issued one stays ``superseded`` and is not checked again.

The differences are said in words, one line an item: "Federal Tax Institute, Chicago 14 Dec:
fee 1,095 → 1,195". ``reissue`` makes an offer again from today's data. Qt-free.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from catalogue_desktop.core.formats.time_text import US_ENGLISH, TimeText
from catalogue_desktop.core.offers import logged
from catalogue_desktop.core.offers.logged import Finding, LoggedOffer, Quoted, Status, Written
from catalogue_desktop.core.offers.occasions import Occasion, instant, money
from catalogue_desktop.core.records.errors import CatalogueError
from catalogue_desktop.core.records.zones import offset_label

if TYPE_CHECKING:
    from catalogue_desktop.core.cache.store import Store
    from catalogue_desktop.core.query.table import Table
    from catalogue_desktop.core.records.kinds import Kind


class NothingLeft(CatalogueError):
    """An offer cannot be re-issued: none of its dates is still offered."""


@dataclass(frozen=True, slots=True)
class Checked:
    """What one check found: every offer (newest first), and those open that no longer match."""

    offers: list[LoggedOffer]
    at: str

    @property
    def flagged(self) -> list[LoggedOffer]:
        """The open offers that no longer match the catalogue (changed or withdrawn)."""
        return [o for o in self.offers if o.status in ("changed", "withdrawn")]

    def counts(self) -> dict[Status, int]:
        found: dict[Status, int] = {}
        for o in self.offers:
            found[o.status] = found.get(o.status, 0) + 1
        return found


def now_occasions(
    store: Store, now: datetime, wanted: Collection[str] | None = None, *, quoted_only: bool = False
) -> dict[str, Occasion]:
    """Every occasion the catalogue lists now (past ones too), by its id (``logged.occasion_id``);
    with ``wanted``, only those of these ids, made of only the records they name
    (``quoted_tables``): a check of 1,000 offers needs ~3,000 of a catalogue's 30,000+. With
    ``quoted_only`` too, an occasion holds only what an offer quotes of it (``logged.quoted``:
    ``occasions.QUOTED``; a webinar's facts read no further), all a check compares."""
    from catalogue_desktop.core.offers.occasions import SOURCES, occasions
    from catalogue_desktop.core.query import offerings
    from catalogue_desktop.core.query.fields import OFFERINGS
    from catalogue_desktop.core.query.vocabulary import Vocabulary
    from catalogue_desktop.core.searches import stored as finding

    if not any(store.state(k).has_data for k in SOURCES):
        return {}
    finding.relist_stale(store, SOURCES, lambda _text: None)
    if wanted is None:
        table = finding.load(store, SOURCES, [OFFERINGS]).table(OFFERINGS)
        return {logged.occasion_id(o): o for o in occasions(table.columns, range(len(table.ids)))}
    vocabulary = Vocabulary()  # (the finder's own, as ``finding.load`` makes it)
    columns = offerings.lazy_columns(quoted_tables(store, wanted, quoted_only), vocabulary)
    rows = [i for i, key in enumerate(logged.occasion_ids(columns, columns.n)) if key in wanted]
    return {logged.occasion_id(o): o for o in occasions(columns, rows, quoted_only=quoted_only)}


def quoted_tables(store: Store, wanted: Collection[str], quoted_only: bool = False) -> dict[str, Table]:
    """The tables of courses, series and webinars the occasions ``wanted`` (their ids) are made of,
    with only the records that can make them: the courses and webinars they name, read by id in
    one query each, and the series that hold any webinar they name (a webinar that is a session
    is listed as the session of its first series, never as a webinar: every such series is kept,
    in its order, so that each occasion is made as from the whole catalogue). ``quoted_only``:
    the webinars' facts that ``logged.quoted`` reads, no more."""
    from catalogue_desktop.core.query.table import TableBuilder
    from catalogue_desktop.core.records.field_registry import fact_keys
    from catalogue_desktop.core.records.kinds import Kind

    courses: set[int] = set()
    webinars: set[int] = set()
    for key in wanted:
        kind, _, rest = key.partition(":")
        head, at, tail = rest.partition("@")
        if kind == "course":
            _add_id(courses, head)
        elif kind in ("session", "webinar"):
            _add_id(webinars, tail if at else head)
    named = fact_keys("webinars")
    keys = [named[n] for n in ("id", "type", "title", "fee", "starts", "ends")] if quoted_only else []
    series = [
        f
        for _positions, page in (store.iter_facts(Kind.SERIES) if webinars else ())
        for f in page
        if isinstance(f, dict)
        and any(isinstance(s, dict) and s.get("id") in webinars for s in f.get("sessions") or ())
    ]
    tables = {}
    for source, facts in (
        (Kind.COURSES, _records(store, Kind.COURSES, courses)),
        (Kind.SERIES, series),
        (Kind.WEBINARS, _records(store, Kind.WEBINARS, webinars, keys)),
    ):
        builder = TableBuilder(source.value)
        builder.add([f if isinstance(f, dict) else {} for f in facts])
        tables[source.value] = builder.finish()
    return tables


# Past this share of a collection, its quoted records are picked from its packed fact pages
# rather than read by id: a page of 250 facts is unpacked several times faster than 250 rows'
# JSON is found and decoded (1,000 webinars, 899 quoted: 5.5 ms against 13).
_BY_ID_UP_TO = 0.25


def _records(
    store: Store, kind: Kind, ids: set[int], keys: Sequence[str] = ()
) -> list[dict[str, Any] | None]:
    """The facts of ``kind``'s records with these ids, in array order (``Store.facts_of``)."""
    if not ids:
        return []
    if len(ids) <= _BY_ID_UP_TO * store.state(kind).records:
        return store.facts_of(kind, ids, keys)
    return [
        f
        for _positions, page in store.iter_facts(kind)
        for f in page
        if isinstance(f, dict) and f.get("id") in ids
    ]


def _add_id(ids: set[int], text: str) -> None:
    """A record id as an occasion's id writes it (others are no record's: left out)."""
    with contextlib.suppress(ValueError):
        ids.add(int(text))


def check(
    store: Store,
    now: datetime,
    *,
    save: bool = True,
    catalogue: Callable[[], Mapping[str, Occasion]] | None = None,
    time_text: TimeText = US_ENGLISH,
) -> Checked:
    """Check every open offer against the catalogue as the cache holds it at ``now`` (an aware
    time); with ``save`` (and a store that can be written) each status and finding is kept. The
    changes are written with ``time_text`` (the window's locale; US English by default).

    The catalogue is read only when an open offer was not checked since its data last changed
    (a new offer, or a sync that changed courses, series or webinars since): otherwise only the
    offers whose occasions are all over now become ``past``."""
    from catalogue_desktop.core.cache.store import utc_now

    at = utc_now()
    every = logged.offers(store)
    open_ones = [o for o in every if o.superseded_by is None and o.status != "past"]
    changed = data_changed_at(store)
    stale = {o.id for o in open_ones if o.checked_at is None or changed is None or o.checked_at <= changed}
    wanted = {item.occasion for o in open_ones if o.id in stale for item in o.items}
    read = catalogue or (lambda: now_occasions(store, now, wanted, quoted_only=True))
    found: Mapping[str, Occasion] = read() if stale else {}
    if stale and not found:  # nothing synced to check against: the last check's findings stand
        stale = set()
    checked: dict[int, LoggedOffer] = {}
    rows: list[tuple[int, str, str]] = []
    same: list[int] = []
    write = save and not store.read_only
    quotes: dict[tuple[str, str | None], Quoted | None] = {}  # (an occasion quoted by many offers: once)
    for offer in open_ones:
        if offer.id in stale:
            findings = tuple(
                _compared(item, _quote(item, found, quotes), now, time_text) for item in offer.items
            )
        elif offer.items and all(item.over(now) for item in offer.items):
            findings = tuple(_over(item, offer.finding(item.occasion)) for item in offer.items)
        else:
            continue
        status = status_of(findings)
        checked[offer.id] = _checked(offer, status, findings, at)
        if not write:
            continue
        if status == offer.status and findings == offer.findings:
            same.append(offer.id)  # (most, after most refreshes: only the time is written)
        else:
            rows.append((offer.id, status, json.dumps([f.to_json() for f in findings], ensure_ascii=False)))
    if rows or same:
        store.offers.set_checked(rows, at, same)
    return Checked([checked.get(o.id, o) for o in every], at)


def _quote(
    item: Quoted, found: Mapping[str, Occasion], quotes: dict[tuple[str, str | None], Quoted | None]
) -> Quoted | None:
    """What an offer would quote now of ``item``'s occasion (None: not listed), made once per
    occasion and currency in a check."""
    key = (item.occasion, item.currency)
    if key not in quotes:
        there = found.get(item.occasion)
        quotes[key] = None if there is None else logged.quoted(there, item.currency)
    return quotes[key]


def _checked(offer: LoggedOffer, status: Status, findings: tuple[Finding, ...], at: str) -> LoggedOffer:
    """``offer`` as checked ``at`` (``dataclasses.replace`` spelled out: it was a tenth of a check
    of 1,000 offers)."""
    return LoggedOffer(
        id=offer.id,
        made=offer.made,
        title=offer.title,
        note=offer.note,
        currency=offer.currency,
        written=offer.written,
        items=offer.items,
        version=offer.version,
        version_of=offer.version_of,
        superseded_by=offer.superseded_by,
        status=status,
        findings=findings,
        checked_at=at,
    )


def data_changed_at(store: Store) -> str | None:
    """When the occasions' sources (courses, series, webinars) last changed in the cache (their
    latest snapshot's time); None when none was ever synced."""
    from catalogue_desktop.core.offers.occasions import SOURCES

    states = store.states()
    stamps = [states[k].fetched_at for k in SOURCES if states[k].has_data and states[k].fetched_at]
    return max((s for s in stamps if s is not None), default=None)


def _over(item: Quoted, last: Finding | None) -> Finding:
    return Finding(item.occasion, None if last is None else last.now, (), True)


def compare(
    item: Quoted, now_there: Occasion | None, now: datetime, time_text: TimeText = US_ENGLISH
) -> Finding:
    """One quoted item against the occasion the catalogue lists now under its id (None: none)."""
    return _compared(
        item, None if now_there is None else logged.quoted(now_there, item.currency), now, time_text
    )


def _compared(item: Quoted, current: Quoted | None, now: datetime, time_text: TimeText) -> Finding:
    """``compare`` of what an offer would quote now (``current``; None: not listed)."""
    if item.over(now):
        return Finding(item.occasion, current, (), True)
    if current is None:
        return Finding(item.occasion, None, (f"{label(item)}: withdrawn, no longer listed by the service",))
    words = differences(item, current, time_text)
    return Finding(item.occasion, current, (f"{label(item)}: {'; '.join(words)}",) if words else ())


def differences(was: Quoted, now: Quoted, time_text: TimeText = US_ENGLISH) -> list[str]:
    """What differs between a quote and the date now, in words ("fee 1,095 → 1,195", "starts
    12/14/26 8:30 AM UTC−06:00 → 12/15/26 8:30 AM UTC−06:00": as written, with its offset)."""
    if (was.fee, was.start, was.end, was.place) == (now.fee, now.start, now.end, now.place):
        return []  # (the same text: no times to read; most checks find most items so)
    words = []
    if was.fee != now.fee:
        words.append(f"fee {_fee(was)} → {_fee(now)}")
    for name, old, new in (("starts", was.start, now.start), ("ends", was.end, now.end)):
        if _moment(old) != _moment(new):
            words.append(f"{name} {_time(old, time_text)} → {_time(new, time_text)}")
    if was.place != now.place:
        words.append(f"place {was.place or 'online'} → {now.place or 'online'}")
    return words


def status_of(findings: Sequence[Finding]) -> Status:
    """An offer's status from its items' findings (see the module doc)."""
    if findings and all(f.over for f in findings):
        return "past"
    if any(f.withdrawn for f in findings):
        return "withdrawn"
    if any(f.changes for f in findings):
        return "changed"
    return "current"


def label(item: Quoted) -> str:
    """How a change names its occasion: "Federal Tax Institute, Chicago 14 Dec"."""
    moment = instant(item.start)
    day = f" {moment.day} {moment:%b}" if moment is not None else ""
    city = f", {item.city}" if item.city else ""
    return f"{item.title}{city}{day}"


def reissue(
    store: Store,
    offer_id: int,
    now: datetime,
    write: Callable[[list[Occasion], Written], Written | None],
    *,
    catalogue: Callable[[], Mapping[str, Occasion]] | None = None,
) -> tuple[LoggedOffer, list[str]]:
    """The same offer made again from today's data: the same title, note, currency and
    formats, each occasion as the catalogue lists it now (those withdrawn or over left out).
    ``write`` makes each document again (the old document's format and place given; it returns
    where the new one went, or None if it was not made). Logged as a new version; the old one
    is kept and marked superseded. Returns it, and what was left out in words. Raises
    ``NothingLeft``."""
    old = logged.offer(store, offer_id)
    if old is None:
        raise NothingLeft(f"no offer {offer_id} in the offer log of {store.path}")
    if old.superseded_by is not None:
        raise NothingLeft(f"offer {offer_id} was re-issued already, as offer {old.superseded_by}")
    found = (catalogue or (lambda: now_occasions(store, now)))()
    items: list[Occasion] = []
    left_out: list[str] = []
    for item in old.items:
        there = found.get(item.occasion)
        if item.over(now) or (there is not None and logged.quoted(there, None).over(now)):
            left_out.append(f"{label(item)}: over")
        elif there is None:
            left_out.append(f"{label(item)}: withdrawn")
        else:
            items.append(there)
    if not items:
        raise NothingLeft(f"offer {offer_id} cannot be re-issued: none of its dates is still offered")
    written = [w for w in (write(items, document) for document in old.written) if w is not None]
    new = logged.remember(
        store,
        title=old.title,
        items=items,
        written=written,
        currency=old.currency,
        note=old.note,
        supersedes=old,
    )
    if new is None:
        raise NothingLeft(f"the offer log of {store.path} cannot be written here (read-only)")
    return new, left_out


def _fee(item: Quoted) -> str:
    return money(item.fee, None) if item.fee is not None else "none"


def _moment(iso: str | None) -> datetime | str | None:
    return instant(iso) or iso


def _time(iso: str | None, time_text: TimeText) -> str:
    moment = instant(iso)
    if moment is None:
        return iso or "on demand"
    offset = moment.utcoffset()
    minutes = 0 if offset is None else int(offset.total_seconds()) // 60
    return f"{time_text.short(moment)} {offset_label(minutes)}"
