"""The loader reads cached rows on Qt timers only: order, re-reading a snapshot replaced mid-read,
superseded reloads, stopping, the GC held off only while the window starts, replaced rows freed."""

from __future__ import annotations

import gc
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.cache.store import FILE_NAME, Store
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.core.sync.ingest import ingest
from catalogue_desktop.ui.browse import catalogue_loader
from catalogue_desktop.ui.browse.catalogue_loader import CatalogueLoader
from tests.records import webinar
from tests.ui.conftest import SMALL_PAGES, loop_passes


@pytest.fixture
def store(filled_cache: Path) -> Iterator[Store]:
    with Store(filled_cache / FILE_NAME) as opened:
        yield opened


def stored_rows(store: Store, kind: Kind) -> list[list[Any]]:
    return [row for chunk in store.iter_rows(kind, 100_000) for _pos, row, _links in chunk]


def test_load_all_reads_every_collection_in_the_given_order_then_builds_the_index(
    qtbot: Any, store: Store
) -> None:
    loader = CatalogueLoader(store, chunk=7)
    order = [Kind.SERIES, *(kind for kind in ALL_KINDS if kind is not Kind.SERIES)]
    published: list[Kind] = []
    loader.rowset_loaded.connect(lambda kind, _rows, _changes: published.append(kind))
    gc_during: list[bool] = []
    loader.rowset_loaded.connect(lambda *_: gc_during.append(gc.isenabled()))
    assert gc.isenabled()
    with qtbot.waitSignal(loader.all_loaded, timeout=5000):
        loader.load_all(order)
    assert published == order
    for kind in ALL_KINDS:
        assert loader.rowsets[kind].rows == stored_rows(store, kind)
        assert len(loader.rowsets[kind]) == store.state(kind).records > 0
    first = loader.rowsets[Kind.WEBINARS]
    record_id = first.record_id(len(first) - 1)
    assert loader.index.title(Kind.WEBINARS, record_id) == first.title(len(first) - 1)
    assert loader.idle
    assert gc_during and not any(gc_during)  # no cyclic GC while the window starts ...
    assert gc.isenabled()  # ... and on again afterwards


def test_links_come_packed_and_are_unpacked_in_the_passes_after_loading(qtbot: Any, store: Store) -> None:
    """Reading links packed halves the cost of a page while the window starts; the loader then
    unpacks them a page per loop pass, so the first detail pane does not pay for it."""
    loader = CatalogueLoader(store)
    with qtbot.waitSignal(loader.all_loaded, timeout=5000):
        loader.load_all()
    assert sum(rowset.packed_links for rowset in loader.rowsets.values()) > 0
    qtbot.waitUntil(lambda: not any(r.packed_links for r in loader.rowsets.values()), timeout=5000)
    for kind in ALL_KINDS:
        assert loader.rowsets[kind]._links == [
            links for _, _, chunk in store.iter_columns(kind) for links in chunk
        ]


