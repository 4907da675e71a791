"""What a refresh changed, for the offer check (issue 40): a check after a refresh compares only
the open offers that quote a record the refresh added, changed or removed.

Each check keeps what it was made ``against`` (``now``, as text in the log's ``meta``: each
source's current snapshot and listing version, the history's mark, the ids the sources repeat, the
series' order, the check's time and the words it writes times with). The next one reads from the
cache's ``history`` (written in the transaction of each snapshot) the records of each source
whose snapshot changed since (``since``): a course (every location of it), a series (its
sessions, and the webinars its sessions' changes name: which series a webinar is first a
session of may move), a webinar (as a webinar and as any series' session). None, and every offer
is looked at as before (``checking._stale``), whenever the history cannot say: no check kept,
another version of this text (a schema upgrade), a source first synced or its listing made again,
the history pruned past the mark (``History.whole_after``), series added, removed, reordered or
repeated (a series' sessions unreadable in its changes), other words for times. Qt-free.
"""

from __future__ import annotations

import json
import re
import zlib
from typing import TYPE_CHECKING, Any, NamedTuple

from catalogue_desktop.core.records.kinds import Kind

if TYPE_CHECKING:
    from datetime import datetime

    from catalogue_desktop.core.cache.store import Store
    from catalogue_desktop.core.formats.time_text import TimeText

VERSION = 1
_SOURCES = (Kind.COURSES, Kind.SERIES, Kind.WEBINARS)
_SESSION_PATH = re.compile(r"sessions/(\d+)(?:/|$)")


class Changed(NamedTuple):
    """What changed since the last check (``since``): the occasions' heads of the records changed
    (``course:COURSE``, ``session:SERIES``, ``webinar:WEBINAR``), the webinars changed (as any
    series' session), and the sources synced since."""

    heads: frozenset[str]
    webinars: frozenset[str]
    every_series: bool  # every session and webinar quoted may be another now (series reordered...)
    courses_synced: bool
    webinars_synced: bool  # the series or the webinars
    last_now: str  # the last check's time (``logged.moment_key``): items over since are looked at

    def touches(self, occasion: str) -> bool:
        """Whether what an offer quotes of ``occasion`` may differ now (one of no record the
        catalogue lists, ``course:x``, is never listed: as before)."""
        head, at, tail = occasion.partition("@")
        if head in self.heads or (at and tail in self.webinars and head.startswith("session:")):
            return True
        return self.every_series and occasion.startswith(("session:", "webinar:"))

    def refreshed(self, occasion: str) -> bool:
        """Whether a source of ``occasion`` was synced since (a course's its courses, any other's
        the series and the webinars, as ``checking._stale``): its offer is stamped as checked."""
        return self.courses_synced if occasion.startswith("course:") else self.webinars_synced


def now(store: Store, moment: datetime, time_text: TimeText, kept: str | None) -> dict[str, Any]:
    """What a check at ``moment`` is made against (read before the catalogue: a sync landing
    meanwhile is looked at again by the next check); the series' order read again only when their
    snapshot is not the one the last check (``kept``) was made against."""
    from catalogue_desktop.core.offers.logged import moment_key

    mark = store.history.mark()  # (before the snapshots: a sync landing between is read again)
    marks = store.snapshot_marks(_SOURCES)
    last = _read(kept) or {}
    snapshots = last.get("snapshots")
    was = snapshots.get(Kind.SERIES.value) if isinstance(snapshots, dict) else None
    if was == [marks[Kind.SERIES][0], marks[Kind.SERIES][1]] and type(last.get("series")) is int:
        series = last["series"]
    else:  # (the order of the snapshot noted: one synced meanwhile is read again by the next check)
        at = marks[Kind.SERIES][0]
        series = zlib.crc32(store.record_order(at).encode()) if at is not None else 0
    return {
        "version": VERSION,
        "snapshots": {k.value: [marks[k][0], marks[k][1]] for k in _SOURCES},
        "repeated": {k.value: _ids(marks[k][2]) for k in _SOURCES},
        "history": mark,
        "series": series,
        "now": moment_key(moment),
        "words": zlib.crc32(repr(tuple(time_text)).encode()),
    }


def text(against: dict[str, Any]) -> str:
    """``now``'s as the log keeps it."""
    return json.dumps(against, separators=(",", ":"))


def since(store: Store, kept: str | None, current: dict[str, Any]) -> Changed | None:
    """The records changed between the check that kept ``kept`` (``text``) and ``current``
    (``now``); None when the history cannot say (see the module doc)."""
    last = _read(kept)
    if last is None or last.get("version") != VERSION or last.get("words") != current["words"]:
        return None
    before, after = last.get("snapshots"), current["snapshots"]
    mark, last_now = last.get("history"), last.get("now")
    if not isinstance(before, dict) or type(mark) is not int or not isinstance(last_now, str):
        return None
    kinds = set()
    for kind in _SOURCES:
        was, is_now = before.get(kind.value), after[kind.value]
        if was == is_now:
            continue
        if (
            not isinstance(was, list)
            or len(was) != 2
            or was[0] is None
            or is_now[0] is None
            or was[1] != is_now[1]
        ):
            return None  # (first synced, or listed again: its facts made anew)
        kinds.add(kind)
    found: dict[Kind, set[int]] = {k: set() for k in _SOURCES}
    every_series = last.get("series") != current["series"]
    if kinds and not store.history.whole_after(mark):
        return None
    repeated = last.get("repeated")
    if not isinstance(repeated, dict):
        return None
    for kind in kinds:
        ids = found[kind]
        was_repeated, repeats = repeated.get(kind.value), current["repeated"][kind.value]
        if not isinstance(was_repeated, list):
            return None
        ids.update(i for i in [*was_repeated, *repeats] if type(i) is int)  # (a later copy's change)
        if kind is Kind.SERIES and (was_repeated or repeats):
            every_series = True  # (which copy a session is read from)
        for record_id, change, fields in store.history.written_after(kind, mark):
            ids.add(record_id)
            if kind is Kind.SERIES:
                every_series = every_series or change != "changed" or _sessions(fields, found[Kind.WEBINARS])
    heads = {f"course:{i}" for i in found[Kind.COURSES]} | {f"session:{i}" for i in found[Kind.SERIES]}
    heads |= {f"webinar:{i}" for i in found[Kind.WEBINARS]}
    return Changed(
        frozenset(heads),
        frozenset(map(str, found[Kind.WEBINARS])),
        every_series,
        Kind.COURSES in kinds,
        Kind.SERIES in kinds or Kind.WEBINARS in kinds,
        last_now,
    )


def _sessions(fields: str | None, webinars: set[int]) -> bool:
    """Add the webinars a series' changed ``fields`` name among its sessions to ``webinars``;
    True when its sessions changed in a way that names none (every session is looked at)."""
    try:
        paths = json.loads(fields) if fields else {}
    except ValueError:
        return True
    if not isinstance(paths, dict):
        return True
    for path in paths:
        if not path.startswith("sessions"):
            continue
        found = _SESSION_PATH.match(path)
        if found is None:
            return True
        webinars.add(int(found[1]))
    return False


def _read(kept: str | None) -> dict[str, Any] | None:
    if not kept:
        return None
    try:
        value = json.loads(kept)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


def _ids(text: str) -> list[int]:
    try:
        value = json.loads(text)
    except ValueError:
        return []
    return [i for i in value if type(i) is int] if isinstance(value, list) else []
