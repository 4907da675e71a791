"""Offerings: every bookable occasion as one row (the sales desk's "Dates").

One row per course location, per series session, and per webinar that is no series' session
(a session is listed once, as a session with its series named, never as a webinar beside it; a
webinar that is a session of several series is one row naming them all: ``series``,
``seriesIds``, with each series' fee and number of sessions, ``seriesFees``, ``seriesSessions``).
On-demand webinars and sessions (their type is marked on demand) are rows without a date: they
are bookable whenever, never past. Rows come in that order (courses, sessions, webinars), each
source in its own order; the Dates tab sorts them by start.

Built column by column from the finder's tables (list comprehensions over whole columns: ~10x
faster than a dict per row), each column when first asked for, so the same columns make the
finder's ``offerings`` table and the tab's rows (``dates_rows``).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from catalogue_desktop.core.query.engine import Finder, Vocabulary
from catalogue_desktop.core.query.fields import OFFERINGS
from catalogue_desktop.core.query.table import DateIndex, Table
from catalogue_desktop.core.records.field_registry import fact_keys

if TYPE_CHECKING:
    from catalogue_desktop.core.query.syntax import Parsed

__all__ = [
    "KEYS",
    "OFFERINGS",
    "OfferingColumns",
    "as_facts",
    "columns",
    "lazy_columns",
    "rebuild",
    "table",
    "upcoming",
]

_SCAN_ROWS = 16_384  # ids looked up per step of ``lazy_columns_steps``
_FILL_ROWS = 8192  # rows of a column made per ``fill_steps`` step (16,384: up to 12 ms on a quiet CPU)
# The offerings' columns: the facts' keys of the registry's ``offerings`` fields.
KEYS = tuple(fact_keys(OFFERINGS).values())


def columns(tables: Mapping[str, Table], vocabulary: Vocabulary) -> OfferingColumns:
    """The offerings' columns (``KEYS``), from the tables of courses, series and webinars that
    are loaded (a missing one adds no rows), all made."""
    found = lazy_columns(tables, vocabulary)
    for _ in found.fill_steps():
        pass
    return found


def lazy_columns(tables: Mapping[str, Table], vocabulary: Vocabulary) -> OfferingColumns:
    """The offerings' columns, each made when first asked for (``OfferingColumns``)."""
    steps = lazy_columns_steps(tables, vocabulary)
    while True:
        try:
            next(steps)
        except StopIteration as done:
            found: OfferingColumns = done.value
            return found


def lazy_columns_steps(
    tables: Mapping[str, Table], vocabulary: Vocabulary
) -> Generator[None, None, OfferingColumns]:
    """``lazy_columns`` a step at a time (the indexer's job): the scans of the sessions' and
    webinars' ids that find which rows are listed take ``_SCAN_ROWS`` ids a step (in one step,
    54-76 ms of a 100,000 refresh's GUI thread: bench/run.py --only stall --size 100000)."""
    parts = yield from _parts(tables, vocabulary)
    return OfferingColumns(parts)


def table(tables: Mapping[str, Table], vocabulary: Vocabulary) -> Table:
    """The finder's ``offerings`` table."""
    found = columns(tables, vocabulary)
    return Table(OFFERINGS, "record", found, found.n)


# A source's columns: key -> (lo, hi) -> the values of its rows lo:hi (made on demand, whole or
# a slice: the Dates tab shows its first rows before the other columns are made).
Part = dict[str, Callable[[int, int], list[Any]]]

# The facts' keys (the columns' keys of the offerings and of their sources' tables) by field name:
# the parts below name each field by its name (``starts``), the registry gives its key (``startDate``).
_OFFERING = fact_keys(OFFERINGS)
_COURSE, _LOCATION = fact_keys("courses"), fact_keys("courses", "location")
_SERIES, _SESSION = fact_keys("series"), fact_keys("series", "session")
_WEBINAR = fact_keys("webinars")


def _keyed(part: Part) -> Part:
    """A part made by field name, keyed by the offerings' keys (``@`` keys kept as they are)."""
    return {name if name.startswith("@") else _OFFERING[name]: make for name, make in part.items()}


