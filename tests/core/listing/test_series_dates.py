"""A series' First and Last session cells skip the sessions the user counts as on demand, from
the sessions its stored row keeps (a real ingest of the demo sample into a real store)."""

from __future__ import annotations

from pathlib import Path

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.listing import series_dates
from catalogue_desktop.core.listing.rows import COLUMNS, SESSIONS_AT, zone
from catalogue_desktop.core.listing.rowset import RowSet
from catalogue_desktop.core.listing.sorting import sorted_rows
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.sync.ingest import ingest

MS_2026_01_14_13H_EST = 1768413600000  # 805's on-demand session, recorded 2026-01-14T13:00-05:00
MS_2027_03_10_13H_EST = 1804701600000  # 805's live session


def _series(tmp_path: Path, sample: dict[Kind, bytes]) -> RowSet:
    path = tmp_path / "catalogue.sqlite3"
    ingest(str(path), "series", sample[Kind.SERIES], '"s"', None, "2026-01-05T09:30:00Z")
    rowset = RowSet(Kind.SERIES)
    with Store(path) as store:
        for part in store.iter_rows(Kind.SERIES):
            rowset.extend(part)
    return rowset


def _codes(*codes: str) -> series_dates.OnDemand:
    return lambda code: code is not None and str(code) in codes


def test_first_and_last_skip_on_demand_sessions_and_follow_the_choice(
    tmp_path: Path, sample: dict[Kind, bytes]
) -> None:
    rowset = _series(tmp_path, sample)
    estate = rowset.rows[rowset.rows_by_id()[805]]
    first, last = series_dates.FIRST, series_dates.LAST
    assert estate[first] == MS_2026_01_14_13H_EST  # as stored: every session
    assert sorted_rows(rowset, first)[0] == rowset.rows_by_id()[805]  # (its sort key remembered)

    assert series_dates.settle(rowset, _codes("1"))
    assert estate[first] == estate[last] == MS_2027_03_10_13H_EST
    assert zone(Kind.SERIES, estate, first) == -300
    assert not series_dates.only_on_demand(estate, _codes("1"))
    assert sorted_rows(rowset, first)[0] == rowset.rows_by_id()[810]  # sorted by the live dates
    assert not series_dates.settle(rowset, _codes("1"))  # nothing changes twice

    assert series_dates.settle(rowset, _codes("1", "2"))
    assert estate[first] is None and estate[last] is None
    assert series_dates.only_on_demand(estate, _codes("1", "2"))
    audit = rowset.rows[rowset.rows_by_id()[807]]  # its type 3 session
    assert audit[first] == audit[last] and not series_dates.only_on_demand(audit, _codes("1", "2"))

    assert series_dates.settle(rowset, _codes())  # nothing on demand: every session counts
    assert estate[first] == MS_2026_01_14_13H_EST


def test_a_row_without_its_sessions_keeps_its_cells(tmp_path: Path, sample: dict[Kind, bytes]) -> None:
    rowset = _series(tmp_path, sample)
    for row in rowset.rows:
        del row[SESSIONS_AT:]  # (listed by version 2, until it is listed again)
    before = [list(row) for row in rowset.rows]
    assert not series_dates.settle(rowset, _codes("1", "2"))
    assert [list(row) for row in rowset.rows] == before
    assert not any(series_dates.only_on_demand(row, _codes("1", "2")) for row in rowset.rows)
    assert all(len(row) == len(COLUMNS[Kind.SERIES]) + 1 for row in rowset.rows)


def test_a_row_whose_sessions_are_not_three_lists_of_one_length_keeps_its_cells(
    tmp_path: Path, sample: dict[Kind, bytes]
) -> None:
    """``settle`` reads a row's sessions inline (a call per row was a third of its loop): the rows it
    leaves as they are, hostile or damaged shapes, are those ``only_on_demand`` finds no sessions in,
    and a sound row beside them is still settled."""
    rowset = _series(tmp_path, sample)
    shapes = [None, "text", [], [[1], [0]], [[1], [0], "2"], [[1, 2], [0], [1]], [(1,), [0], [1]], {"a": 1}]
    for row, shape in zip(rowset.rows, shapes, strict=False):
        row[SESSIONS_AT] = shape  # type: ignore[index]
        row[series_dates.FIRST] = row[series_dates.LAST] = "kept"  # type: ignore[index]
    before = [list(row) for row in rowset.rows[: len(shapes)]]
    rowset.rows[len(shapes)][series_dates.FIRST] = "stale"  # type: ignore[index]
    assert series_dates.settle(rowset, _codes("2"))
    assert [list(row) for row in rowset.rows[: len(shapes)]] == before
    assert not any(series_dates.only_on_demand(row, _codes("2")) for row in rowset.rows[: len(shapes)])
    assert rowset.rows[len(shapes)][series_dates.FIRST] != "stale"


def test_settle_from_a_row_on_sets_only_the_rows_after_it(tmp_path: Path, sample: dict[Kind, bytes]) -> None:
    rowset = _series(tmp_path, sample)
    estate = rowset.rows_by_id()[805]
    assert series_dates.settle(rowset, _codes("1"), start=estate + 1) is (estate + 1 < len(rowset))
    assert rowset.rows[estate][series_dates.FIRST] == MS_2026_01_14_13H_EST  # before ``start``: as stored
    assert series_dates.settle(rowset, _codes("1"), start=estate)
    assert rowset.rows[estate][series_dates.FIRST] == MS_2027_03_10_13H_EST
