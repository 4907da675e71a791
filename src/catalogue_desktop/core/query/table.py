"""A table the finder searches: one kind's columns (from the records' facts) and their indexes.

Rows are in the order of the kind's row set (the store's order), so a result is a bitset over the
rows a tab shows. Courses and series have a child table (locations, sessions) whose rows name
their parent row. Columns are extracted as facts arrive (``TableBuilder.add``, a page at a time);
indexes are built when first asked for, or ahead in idle time (``Table.build``).
"""

from __future__ import annotations

from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from itertools import repeat
from operator import is_, itemgetter, truth
from typing import Any, TypeVar

from catalogue_desktop.core.query import bits
from catalogue_desktop.core.query.fields import FIELDS, Field, FieldType
from catalogue_desktop.core.query.index import BuiltIndex, RangeIndex, TextIndex
from catalogue_desktop.core.query.timeline import HistoryIndex

# The child rows of a kind: (scope, key of the list in the facts).
CHILDREN = {"courses": ("location", "locations"), "series": ("session", "sessions")}
# Ids of linked records, kept for the counts and names other tables derive from them.
LINK_KEYS = {
    "webinars": ("expertIds", "topicIds", "roleIds", "situationIds"),
    "courses": ("expertIds", "topicIds"),
    "certificates": ("courseIds",),
}
_CHUNK = 2048  # rows per build step (4096 made steps of 15-27 ms of CPU at 100,000 rows: issue 28)
_WHOLE = {int, type(None)}
_first, _second = itemgetter(0), itemgetter(1)


def parse_date(text: object) -> tuple[int, int] | None:
    """ISO 8601 text -> (day ordinal of the date as written, epoch milliseconds); None if not a
    date. A value without a UTC offset is taken as UTC (as the decoder does)."""
    if not isinstance(text, str):
        return None
    try:
        moment = datetime.fromisoformat(text)
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.toordinal(), int(moment.timestamp() * 1000)


def money(value: object) -> int | Decimal | None:
    """A fee as a number: int, or Decimal from decimal text (certificate fees)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int | Decimal):
        return value
    if isinstance(value, float):
        return Decimal(str(value))
    if isinstance(value, str):
        try:
            return Decimal(value)
        except InvalidOperation:
            return None
    return None


_I = TypeVar("_I", bound=BuiltIndex)


class DateIndex(BuiltIndex):
    """A date column: the written calendar day (``local``) and the instant, each a RangeIndex."""

    def __init__(self, texts: Sequence[Any]) -> None:
        super().__init__()
        self.n = len(texts)
        self._texts = texts
        self.days: list[int | None] = []
        self.ms: list[int | None] = []
        self._local = RangeIndex(self.days)
        self._instant = RangeIndex(self.ms)

    def _build(self) -> Iterator[None]:
        """The days and instants (a date parsed once: events share their hours), then ``ready``:
        each RangeIndex is built when first used, or here, in idle time."""
        days, ms = self.days, self.ms
        known: dict[Any, tuple[int | None, int | None]] = {None: (None, None)}
        for start in range(0, self.n, _CHUNK):  # (a step parses up to _CHUNK dates: ~8 ms)
            texts = self._texts[start : start + _CHUNK]
            for text in dict.fromkeys(texts):
                if text not in known:
                    known[text] = parse_date(text) or (None, None)
            parsed = list(map(known.__getitem__, texts))  # (each text looked up once)
            days.extend(map(_first, parsed))
            ms.extend(map(_second, parsed))
            yield
        self._local.n = self._instant.n = self.n
        self._texts = ()
        self.ready = True
        yield
        yield from self._local.build()
        yield from self._instant.build()

    @property
    def local(self) -> RangeIndex:
        """The written calendar days' index."""
        self._local.ensure()
        return self._local

    @property
    def instant(self) -> RangeIndex:
        """The instants' (epoch ms) index."""
        self._instant.ensure()
        return self._instant

    @property
    def present(self) -> int:
        return self.instant.present