class OfferingColumns(dict[str, list[Any]]):
    """The offerings' columns by key (``KEYS``): a column is made, from its sources' columns, when
    first asked for (``found[key]``, ``get``, ``in`` as for a dict holding every key); ``values``
    gives a slice of one without making it whole. Iterating gives the columns made so far."""

    def __init__(self, parts: list[tuple[int, Part]]) -> None:
        super().__init__()
        self._parts = parts  # (rows, makers) per source, in row order
        self.n = sum(n for n, _ in parts)

    def __missing__(self, key: str) -> list[Any]:
        if key not in KEYS:
            raise KeyError(key)
        made = self[key] = self.values_of(key, 0, self.n)
        return made

    def __contains__(self, key: object) -> bool:
        return key in KEYS

    def get(self, key: str, default: object = None) -> Any:
        return self[key] if key in KEYS else default

    def made(self, key: str) -> bool:
        return dict.__contains__(self, key)

    def has(self, key: str) -> bool:
        """Whether every source makes ``key`` (``@startMs`` and ``@endMs`` may be missing)."""
        return bool(self._parts) and all(key in part for _n, part in self._parts)

    def values_of(self, key: str, lo: int, hi: int) -> list[Any]:
        """Rows ``lo:hi`` of column ``key`` (from the column if it is made)."""
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)[lo:hi]
        out: list[Any] = []
        base = 0
        for n, part in self._parts:
            a, b = max(lo - base, 0), min(hi - base, n)
            if a < b:
                make = part.get(key)
                out.extend(make(a, b) if make is not None else [None] * (b - a))
            base += n
        return out

    def fill_steps(self) -> Iterator[None]:
        """Make every column not made yet, ``_FILL_ROWS`` rows per step (a whole column of 133,000
        rows was a step of 12-27 ms of CPU); then the sources' tables are no longer held."""
        for key in KEYS:
            if dict.__contains__(self, key):
                continue
            made: list[Any] = []
            for lo in range(0, self.n, _FILL_ROWS):
                made += self.values_of(key, lo, min(self.n, lo + _FILL_ROWS))
                yield
            if not dict.__contains__(self, key):  # (unless asked for, and made whole, meanwhile)
                self[key] = made
        self._parts = []


def _parts(
    tables: Mapping[str, Table], vocabulary: Vocabulary
) -> Generator[None, None, list[tuple[int, Part]]]:
    """Each source's row count and columns, as functions making them (in steps: the scans of
    ids a slice at a time)."""
    courses, series, webinars = tables.get("courses"), tables.get("series"), tables.get("webinars")
    on_demand = vocabulary.on_demand
    parts: list[tuple[int, Part]] = []
    if courses is not None and courses.child is not None:
        parts.append((courses.child.n, _locations(courses)))
    listed: set[Any] = set()
    if series is not None and series.child is not None:
        ids = series.child.ids
        for lo in range(0, len(ids), _SCAN_ROWS):
            listed.update(ids[lo : lo + _SCAN_ROWS])
            yield
        keep, others = yield from _first_sessions(ids, listed)
        parts.append(
            ((series.child.n if keep is None else len(keep)), _sessions(series, on_demand, keep, others))
        )
    if webinars is not None:
        kept: list[int] | None = None
        if listed:
            kept, ids = [], webinars.ids
            for lo in range(0, len(ids), _SCAN_ROWS):
                kept += [i for i in range(lo, min(len(ids), lo + _SCAN_ROWS)) if ids[i] not in listed]
                yield
        parts.append(((webinars.n if kept is None else len(kept)), _webinars(webinars, kept, on_demand)))
    return parts


def _locations(courses: Table) -> Part:
    loc = courses.child
    assert loc is not None
    parent = loc.parent_of or []

    def up(name: str) -> Callable[[int, int], list[Any]]:
        return lambda lo, hi: list(map(courses.column(_COURSE[name]).__getitem__, parent[lo:hi]))

    def own(name: str) -> Callable[[int, int], list[Any]]:
        return lambda lo, hi: loc.column(_LOCATION[name])[lo:hi]

    def urls(lo: int, hi: int) -> list[Any]:
        course_urls = courses.column(_COURSE["url"])
        own_urls = loc.column(_LOCATION["url"])[lo:hi]
        return [u or course_urls[p] for u, p in zip(own_urls, parent[lo:hi], strict=True)]

    return _keyed(
        {
            **_instants(loc, lambda values, lo, hi: values[lo:hi]),
            "kind": lambda lo, hi: ["course"] * (hi - lo),
            "id": up("id"),
            "location": own("location"),
            "title": up("title"),
            "level": up("level"),
            **{n: own(n) for n in ("starts", "ends", "venue", "address", "city", "state", "zip", "fee")},
            **{n: up(n) for n in ("cle", "cpe", "expert", "topic")},
            "ondemand": lambda lo, hi: [False] * (hi - lo),
            "url": urls,
        }
    )


