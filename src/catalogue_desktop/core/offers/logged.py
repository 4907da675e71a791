"""The offer log: what each offer promised, remembered when it is made (``remember``), read back
(``offers``, ``offer``) and re-issued from today's data (``core.offers.checking.reissue``).

Every offer made from the window's offer actions (sheet as PDF, print, calendar, e-mail text, a
spreadsheet) or by ``export offerings --title`` calls ``remember`` once its document is written:
when, the title (the customer: "Offer for Acme"), the note, the currency, each format written
and where, and for each occasion what was quoted (``Quoted``: its id in ``find --kind
offerings``' form, ``course:6107@7114``, title, start, end, place, fee, currency), and its terms
as its documents said them (``Terms``: the price as the sheet prices it, ``core.offers.price``:
a whole series at its price, one date of each course; how long it is valid). The rows are
the cache's (``core.cache.offer_log``: per catalogue, for the history's span), with a fingerprint
of what each item quoted (``fingerprint``: all a check compares). After each refresh
``core.offers.checking`` compares every open offer with the catalogue; its status and findings are
read here too. Qt-free.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, timedelta
from json.encoder import encode_basestring
from typing import TYPE_CHECKING, Any, Literal, get_args

from catalogue_desktop.core.formats.numbers import plain_number, within_reason
from catalogue_desktop.core.offers.occasions import Occasion, instant
from catalogue_desktop.core.offers.price import Price, price

if TYPE_CHECKING:
    from catalogue_desktop.core.cache.offer_log import OfferRow
    from catalogue_desktop.core.cache.store import Store

# current: as quoted; changed: a fee, date or place differs now; withdrawn: an occasion is no
# longer listed; past: every occasion is over; superseded: re-issued as a newer version.
Status = Literal["current", "changed", "withdrawn", "past", "superseded"]
STATUSES: tuple[Status, ...] = get_args(Status)
OPEN: frozenset[Status] = frozenset({"current", "changed", "withdrawn"})  # still to be checked
# An offer written again in another format this soon after (same title, note and occasions) is
# the same offer: its formats are added to it rather than logged as another offer.
SAME_OFFER_WITHIN = timedelta(hours=12)


@dataclass(frozen=True, slots=True)
class Written:
    """One document of an offer: its format (pdf, print, ics, email, xlsx, csv, json) and where
    it went (a file, "printer", "clipboard", "standard output")."""

    format: str
    where: str

    def to_json(self) -> dict[str, str]:
        return {"format": self.format, "where": self.where}


_QUOTED_KEYS = ("occasion", "title", "start", "end", "place", "city", "fee", "currency")


@dataclass(frozen=True, slots=True)
class Quoted:
    """One occasion as an offer quoted it (or as the catalogue has it now)."""

    occasion: str  # ``course:6107@7114``, ``session:SERIES@WEBINAR``, ``webinar:WEBINAR``
    title: str
    start: str | None = None  # ISO 8601 as the service wrote it; None: on demand
    end: str | None = None
    place: str = ""  # venue, city, state; "" online
    city: str | None = None
    fee: int | str | None = None  # a whole number, or its plain text (never an exponent)
    currency: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "occasion": self.occasion,
            "title": self.title,
            "start": self.start,
            "end": self.end,
            "place": self.place,
            "city": self.city,
            "fee": self.fee,
            "currency": self.currency,
        }

    @classmethod
    def from_json(cls, data: object) -> Quoted:
        """An item as stored; a damaged one is read as far as it goes (never raises). (Each
        value tested inline: a check reads ~9,000 of them for 1,000 offers.)"""
        if not isinstance(data, dict):
            return cls("?", "?")
        occasion, title, start, end, place, city, fee, currency = map(data.get, _QUOTED_KEYS)
        return cls(
            occasion=occasion if isinstance(occasion, str) and occasion else "?",
            title=title if isinstance(title, str) and title else "?",
            start=start if isinstance(start, str) else None,
            end=end if isinstance(end, str) else None,
            place=place if isinstance(place, str) else "",
            city=city if isinstance(city, str) else None,
            fee=fee if isinstance(fee, int | str) and not isinstance(fee, bool) else None,
            currency=currency if isinstance(currency, str) else None,
        )

    def over(self, now: datetime) -> bool:
        """Whether the occasion has ended at ``now`` (one on demand never has)."""
        last = instant(self.end) or instant(self.start)
        return last is not None and last < now


@dataclass(frozen=True, slots=True)
class Finding:
    """What the last check found of one item: its values now (None: withdrawn), the
    differences in words, and whether it is over."""

    occasion: str
    now: Quoted | None
    changes: tuple[str, ...] = ()
    over: bool = False

    @property
    def withdrawn(self) -> bool:
        return self.now is None and not self.over

    def to_json(self) -> dict[str, Any]:
        return {
            "occasion": self.occasion,
            "now": None if self.now is None else self.now.to_json(),
            "changes": list(self.changes),
            "over": self.over,
        }

    def json_text(self) -> str:
        """``to_json`` as ``json.dumps`` writes it (``ensure_ascii=False``), written out for the
        values a quote holds (text, whole numbers, none; anything else by ``json.dumps``): a
        check makes one for each occasion its offers quote, to tell findings found as before."""
        now = self.now
        quote = "null"
        if now is not None:
            values = (now.occasion, now.title, now.start, now.end, now.place, now.city, now.fee, now.currency)
            quote = _QUOTE_JSON % tuple(map(_json_value, values))
        changes = json.dumps(list(self.changes), ensure_ascii=False) if self.changes else "[]"
        over = "true" if self.over else "false"
        occasion = _json_value(self.occasion)
        return f'{{"occasion": {occasion}, "now": {quote}, "changes": {changes}, "over": {over}}}'

    @classmethod
    def from_json(cls, data: object) -> Finding | None:
        if not isinstance(data, dict) or not isinstance(data.get("occasion"), str):
            return None
        changes = data.get("changes")
        return cls(
            data["occasion"],
            None if data.get("now") is None else Quoted.from_json(data["now"]),
            tuple(c for c in changes if isinstance(c, str)) if isinstance(changes, list) else (),
            data.get("over") is True,
        )


_QUOTE_JSON = "{" + ", ".join(f'"{key}": %s' for key in _QUOTED_KEYS) + "}"


def _json_value(value: object) -> str:
    if value is None:
        return "null"
    if type(value) is str:
        return encode_basestring(value)
    if type(value) is int:
        return int.__repr__(value)
    return json.dumps(value, ensure_ascii=False)


@dataclass(frozen=True, slots=True)
class Terms:
    """What an offer's documents said of it as a whole: its price (``core.offers.price``) and
    how long it is valid."""

    price: Price | None = None
    valid_until: date | None = None

    def to_text(self) -> str:
        """As the log keeps it (JSON; one text for one set of terms: ``same`` compares it)."""
        data = {
            "price": None if self.price is None else self.price.to_json(),
            "validUntil": None if self.valid_until is None else self.valid_until.isoformat(),
        }
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_text(cls, text: str | None) -> Terms | None:
        """As ``to_text`` wrote them; None when there are none (or damaged)."""
        if not text:
            return None
        try:
            data = json.loads(text)
        except ValueError:
            return None
        if not isinstance(data, dict):
            return None
        until = data.get("validUntil")
        try:
            valid = date.fromisoformat(until) if isinstance(until, str) else None
        except ValueError:
            valid = None
        return cls(Price.from_json(data.get("price")), valid)


@dataclass(frozen=True, slots=True)
class LoggedOffer:
    """One offer of the log, with what its last check found."""

    id: int
    made: str  # ISO 8601 UTC
    title: str
    note: str | None
    currency: str | None
    written: tuple[Written, ...]
    items: tuple[Quoted, ...]
    version: int = 1
    version_of: int | None = None  # a re-issue: the first version's id
    superseded_by: int | None = None
    status: Status = "current"
    findings: tuple[Finding, ...] = field(default=())
    checked_at: str | None = None
    terms_text: str | None = None  # its ``Terms`` as kept (None: logged before the log kept them)

    @property
    def open(self) -> bool:
        """Still promised: not past, not superseded (the checks look at it)."""
        return self.status in OPEN

    @property
    def terms(self) -> Terms | None:
        """Its terms (read when asked: a check reads ~1,000 offers and needs none)."""
        return Terms.from_text(self.terms_text)

    @property
    def price(self) -> Price:
        """What the offer costs, as its sheet priced it (``core.offers.price``); for an offer
        logged before its terms were kept, priced from its items by the same rule (a series
        there is priced by its sessions: the series' own price was not kept)."""
        terms = self.terms
        if terms is not None and terms.price is not None:
            return terms.price
        return price([_occasion(item) for item in self.items])

    @property
    def total(self) -> str:
        """The price as the sheet gives it ("USD 699", one date of each course: "USD 995 –
        1,095"); "" when no fee is known."""
        return self.price.text(self.currency)

    @property
    def valid_until(self) -> date | None:
        terms = self.terms
        return None if terms is None else terms.valid_until

    @property
    def changes(self) -> list[str]:
        """Every difference the last check found, in words, item by item."""
        return [line for finding in self.findings for line in finding.changes]

    def finding(self, occasion: str) -> Finding | None:
        return next((f for f in self.findings if f.occasion == occasion), None)

    def to_json(self) -> dict[str, Any]:
        """What ``offers --json`` writes of it (``show``: with each item's values now)."""
        return {
            "id": self.id,
            "title": self.title,
            "made": self.made,
            "status": self.status,
            "version": self.version,
            "versionOf": self.version_of,
            "supersededBy": self.superseded_by,
            "note": self.note,
            "currency": self.currency,
            "total": self.total,
            "validUntil": None if self.valid_until is None else self.valid_until.isoformat(),
            "written": [w.to_json() for w in self.written],
            "checkedAt": self.checked_at,
            "items": [item.to_json() for item in self.items],
            "changes": self.changes,
        }


def occasion_id(o: Occasion) -> str:
    """An occasion's id as ``find --kind offerings`` writes it: ``course:COURSE@LOCATION``,
    ``session:SERIES@WEBINAR`` or ``webinar:WEBINAR``."""
    if o.kind == "course" and o.location_id is not None:
        return f"course:{o.id}@{o.location_id}"
    if o.kind == "session" and o.series_id is not None:
        return f"session:{o.series_id}@{o.id}"
    return f"{o.kind}:{o.id}"


def fee_value(fee: object) -> int | str | None:
    """A fee as the log keeps it: a whole number as is, anything else as its plain text."""
    if fee is None or isinstance(fee, bool):
        return None
    if isinstance(fee, int) and within_reason(fee):
        return fee
    return plain_number(fee) if isinstance(fee, int | float) else str(fee)[:40]


def quoted(o: Occasion, currency: str | None) -> Quoted:
    """What an offer quotes of ``o``."""
    return Quoted(
        occasion=occasion_id(o),
        title=o.title,
        start=o.start,
        end=o.end,
        place=o.place(),
        city=o.city,
        fee=fee_value(o.fee),
        currency=currency,
    )


def _occasion(item: Quoted) -> Occasion:
    """A quoted item as the occasion ``price`` groups (its kind, course or series, fee)."""
    kind, _, key = item.occasion.partition(":")
    first, _, second = key.partition("@")
    if kind == "session":
        return Occasion("session", second, item.title, item.start, item.end, series_id=first, fee=item.fee)
    return Occasion(kind, first, item.title, item.start, item.end, location_id=second or None, fee=item.fee)


def remember(
    store: Store,
    *,
    title: str,
    items: Sequence[Occasion],
    written: Sequence[Written],
    currency: str | None = None,
    note: str | None = None,
    valid_until: date | None = None,
    made: str | None = None,
    supersedes: LoggedOffer | None = None,
) -> LoggedOffer | None:
    """Log the offer of ``items`` just written as ``written`` (``supersedes``: the offer it
    re-issues), with its terms (``Terms``: its price as the sheet gives it, ``valid_until``);
    None when the store cannot be written (a cache opened read-only).

    The same offer written again in another format (same title, note, currency, validity and
    quoted occasions, within ``SAME_OFFER_WITHIN`` of its newest version, which is not superseded) is
    not another offer: the new formats and where they went are added to it."""
    from catalogue_desktop.core.cache.store import utc_now

    if store.read_only or not store.offers.kept or not items:
        return None
    made = made or utc_now()
    quotes = tuple(quoted(o, currency) for o in items)
    items_json = json.dumps([q.to_json() for q in quotes], ensure_ascii=False)
    compared = fingerprint(quotes)
    terms = Terms(price(items), valid_until).to_text()
    if supersedes is None:
        earlier = store.offers.same(
            title=title,
            note=note or None,
            currency=currency,
            items=items_json,
            since=_before(made),
            terms=terms,
        )
        if earlier is not None:
            found = offer(store, earlier)
            if found is not None:
                formats = list(found.written) + [w for w in written if w not in found.written]
                store.offers.set_written(
                    earlier, json.dumps([[w.format, w.where] for w in formats], ensure_ascii=False)
                )
                return offer(store, earlier)
    offer_id = store.offers.add(
        made=made,
        title=title,
        note=note or None,
        currency=currency,
        written=json.dumps([[w.format, w.where] for w in written], ensure_ascii=False),
        items=items_json,
        quoted=compared,
        terms=terms,
        version_of=None if supersedes is None else supersedes.version_of or supersedes.id,
        supersedes=None if supersedes is None else supersedes.id,
    )
    return offer(store, offer_id)


# One item of a fingerprint: its occasion, start, end, place and fee as quoted (the first five:
# compared whole), and when it is over (``moment_key`` of its end, else its start; None: on
# demand, never over).
Print = list[Any]


def fingerprint(items: Sequence[Quoted]) -> str:
    """What a check compares of each of an offer's ``items``, as the log keeps it (its ``quoted``
    column): a few bytes an item, read without making the offer (``read_fingerprint``)."""
    rows = []
    for q in items:
        last = instant(q.end) or instant(q.start)
        rows.append([q.occasion, q.start, q.end, q.place, q.fee, None if last is None else moment_key(last)])
    return json.dumps(rows, ensure_ascii=False)


def read_fingerprint(text: str | None) -> list[Print] | None:
    """A fingerprint as ``fingerprint`` wrote it; None when there is none (an offer logged before
    schema 8) or it is damaged (the offer's items are read instead)."""
    if not text:
        return None
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, list):
        return None
    for item in value:  # (each tested inline: a check reads ~3,000)
        if type(item) is not list or len(item) != 6 or type(item[0]) is not str:
            return None
        if not (item[5] is None or type(item[5]) is str):
            return None
    return value