class FlagIndex(BuiltIndex):
    """A yes/no column (or presence-only: true where the value is truthy)."""

    def __init__(self, values: Sequence[Any], *, presence: bool = False) -> None:
        super().__init__()
        self.n = len(values)
        self._values = values
        self._presence = presence
        self.true = self.false = self.present = 0

    def _build(self) -> Iterator[None]:
        values, n = self._values, self.n
        # One 0/1 byte a row, a slice a step, each turned into its bitset in a step of its own: both
        # made of row lists in one step were steps of ~30 ms of CPU at 100,000 rows (loaded machine).
        true, false = bytearray(), bytearray()
        for start in range(0, n, _CHUNK * 4):
            chunk = values[start : start + _CHUNK * 4]
            if self._presence:
                true += bytes(map(truth, chunk))
            else:
                true += bytes(map(is_, chunk, repeat(True)))
                false += bytes(map(is_, chunk, repeat(False)))
            yield
        self.true = bits.from_mask(true)
        yield
        self.false = bits.from_mask(false)
        self.present = self.true | self.false
        self._values = ()
        yield


class Table:
    """One kind's columns (raw values from the facts, by key) and the indexes built on them."""

    def __init__(
        self,
        name: str,
        scope: str,
        columns: dict[str, list[Any]],
        n: int,
        child: Table | None = None,
        parent_of: list[int] | None = None,
        *,
        compacted: bool = False,
    ) -> None:
        self.name = name
        self.scope = scope  # record, location or session
        self.n = n
        self.columns = columns
        if "id" in columns and not compacted:  # (``TableBuilder`` compacts them a chunk at a time)
            columns["id"] = _compact(columns["id"])
        self.child = child
        self.parent_of = parent_of  # a child table: each row's parent row
        self.fields: dict[str, Field] = {f.name: f for f in FIELDS[name] if f.scope == scope}
        self.derive: Callable[[Table, str], list[Any]] | None = None  # set by the catalogue
        self.history: HistoryIndex | None = None  # its records' history (time clauses)
        self.all = bits.full(n)
        self._indexes: dict[tuple[str, str], BuiltIndex] = {}
        self._derived: dict[str, list[Any]] = {}
        self._row_by_id: dict[Any, int] | None = None
        self._number_texts: dict[str, list[str]] = {}  # key -> a number column's values as texts
        if child is not None:
            self._first_child = _first_children(child.parent_of or [], n)

    def __repr__(self) -> str:
        return f"Table({self.name}/{self.scope}, {self.n} rows)"

    @property
    def ids(self) -> list[Any]:
        return self.columns["id"]

    def row_of_id(self, record_id: object) -> int | None:
        """The first row of the record ``record_id`` (the ids' rows are listed at the first call)."""
        if self._row_by_id is None:
            self._row_by_id = {}
            for row, rid in enumerate(self.ids):
                self._row_by_id.setdefault(rid, row)
        return self._row_by_id.get(record_id)

    def column(self, key: str) -> list[Any]:
        """A column of raw values; ``@name`` columns are derived (by the catalogue) on first use."""
        if not key.startswith("@"):
            return self.columns.get(key) or [None] * self.n
        found = self._derived.get(key)
        if found is None:
            if self.derive is None:
                raise KeyError(f"{self.name} cannot derive {key}")
            found = self._derived[key] = self.derive(self, key)
        return found

    def forget_derived(self) -> None:
        """Drop derived columns and their indexes (another table they come from changed)."""
        self._derived.clear()
        self._number_texts.clear()
        self._indexes = {k: v for k, v in self._indexes.items() if not k[0].startswith("@")}
        if self.child is not None:
            self.child.forget_derived()

    def index(self, field: Field, kind: type[_I], variant: str = "") -> _I:
        """The index of ``field``, a ``kind`` (the field's type decides which: ``_make``;
        ``variant``: "int" for a code's numeric one, "present" for has:), built now if idle time
        has not built it yet."""
        found = self._index(field, variant)
        assert isinstance(found, kind), (self.name, field.key, variant, type(found).__name__)
        found.ensure()
        return found

    def number_texts(self, key: str) -> list[str]:
        """Column ``key``'s numbers as texts ("" for none), made at the first call: an id typed in part
        is looked for in them."""
        found = self._number_texts.get(key)
        if found is None:
            found = self._number_texts[key] = ["" if v is None else str(v) for v in self.column(key)]
        return found

    def distinct_texts(self, key: str) -> set[str] | None:
        """The texts (``str``) of column ``key``'s distinct values, blanks left out: those its
        TextIndex is made of (None for a column holding lists)."""
        try:
            distinct = set(self.column(key))
        except TypeError:
            return None
        return {str(v) for v in distinct if v is not None and v != ""}

    def forget_answers(self) -> None:
        self._number_texts.clear()
        for index in self._indexes.values():
            forget = getattr(index, "forget_answers", None)
            if forget is not None:
                forget()

    def extra_index(self, key: str, kind: type[_I], make: Callable[[], _I]) -> _I:
        """An index the engine makes of several columns (``key`` starts with "@"), a ``kind``."""
        found = self._indexes.get((key, ""))
        if found is None:
            found = self._indexes[(key, "")] = make()
        assert isinstance(found, kind), (self.name, key, type(found).__name__)
        found.ensure()
        return found

    def built_index(self, name: str, kind: type[_I]) -> _I | None:
        """Field ``name``'s index (a ``kind``) if idle time has built it, else None (nothing is
        built here)."""
        field = self.fields.get(name)
        found = None if field is None else self._indexes.get((field.key, ""))
        return found if isinstance(found, kind) and found.ready else None

    def index_steps(self, field: Field) -> Iterator[None]:
        """Build ``field``'s index a slice at a time (as ``build`` does for every field)."""
        yield from self._index(field).build()

    def extra_index_steps(self, key: str, make: Callable[[], BuiltIndex]) -> Iterator[None]:
        """``extra_index(key, make)`` built a slice at a time."""
        found = self._indexes.get((key, ""))
        if found is None:
            found = self._indexes[(key, "")] = make()
        yield from found.build()

    def _index(self, field: Field, variant: str = "") -> BuiltIndex:
        key = (field.key, variant)
        found = self._indexes.get(key)
        if found is None:
            found = self._indexes[key] = self._make(field, variant)
        return found

    def _make(self, field: Field, variant: str) -> BuiltIndex:
        values = self.column(field.key)
        t = field.type
        if variant == "present":  # has: on a text, names or code (without indexing the texts)
            return FlagIndex([_has_text(v) for v in values], presence=True)
        if t in (FieldType.TEXT, FieldType.NAMES):  # (TextIndex reads a scalar as its text: str(v))
            return TextIndex(values)
        if t is FieldType.CODE:
            if variant == "int":
                return RangeIndex([v if type(v) is int else None for v in values])
            return TextIndex(values)
        if t is FieldType.DATE:
            return DateIndex(values)
        if t is FieldType.BOOL:
            return FlagIndex(values)
        if t is FieldType.PRESENCE:
            return FlagIndex(values, presence=True)
        if set(map(type, values)) <= _WHOLE:  # (the column itself, not a copy: ints and blanks)
            return RangeIndex(values)
        if t is FieldType.MONEY:  # (fees are mostly ints: no call for them)
            return RangeIndex([v if type(v) is int else money(v) for v in values])
        return RangeIndex([v if type(v) is int else None for v in values])

    def dispose_steps(self) -> Iterator[None]:
        """Drop this table's indexes and columns a few at a time (a table no longer used: see
        docs/decisions.md, "Sorting and the tables")."""
        for index_key in list(self._indexes):
            del self._indexes[index_key]
            yield
        for column_key in list(self.columns):
            del self.columns[column_key]
            yield

    def build(self) -> Iterator[None]:
        """Build every field's index (and the child table's), a slice per step; derived fields
        (from other tables) are built when first used."""
        for field in self.fields.values():
            if field.ahead and not field.key.startswith("@"):
                # (its values made: a step of its own, not the last of the index before's: the two were
                # steps of 22-35 ms of CPU at 100,000 rows, loaded machine)
                yield
                index = self._index(field)
                yield
                yield from index.build()
        if self.child is not None:
            yield from self.child.build()

    # -- parents and children ----------------------------------------------------------------

    def project(self, child_bits: int) -> int:
        """Parent rows having a child row in ``child_bits``."""
        child = self.child
        assert child is not None and child.parent_of is not None
        if not child_bits:
            return 0
        return bits.from_rows(bits.pick(child.parent_of, child_bits), self.n)

    def spread(self, parent_bits: int) -> int:
        """Child rows whose parent row is in ``parent_bits``."""
        child = self.child
        assert child is not None and child.parent_of is not None
        if not parent_bits:
            return 0
        if parent_bits == self.all:
            return child.all
        mask = bits.to_mask(parent_bits, self.n)
        return bits.from_mask(bytes(map(mask.__getitem__, child.parent_of)))

    def children_of(self, row: int) -> range:
        """The child rows of one row (contiguous: children are added parent by parent)."""
        first = self._first_child
        return range(first[row], first[row + 1])


