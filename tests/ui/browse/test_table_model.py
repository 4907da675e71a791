"""RowSetTableModel: model-tester conformance, numeric sorting, showing matches, change markers,
and matched + sorted rows against a reference."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QLocale, Qt
from PySide6.QtGui import QFont, QIcon

from catalogue_desktop.core.listing import rows as listing
from catalogue_desktop.core.listing.rowset import RowSet
from catalogue_desktop.core.listing.sorting import SortJob
from catalogue_desktop.core.records import models
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.browse.table_model import RowSetTableModel
from catalogue_desktop.ui.common.formatting import Formatter
from tests.ui.browse.matching import matching, set_query
from tests.ui.fixtures_components import *  # noqa: F403
from tests.ui.fixtures_components import DemoCatalogue

NOW = int(datetime(2026, 6, 1, tzinfo=UTC).timestamp() * 1000)
DISPLAY = Qt.ItemDataRole.DisplayRole


def _webinar(
    wid: int, title: str, fee: int | None, start: str | None, end: str | None = None, **kw: Any
) -> models.Webinar:
    return models.Webinar.model_validate(
        {"webinarId": wid, "title": title, "fee": fee, "startDate": start, "endDate": end, **kw}
    )


def _rowset(kind: Kind, records: list[Any]) -> RowSet:
    rowset = RowSet(kind)
    rowset.extend([pos, listing.row(kind, r, NOW), listing.links(kind, r)] for pos, r in enumerate(records))
    return rowset


def hand_records() -> list[models.Webinar]:
    return [
        _webinar(1, "Zeta", 1000, "2026-03-01T10:00:00Z", "2026-03-01T11:00:00Z"),
        _webinar(
            2,
            "alpha",
            99,
            "2027-01-05T10:00:00Z",
            "2027-01-05T11:00:00Z",
            description="ignored",
            cleAccreditation=True,
        ),
        _webinar(3, "Beta", 219, "2026-12-31T23:00:00Z", None),
        _webinar(4, "gamma", None, None, None),
        _webinar(
            5, "Delta" * 20, 5, "2026-07-01T10:00:00-05:00", "2026-07-01T12:00:00-05:00", type="webcast"
        ),
    ]


def hand_rowset() -> RowSet:
    return _rowset(Kind.WEBINARS, hand_records())


def hand_items() -> list[list[Any]]:
    """``hand_rowset``'s rows as the store yields them, to add to a row set a few at a time."""
    kind = Kind.WEBINARS
    return [[pos, listing.row(kind, r, NOW), listing.links(kind, r)] for pos, r in enumerate(hand_records())]


def _read_so_far(items: list[list[Any]]) -> RowSet:
    """A row set of the loader's, holding the ``items`` read so far."""
    rowset = RowSet(Kind.WEBINARS)
    rowset.extend(items)
    return rowset


def _column(model: RowSetTableModel, key: str) -> int:
    return listing.column_index(model.kind, key)


def _ids(model: RowSetTableModel) -> list[int]:
    return [model.record_id(r) for r in range(model.rowCount())]


def test_model_tester_every_state(qtmodeltester: Any, en_formatter: Formatter) -> None:
    model = RowSetTableModel(Kind.WEBINARS, en_formatter)
    qtmodeltester.check(model)  # empty
    model.set_rowset(
        hand_rowset(), {"added": [2], "removed": [9], "changed": [{"id": 3, "fields": {"fee": [199, 219]}}]}
    )
    model.set_now_ms(NOW)
    qtmodeltester.check(model)  # populated
    model.sort(_column(model, "start"), Qt.SortOrder.DescendingOrder)
    qtmodeltester.check(model)  # sorted
    set_query(model, "a")
    qtmodeltester.check(model)  # sorted + filtered
    set_query(model, "nothing-matches-this")
    qtmodeltester.check(model)  # filtered to empty
    set_query(model, "")
    model.set_rowset(hand_rowset())
    qtmodeltester.check(model)  # after reset
    model.set_rowset(RowSet(Kind.WEBINARS))
    qtmodeltester.check(model)  # empty again


