"""Packed pages of a snapshot's listing, for the window's start-up read.

Besides the ``rows`` table (one JSON row per record, the reference), the current snapshot's listing is stored
as ``row_pages``: ``marshal`` of (positions, rows, links marshalled again on their own) per ``PAGE_ROWS``
rows, with a CRC-32 and the format. The window reads every row at start-up: pages cost a fraction of reading
the same rows as JSON text from ``rows`` (see docs/decisions.md, "Downloads, ingest and the cache"), the links
left packed (``PackedLinks``) until needed. A page that is damaged, or of another format (a Python whose
``marshal`` differs), is not used: reading falls back to ``rows``."""

from __future__ import annotations

import json
import marshal
import sqlite3
import zlib
from collections.abc import Sequence
from typing import Any

from catalogue_desktop.core.records.errors import StoreError

PAGE_ROWS = 1000  # rows per packed page (``row_pages``)
# Records per fact page: the finder's indexer reads a page per step on the window's thread, so a page is a
# step's worth (see docs/decisions.md, "Downloads, ingest and the cache").
FACT_PAGE_ROWS = 250
# marshal's format may change with Python; pages of another format are ignored (rows are read).
PAGE_FORMAT = f"marshal-{marshal.version}/links-apart"
_PAGE_FORMAT_BYTES = PAGE_FORMAT.encode()
FACT_FORMAT = f"marshal-{marshal.version}/facts"
_FACT_FORMAT_BYTES = FACT_FORMAT.encode()


def json_array(texts: list[str]) -> list[Any]:
    """JSON values stored as text, decoded in one ``json.loads`` of the array they make."""
    values: list[Any] = json.loads("[" + ",".join(texts) + "]")
    return values


def write_page(db: sqlite3.Connection, snapshot: int, page: int, listing: list[tuple[int, str, str]]) -> None:
    """Pack ``(pos, row JSON, links JSON)`` items as page ``page`` of ``snapshot``: positions and
    rows, and the links packed again on their own (see ``PackedLinks``)."""
    _insert_page(
        db,
        snapshot,
        page,
        [pos for pos, _row, _links in listing],
        json_array([row for _pos, row, _links in listing]),
        json_array([links for _pos, _row, links in listing]),
    )


def write_page_values(
    db: sqlite3.Connection, snapshot: int, page: int, positions: list[int], rows: list[Any], links: list[Any]
) -> None:
    """``write_page`` of rows and links given as the values their JSON encodes (no JSON read back).
    A value ``marshal`` cannot pack (a subclass of a JSON type) is packed as its JSON reads back."""
    try:
        _insert_page(db, snapshot, page, positions, rows, links)
    except ValueError:
        _insert_page(db, snapshot, page, positions, _json_values(rows), _json_values(links))


def _insert_page(
    db: sqlite3.Connection, snapshot: int, page: int, positions: list[int], rows: list[Any], links: list[Any]
) -> None:
    data = marshal.dumps((positions, rows, marshal.dumps(links)))
    db.execute(
        "INSERT INTO row_pages (snapshot, page, format, crc, data) VALUES (?, ?, ?, ?, ?)",
        (snapshot, page, PAGE_FORMAT, zlib.crc32(data), data),
    )


def _json_values(values: list[Any]) -> list[Any]:
    """``values`` as their JSON reads back: only the types JSON has."""
    found: list[Any] = json.loads(json.dumps(values, ensure_ascii=False))
    return found


def write_batch(
    db: sqlite3.Connection, snapshot: int, page: int, fact_page: int, batch: Sequence[Any]
) -> int:
    """Page ``page`` of ``snapshot`` and its fact pages from ``fact_page`` on (``FACT_PAGE_ROWS``
    records each), for a batch of ``store.Entry``: from their ``values`` when each has them, else
    from their JSON. Returns the number of fact pages written."""
    written, fact_rows = 0, FACT_PAGE_ROWS  # (read here: tests write smaller pages)
    if all(e.values is not None for e in batch):
        write_page_values(
            db,
            snapshot,
            page,
            [e.pos for e in batch],
            [e.values[0] for e in batch],
            [e.values[1] for e in batch],
        )
        for start in range(0, len(batch), fact_rows):
            part = batch[start : start + fact_rows]
            write_fact_page_values(
                db, snapshot, fact_page + written, [e.pos for e in part], [e.values[2] for e in part]
            )
            written += 1
    else:
        write_page(db, snapshot, page, [(e.pos, e.row, e.links) for e in batch])
        for start in range(0, len(batch), fact_rows):
            write_fact_page(
                db,
                snapshot,
                fact_page + written,
                [(e.pos, e.facts) for e in batch[start : start + fact_rows]],
            )
            written += 1
    return written


