"""What an offer quotes of each bookable occasion, kept with the current snapshot of the courses,
series and webinars (schema 11, ``occasion_values``; issue 40): written by ``Store.replace_snapshot``
in the snapshot's transaction (in the sync's ingest worker processes, off the GUI thread) from
the facts it writes anyway, so the offer check reads the occasions its offers quote by id
instead of decoding whole series' facts (~2.5 KB of JSON a series, for its sessions).

A row an occasion, by the id an offer quotes it by (``course:COURSE@LOCATION`` or
``course:COURSE``, ``session:SERIES@WEBINAR``, ``webinar:WEBINAR``), holding the facts'
values as they are (``core.offers.quoted_now`` makes an offer's quote of them, as from the
facts): a course location's own, with its course's title; a series session's own, its series'
title and fee where it has none, only under the first series whose links list its webinar
(its first copy there); every webinar (the check leaves out those a series lists: a
``linked:WEBINAR`` row of the series' snapshot each). A course or webinar repeated: its last
copy, as the catalogue's.

``snapshots.occasions`` holds how many rows a snapshot has. NULL (a snapshot written before
schema 11, or listed again) means none yet: the next offer check makes them from the facts, on
its thread (``Store.keep_occasion_values``), and reads the facts meanwhile. ``UNSAID`` (facts
holding what these rows cannot say: an id that is not the record's, a value that is no text or
whole number) means none: the check reads the facts, as before. Qt-free.
"""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from catalogue_desktop.core.records.field_registry import CHILD_KEYS, fact_keys
from catalogue_desktop.core.records.kinds import Kind

SCHEMA = """
CREATE TABLE IF NOT EXISTS occasion_values (
    snapshot INTEGER NOT NULL,
    occasion TEXT NOT NULL,
    title BLOB,  -- (BLOB: no affinity, each value kept as the facts hold it)
    starts BLOB,
    ends BLOB,
    venue BLOB,
    city BLOB,
    state BLOB,
    fee BLOB,
    type BLOB,
    PRIMARY KEY (snapshot, occasion)
) WITHOUT ROWID
"""
COLUMNS = ("title", "starts", "ends", "venue", "city", "state", "fee", "type")
Row = tuple[Any, ...]  # (occasion, *COLUMNS)
KINDS = (Kind.COURSES, Kind.SERIES, Kind.WEBINARS)
UNSAID = -1  # ``snapshots.occasions`` of a snapshot whose facts these rows cannot say

_COURSE, _LOCATION = fact_keys("courses"), fact_keys("courses", "location")
_SERIES, _SESSION = fact_keys("series"), fact_keys("series", "session")
_WEBINAR = fact_keys("webinars")
_LOCATIONS, _SESSIONS = CHILD_KEYS[("courses", "location")], CHILD_KEYS[("series", "session")]


class Unsaid(ValueError):
    """Facts these rows cannot say as the facts would (the check reads the facts instead)."""


def _text(value: object) -> object:
    if value is None or type(value) is str:
        return value
    raise Unsaid(repr(value))


def _whole(value: object) -> object:
    if value is None or type(value) is int:
        return value
    raise Unsaid(repr(value))


def _code(value: object) -> object:
    if value is None or type(value) in (int, str):
        return value
    raise Unsaid(repr(value))


def _id(facts: dict[str, Any], key: str, record_id: int | None) -> int:
    value = facts.get(key)
    if type(value) is not int or value != record_id:
        raise Unsaid(f"id {value!r} of record {record_id!r}")
    return value