def test_a_row_set_shown_as_it_is_read_grows_by_appended_rows(
    qtmodeltester: Any, en_formatter: Formatter
) -> None:
    """The loader shows the first rows of the collection the window starts on before it has read
    the rest (``show_growing``, again with each chunk, then ``set_rowset`` once complete): one
    reset, then appended rows (a selection or a scroll position stays), the count saying how
    many are still coming."""
    items = hand_items()
    model = RowSetTableModel(Kind.WEBINARS, en_formatter)
    resets: list[int] = []
    inserted: list[tuple[int, int]] = []
    counts: list[tuple[int, int]] = []
    model.modelReset.connect(lambda: resets.append(model.rowCount()))
    model.rowsInserted.connect(lambda _parent, first, last: inserted.append((first, last)))
    model.counts_changed.connect(lambda visible, total: counts.append((visible, total)))
    rowset = _read_so_far(items[:1])
    model.show_growing(rowset, 5)
    qtmodeltester.check(model)  # stays attached: checks each insertion below as it happens
    assert model.loading and resets == [1] and counts == [(1, 5)]
    assert (model.visible_count(), model.total_count()) == (1, 5)

    rowset.extend(items[1:4])  # read, not yet shown: the view must not see them before it is told
    assert model.rowCount() == 1 and model.view_row_of(3) is None
    assert model.view_row_of(1) == 0
    model.show_growing(rowset, 5)
    assert model.rowCount() == 4 and inserted == [(1, 3)] and counts[-1] == (4, 5)
    assert model.view_row_of(3) == 2

    rowset.extend(items[4:])
    model.set_rowset(rowset)  # complete
    assert not model.loading and model.rowCount() == 5
    assert inserted == [(1, 3), (4, 4)] and resets == [1] and counts[-1] == (5, 5)
    assert _ids(model) == [1, 2, 3, 4, 5]
    set_query(model, "ta")  # an ordinary model again
    assert _ids(model) == [1, 3, 5]


def test_rows_read_are_appended_when_the_view_would_show_four_times_as_many(
    qtmodeltester: Any, en_formatter: Formatter
) -> None:
    """Qt's table repaints its whole viewport at every change of its row count: rows read a page
    at a time are appended when four times as many were read as are shown (1 shown: at 4, 16),
    the last ones with the complete row set; the counts are said at each append only."""
    first = hand_items()[0]
    id_column = listing.column_index(Kind.WEBINARS, "id")
    items = []
    for pos in range(20):
        row = list(first[1])
        row[id_column] = 1000 + pos
        items.append([pos, row, first[2]])
    model = RowSetTableModel(Kind.WEBINARS, en_formatter)
    inserted: list[tuple[int, int]] = []
    counts: list[tuple[int, int]] = []
    model.rowsInserted.connect(lambda _parent, first, last: inserted.append((first, last)))
    model.counts_changed.connect(lambda visible, total: counts.append((visible, total)))
    rowset = _read_so_far(items[:1])
    model.show_growing(rowset, 20)
    qtmodeltester.check(model)
    for item in items[1:]:  # a page of one row per pass
        rowset.extend([item])
        model.show_growing(rowset, 20)
        assert model.rowCount() <= len(rowset)
    assert inserted == [(1, 3), (4, 15)]
    assert counts == [(1, 20), (4, 20), (16, 20)]
    assert model.loading and model.view_row_of(1016) is None and model.view_row_of(1015) == 15
    model.set_rowset(rowset)  # complete: the rest, at once
    assert inserted[-1] == (16, 19) and not model.loading and model.rowCount() == 20
    assert counts[-1] == (20, 20)