def _compact(ids: list[Any]) -> list[Any]:
    """Ids as new int objects, made one after the other: the ints decoded from the facts lie
    scattered among their strings and dicts, and ``compress(table.ids, mask)`` touches every
    one of them (a cache miss each; see docs/decisions.md, "The finder's engine")."""
    try:
        return array("q", ids).tolist()
    except (TypeError, OverflowError):  # an id that is not an integer (none the spec allows)
        return ids


def _has_text(value: object) -> bool:
    if isinstance(value, list):
        return any(v not in (None, "") for v in value)
    return value not in (None, "")


def _first_children(parent_of: Sequence[int], n: int) -> list[int]:
    """first[i]: the first child row of parent ``i``; first[n]: the child count."""
    first = [0] * (n + 1)
    for parent in parent_of:
        first[parent + 1] += 1
    for i in range(n):
        first[i + 1] += first[i]
    return first


class TableBuilder:
    """Collects one kind's columns from its facts, a chunk at a time."""

    def __init__(self, name: str, scope: str = "record") -> None:
        self.name = name
        self.scope = scope
        fields = [f for f in FIELDS[name] if f.scope == scope]
        keys = {"id"} | {f.key for f in fields if not f.key.startswith("@")}
        if scope == "record":
            keys |= set(LINK_KEYS.get(name, ()))
        if name in CHILDREN and scope != "record":
            keys |= _child_keys(name)
        self.keys = sorted(keys)
        self.columns: dict[str, list[Any]] = {k: [] for k in self.keys}
        self.n = 0
        self.child: TableBuilder | None = None
        self._child_key: str | None = None
        if scope == "record" and name in CHILDREN:
            child_scope, self._child_key = CHILDREN[name]
            self.child = TableBuilder(name, child_scope)
        self.parent_of: list[int] = []

    def add(self, facts: Iterable[dict[str, Any]], parents: Sequence[int] | None = None) -> None:
        """Append rows (their facts, in row order)."""
        chunk = facts if isinstance(facts, list) else list(facts)
        for key, column in self.columns.items():
            column.extend(map(dict.get, chunk, repeat(key)))  # (in C: facts are dicts)
        # The chunk's ids compacted here (``_compact``), not all of them in ``finish``: at 100,000 rows
        # that was most of a step of ~40 ms of CPU on the loaded machine (issue 40).
        ids = self.columns["id"]
        ids[self.n :] = _compact(ids[self.n :])
        if parents is not None:
            self.parent_of.extend(parents)
        if self.child is not None:
            child_key = self._child_key
            kids: list[dict[str, Any]] = []
            owners: list[int] = []
            for row, f in enumerate(chunk, self.n):
                for kid in f.get(child_key or "") or ():
                    if isinstance(kid, dict):
                        kids.append(kid)
                        owners.append(row)
            self.child.add(kids, owners)
        self.n += len(chunk)

    def finish(self) -> Table:
        child = self.child.finish() if self.child is not None else None
        return Table(
            self.name,
            self.scope,
            self.columns,
            self.n,
            child,
            self.parent_of if self.scope != "record" else None,
            compacted=True,
        )


def _child_keys(name: str) -> set[str]:
    """Keys of child facts kept beyond the fields (offerings are made of them)."""
    if name == "courses":
        return {"venue", "address", "city", "state", "zip", "fee", "detailUrl"}
    return {"title", "fee", "detailUrl", "roles", "situations"}
