"""The count columns (``core.listing.counts``): how many webinars and courses name each expert,
topic, role and situation, filled a slice of rows per step, each referring row counted once."""

from __future__ import annotations

import random
from typing import Any

import pytest

from catalogue_desktop.core.listing import counts
from catalogue_desktop.core.listing.rows import COLUMNS, LINK_KINDS, column_index
from catalogue_desktop.core.listing.rowset import RowSet
from catalogue_desktop.core.records.kinds import Kind

TARGETS = {Kind.EXPERTS: 40, Kind.TOPICS: 25, Kind.ROLES: 6, Kind.SITUATIONS: 5}


def _referring(kind: Kind, rows: int, pick: random.Random) -> RowSet:
    """``rows`` rows of ``kind`` whose link lists name targets, some twice, some none."""
    rowset = RowSet(kind)
    links = [
        [[pick.randrange(TARGETS[t]) for _ in range(pick.randrange(4))] for t in LINK_KINDS[kind]]
        for _ in range(rows)
    ]
    for lists in links[::7]:
        if lists[0]:
            lists[0].append(lists[0][0])  # (named twice by one row: counted once)
    rowset.extend_columns(list(range(rows)), [[None] * len(COLUMNS[kind]) for _ in range(rows)], links)
    return rowset


def _counted(kind: Kind) -> RowSet:
    rowset = RowSet(kind)
    width = len(COLUMNS[kind])
    rows: list[list[Any]] = [[None] * width + [[]] for _ in range(TARGETS[kind])]
    for record_id, row in enumerate(rows):
        row[rowset.id_column] = record_id
    rowset.extend_columns(list(range(len(rows))), rows, [[] for _ in rows])
    return rowset


def test_each_count_is_the_referring_rows_naming_the_record_once_over_many_steps(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(counts, "_SLICE", 8)  # (many slices: 301 webinars, 53 courses)
    pick = random.Random(7)
    rowsets = {
        Kind.WEBINARS: _referring(Kind.WEBINARS, 301, pick),
        Kind.COURSES: _referring(Kind.COURSES, 53, pick),
    }
    rowsets.update({kind: _counted(kind) for kind in TARGETS})
    changed: list[Kind] = []
    steps = sum(1 for _ in counts.fill_steps(rowsets, changed))
    assert steps >= 301 // 8
    assert len(changed) == len(set(changed)) and set(changed) == set(TARGETS)
    for kind, sources in counts.COUNTED.items():
        for source in sources:
            slot = LINK_KINDS[source].index(kind)
            column = column_index(kind, counts.COUNT_KEY[source])
            for row in rowsets[kind].rows:
                record_id = row[rowsets[kind].id_column]
                named = sum(1 for lists in rowsets[source].links if record_id in lists[slot])
                assert row[column] == named, (kind, source, record_id)
    again: list[Kind] = []
    for _ in counts.fill_steps(rowsets, again):
        pass
    assert again == []  # (the same counts: no kind said changed)
