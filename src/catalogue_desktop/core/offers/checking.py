"""The offer log checked against the catalogue: after every refresh (the window, ``sync``) and
by ``offers``, every open offer's occasions are looked up in the catalogue as it is now.

The quoted occasions are read once per check, by their ids (``quoted_now``: what an offer
would quote now of each, as the whole catalogue's ``offerings`` make it), and each offer as its
fingerprint (``logged.fingerprint``), so a check of 1,000 offers costs one read of those records
and a look-up per item; an offer is read whole only when an item no longer matches. An item is
**over** once its end (or start) has passed; **withdrawn** when the catalogue no longer lists it;
**changed** when its fee, start, end or place differs from the quote (times compared as instants:
the same moment written in another offset is no change). An offer is ``past`` when all its
occasions are over, else ``withdrawn``, ``changed`` or ``current`` by its items (the worst
first); a re-issued one stays ``superseded`` and is not checked again.

The differences are said in words, one line an item: "Federal Tax Institute, Chicago 14 Dec:
fee 1,095 → 1,195". ``reissue`` makes an offer again from today's data. Qt-free.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from catalogue_desktop.core.formats.time_text import US_ENGLISH, TimeText
from catalogue_desktop.core.offers import logged, refreshed
from catalogue_desktop.core.offers.logged import Finding, LoggedOffer, Quoted, Status, Written
from catalogue_desktop.core.offers.occasions import Occasion, instant, money
from catalogue_desktop.core.records.errors import CatalogueError
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.records.zones import offset_label

if TYPE_CHECKING:
    from catalogue_desktop.core.cache.offer_log import OfferRow
    from catalogue_desktop.core.cache.store import Store


class NothingLeft(CatalogueError):
    """An offer cannot be re-issued: none of its dates is still offered."""


class Checked:
    """What one check found: every offer (newest first), and those open that no longer match.

    The offers are made from the log's rows when first asked for (``offers``, ``flagged``; the
    window's checks make them on their thread: ``read_offers``): a check needs only statuses."""

    def __init__(
        self,
        rows: Sequence[OfferRow],
        found: Mapping[int, tuple[Status, Findings]],
        at: str,
        stamped: frozenset[int] = frozenset(),
        read: dict[int, LoggedOffer] | None = None,
    ) -> None:
        self.at = at
        self._rows = rows
        self._found = found  # each offer compared now: its status and findings
        self._stamped = stamped  # each offer checked now and found as before, not compared
        self._read = {} if read is None else read  # offers the check read whole (made once)
        self._offers: list[LoggedOffer] | None = None
        self._flagged: list[LoggedOffer] | None = None

    @property
    def offers(self) -> list[LoggedOffer]:
        return self._every()

    @property
    def flagged(self) -> list[LoggedOffer]:
        """The open offers that no longer match the catalogue (changed or withdrawn)."""
        return self._no_longer_matching()

    @property
    def listed(self) -> bool:
        """Whether every offer is made already (``offers``)."""
        return self._offers is not None

    def read_offers(self, every: bool) -> None:
        """Make the flagged offers now (with ``every``, every offer): on a thread, before the
        result goes to the GUI thread."""
        if every:
            self._every()
        self._no_longer_matching()

    def counts(self) -> dict[Status, int]:
        found: dict[Status, int] = {}
        for row in self._rows:
            status = self._status(row)
            found[status] = found.get(status, 0) + 1
        return found

    def _every(self) -> list[LoggedOffer]:
        if self._offers is None:
            self._offers = [self._offer(row) for row in self._rows]
        return self._offers

    def _no_longer_matching(self) -> list[LoggedOffer]:
        if self._flagged is None:
            if self._offers is not None:
                self._flagged = [o for o in self._offers if o.status in ("changed", "withdrawn")]
            else:
                rows = [row for row in self._rows if self._status(row) in ("changed", "withdrawn")]
                self._flagged = [self._offer(row) for row in rows]
        return self._flagged

    def _status(self, row: OfferRow) -> Status:
        checked = self._found.get(row.id)
        return logged.status_of_row(row) if checked is None else checked[0]

    def _offer(self, row: OfferRow) -> LoggedOffer:
        checked = self._found.get(row.id)
        offer = self._read.pop(row.id, None) or logged.read(row)
        if checked is None:
            return (
                _checked(offer, offer.status, offer.findings, self.at) if row.id in self._stamped else offer
            )
        return _checked(offer, checked[0], checked[1], self.at)


