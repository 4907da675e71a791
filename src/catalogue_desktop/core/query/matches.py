"""``Matches``: the rows of one table a query matched, the one selection type of the app.

The engine computes a bitset (``bits``: a Python int, bit ``i`` for row ``i``); a table shows
rows through a byte mask (one 0/1 byte per row, mapped into a sort order in C) or a list of row
indices; an export picks the matched rows' values. A ``Matches`` is made from any one of those
forms and derives the others on first use (``core.query.bits``), kept: read-only, do not change
what it returns. The engine's ``Outcome`` is a ``Matches`` that also says why a table matched
nothing.
"""

from __future__ import annotations

from itertools import compress

from catalogue_desktop.core.query import bits as bitsets

__all__ = ["Matches"]


class Matches:
    """The rows matched out of ``total`` (see the module doc)."""

    __slots__ = ("_bits", "_mask", "_rows", "count", "total")

    def __init__(
        self,
        total: int,
        *,
        bits: int | None = None,
        mask: bytes | None = None,
        rows: list[int] | None = None,
    ) -> None:
        """``rows``: ascending indices, each below ``total``."""
        self.total = total
        self._bits = bits
        self._mask = mask
        self._rows = rows
        if bits is not None:
            self.count = bits.bit_count()
        elif mask is not None:
            self.count = mask.count(1)
        elif rows is not None:
            self.count = len(rows)
        else:
            raise ValueError("bits, a mask or rows needed")

    @property
    def bits(self) -> int:
        if self._bits is None:
            rows = self._rows
            self._bits = (
                bitsets.from_rows(rows, self.total) if rows is not None else bitsets.from_mask(self.mask)
            )
        return self._bits

    @property
    def mask(self) -> bytes:
        if self._mask is None:
            if self._bits is not None:
                self._mask = bitsets.to_mask(self._bits, self.total)
            else:
                self._mask = bytes(bitsets.rows_mask(self.rows, self.total))
        return self._mask

    @property
    def rows(self) -> list[int]:
        if self._rows is None:
            if self._bits is not None:
                self._rows = bitsets.to_rows(self._bits, self.total)
            else:
                self._rows = list(compress(range(self.total), self.mask))
        return self._rows
