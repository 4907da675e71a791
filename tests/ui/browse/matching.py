"""Which rows a plain word query matches, for the table model's tests: every word (case-folded)
in the text of the row's text, code, id and fee cells. (The window's matches come from the finder,
``core.query``, tested on its own; the model only shows what it is given.)"""

from __future__ import annotations

from typing import Any

from catalogue_desktop.core.listing.rows import COLUMNS, ColumnType
from catalogue_desktop.core.listing.rowset import RowSet
from catalogue_desktop.core.query.matches import Matches

_TEXT = (ColumnType.TEXT, ColumnType.CODE, ColumnType.INT, ColumnType.MONEY)


def matching(rowset: RowSet, query: str) -> Matches | None:
    """The rows holding every word of ``query``; None (every row) for an empty query."""
    words = query.casefold().split()
    if not words:
        return None
    columns = [i for i, c in enumerate(COLUMNS[rowset.kind]) if c.type in _TEXT]
    rows = [
        i
        for i, row in enumerate(rowset.rows)
        if all(any(w in str(row[c]).casefold() for c in columns if row[c] is not None) for w in words)
    ]
    return Matches(len(rowset), rows=rows)


def set_query(model: Any, query: str) -> None:
    """Show the rows of ``model``'s row set that ``query`` matches."""
    model.set_result(matching(model.rowset, query))