def test_a_sort_asked_for_while_rows_are_read_applies_once_all_are(
    qtmodeltester: Any, en_formatter: Formatter
) -> None:
    """Sorting needs every row: asked for while the rows are read, it is noted (the rows keep
    coming in the service's order) and applied when the row set is complete, with its matches."""
    items = hand_items()
    model = RowSetTableModel(Kind.WEBINARS, en_formatter)
    qtmodeltester.check(model)
    rowset = _read_so_far(items[:1])
    model.show_growing(rowset, 5)
    model.sort(_column(model, "fee"), Qt.SortOrder.DescendingOrder)
    assert _ids(model) == [1] and not model.filtered
    assert model.sort_column == _column(model, "fee")
    rowset.extend(items[1:])
    model.show_growing(rowset, 5)
    assert _ids(model) == [1, 2, 3, 4, 5]
    counts: list[tuple[int, int]] = []
    model.counts_changed.connect(lambda visible, total: counts.append((visible, total)))
    # the finder's matches come with the complete row set (a query is never applied to part of it)
    model.set_rowset(rowset, None, (matching(rowset, "ta"), None, None))
    assert _ids(model) == [1, 3, 5]  # fee 1000, 219, 5: "ta" in Zeta, Beta, Delta
    assert counts == [(3, 5)] and not model.loading


def test_a_new_row_set_replaces_one_being_read(qtmodeltester: Any, en_formatter: Formatter) -> None:
    """A refresh's rows (or the rows of a snapshot read again) replace rows still being read."""
    items = hand_items()
    model = RowSetTableModel(Kind.WEBINARS, en_formatter)
    qtmodeltester.check(model)
    first = _read_so_far(items[:3])
    model.show_growing(first, 5)
    model.show_growing(_read_so_far(items[3:4]), 2)  # read again from the start
    assert model.loading and _ids(model) == [4] and model.total_count() == 2
    model.set_rowset(hand_rowset())
    assert not model.loading and _ids(model) == [1, 2, 3, 4, 5]
    model.set_rowset(first)  # not the row set being read: an ordinary reset
    assert not model.loading and _ids(model) == [1, 2, 3]


def test_sort_fee_and_date_numerically(en_formatter: Formatter) -> None:
    model = RowSetTableModel(Kind.WEBINARS, en_formatter)
    model.set_rowset(hand_rowset())
    model.sort(_column(model, "fee"), Qt.SortOrder.AscendingOrder)
    assert _ids(model) == [5, 2, 3, 1, 4]  # 5 < 99 < 219 < 1000, blank last
    model.sort(_column(model, "fee"), Qt.SortOrder.DescendingOrder)
    assert _ids(model) == [1, 3, 2, 5, 4]  # blank last in both directions
    model.sort(_column(model, "start"), Qt.SortOrder.AscendingOrder)
    assert _ids(model) == [1, 5, 3, 2, 4]
    model.sort(_column(model, "title"), Qt.SortOrder.AscendingOrder)
    assert _ids(model) == [2, 3, 5, 4, 1]  # case-insensitive
    model.sort(-1)
    assert _ids(model) == [1, 2, 3, 4, 5]  # the service's order


def test_sort_demo_fees_numerically(demo: DemoCatalogue, en_formatter: Formatter) -> None:
    for kind in (Kind.WEBINARS, Kind.CERTIFICATES):
        model = RowSetTableModel(kind, en_formatter)
        model.set_rowset(demo.rowsets[kind])
        column = _column(model, "fee")
        model.sort(column, Qt.SortOrder.AscendingOrder)
        fees = [model.data(model.index(r, column), Qt.ItemDataRole.UserRole) for r in range(model.rowCount())]
        present = [float(f) for f in fees if f is not None]
        assert present == sorted(present) and len(present) > 3
        assert all(f is None for f in fees[len(present) :])


