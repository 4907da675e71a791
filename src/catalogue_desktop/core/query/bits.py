"""Row sets as bitsets: a Python int whose bit ``i`` is row ``i``.

AND, OR, NOT and counting are single C operations on 100,000-bit ints (a few microseconds each),
so a query is evaluated as a handful of them over precomputed sets. The conversions below run in
C too: rows to bits (a byte mask turned into a binary literal for ``int(..., 2)``), bits to a byte
mask (the table model's form, one 0/1 byte per row) through ``bin``.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Sequence
from itertools import accumulate, compress, repeat
from operator import add
from typing import TypeVar

_T = TypeVar("_T")

_TO_DIGITS = bytes.maketrans(b"\x00\x01", b"01")
_NONZERO = re.compile(rb"[^\x00]")
_BYTE_ROWS = tuple(tuple(i for i in range(8) if value >> i & 1) for value in range(256))
_FROM_DIGITS = bytes.maketrans(b"01", b"\x00\x01")
# Below this share of the rows, bits are set one by one; above it, through a byte mask converted in C (the
# crossover measured: docs/decisions.md, "The finder's engine").
_SPARSE = 20


def full(n: int) -> int:
    """Every one of ``n`` rows."""
    return (1 << n) - 1


def rows_mask(rows: Iterable[int], n: int, mask: bytearray | None = None) -> bytearray:
    """A byte mask of ``n`` rows with ``rows`` set to 1 (in ``mask``, if given), in C (no loop
    here)."""
    mask = bytearray(n) if mask is None else mask
    deque(map(mask.__setitem__, rows, repeat(1)), maxlen=0)
    return mask


def from_rows(rows: Iterable[int], n: int) -> int:
    """The bitset of ``rows`` (indices below ``n``; repeats allowed)."""
    if not isinstance(rows, Sequence):
        rows = list(rows)
    if len(rows) * _SPARSE < n:
        packed = bytearray((n + 7) >> 3)
        for r in rows:
            packed[r >> 3] |= 1 << (r & 7)
        return int.from_bytes(packed, "little")
    return from_mask(rows_mask(rows, n))


def from_many(groups: Iterable[Sequence[int]], n: int) -> int:
    """The union of several row lists as one bitset (one conversion for all of them)."""
    groups = list(groups)
    total = sum(map(len, groups))
    if total * _SPARSE < n:
        packed = bytearray((n + 7) >> 3)
        for rows in groups:
            for r in rows:
                packed[r >> 3] |= 1 << (r & 7)
        return int.from_bytes(packed, "little")
    mask = bytearray(n)
    for rows in groups:
        rows_mask(rows, n, mask)
    return from_mask(mask)


def from_mask(mask: bytes | bytearray) -> int:
    """The bitset of a byte mask (one 0/1 byte per row)."""
    if not mask:
        return 0
    return int(mask[::-1].translate(_TO_DIGITS), 2)


def to_mask(bits: int, n: int) -> bytes:
    """One 0/1 byte per row (what ``itertools.compress`` and the table model take)."""
    return bin(bits | (1 << n))[:2:-1].encode().translate(_FROM_DIGITS)


def to_rows(bits: int, n: int) -> list[int]:
    """The rows of a bitset, ascending.

    A sparse set is read off the bitset itself, never a row at a time through big-int operations (clearing the
    lowest bit costs O(n) per row). Under 1% of the rows: its non-zero bytes, found by a regular expression,
    each one's bits from a table; up to 5%: the lengths of the runs of zeros between its ones in its binary
    digits, summed up in C (see docs/decisions.md, "The finder's engine")."""
    if not bits:
        return []
    count = bits.bit_count()
    if count * _SPARSE >= n:
        return list(compress(range(n), to_mask(bits, n)))
    if count * 100 >= n:
        zeros = bin(bits)[:1:-1].split("1")  # the digits from row 0 up, split at each row
        del zeros[-1]  # row k = the zeros before it, plus the k rows before it
        return list(map(add, accumulate(map(len, zeros)), range(len(zeros))))
    data = bits.to_bytes((n + 7) >> 3, "little")
    rows: list[int] = []
    append = rows.append
    for match in _NONZERO.finditer(data):
        at = match.start()
        base = at << 3
        for i in _BYTE_ROWS[data[at]]:
            append(base + i)
    return rows


def first_rows(bits: int, count: int) -> list[int]:
    """The lowest ``count`` rows of a bitset, ascending (a few rows of many: cheaper than
    ``to_rows``)."""
    out: list[int] = []
    while bits and len(out) < count:
        low = bits & -bits
        out.append(low.bit_length() - 1)
        bits ^= low
    return out


def pick(values: Sequence[_T], bits: int) -> list[_T]:
    """``values[i]`` for each row ``i`` of ``bits``, in row order."""
    n = len(values)
    if not bits:
        return []
    if bits.bit_count() * _SPARSE < n:
        return list(map(values.__getitem__, to_rows(bits, n)))
    return list(compress(values, to_mask(bits, n)))