def test_a_snapshot_replaced_while_reading_is_read_again(
    qtbot: Any, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    replacement = [webinar(91001, title="Fresh one"), webinar(91002, title="Fresh two")]
    real_iter_columns = store.iter_columns
    calls: list[Kind] = []

    def iter_columns(kind: Kind, chunk: int = 5000, **options: Any) -> Iterator[Any]:
        calls.append(kind)
        for i, columns in enumerate(real_iter_columns(kind, chunk, **options)):
            yield columns
            if i == 0 and len(calls) == 1:  # a refresh lands after the first chunk was read
                report = ingest(
                    str(store.path),
                    kind.value,
                    json.dumps(replacement).encode(),
                    None,
                    None,
                    "2026-02-01T00:00:00Z",
                )
                assert report.status == "updated"

    monkeypatch.setattr(store, "iter_columns", iter_columns)
    loader = CatalogueLoader(store, chunk=5)
    published: list[list[str]] = []
    loader.rowset_loaded.connect(
        lambda _kind, rowset, _changes: published.append([rowset.title(i) for i in range(len(rowset))])
    )
    loader.reload(Kind.WEBINARS)
    qtbot.waitUntil(lambda: loader.idle, timeout=5000)
    assert calls == [Kind.WEBINARS, Kind.WEBINARS]
    assert published == [["Fresh one", "Fresh two"]]  # never a mix of the two snapshots


def test_a_newer_reload_supersedes_a_running_one(qtbot: Any, store: Store) -> None:
    loader = CatalogueLoader(store, chunk=5)
    published: list[Kind] = []
    loader.rowset_loaded.connect(lambda kind, _rows, _changes: published.append(kind))
    done: list[Any] = []
    loader.reload(Kind.WEBINARS, done=lambda rowset: done.append(("first", rowset)))
    loader.reload(Kind.WEBINARS, done=lambda rowset: done.append(("second", rowset)))
    qtbot.waitUntil(lambda: loader.idle, timeout=5000)
    assert published == [Kind.WEBINARS]
    assert [name for name, _ in done] == ["first", "second"]
    assert done[0][1] is done[1][1] is loader.rowsets[Kind.WEBINARS]


def test_stop_drops_pending_loads_and_turns_the_gc_back_on(qtbot: Any, store: Store) -> None:
    loader = CatalogueLoader(store, chunk=3)
    published: list[Kind] = []
    loader.rowset_loaded.connect(lambda kind, _rows, _changes: published.append(kind))
    loader.load_all()
    assert not gc.isenabled()
    loader.stop()
    assert gc.isenabled()
    assert loader.idle
    loop_passes(qtbot)  # the chunks already scheduled would have run
    assert published == []


@pytest.fixture
def small_slices(qtbot: Any, store: Store, monkeypatch: pytest.MonkeyPatch) -> CatalogueLoader:
    """A loader with the webinars loaded, freeing replaced rows 4 at a time."""
    monkeypatch.setattr(catalogue_loader, "DISPOSE_CHUNK", 4)
    loader = CatalogueLoader(store, chunk=100)
    with qtbot.waitSignal(loader.all_loaded, timeout=5000):
        loader.load_all([Kind.WEBINARS])
    assert len(loader.rowsets[Kind.WEBINARS]) > 4
    return loader


def reload_and_settle(qtbot: Any, loader: CatalogueLoader) -> None:
    loader.reload(Kind.WEBINARS)
    qtbot.waitUntil(lambda: loader.idle and not loader._pump.active, timeout=5000)


def test_replaced_rows_are_freed_a_slice_at_a_time(
    qtbot: Any, store: Store, small_slices: CatalogueLoader
) -> None:
    old_rows = small_slices.rowsets[Kind.WEBINARS].rows  # the list, not the row set: that may go
    reload_and_settle(qtbot, small_slices)
    assert small_slices.rowsets[Kind.WEBINARS].rows == stored_rows(store, Kind.WEBINARS)
    assert old_rows == []


def test_a_replaced_row_set_still_shown_elsewhere_is_left_alone(
    qtbot: Any, small_slices: CatalogueLoader
) -> None:
    still_shown = small_slices.rowsets[Kind.WEBINARS]
    count = len(still_shown)
    reload_and_settle(qtbot, small_slices)
    assert len(still_shown) == count


def test_the_early_collection_is_shown_as_it_is_read_first_page_first(qtbot: Any, paged_cache: Path) -> None:
    """``load_all(early=...)``: the collection the window shows is also emitted as it is read
    (``rowset_growing``: the same row set, a page longer each time, and how many rows are coming);
    its first page at once, in the call (for the window's first paint), then nothing on the next
    loop pass (the paint's), then the rest. Then it is published as usual, and the others are
    read as before (never shown early)."""
    with Store(paged_cache / FILE_NAME) as store:
        loader = CatalogueLoader(store)
        events: list[tuple[Any, ...]] = []
        loader.rowset_growing.connect(
            lambda kind, rows, expected, _changes: events.append(("growing", kind, rows, len(rows), expected))
        )
        loader.rowset_loaded.connect(
            lambda kind, rows, _changes: events.append(("loaded", kind, rows, len(rows)))
        )
        order = [Kind.WEBINARS, *(kind for kind in ALL_KINDS if kind is not Kind.WEBINARS)]
        loader.load_all(order, early=Kind.WEBINARS)
        assert [event[:2] for event in events] == [("growing", Kind.WEBINARS)]
        assert events[0][3] == SMALL_PAGES  # one page, read in the call
        loader._pump.stop()  # passes run by hand from here
        loader._step()  # the pass of the paint: nothing read
        assert len(events) == 1
        with qtbot.waitSignal(loader.all_loaded, timeout=5000):
            loader._pump.start()
        expected = store.state(Kind.WEBINARS).records
        webinars = stored_rows(store, Kind.WEBINARS)

    growing = [event for event in events if event[0] == "growing"]
    rows = growing[0][2]
    assert [event[3] for event in growing] == [*range(SMALL_PAGES, expected, SMALL_PAGES), expected]
    assert all(event[1:3] == (Kind.WEBINARS, rows) and event[4] == expected for event in growing)
    assert events[len(growing)] == ("loaded", Kind.WEBINARS, rows, expected)
    assert rows.rows == webinars and loader.rowsets[Kind.WEBINARS] is rows
    assert [event[1] for event in events if event[0] == "loaded"] == order
    assert not [event for event in events[len(growing) :] if event[0] == "growing"]


def test_once_the_first_page_is_painted_a_pass_reads_by_the_shorter_budget(
    qtbot: Any, paged_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """While nothing is on screen a pass reads chunks for up to ``START_PASS_S``; once the early
    collection's first page is painted, for up to ``SHOWN_PASS_S``: a pass that grows the shown
    table is followed by its repaint, and two long passes and that paint fell in one gap of the
    loop. Here the first budget is a minute and the second nothing: a pass reads one chunk."""
    monkeypatch.setattr(catalogue_loader, "START_PASS_S", 60.0)
    monkeypatch.setattr(catalogue_loader, "SHOWN_PASS_S", 0.0, raising=False)
    with Store(paged_cache / FILE_NAME) as store:
        loader = CatalogueLoader(store)
        grown: list[int] = []
        loader.rowset_growing.connect(lambda _kind, rows, _expected, _changes: grown.append(len(rows)))
        loader.load_all([Kind.WEBINARS, Kind.COURSES], early=Kind.WEBINARS)
        loader._pump.stop()  # passes run by hand from here
        loader._step()  # the pass of the paint: nothing read
        loader.first_page_painted()
        loader._pump.stop()
        loader._step()
        assert grown == [SMALL_PAGES, 2 * SMALL_PAGES]  # one chunk, not every page in one pass
        loader._step()
        assert grown == [SMALL_PAGES, 2 * SMALL_PAGES, 3 * SMALL_PAGES]
        loader.stop()


def test_without_an_early_collection_nothing_is_shown_before_it_is_read(
    qtbot: Any, paged_cache: Path
) -> None:
    with Store(paged_cache / FILE_NAME) as store:
        loader = CatalogueLoader(store)
        growing: list[Any] = []
        loader.rowset_growing.connect(lambda *args: growing.append(args))
        with qtbot.waitSignal(loader.all_loaded, timeout=5000):
            loader.load_all()
        assert not growing
        assert len(loader.rowsets[Kind.WEBINARS]) == store.state(Kind.WEBINARS).records


def test_a_reloaded_row_set_is_sorted_as_its_tab_shows_it_before_it_is_published(
    qtbot: Any, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A tab sorted by a column would sort a reloaded 100k row set in one go as it takes it
    (40-90 ms): the loader sorts it first, a slice per pass, and publishes it with that order
    already made (what the tab's sort then finds). Unsorted tabs, and the start-up, do not wait."""
    from catalogue_desktop.core.listing import sorting as search
    from catalogue_desktop.core.listing.rows import column_index

    monkeypatch.setattr(catalogue_loader, "PRESORT_ROWS", 2)
    monkeypatch.setattr(catalogue_loader, "PRESORT_PASS_S", 0.0)  # one slice per pass
    monkeypatch.setattr(search, "_RUN", 2)
    start = column_index(Kind.WEBINARS, "start")
    asked: list[Kind] = []

    def sort_of(kind: Kind) -> tuple[int, bool] | None:
        asked.append(kind)
        return (start, True) if kind is Kind.WEBINARS else None

    loader = CatalogueLoader(store, chunk=100)
    loader.presort_as(sort_of)
    with qtbot.waitSignal(loader.all_loaded, timeout=5000):
        loader.load_all([Kind.WEBINARS, Kind.TOPICS])
    assert asked == []  # the start-up publishes as it reads
    published: list[tuple[Kind, Any]] = []
    loader.rowset_loaded.connect(
        lambda kind, rowset, _changes: published.append((kind, dict(rowset.sort_cache)))
    )
    passes = 0
    real_step = loader._step

    def step() -> None:
        nonlocal passes
        passes += 1
        real_step()

    monkeypatch.setattr(loader, "_step", step)
    loader._pump.call = step
    loader.reload(Kind.TOPICS)
    qtbot.waitUntil(lambda: loader.idle, timeout=5000)
    topic_passes, passes = passes, 0
    loader.reload(Kind.WEBINARS)
    qtbot.waitUntil(lambda: loader.idle, timeout=5000)
    rowset = loader.rowsets[Kind.WEBINARS]
    assert [kind for kind, _ in published] == [Kind.TOPICS, Kind.WEBINARS]
    assert published[0][1] == {}  # unsorted: nothing made ahead
    assert list(published[1][1]) == [(start, True)]  # the order was there when it was published
    assert list(published[1][1][(start, True)]) == search.sorted_rows(
        search.RowSet(Kind.WEBINARS, rows=list(rowset.rows)), start, True
    )
    assert topic_passes < 10 < len(rowset) // 2 <= passes  # in slices: a run of 2 rows per pass


def test_series_are_settled_a_page_at_a_time_as_read_leaving_the_table_none(qtbot: Any, store: Store) -> None:
    """Counted, not timed: with ``settle_series`` the loader settles each page of series as it
    reads it (``series_dates.settle_rest``), so the table taking the row set asks about no code
    (all at once, the table settled 10,000 series in one step of a start-up once on screen)."""
    from catalogue_desktop.core.listing import series_dates

    codes = frozenset({"1"})
    asked: list[object] = []
    read: list[int] = []

    def on_demand(code: object) -> bool:
        asked.append(code)
        return code is not None and str(code) in codes

    def settle(rowset: Any) -> None:
        read.append(len(rowset))
        series_dates.settle_rest(rowset, codes, on_demand)

    loader = CatalogueLoader(store, chunk=2)
    loader.settle_series = settle
    published: list[Any] = []
    loader.rowset_loaded.connect(lambda kind, rows, _changes: published.append(rows))
    with qtbot.waitSignal(loader.all_loaded, timeout=5000):
        loader.load_all([Kind.SERIES])
    (rowset,) = published
    assert read and read[-1] == len(rowset)  # (after each page read: the sample has one)
    assert rowset.settled == (codes, len(rowset))
    assert asked  # (the sample's series have typed sessions)
    asked.clear()
    assert not series_dates.settle_rest(rowset, codes, on_demand)  # what the table does: nothing left
    assert asked == []
    assert series_dates.settle_rest(rowset, frozenset(), lambda _code: False)  # other codes: all again