class PackedLinks:
    """One page's link lists, still packed (``marshal``); ``unpack()`` gives them as lists."""

    __slots__ = ("count", "data")

    def __init__(self, data: bytes, count: int) -> None:
        self.data = data
        self.count = count

    def __len__(self) -> int:
        return self.count

    def unpack(self) -> list[list[list[int]]]:
        try:
            links = marshal.loads(self.data)
        except (EOFError, ValueError, TypeError):
            links = None
        if type(links) is not list or len(links) != self.count:
            # cannot happen to a page whose CRC matched; never let it shift links between rows
            raise StoreError("a packed page of the cache holds links that do not fit its rows")
        return links


def unpack_page(fmt: bytes, crc: int, data: bytes) -> tuple[list[int], list[list[Any]], PackedLinks] | None:
    """A page's (positions, rows, links), or None if it is not one this app wrote intact."""
    if fmt != _PAGE_FORMAT_BYTES or not isinstance(data, bytes) or zlib.crc32(data) != crc:
        return None
    try:
        value = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return None
    if (
        type(value) is not tuple
        or len(value) != 3
        or type(value[0]) is not list
        or type(value[1]) is not list
        or type(value[2]) is not bytes
        or not 0 < len(value[0]) == len(value[1])
    ):
        return None
    return value[0], value[1], PackedLinks(value[2], len(value[0]))


def write_fact_page(
    db: sqlite3.Connection, snapshot: int, page: int, facts: list[tuple[int, str | None]]
) -> None:
    """Pack ``(pos, facts JSON or None)`` items as fact page ``page`` of ``snapshot``."""
    _insert_fact_page(
        db,
        snapshot,
        page,
        [pos for pos, _facts in facts],
        json_array([text or "null" for _pos, text in facts]),
    )


def write_fact_page_values(
    db: sqlite3.Connection, snapshot: int, page: int, positions: list[int], facts: list[Any]
) -> None:
    """``write_fact_page`` of facts given as the values their JSON encodes (see ``write_page_values``)."""
    try:
        _insert_fact_page(db, snapshot, page, positions, facts)
    except ValueError:
        _insert_fact_page(db, snapshot, page, positions, _json_values(facts))


def _insert_fact_page(
    db: sqlite3.Connection, snapshot: int, page: int, positions: list[int], facts: list[Any]
) -> None:
    data = marshal.dumps((positions, facts))
    db.execute(
        "INSERT INTO fact_pages (snapshot, page, format, crc, data) VALUES (?, ?, ?, ?, ?)",
        (snapshot, page, FACT_FORMAT, zlib.crc32(data), data),
    )


def write_fact_pages(db: sqlite3.Connection, snapshot: int) -> None:
    """(Re)pack every fact page of ``snapshot`` from ``rows``."""
    db.execute("DELETE FROM fact_pages WHERE snapshot = ?", (snapshot,))
    found = db.execute("SELECT pos, facts FROM rows WHERE snapshot = ? ORDER BY pos", (snapshot,)).fetchall()
    for page, start in enumerate(range(0, len(found), FACT_PAGE_ROWS)):
        write_fact_page(db, snapshot, page, found[start : start + FACT_PAGE_ROWS])


def unpack_fact_page(fmt: bytes, crc: int, data: bytes) -> tuple[list[int], list[Any]] | None:
    """A fact page's (positions, facts), or None if it is not one this app wrote intact."""
    if fmt != _FACT_FORMAT_BYTES or not isinstance(data, bytes) or zlib.crc32(data) != crc:
        return None
    try:
        value = marshal.loads(data)
    except (EOFError, ValueError, TypeError):
        return None
    if (
        type(value) is not tuple
        or len(value) != 2
        or type(value[0]) is not list
        or type(value[1]) is not list
        or not 0 < len(value[0]) == len(value[1])
    ):
        return None
    return value[0], value[1]