def test_matches_narrow_and_count(qtbot: Any, en_formatter: Formatter) -> None:
    model = RowSetTableModel(Kind.WEBINARS, en_formatter)
    with qtbot.waitSignal(model.counts_changed) as blocker:
        model.set_rowset(hand_rowset())
    assert blocker.args == [5, 5]
    model.sort(_column(model, "fee"), Qt.SortOrder.DescendingOrder)
    with qtbot.waitSignal(model.counts_changed) as blocker:
        set_query(model, "ta")  # Zeta, Beta, Delta...
    assert blocker.args == [3, 5]
    assert _ids(model) == [1, 3, 5]  # filtered rows in sorted order
    assert model.visible_count() == 3 and model.total_count() == 5
    assert model.view_row_of(5) == 2 and model.view_row_of(2) is None
    with qtbot.waitSignal(model.counts_changed) as blocker:
        set_query(model, "")
    assert blocker.args == [5, 5]
    # new rows come with their matches (the finder's: ``ui.finder.controller``), in the sort
    rowset = hand_rowset()
    model.set_rowset(rowset, None, (matching(rowset, "beta"), None, None))
    assert _ids(model) == [3] and model.sort_column == _column(model, "fee")
    model.set_rowset(rowset)  # ... or none: every row
    assert _ids(model) == [1, 3, 2, 5, 4]


def test_display_alignment_and_raw_values(en_formatter: Formatter) -> None:
    model = RowSetTableModel(Kind.WEBINARS, en_formatter)
    model.set_rowset(hand_rowset())
    fee, cle, type_ = _column(model, "fee"), _column(model, "cle"), _column(model, "type")
    assert model.data(model.index(0, fee)) == "1,000"
    en_formatter.set_currency("$")
    model.redraw()
    assert model.data(model.index(0, fee)) == "$1,000"
    en_formatter.set_currency(None)
    assert model.data(model.index(0, fee), Qt.ItemDataRole.UserRole) == 1000
    assert model.data(model.index(1, cle)) == "Yes"
    assert model.data(model.index(4, type_)) == "Type webcast"  # a code no label names yet
    align = model.data(model.index(0, fee), Qt.ItemDataRole.TextAlignmentRole)
    assert align & Qt.AlignmentFlag.AlignRight
    assert model.data(model.index(0, 0), Qt.ItemDataRole.TextAlignmentRole) is None
    assert model.headerData(fee, Qt.Orientation.Horizontal) == "Fee"
    assert model.headerData(fee, Qt.Orientation.Horizontal, Qt.ItemDataRole.ToolTipRole)
    assert not model.flags(model.index(0, 0)) & Qt.ItemFlag.ItemIsEditable
    long_title = model.data(model.index(4, 0), Qt.ItemDataRole.ToolTipRole)
    assert long_title.startswith("DeltaDelta")


def test_change_markers_and_tooltips(en_formatter: Formatter) -> None:
    model = RowSetTableModel(Kind.WEBINARS, en_formatter)
    model.set_rowset(
        hand_rowset(),
        {
            "added": [2],
            "removed": [],
            "changed": [{"id": 3, "fields": {"fee": [199, 219], "title": ["Old", "Beta"]}}],
        },
    )
    added, changed, plain = model.view_row_of(2), model.view_row_of(3), model.view_row_of(1)
    assert isinstance(model.data(model.index(added, 0), Qt.ItemDataRole.DecorationRole), QIcon)
    assert isinstance(model.data(model.index(changed, 0), Qt.ItemDataRole.DecorationRole), QIcon)
    assert model.data(model.index(plain, 0), Qt.ItemDataRole.DecorationRole) is None
    font = model.data(model.index(changed, 0), Qt.ItemDataRole.FontRole)
    assert isinstance(font, QFont) and font.bold()
    tip = model.data(model.index(changed, _column(model, "fee")), Qt.ItemDataRole.ToolTipRole)
    assert "fee 199 -> 219" in tip and "title Old -> Beta" in tip
    assert "Added" in model.data(model.index(added, 0), Qt.ItemDataRole.ToolTipRole)
    assert model.change_state(changed) == "changed" and model.change_state(plain) is None
    # markers survive sorting
    model.sort(_column(model, "fee"), Qt.SortOrder.AscendingOrder)
    assert model.change_state(model.view_row_of(3)) == "changed"