def _first_sessions(
    ids: list[Any], distinct: set[Any]
) -> Generator[None, None, tuple[list[int] | None, dict[Any, list[int]]]]:
    """The session rows to list (None: every one) and, for a webinar that is a session of
    several series, the rows of its other series' copies (by webinar id): one occasion, one row.
    ``_SCAN_ROWS`` ids a step (at 100,000, in one step: 58 ms of a refresh's GUI thread)."""
    if len(distinct) == len(ids):
        return None, {}
    # a list only for an id met more than once (a list for every id: at 100,000, 90,000 lists
    # freed in the last step, 30-45 ms); the first rows come in order, so ``keep`` is sorted
    first: dict[Any, int] = {}  # id -> its first row
    keep: list[int] = []
    others: dict[Any, list[int]] = {}
    for lo in range(0, len(ids), _SCAN_ROWS):
        for i in range(lo, min(len(ids), lo + _SCAN_ROWS)):
            row = first.setdefault(ids[i], i)
            if row == i:
                keep.append(i)
            else:
                others.setdefault(ids[i], [row]).append(i)
        yield
    return keep, others


def _sessions(
    series: Table, on_demand: frozenset[str], keep: list[int] | None, others: dict[Any, list[int]]
) -> Part:
    """The series' sessions, rows ``keep`` (None: every one), each naming every series it is a
    session of (``others``: a webinar's rows in each series)."""
    ses = series.child
    assert ses is not None
    parent = ses.parent_of or []
    titles, fees = series.column(_SERIES["title"]), series.column(_SERIES["fee"])
    urls = series.column(_SERIES["url"])
    types = ses.column(_SESSION["type"])
    kept_types = types if keep is None else [types[i] for i in keep]
    live = [t is None or str(t) not in on_demand for t in kept_types]
    sizes: list[int] = []

    def rows(lo: int, hi: int) -> list[int] | range:
        return range(lo, hi) if keep is None else keep[lo:hi]

    def take(values: list[Any], lo: int, hi: int) -> list[Any]:
        return values[lo:hi] if keep is None else [values[i] for i in keep[lo:hi]]

    def own(name: str) -> Callable[[int, int], list[Any]]:
        return lambda lo, hi: take(ses.column(_SESSION[name]), lo, hi)

    def inherit(name: str, values: list[Any]) -> Callable[[int, int], list[Any]]:
        return lambda lo, hi: [
            v if v is not None else values[parent[i]]
            for v, i in zip(take(ses.column(_SESSION[name]), lo, hi), rows(lo, hi), strict=True)
        ]

    def dated(name: str) -> Callable[[int, int], list[Any]]:
        return lambda lo, hi: _dated(take(ses.column(_SESSION[name]), lo, hi), live[lo:hi])

    def parents(lo: int, hi: int) -> list[list[int]]:
        ids = ses.ids
        return [
            [parent[j] for j in others[ids[i]]] if others and ids[i] in others else [parent[i]]
            for i in rows(lo, hi)
        ]

    def of_series(values: list[Any]) -> Callable[[int, int], list[Any]]:
        return lambda lo, hi: [[values[p] for p in ps] for ps in parents(lo, hi)]

    def counts(lo: int, hi: int) -> list[Any]:
        if not sizes:
            sizes.extend([0] * series.n)
            for p in parent:
                sizes[p] += 1
        return [[sizes[p] for p in ps] for ps in parents(lo, hi)]

    return _keyed(
        {
            **_instants(ses, lambda values, lo, hi: _dated(take(values, lo, hi), live[lo:hi])),
            "kind": lambda lo, hi: ["session"] * (hi - lo),
            "id": own("webinar"),
            "session": own("session"),
            "series_id": lambda lo, hi: [series.ids[parent[i]] for i in rows(lo, hi)],
            "series": lambda lo, hi: [[titles[p] for p in ps if titles[p]] or None for ps in parents(lo, hi)],
            "series_ids": of_series(series.ids),
            "series_fees": of_series(fees),
            "series_sessions": counts,
            "title": inherit("title", titles),
            "type": own("type"),
            "starts": dated("starts"),
            "ends": dated("ends"),
            "fee": inherit("fee", fees),
            **{n: own(n) for n in ("cle", "cpe", "expert", "topic", "role", "situation")},
            "ondemand": lambda lo, hi: [not x for x in live[lo:hi]],
            "url": inherit("url", urls),
        }
    )