Findings = tuple[Finding, ...]


def now_occasions(store: Store, now: datetime) -> dict[str, Occasion]:
    """Every occasion the catalogue lists now (past ones too), by its id (``logged.occasion_id``):
    what a re-issue offers again (a check reads only what it compares: ``quoted_now``)."""
    from catalogue_desktop.core.offers.occasions import SOURCES, occasions
    from catalogue_desktop.core.query.fields import OFFERINGS
    from catalogue_desktop.core.searches import stored as finding

    if not any(store.state(k).has_data for k in SOURCES):
        return {}
    finding.relist_stale(store, SOURCES, lambda _text: None)
    table = finding.load(store, SOURCES, [OFFERINGS]).table(OFFERINGS)
    return {logged.occasion_id(o): o for o in occasions(table.columns, range(len(table.ids)))}


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

    The catalogue is read only when an open offer was not checked since the data its occasions are
    made of last changed (a new offer, or a sync that changed its courses, or series or webinars,
    since): otherwise only the offers whose occasions are all over now become ``past``. Each offer
    is read as its fingerprint (``logged.fingerprint``: its items' compared values); only one whose
    items no longer all match is read whole and compared item by item (``compare``)."""
    from catalogue_desktop.core.cache.store import utc_now

    at = utc_now()
    rows = store.offers.rows()
    open_rows = [row for row in rows if row.superseded_by is None and row.status != "past"]
    # (before the catalogue is read: a sync landing meanwhile is looked at by the next check)
    kept = store.offers.against()
    against = _against(store, now, time_text, kept) if catalogue is None and open_rows else None
    changed = None if against is None else refreshed.since(store, kept, against)
    now_key = logged.moment_key(now)
    stale: set[int] = set()
    stamped: list[int] = []  # open offers a refresh did not touch: only their check's time written
    looked = open_rows if changed is None else _touched(open_rows, changed, now_key, stale, stamped)
    compared = {row.id: logged.read_fingerprint(row.quoted) for row in looked}
    made: list[tuple[int, str]] = []  # (fingerprints made of the items of an offer logged without)
    for row in looked:
        if compared[row.id] is None:
            text = logged.fingerprint(logged.read(row).items)
            compared[row.id] = logged.read_fingerprint(text)
            made.append((row.id, text))
    if changed is None:
        stale = _stale(store, open_rows, compared)
    known = {} if changed is None else _untouched(looked, stale, compared, changed)
    wanted = {p[0] for i in stale for p in compared[i] or ()} - known.keys()
    found = _found(store, catalogue, wanted) if stale else None
    if found is not None and known:  # (the occasions no record synced since touched: as found then)
        found = {**{k: q for k, q in known.items() if q is not None}, **found}
    if stale and found is None:  # nothing synced to check against: the last check's findings stand
        stale = set()
        stamped.clear()
    write = save and not store.read_only
    checking = _Check(now, time_text, found or {})
    read = checking.read  # (each offer read whole, kept for ``Checked``: not read twice)
    results: dict[int, tuple[Status, Findings]] = {}
    rewritten: list[tuple[int, str, str]] = []
    same: list[int] = []
    for row in looked:
        prints = compared[row.id] or []
        if row.id in stale:
            status, findings, text = checking.offer(row, prints, write)
        elif prints and all(last is not None and last < checking.now_key for *_v, last in prints):
            offer = read[row.id] = logged.read(row)
            findings = tuple(_over(item, offer.finding(item.occasion)) for item in offer.items)
            status, text = status_of(findings), _json(findings) if write else ""
        else:
            continue
        results[row.id] = (status, findings)
        if not write:
            continue
        if status == logged.status_of_row(row) and text == row.found:
            same.append(row.id)  # (most, after most refreshes: only the time is written)
        else:
            rewritten.append((row.id, status, text))
    if write:
        same.extend(stamped)
        keep = None if against is None else refreshed.text(against)
        if rewritten or same or made or (keep is not None and keep != kept):
            store.offers.set_checked(rewritten, at, same, made, keep)
    return Checked(rows, results, at, frozenset(stamped), read)


def _against(store: Store, now: datetime, time_text: TimeText, kept: str | None) -> dict[str, Any] | None:
    """What this check is made against (``refreshed.now``), the catalogue's listings made first
    (as ``quoted_now`` reads them); None when the store keeps no offer log."""
    from catalogue_desktop.core.offers.occasions import SOURCES
    from catalogue_desktop.core.searches import stored as finding

    if not store.offers.kept:
        return None
    finding.relist_stale(store, SOURCES, lambda _text: None)
    return refreshed.now(store, now, time_text, kept)


# Each item's occasion in a fingerprint's text (one holding an escaped quote is read cut short:
# no occasion the catalogue lists has one, so it is never touched, as it never matched).
_OCCASION = re.compile(r'\["([^"]*)"')
_LAST = re.compile(r'"([0-9T:.-]{26})"\]')  # each item's ``moment_key`` of when it is over


def _touched(
    rows: Sequence[OfferRow], changed: refreshed.Changed, now_key: str, stale: set[int], stamped: list[int]
) -> list[OfferRow]:
    """The open offers to read after what ``changed`` since the last check, told from their
    fingerprints' text: to compare (into ``stale``) those never checked or without a fingerprint,
    those quoting a record that changed, and those with an item over (or no longer over: the
    clock moved back) since, of a source synced since; to read, also an offer of no source
    synced with an item over since (``past`` when all are, as before). The other offers of a
    source synced since go to ``stamped``, unread."""
    low, high = sorted((changed.last_now, now_key))
    touches, refreshed_now = changed.touches, changed.refreshed
    looked = []
    for row in rows:
        text = row.quoted
        if row.checked_at is None or not text or not text.startswith('[["'):
            stale.add(row.id)
            looked.append(row)
            continue
        occasions = _OCCASION.findall(text)
        synced = any(map(refreshed_now, occasions))
        over = low < high and any(low <= key < high for key in _LAST.findall(text))
        if any(map(touches, occasions)) or (synced and over):
            stale.add(row.id)
            looked.append(row)
        elif over:
            looked.append(row)
        elif synced:
            stamped.append(row.id)
    return looked


def _untouched(
    rows: Sequence[OfferRow],
    stale: set[int],
    compared: Mapping[int, list[logged.Print] | None],
    changed: refreshed.Changed,
) -> dict[str, Quoted | None]:
    """The occasions of the offers to compare (``stale``) that no record synced since the last
    check touched, with what an offer would quote of each now: what the last check that compared
    an offer quoting it found (its findings' values, the catalogue's then and so now; None: not
    listed then, nor now). An occasion of offers never checked, or whose findings do not say, is
    left to be read from the catalogue."""
    known: dict[str, Quoted | None] = {}
    touches = changed.touches
    for row in rows:
        if row.id not in stale or row.checked_at is None or not row.found:
            continue
        needed = {p[0] for p in compared[row.id] or () if p[0] not in known and not touches(p[0])}
        if needed:
            known.update(_last_found(row.found, needed))
    return known


def _last_found(text: str, occasions: set[str]) -> dict[str, Quoted | None]:
    """What a check found of each of ``occasions`` now (``LoggedOffer.findings``' values as the
    log keeps them; None: not listed), by occasion; what does not read as a finding is left out."""
    try:
        value = json.loads(text)
    except ValueError:
        return {}
    out: dict[str, Quoted | None] = {}
    for item in value if isinstance(value, list) else ():
        if not isinstance(item, dict) or "now" not in item:
            continue
        occasion, now = item.get("occasion"), item["now"]
        if type(occasion) is str and occasion in occasions and (now is None or isinstance(now, dict)):
            out[occasion] = None if now is None else _in(Quoted.from_json(now), None)
    return out


def _stale(
    store: Store, rows: Sequence[OfferRow], compared: Mapping[int, list[logged.Print] | None]
) -> set[int]:
    """The open offers not checked since the sources of their occasions last changed: a course's
    its courses, a session's or webinar's the series and the webinars (each source's latest
    snapshot's time; every offer when none was ever synced)."""
    from catalogue_desktop.core.offers.occasions import SOURCES

    states = store.states()
    fetched: dict[Kind, str] = {}
    for kind in SOURCES:
        stamp = states[kind].fetched_at
        if states[kind].has_data and stamp:
            fetched[kind] = stamp
    webinars = max((fetched[k] for k in (Kind.SERIES, Kind.WEBINARS) if k in fetched), default=None)
    courses = fetched.get(Kind.COURSES)
    stale = set()
    for row in rows:
        if row.checked_at is None or not fetched:
            stale.add(row.id)
            continue
        for occasion, *_values in compared[row.id] or ():
            changed = courses if occasion.startswith("course:") else webinars
            if changed is not None and row.checked_at <= changed:
                stale.add(row.id)
                break
    return stale


def _found(
    store: Store, catalogue: Callable[[], Mapping[str, Occasion]] | None, wanted: set[str]
) -> Mapping[str, Quoted] | None:
    """What an offer would quote now of the occasions ``wanted`` (no currency), by id; None when
    there is nothing to check against (nothing synced)."""
    from catalogue_desktop.core.offers.quoted_now import quotes_now

    if catalogue is None:
        return quotes_now(store, wanted)
    every = catalogue()
    return {k: logged.quoted(every[k], None) for k in wanted if k in every} if every else None


class _Check:
    """One check's comparisons: each stale offer's items against what an offer would quote now
    (``found``), an occasion quoted by many offers made into a finding once per currency."""

    def __init__(self, now: datetime, time_text: TimeText, found: Mapping[str, Quoted]) -> None:
        self.now = now
        self.now_key = logged.moment_key(now)
        self._time_text = time_text
        self._found = found
        # each occasion's values now as a fingerprint's item begins (compared whole with it)
        self._now = {k: [k, q.start, q.end, q.place, q.fee] for k, q in found.items()}
        self._quotes: dict[tuple[str, str | None], Quoted | None] = {}
        self._findings: dict[tuple[str, str | None, bool], tuple[Finding, str | None]] = {}
        self.read: dict[int, LoggedOffer] = {}  # each offer read whole, by id

    def offer(self, row: OfferRow, items: list[logged.Print], text: bool) -> tuple[Status, Findings, str]:
        """``row``'s status and findings now, and their JSON (with ``text``; else "")."""
        currency, now_key, values, known = row.currency, self.now_key, self._now, self._findings
        made = []
        for item in items:
            last = item[5]
            over = last is not None and last < now_key
            if not over and values.get(item[0]) != item[:5]:
                return self._compared(row, text)  # (a change, or not listed: said in words)
            key = (item[0], currency, over)
            found = known.get(key)
            if found is None or (text and found[1] is None):
                found = self._finding(key, text)
            made.append(found)
        findings = tuple(f for f, _json in made)
        status: Status = "past" if findings and all(f.over for f in findings) else "current"
        return status, findings, "[" + ", ".join(j or "" for _f, j in made) + "]" if text else ""

    def _finding(self, key: tuple[str, str | None, bool], text: bool) -> tuple[Finding, str | None]:
        """The finding of an item that matches (or is over), shared by every offer quoting it."""
        occasion, currency, over = key
        finding = Finding(occasion, self._quote(occasion, currency), (), over)
        made = self._findings[key] = (finding, finding.json_text() if text else None)
        return made

    def _quote(self, occasion: str, currency: str | None) -> Quoted | None:
        """What an offer in ``currency`` would quote now of ``occasion`` (None: not listed)."""
        key = (occasion, currency)
        if key not in self._quotes:
            there = self._found.get(occasion)
            self._quotes[key] = None if there is None else _in(there, currency)
        return self._quotes[key]

    def _compared(self, row: OfferRow, text: bool) -> tuple[Status, Findings, str]:
        """An offer read whole and compared item by item (``compare``)."""
        offer = self.read[row.id] = logged.read(row, findings=False)  # (its findings made anew)
        findings = tuple(
            _compared(item, self._quote(item.occasion, item.currency), self.now, self._time_text)
            for item in offer.items
        )
        return status_of(findings), findings, _json(findings) if text else ""


def _in(quote: Quoted, currency: str | None) -> Quoted:
    """``quote`` in ``currency`` (``logged.quoted``'s, of the occasion it was made of)."""
    return Quoted(
        quote.occasion, quote.title, quote.start, quote.end, quote.place, quote.city, quote.fee, currency
    )


def _json(findings: Findings) -> str:
    """Findings as the log keeps them."""
    return json.dumps([f.to_json() for f in findings], ensure_ascii=False)


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
        terms_text=offer.terms_text,
    )


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