def test_past_rows_greyed(en_formatter: Formatter) -> None:
    model = RowSetTableModel(Kind.WEBINARS, en_formatter)
    model.set_rowset(hand_rowset())
    model.set_now_ms(NOW)
    fg = Qt.ItemDataRole.ForegroundRole
    assert model.data(model.index(model.view_row_of(1), 0), fg) is not None  # ended March 2026
    assert model.data(model.index(model.view_row_of(2), 0), fg) is None  # 2027
    assert model.data(model.index(model.view_row_of(3), 0), fg) is None  # no end; starts Dec 2026
    assert model.data(model.index(model.view_row_of(4), 0), fg) is None  # no dates
    model.set_now_ms(int(datetime(2028, 1, 1, tzinfo=UTC).timestamp() * 1000))
    assert model.data(model.index(model.view_row_of(3), 0), fg) is not None  # start fallback


def test_default_order_upcoming_then_on_demand_then_past_with_hostile_cells(en_formatter: Formatter) -> None:
    """The default order (by start, upcoming first) ranks each row by its end, else its start,
    and its type, whatever the cells hold: text or a list where a time or a code belongs (the
    ranks are made in C over the whole column, with a row-by-row path for such values)."""
    kind = Kind.WEBINARS
    start, end, type_ = (listing.column_index(kind, k) for k in ("start", "end", "type"))
    cells = [  # (id, start, end, type)
        (1, NOW + 5, None, None),  # upcoming
        (2, NOW - 9, NOW - 1, None),  # past
        (3, NOW - 8, None, 1),  # on demand (type 1), though past
        (4, NOW + 1, NOW + 2, [1]),  # a list for a code: upcoming
        (5, NOW - 7, "soon", None),  # text for an end: not past
        (6, None, None, None),  # no dates: upcoming, blanks last
        (7, NOW + 3, NOW - 2, "1"),  # on demand (its code as text)
    ]
    rowset = RowSet(kind)
    width = len(listing.COLUMNS[kind]) + 1
    rows = []
    for pos, (wid, s, e, t) in enumerate(cells):
        row: list[Any] = [None] * width
        row[listing.column_index(kind, "id")], row[start], row[end], row[type_] = wid, s, e, t
        row[-1] = []
        rows.append([pos, row, [[] for _ in listing.LINK_KINDS[kind]]])
    rowset.extend(rows)
    model = RowSetTableModel(kind, en_formatter)
    model.set_now_ms(NOW)
    model.upcoming_first = True
    model.sort(start)
    model.set_rowset(rowset)
    assert _ids(model) == [5, 4, 1, 6, 3, 7, 2]
    model.set_now_ms(NOW - 100)  # before every date: only the on-demand rows come after
    model.sort(-1)
    model.sort(start)
    assert _ids(model) == [2, 5, 4, 1, 6, 3, 7]


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.tuples(st.sampled_from([None, 1, 7, "soon"]), st.sampled_from([None, 1, 3, 9])), max_size=40)
)
def test_default_order_from_columns_copied_ahead_equals_from_the_rows(
    qapp: Any, cells: list[tuple[Any, Any]]
) -> None:
    """A reloaded row set is sorted ahead by start (``SortJob``, as the loader does), which also
    copies the default order's columns out of the rows (``RowSet.values``): the tab's order made
    from those equals the one made from the rows."""
    kind = Kind.WEBINARS
    start, end, type_ = (listing.column_index(kind, k) for k in ("start", "end", "type"))
    width = len(listing.COLUMNS[kind]) + 1
    formatter = Formatter()

    def rowset() -> RowSet:
        made = RowSet(kind)
        items = []
        for pos, (when, code) in enumerate(cells):
            row: list[Any] = [None] * width
            row[listing.column_index(kind, "id")], row[start], row[type_] = pos, NOW + pos % 5 - 2, code
            row[end], row[-1] = when if when in (None, "soon") else NOW + when - 4, []
            items.append([pos, row, [[] for _ in listing.LINK_KINDS[kind]]])
        made.extend(items)
        return made

    orders = []
    for ahead in (False, True):
        shown = rowset()
        if ahead:
            job = SortJob(shown, start)
            while not job.step():
                pass
            assert len(shown.values) == 3 or not cells
        model = RowSetTableModel(kind, formatter)
        model.set_now_ms(NOW)
        model.upcoming_first = True
        model.sort(start)
        model.set_rowset(shown)
        orders.append(_ids(model))
    assert orders[0] == orders[1]