class Collector:
    """One snapshot's rows, made a record at a time (``add``: its id and facts as values, or as
    JSON text), in array order; ``rows`` None when its facts cannot be said."""

    def __init__(self, kind: Kind) -> None:
        self.kind = kind
        self._out: dict[str, Row] = {}
        self._first: dict[int, int] = {}  # (series) each linked webinar's first series
        self._failed = False

    def add(self, record_id: int | None, facts: Any, links: Any, text: str | None) -> None:
        if self._failed:
            return
        try:
            if facts is None and text is not None:
                facts, links = json.loads(text), links
            if facts is None:
                raise Unsaid("no facts")
            if self.kind is Kind.COURSES:
                self._course(record_id, facts)
            elif self.kind is Kind.SERIES:
                self._series(record_id, facts, links)
            else:
                self._webinar(record_id, facts)
        except (Unsaid, ValueError, TypeError, AttributeError):
            self._failed = True

    @property
    def rows(self) -> list[Row] | None:
        return None if self._failed else list(self._out.values())

    def _course(self, record_id: int | None, facts: Any) -> None:
        if not isinstance(facts, dict):
            return  # (no occasion: as SQLite's path reads none)
        course = _id(facts, _COURSE["id"], record_id)
        title = _text(facts.get(_COURSE["title"]))
        children = facts.get(_LOCATIONS)
        if not isinstance(children, list):
            return
        for child in children:
            if not isinstance(child, dict):
                continue
            location = _whole(child.get(_LOCATION["location"]))
            key = f"course:{course}" if location is None else f"course:{course}@{location}"
            self._out.pop(key, None)  # (the last copy, in the order the catalogue's is)
            self._out[key] = (
                key,
                title,
                _text(child.get(_LOCATION["starts"])),
                _text(child.get(_LOCATION["ends"])),
                _text(child.get(_LOCATION["venue"])),
                _text(child.get(_LOCATION["city"])),
                _text(child.get(_LOCATION["state"])),
                _whole(child.get(_LOCATION["fee"])),
                None,
            )

    def _series(self, record_id: int | None, facts: Any, links: Any) -> None:
        if record_id is None:
            raise Unsaid("a series without an id")
        first = self._first
        listed = links[0] if isinstance(links, list) and links else []
        for webinar in listed if isinstance(listed, list) else ():
            if type(webinar) is not int:
                raise Unsaid(f"link {webinar!r}")
            if webinar not in first:
                first[webinar] = record_id
                linked = f"linked:{webinar}"
                self._out[linked] = (linked, None, None, None, None, None, None, None, None)
        if not isinstance(facts, dict):
            return
        series = _id(facts, _SERIES["id"], record_id)
        title, fee = _text(facts.get(_SERIES["title"])), _whole(facts.get(_SERIES["fee"]))
        children = facts.get(_SESSIONS)
        for child in children if isinstance(children, list) else ():
            if not isinstance(child, dict):
                continue
            webinar = child.get(_SESSION["webinar"])
            if type(webinar) is not int:
                if webinar is None:
                    continue  # (no session of a webinar: no occasion)
                raise Unsaid(f"session {webinar!r}")
            key = f"session:{series}@{webinar}"
            if first.get(webinar) != series or key in self._out:
                continue
            own_title, own_fee = _text(child.get(_SESSION["title"])), _whole(child.get(_SESSION["fee"]))
            self._out[key] = (
                key,
                own_title if own_title is not None else title,
                _text(child.get(_SESSION["starts"])),
                _text(child.get(_SESSION["ends"])),
                None,
                None,
                None,
                own_fee if own_fee is not None else fee,
                _code(child.get(_SESSION["type"])),
            )

    def _webinar(self, record_id: int | None, facts: Any) -> None:
        if not isinstance(facts, dict):
            return
        webinar = _id(facts, _WEBINAR["id"], record_id)
        key = f"webinar:{webinar}"
        self._out.pop(key, None)  # (the last copy)
        self._out[key] = (
            key,
            _text(facts.get(_WEBINAR["title"])),
            _text(facts.get(_WEBINAR["starts"])),
            _text(facts.get(_WEBINAR["ends"])),
            None,
            None,
            None,
            _whole(facts.get(_WEBINAR["fee"])),
            _code(facts.get(_WEBINAR["type"])),
        )


def write(db: sqlite3.Connection, snapshot: int, rows: list[Row] | None) -> None:
    """``snapshot``'s rows (None: its facts cannot be said so, marked ``UNSAID``), in the
    caller's transaction."""
    db.execute("DELETE FROM occasion_values WHERE snapshot = ?", (snapshot,))
    if rows is not None:
        db.executemany(
            "INSERT INTO occasion_values (snapshot, occasion, title, starts, ends, venue, city, state,"
            " fee, type) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(snapshot, *row) for row in rows],
        )
    count = UNSAID if rows is None else len(rows)
    db.execute("UPDATE snapshots SET occasions = ? WHERE id = ?", (count, snapshot))


def forget(db: sqlite3.Connection, snapshot: int) -> None:
    """``snapshot`` keeps no rows (NULL: made again from its facts by the next check)."""
    db.execute("DELETE FROM occasion_values WHERE snapshot = ?", (snapshot,))
    db.execute("UPDATE snapshots SET occasions = NULL WHERE id = ?", (snapshot,))


def valid(row: Row) -> bool:
    """Whether a row read back holds what ``Collector`` writes (a damaged one does not)."""
    if len(row) != 9:  # (occasion, *COLUMNS)
        return False
    occasion, title, starts, ends, venue, city, state, fee, kind = row
    return (
        type(occasion) is str
        and (title is None or type(title) is str)
        and (starts is None or type(starts) is str)
        and (ends is None or type(ends) is str)
        and (venue is None or type(venue) is str)
        and (city is None or type(city) is str)
        and (state is None or type(state) is str)
        and (fee is None or type(fee) is int)
        and (kind is None or type(kind) is int or type(kind) is str)
    )
