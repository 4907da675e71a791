"""The Dates tab's rows (``OccasionRow``: ``listing.COLUMNS[OCCASIONS]``, then the dates' offsets)
from the offerings' columns (``offerings.OfferingColumns``).

What showing them needs of every row is made first, column-wise: the start and end instants
(from the sources' date indexes when idle time has built them, else each distinct date text
parsed once), hence when each occasion ended. A row itself is
made when first read, with the ``CHUNK`` rows around it, from slices of the offerings' columns
(those not made yet are read from their sources): the tab shows its first screen of 133,000
occasions without making 133,000 tuples first (the table's idle work reads the rest).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from datetime import UTC, datetime
from operator import itemgetter
from typing import Any, NamedTuple, overload

from catalogue_desktop.core.listing.rows import COLUMNS, column_index
from catalogue_desktop.core.query.offerings import OFFERINGS, OfferingColumns
from catalogue_desktop.core.records.field_registry import fact_keys
from catalogue_desktop.core.records.kinds import OCCASIONS, OccasionKind

# Rows made together when one of them is first read. The tab shows them sorted (by start): a screen of rows
# falls in as many chunks as it has rows, so chunks are small (docs/decisions.md, "The finder's engine").
CHUNK = 128
_SLICE = 16_384  # rows of the instants copied per step (``rows_steps``)
_KINDS = {kind.code: kind for kind in OccasionKind}
_KEY = fact_keys(OFFERINGS)  # the offerings' column of each field, by its name
_START, _END = column_index(OCCASIONS, "start"), column_index(OCCASIONS, "end")

Moment = tuple[int | None, int | None]  # (epoch ms, UTC offset minutes)


class OccasionRow(NamedTuple):
    """One row of the Dates tab: the values of ``COLUMNS[OCCASIONS]`` by their keys, then the UTC
    offsets (minutes) its start and end were written with (``listing.rows.zone``)."""

    title: str | None
    kind: OccasionKind
    start: int | None  # epoch ms; None: on demand, or not given
    end: int | None
    city: str | None
    state: str | None
    venue: str | None
    fee: int | None
    cle: bool | None
    cpe: bool | None
    expert: str | None  # names, "; " between
    topic: str | None
    series: str | None  # a session's series' titles
    type: int | str | None
    ondemand: bool
    record: int  # the course's or webinar's id
    series_id: int | None  # a session's (first) series
    location: int | None  # a course's location
    id: int  # the row's own number
    offsets: tuple[int | None, int | None]


if OccasionRow._fields[:-1] != tuple(c.key for c in COLUMNS[OCCASIONS]):
    raise ValueError("OccasionRow's fields are not the Dates columns' keys, in order")


def occasion_row(row: Sequence[Any]) -> OccasionRow:
    """A Dates row as an ``OccasionRow`` (rows made here are already)."""
    return row if isinstance(row, OccasionRow) else OccasionRow(*row)


class DatesRows(Sequence[OccasionRow]):
    """The rows, each made (with its chunk) when first read; tuples, never changed."""

    def __init__(
        self,
        found: OfferingColumns,
        begin_ms: list[int | None],
        end_ms: list[int | None],
        zones: list[tuple[int | None, int | None]] | None,
        moments: dict[Any, Moment],
    ) -> None:
        self._found = found
        self.begin_ms, self.end_ms = begin_ms, end_ms
        self._zones = zones  # (None: each chunk's made from its texts)
        self._moments = moments
        self._n = len(begin_ms)
        self._chunks: dict[int, list[OccasionRow]] = {}

    def __len__(self) -> int:
        return self._n

    @overload
    def __getitem__(self, i: int) -> OccasionRow: ...

    @overload
    def __getitem__(self, i: slice) -> list[OccasionRow]: ...

    def __getitem__(self, i: int | slice) -> OccasionRow | list[OccasionRow]:
        if isinstance(i, slice):
            start, stop, step = i.indices(self._n)
            if step != 1:
                return [self[j] for j in range(start, stop, step)]
            out: list[OccasionRow] = []
            while start < stop:
                c, k = divmod(start, CHUNK)
                part = self._chunk(c)[k : k + stop - start]
                out += part
                start += len(part)
            return out
        if i < 0:
            i += self._n
        if not 0 <= i < self._n:
            raise IndexError(i)
        c, k = divmod(i, CHUNK)
        return self._chunk(c)[k]

    def __iter__(self) -> Iterator[OccasionRow]:
        for c in range((self._n + CHUNK - 1) // CHUNK):
            yield from self._chunk(c)

    @property
    def ids(self) -> range:
        """The rows' ids (column ``id``: a row's own index), without making the rows."""
        return range(self._n)

    def dated_column(self, column: int) -> list[int | None] | None:
        """The start or end instants of every row (made without the rows), for ``column`` of
        those; None for another column."""
        return self.begin_ms if column == _START else self.end_ms if column == _END else None

    @property
    def ended(self) -> list[int | None]:
        """Each row's end, else its start, in epoch ms (what ``past`` compares with now)."""
        return [e if e is not None else b for b, e in zip(self.begin_ms, self.end_ms, strict=True)]

    def clear_steps(self) -> Iterator[None]:
        """Forget the rows made (the row set is no longer shown), 16 chunks a step."""
        while self._chunks:
            for c in list(self._chunks)[:16]:
                del self._chunks[c]
            yield

    def _chunk(self, c: int) -> list[OccasionRow]:
        made = self._chunks.get(c)
        if made is None:
            made = self._chunks[c] = self._make(c * CHUNK, min(self._n, (c + 1) * CHUNK))
        return made

    def _make(self, lo: int, hi: int) -> list[OccasionRow]:
        """Rows ``lo:hi``, column-wise: each derived column made whole, then zipped."""

        def get(name: str) -> list[Any]:
            return self._found.values_of(_KEY[name], lo, hi)

        kinds = list(map(_KINDS.__getitem__, get("kind")))
        series = _joined_all(get("series"))  # a session of several series names them all
        columns = (
            get("title"),
            kinds,
            self.begin_ms[lo:hi],
            self.end_ms[lo:hi],
            get("city"),
            get("state"),
            get("venue"),
            get("fee"),
            get("cle"),
            get("cpe"),
            _joined_all(get("expert")),
            _joined_all(get("topic")),
            series,
            get("type"),
            list(map(bool, get("ondemand"))),
            get("id"),
            get("series_id"),
            get("location"),
            range(lo, hi),
            self._zones[lo:hi] if self._zones is not None else self._offsets(lo, hi),
        )
        return list(map(OccasionRow._make, zip(*columns, strict=True)))

    def _offsets(self, lo: int, hi: int) -> list[tuple[int | None, int | None]]:
        """Rows ``lo:hi``'s start and end UTC offsets, from their texts (each parsed once)."""
        known = self._moments
        texts = self._found.values_of(_KEY["starts"], lo, hi) + self._found.values_of(_KEY["ends"], lo, hi)
        for text in texts:
            if text not in known:
                _moment(known, text)
        offsets = list(map(itemgetter(1), map(known.__getitem__, texts)))
        return list(zip(offsets[: hi - lo], offsets[hi - lo :], strict=True))