def test_selection_follows_sort(qtbot: Any, en_formatter: Formatter) -> None:
    from PySide6.QtWidgets import QTableView

    model = RowSetTableModel(Kind.WEBINARS, en_formatter)
    model.set_rowset(hand_rowset())
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    view.selectRow(model.view_row_of(3))
    model.sort(_column(model, "fee"), Qt.SortOrder.AscendingOrder)
    rows = {i.row() for i in view.selectionModel().selectedRows()}
    assert rows == {model.view_row_of(3)}


def test_many_selected_rows_follow_a_sort_under_a_filter(qtbot: Any, en_formatter: Formatter) -> None:
    from PySide6.QtCore import QItemSelection, QItemSelectionModel
    from PySide6.QtWidgets import QTableView

    model = RowSetTableModel(Kind.WEBINARS, en_formatter)
    model.set_rowset(_random_rowset(3, 300))
    view = QTableView()
    qtbot.addWidget(view)
    view.setModel(model)
    set_query(model, "a")
    selection = QItemSelection(model.index(10, 0), model.index(40, model.columnCount() - 1))
    view.selectionModel().select(selection, QItemSelectionModel.SelectionFlag.ClearAndSelect)
    kept = {model.record_id(r) for r in range(10, 41)}
    for key, order in (("fee", Qt.SortOrder.DescendingOrder), ("title", Qt.SortOrder.AscendingOrder)):
        model.sort(_column(model, key), order)
        assert {model.record_id(i.row()) for i in view.selectionModel().selectedRows()} == kept
        assert len(view.selectionModel().selectedIndexes()) == len(kept) * model.columnCount()


def test_large_rowset_sorts_and_filters(en_formatter: Formatter) -> None:
    """Functional at scale; the speed itself is measured in bench/run.py, not here."""
    base = hand_rowset()
    rowset = RowSet(Kind.WEBINARS)
    rowset.extend([i, [*base.rows[i % 5][:10], i, None], [[], [], [], []]] for i in range(20_000))
    model = RowSetTableModel(Kind.WEBINARS, en_formatter)
    model.set_rowset(rowset)
    model.sort(_column(model, "start"), Qt.SortOrder.AscendingOrder)
    set_query(model, "zeta")
    assert model.visible_count() == 4000
    starts = [
        model.index(r, _column(model, "start")).data(Qt.ItemDataRole.UserRole)
        for r in range(model.rowCount())
    ]
    present = [s for s in starts if s is not None]
    assert present == sorted(present) and starts[: len(present)] == present


# -- filtered + sorted against a reference -----------------------------------------------------------

_TITLES = ["Lease accounting", "lease ASC 842", "Tax update", "tax law", "Revenue", "Ethics", ""]
_SORTS = st.sampled_from([None, "title", "type", "start", "fee", "cle", "session"])
_QUERIES = st.lists(
    st.sampled_from(["le", "lease", "a", "tax", "ta", "e", " ", "x", "842", "rev"]), max_size=4
).map("".join)