def moment_key(moment: datetime) -> str:
    """An aware time as text that sorts as the instants do ("2026-12-14T14:30:00.000000", UTC):
    a fingerprint's item is over when its key is below the check's."""
    return moment.astimezone(UTC).replace(tzinfo=None).isoformat(timespec="microseconds")


def _before(made: str) -> str:
    """``made`` less ``SAME_OFFER_WITHIN``, as the log writes times (ISO 8601 UTC, "Z")."""
    try:
        moment = datetime.fromisoformat(made.replace("Z", "+00:00"))
    except ValueError:
        return made
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return (moment - SAME_OFFER_WITHIN).astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def offers(store: Store) -> list[LoggedOffer]:
    """Every offer kept, newest first."""
    return [read(row) for row in store.offers.rows()]


def offer(store: Store, offer_id: int) -> LoggedOffer | None:
    row = store.offers.row(offer_id)
    return None if row is None else read(row)


def status_of_row(row: OfferRow) -> Status:
    """A row's status as ``read`` gives it (without reading the rest)."""
    if row.superseded_by is not None:
        return "superseded"
    status: Status = row.status if row.status in STATUSES else "current"
    return status


def read(row: OfferRow, findings: bool = True) -> LoggedOffer:
    """A row of the log as a ``LoggedOffer`` (damaged JSON read as empty, never raising); without
    ``findings``, the last check's left unread (none: a check that compares it makes them anew)."""
    written = tuple(
        Written(str(w[0]), str(w[1])) for w in _json_list(row.written) if isinstance(w, list) and len(w) == 2
    )
    found = _json_list(row.found) if findings else []
    last = tuple(f for f in (Finding.from_json(x) for x in found) if f is not None)
    status: Status = row.status if row.status in STATUSES else "current"
    if row.superseded_by is not None:
        status = "superseded"
    return LoggedOffer(
        id=row.id,
        made=row.made,
        title=row.title,
        note=row.note,
        currency=row.currency,
        written=written,
        items=tuple(Quoted.from_json(x) for x in _json_list(row.items)),
        version=row.version,
        version_of=row.version_of,
        superseded_by=row.superseded_by,
        status=status,
        findings=last,
        checked_at=row.checked_at,
        terms_text=row.terms,
    )


def _json_list(text: str | None) -> list[Any]:
    if not text:
        return []
    try:
        value = json.loads(text)
    except ValueError:
        return []
    return value if isinstance(value, list) else []