def _webinars(webinars: Table, keep: list[int] | None, on_demand: frozenset[str]) -> Part:
    """The webinars' rows ``keep`` (None: every one)."""
    types = webinars.column(_WEBINAR["type"])
    kept = types if keep is None else list(map(types.__getitem__, keep))
    live = [t is None or str(t) not in on_demand for t in kept]

    def pick(name: str) -> Callable[[int, int], list[Any]]:
        key = _WEBINAR[name]
        if keep is None:
            return lambda lo, hi: webinars.column(key)[lo:hi]
        return lambda lo, hi: list(map(webinars.column(key).__getitem__, keep[lo:hi]))

    def dated(name: str) -> Callable[[int, int], list[Any]]:
        return lambda lo, hi: _dated(pick(name)(lo, hi), live[lo:hi])

    def picked(values: list[Any], lo: int, hi: int) -> list[Any]:
        kept = values[lo:hi] if keep is None else list(map(values.__getitem__, keep[lo:hi]))
        return _dated(kept, live[lo:hi])

    return _keyed(
        {
            **_instants(webinars, picked),
            "kind": lambda lo, hi: ["webinar"] * (hi - lo),
            "id": pick("id"),
            "session": pick("session"),
            "title": pick("title"),
            "type": pick("type"),
            "starts": dated("starts"),
            "ends": dated("ends"),
            **{n: pick(n) for n in ("fee", "cle", "cpe", "expert", "topic", "role", "situation", "url")},
            "ondemand": lambda lo, hi: [not x for x in live[lo:hi]],
        }
    )


def _instants(source: Table, take: Callable[[list[Any], int, int], list[Any]]) -> Part:
    """``@startMs`` and ``@endMs`` (epoch ms, as the columns' texts parse) from ``source``'s date
    indexes if idle time has built them (``take``: a slice of the source's values as the part's
    rows), so that the Dates rows need not parse every date again; none otherwise."""
    out: Part = {}
    for key, name in (("@startMs", "starts"), ("@endMs", "ends")):
        index = source.built_index(name, DateIndex)
        if index is not None:
            out[key] = (lambda ms: lambda lo, hi: take(ms, lo, hi))(index.ms)
    return out


def _dated(values: list[Any], live: list[bool]) -> list[Any]:
    """Dates, none for what is on demand."""
    return [v if ok else None for v, ok in zip(values, live, strict=True)]


def rebuild(finder: Finder) -> None:
    """Give ``finder`` the offerings of its current courses, series and webinars."""
    finder.set_table(table(finder.tables, finder.vocabulary))


def as_facts(found: dict[str, list[Any]]) -> list[dict[str, Any]]:
    """The offerings as one dict per row (values that are None left out)."""
    keys = list(found)
    return [
        {k: v for k, v in zip(keys, row, strict=True) if v is not None}
        for row in zip(*(found[k] for k in keys), strict=True)
    ]


def upcoming(parsed: Parsed) -> Parsed:
    """``parsed`` as the Dates tab and ``export offerings`` apply it: past occasions left out
    (an implicit ``future``) unless the query asks about dates itself (``past``, ``starts:...``,
    any date clause)."""
    from catalogue_desktop.core.query.literals import DateSpec
    from catalogue_desktop.core.query.syntax import And, Parsed, Term, top_clauses, walk

    if any(t.op == "date" or t.field in ("starts", "ends") for t in walk(parsed.root)):
        return parsed
    future = Term(None, "date", DateSpec("future"), len(parsed.text), len(parsed.text))
    if parsed.root is None:
        return Parsed(parsed.text, future, None)
    return Parsed(parsed.text, And((*top_clauses(parsed.root), future), 0, len(parsed.text)), None)