def _random_rowset(seed: int, n: int) -> RowSet:
    """Webinar rows with ties and blanks in every sortable column (both mapping paths: few and
    many matches)."""
    rnd = random.Random(seed)
    width = len(listing.COLUMNS[Kind.WEBINARS])
    col = {c.key: i for i, c in enumerate(listing.COLUMNS[Kind.WEBINARS])}
    rows = []
    for i in range(n):
        row: list[Any] = [None] * width
        row[col["title"]] = rnd.choice(_TITLES) + (f" {i}" if rnd.random() < 0.3 else "")
        row[col["type"]] = rnd.choice([1, 2, "LIVE", None])
        row[col["start"]] = rnd.choice([None, NOW, NOW + 1, 2**41 + rnd.randrange(10**6)])
        row[col["fee"]] = rnd.choice([None, 0, 99, 199, 10**6])
        row[col["cle"]] = rnd.choice([True, False, None])
        row[col["id"]] = i
        row[col["session"]] = rnd.choice([None, 7, 2**60, 3])
        rows.append(row)
    return RowSet(Kind.WEBINARS, rows=rows, links=[[] for _ in rows], positions=list(range(n)))


class _Reference:
    """The rows a plain word query matches (None: every row): what the model is given to show."""

    def __init__(self, rowset: RowSet) -> None:
        self.rowset = rowset

    def matches(self, query: str) -> list[int] | None:
        found = matching(self.rowset, query)
        return None if found is None else found.rows


def _reference_order(rowset: RowSet, column: int, descending: bool) -> list[int]:
    def key(i: int) -> Any:
        value = rowset.rows[i][column]
        return (
            (0, value.casefold())
            if isinstance(value, str) and column == 0
            else ((0, value) if isinstance(value, int) else (1, str(value)))
        )

    present = [i for i in range(len(rowset)) if rowset.rows[i][column] is not None]
    present.sort(key=key, reverse=descending)
    return present + [i for i in range(len(rowset)) if rowset.rows[i][column] is None]