def rows_steps(
    found: OfferingColumns, moments: dict[Any, Moment] | None = None
) -> Generator[None, None, DatesRows]:
    """The rows of ``found``, what showing them needs made a step at a
    time: the dates' columns, their distinct texts parsed (``moments``: texts parsed before, kept
    across builds by the caller), the instants. The rows themselves are made when read."""
    known: dict[Any, Moment] = {None: (None, None)} if moments is None else moments
    known.setdefault(None, (None, None))
    if found.has("@startMs") and found.has("@endMs"):  # parsed by the sources' date indexes
        instants: tuple[list[Any], list[Any]] = ([], [])
        for key, made in zip(("@startMs", "@endMs"), instants, strict=True):
            for lo in range(0, found.n, _SLICE):  # (a whole column of 133,672 rows: a 12-24 ms step)
                made += found.values_of(key, lo, min(found.n, lo + _SLICE))
                yield
        return DatesRows(found, *instants, None, known)
    starts = found[_KEY["starts"]]
    yield
    ends = found[_KEY["ends"]]
    yield
    texts = set(starts)
    texts.update(ends)
    yield
    pending = [t for t in texts if t not in known]
    for start in range(0, len(pending), 4096):
        for text in pending[start : start + 4096]:
            _moment(known, text)
        yield
    # (a step each)
    begins = list(map(known.__getitem__, starts))
    yield
    finishes = list(map(known.__getitem__, ends))
    yield
    begin_ms, end_ms = [m[0] for m in begins], [m[0] for m in finishes]
    yield
    zones = list(zip([m[1] for m in begins], [m[1] for m in finishes], strict=True))
    return DatesRows(found, begin_ms, end_ms, zones, known)


def _moment(known: dict[Any, Moment], text: object) -> Moment:
    """(epoch ms, UTC offset minutes) of ISO text, remembered (events share their hours)."""
    found: Moment = (None, None)
    if isinstance(text, str):
        try:
            moment = datetime.fromisoformat(text)
        except ValueError:
            moment = None
        if moment is not None:
            if moment.tzinfo is None:
                moment = moment.replace(tzinfo=UTC)
            delta = moment.utcoffset()
            offset = None if delta is None else int(delta.total_seconds()) // 60
            found = (int(moment.timestamp() * 1000), offset)
    known[text] = found
    return found


def _joined_all(values: list[Any]) -> list[str | None]:
    sep = "; "
    try:  # names are text: one join in C each (no call of ``_joined``)
        return [sep.join(v) if v and "" not in v else _joined(v) for v in values]
    except TypeError:
        return [_joined(v) for v in values]


def _joined(names: Any) -> str | None:
    """Names as one text ("A; B"), None for none."""
    if not names:
        return None
    try:
        text = "; ".join(names)  # (names are text: one call in C)
    except TypeError:
        return "; ".join(str(n) for n in names if n) or None
    return text if "" not in names else "; ".join(n for n in names if n) or None