@settings(max_examples=80, deadline=None)
@given(
    seed=st.integers(0, 2**16),
    n=st.sampled_from([0, 1, 2, 7, 120]),
    ops=st.lists(st.tuples(_SORTS, st.booleans()) | _QUERIES, max_size=8),
    prepared=st.booleans(),
)
def test_filtered_and_sorted_rows_equal_a_reference(
    qapp: Any, seed: int, n: int, ops: list[Any], prepared: bool
) -> None:
    """Both ways of putting matches in sort order: by the matches' mask picked in sort order,
    and (``prepared``: rows' positions in the sort order noted, as in idle time) few matches by
    their positions."""
    from PySide6.QtWidgets import QTableView

    rowset = _random_rowset(seed, n)
    formatter = Formatter(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    model = RowSetTableModel(Kind.WEBINARS, formatter)
    model.set_rowset(rowset)
    if prepared:
        model.idle_work.finish()
    view = QTableView()
    view.setModel(model)
    reference = _Reference(rowset)
    sort: tuple[int, bool] | None = None
    query = ""
    for op in ops:
        if isinstance(op, str):
            query = op
            set_query(model, query)
        else:
            key, descending = op
            sort = None if key is None else (_column(model, key), descending)
            kept = model.record_id(model.rowCount() // 2) if model.rowCount() else None
            if kept is not None:
                view.selectRow(model.rowCount() // 2)
            order = Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder
            model.sort(-1 if sort is None else sort[0], order)
            if prepared:
                model.idle_work.finish()
            if kept is not None:  # the selection follows its record
                (selected,) = {i.row() for i in view.selectionModel().selectedRows()}
                assert model.record_id(selected) == kept
        matched = reference.matches(query)
        shown = set(range(n)) if matched is None else set(matched)
        expected = list(range(n)) if sort is None else _reference_order(rowset, *sort)
        assert [model.source_row(r) for r in range(model.rowCount())] == [
            i for i in expected if i in shown
        ], op
        assert model.visible_count() == len(shown) and model.total_count() == n
    view.deleteLater()


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**16), prepared=st.booleans())
def test_few_and_many_matches_in_sort_order_both_ways(qapp: Any, seed: int, prepared: bool) -> None:
    """Few matches (under 1/8 of the rows: by their noted positions once idle time noted them)
    and many (by their mask picked in sort order), under each sort in both directions."""
    n = 240
    rowset = _random_rowset(seed, n)
    formatter = Formatter(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    model = RowSetTableModel(Kind.WEBINARS, formatter)
    model.set_rowset(rowset)
    reference = _Reference(rowset)
    queries = ["ethics 1", "ethics", "a", "842 2", "tax", "zzz", "revenue 1", ""]
    counts = [len(m) for m in map(reference.matches, queries) if m is not None]
    assert min(counts) * 8 < n and max(counts) * 8 >= n  # both ways are taken
    for key in ("title", "start", "fee", "session"):
        for descending in (False, True):
            model.sort(
                _column(model, key),
                Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder,
            )
            if prepared:
                model.idle_work.finish()
            expected = _reference_order(rowset, _column(model, key), descending)
            for query in queries:
                set_query(model, query)
                matched = reference.matches(query)
                shown = set(range(n)) if matched is None else set(matched)
                assert [model.source_row(r) for r in range(model.rowCount())] == [
                    i for i in expected if i in shown
                ], (key, descending, query)


def test_one_row_sorted_and_filtered(qapp: Any) -> None:
    rowset = _random_rowset(3, 1)
    model = RowSetTableModel(
        Kind.WEBINARS, Formatter(QLocale(QLocale.Language.English, QLocale.Country.UnitedStates))
    )
    model.set_rowset(rowset)
    model.sort(_column(model, "title"), Qt.SortOrder.DescendingOrder)
    set_query(model, "0")  # its id
    assert model.rowCount() == 1 and model.source_row(0) == 0
    set_query(model, "no such words")
    assert model.rowCount() == 0


def test_idle_work_is_done_in_passes_bounded_by_time_not_rows(qapp: Any, monkeypatch: Any) -> None:
    """The sort keys and positions built in idle time: a pass ends once its time budget is spent
    (a slow or busy CPU does smaller passes, not longer ones); with time to spare one pass does it
    all. Either way the matches then come in the order a fresh sort gives."""
    from catalogue_desktop.ui.browse import idle_work

    rowset = _random_rowset(7, 120)
    monkeypatch.setattr(idle_work, "_PREPARE_SORT_ROWS", 10)
    monkeypatch.setattr(idle_work, "_PREPARE_RANK_ROWS", 10)

    def passes(budget: float) -> tuple[int, RowSetTableModel]:
        monkeypatch.setattr(idle_work, "_PREPARE_PASS_S", budget)
        model = RowSetTableModel(Kind.WEBINARS, Formatter())
        model.set_rowset(rowset)
        model.sort(_column(model, "start"), Qt.SortOrder.AscendingOrder)
        count = 0
        while model.idle_work.pending:
            model.idle_work.step()
            count += 1
        return count, model

    spent, slow = passes(0.0)  # every slice over budget: one slice per pass
    # 120 rows of the start's keys (the sort itself made them: none left), then of the fee's and
    # of positions in the sort order, 10 a slice; a slice that finishes one goes on to the next
    assert spent == 12  # (the sort made the start's keys; fee keys and positions: 12 slices)
    spare, fast = passes(60.0)
    assert spare == 1
    for model in (slow, fast):
        set_query(model, "tax")
        assert [model.source_row(r) for r in range(model.rowCount())] == [
            i
            for i in _reference_order(rowset, _column(model, "start"), False)
            if i in set(m.rows if (m := matching(rowset, "tax")) else [])
        ]
        assert model.rowCount() > 0
