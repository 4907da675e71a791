"""CatalogueIndex (lookups, reverse links, dangling references), certificate resolution, filtering
and sorting, on rows produced by the real ingest path from a store file."""

from __future__ import annotations

import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.listing.rows import COLUMNS, LINK_KINDS, ColumnType, column_index
from catalogue_desktop.core.listing.rowset import MAPPED_LINKS, CatalogueIndex, Ref, RowSet
from catalogue_desktop.core.listing.sorting import sort_key, sorted_rows
from catalogue_desktop.core.records.certificates import resolve_certificate
from catalogue_desktop.core.records.decode import decode_collection
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.sync.ingest import ingest

ANN = {"expertId": 1, "name": "Ann Lee"}
BO = {"expertId": 2, "name": "Bo Park"}
GHOST = {"expertId": 9, "name": "Not listed"}
TAX = {"topicId": 10, "title": "Tax"}
ETHICS = {"topicId": 11, "title": "Ethics"}
ROLE = {"roleId": 20, "title": "Partner"}
SITUATION = {"situationId": 30, "title": "Year end"}

CATALOGUE: dict[Kind, list[dict[str, Any]]] = {
    Kind.EXPERTS: [ANN, BO],
    Kind.TOPICS: [TAX, ETHICS],
    Kind.ROLES: [ROLE],
    Kind.SITUATIONS: [SITUATION],
    Kind.WEBINARS: [
        {
            "webinarId": 100,
            "title": "Year-end tax planning",
            "type": 1,
            "fee": 199,
            "startDate": "2026-03-04T14:00:00.000-05:00",
            "experts": [ANN],
            "topics": [TAX],
            "roles": [ROLE],
            "situations": [SITUATION],
        },
        {
            "webinarId": 101,
            "title": "Ethics for auditors",
            "type": 2,
            "fee": 99,
            "startDate": "2026-02-01T10:00:00Z",
            "experts": [ANN, BO],
            "topics": [ETHICS, TAX],
        },
        {"webinarId": 102, "title": "Guest lecture", "type": "LIVE", "experts": [GHOST]},
    ],
    Kind.SERIES: [
        {
            "seriesId": 200,
            "title": "Tax series",
            "sessions": [
                {"webinarId": 100, "title": "Year-end tax planning"},
                {"webinarId": 150, "title": "Gone"},
            ],
        },
        {"seriesId": 201, "title": "Mixed", "sessions": [{"webinarId": 100}, {"webinarId": 101}]},
    ],
    Kind.COURSES: [
        {
            "courseId": 300,
            "title": "Advanced tax",
            "experts": [BO],
            "topics": [TAX],
            "locations": [
                {"locationId": 1, "city": "Austin", "fee": 995, "startDate": "2027-04-01T09:00:00-05:00"},
                {"locationId": 2, "city": "Boston", "fee": 1095, "startDate": "2027-05-01T09:00:00-04:00"},
            ],
        },
        {"courseId": 301, "title": "Intro to ethics", "topics": [ETHICS]},
    ],
    Kind.CERTIFICATES: [
        {
            "certificateId": 400,
            "title": "Tax certificate",
            "fee": "FEE",
            "levels": [
                {
                    "id": 1,
                    "options": [{"optionId": 2, "num": 2}, {"optionId": 1, "num": 1}],
                    "tracks": [
                        {"trackId": 7, "name": "Later", "displayOrder": 2},
                        {"trackId": 8, "name": "Unordered"},
                        {"trackId": 6, "name": "First", "displayOrder": 1},
                    ],
                    "courses": [
                        {"courseId": 300, "optionId": 1, "trackId": 6},
                        {"courseId": 6077, "optionId": 2, "trackId": 7},
                        {"courseId": 301, "optionId": 99},
                        {"courseId": 300, "trackId": 8},
                    ],
                }
            ],
        },
    ],
}


def load(path: Path, catalogue: dict[Kind, list[dict[str, Any]]]) -> dict[Kind, RowSet]:
    for kind, records in catalogue.items():
        payload = json.dumps(records).replace('"FEE"', "1899.50").encode()  # exact number text
        report = ingest(str(path), kind.value, payload, None, None, "2026-01-01T00:00:00Z")
        assert report.status == "updated", report
    rowsets = {}
    with Store(path) as s:
        for kind in catalogue:
            rowset = RowSet(kind)
            for chunk in s.iter_rows(kind, chunk=2):
                rowset.extend(chunk)
            rowsets[kind] = rowset
    return rowsets


@pytest.fixture(scope="module")
def rowsets(tmp_path_factory: pytest.TempPathFactory) -> dict[Kind, RowSet]:
    return load(tmp_path_factory.mktemp("catalogue") / "catalogue.sqlite3", CATALOGUE)


@pytest.fixture(scope="module")
def index(rowsets: dict[Kind, RowSet]) -> CatalogueIndex:
    return CatalogueIndex(rowsets)


# -- index --------------------------------------------------------------------------------------------


def test_rowsets_hold_the_rows_in_order(rowsets: dict[Kind, RowSet]) -> None:
    webinars = rowsets[Kind.WEBINARS]
    assert len(webinars) == 3 and webinars.positions == [0, 1, 2]
    assert [webinars.record_id(i) for i in range(3)] == [100, 101, 102]
    assert webinars.value(0, "fee") == 199 and webinars.value(2, "type") == "LIVE"
    assert webinars.title(1) == "Ethics for auditors"
    assert rowsets[Kind.COURSES].value(0, "fee") == [995, 1095]
    assert rowsets[Kind.COURSES].value(0, "cities") == "Austin; Boston"
    assert rowsets[Kind.CERTIFICATES].value(0, "fee") == "1899.50"
    assert webinars.columns == COLUMNS[Kind.WEBINARS]


def test_untitled_rows_get_a_fallback_title() -> None:
    rowset = RowSet(Kind.TOPICS, rows=[[None, None, 5]], links=[[]], positions=[0])
    assert rowset.title(0) == "Topic #5"


def test_lookups(index: CatalogueIndex) -> None:
    assert index.row_of(Kind.WEBINARS, 101) == 1
    assert index.row_of(Kind.WEBINARS, 999) is None
    assert index.row_of(Kind.EXPERTS, 100) is None  # ids are per kind
    assert index.has(Kind.EXPERTS, 2) and not index.has(Kind.EXPERTS, 9)
    assert index.title(Kind.COURSES, 301) == "Intro to ethics"
    assert index.title(Kind.COURSES, 6077) is None


def test_repeated_ids_resolve_to_the_first_row() -> None:
    rows = RowSet(Kind.TOPICS, rows=[["A", None, 1], ["B", None, 1]], links=[[], []], positions=[0, 1])
    idx = CatalogueIndex({Kind.TOPICS: rows})
    assert idx.row_of(Kind.TOPICS, 1) == 0 and idx.title(Kind.TOPICS, 1) == "A"


def test_referrers(index: CatalogueIndex) -> None:
    assert index.referrers(Kind.EXPERTS, 1) == {Kind.WEBINARS: [100, 101]}
    assert index.referrers(Kind.EXPERTS, 2) == {Kind.WEBINARS: [101], Kind.COURSES: [300]}
    assert index.referrers(Kind.TOPICS, 10) == {Kind.WEBINARS: [100, 101], Kind.COURSES: [300]}
    assert index.referrers(Kind.TOPICS, 11) == {Kind.WEBINARS: [101], Kind.COURSES: [301]}
    assert index.referrers(Kind.ROLES, 20) == {Kind.WEBINARS: [100]}
    assert index.referrers(Kind.SITUATIONS, 30) == {Kind.WEBINARS: [100]}
    assert index.referrers(Kind.WEBINARS, 100) == {Kind.SERIES: [200, 201]}
    assert index.referrers(Kind.WEBINARS, 102) == {}
    # a course named twice by one certificate is listed once
    assert index.referrers(Kind.COURSES, 300) == {Kind.CERTIFICATES: [400]}
    assert index.referrers(Kind.COURSES, 301) == {Kind.CERTIFICATES: [400]}
    assert index.referrers(Kind.EXPERTS, 12345) == {}


def _series_rows(start: int, series: list[tuple[int, list[int] | None]]) -> list[list[Any]]:
    """``[pos, row, links]`` items of series (id, webinar ids; None: no link lists at all)."""
    items = []
    for pos, (series_id, webinars) in enumerate(series, start):
        row: list[Any] = [None] * len(COLUMNS[Kind.SERIES])
        row[column_index(Kind.SERIES, "id")] = series_id
        items.append([pos, row, [] if webinars is None else [webinars]])
    return items


def test_series_of_a_webinar_come_from_a_map_kept_current() -> None:
    assert (Kind.SERIES, Kind.WEBINARS) in MAPPED_LINKS
    series = RowSet(Kind.SERIES)
    series.extend(_series_rows(0, [(1, [10, 11]), (2, [11, 11]), (3, None), (2, [12]), (4, [11])]))
    index = CatalogueIndex({Kind.SERIES: series})
    assert index.referrers(Kind.WEBINARS, 10) == {Kind.SERIES: [1]}
    assert index.referrers(Kind.WEBINARS, 11) == {Kind.SERIES: [1, 2, 4]}  # row order, once each
    assert index.referrers(Kind.WEBINARS, 12) == {Kind.SERIES: [2]}
    assert index.referrers(Kind.WEBINARS, 13) == {}
    series.extend(_series_rows(5, [(5, [13, 10])]))  # rows read after the map was built
    assert index.referrers(Kind.WEBINARS, 13) == {Kind.SERIES: [5]}
    assert index.referrers(Kind.WEBINARS, 10) == {Kind.SERIES: [1, 5]}
    reloaded = RowSet(Kind.SERIES)
    reloaded.extend(_series_rows(0, [(7, [10])]))
    index.replace(reloaded)
    assert index.referrers(Kind.WEBINARS, 10) == {Kind.SERIES: [7]}
    assert index.referrers(Kind.WEBINARS, 11) == {}


def test_dangling_references(index: CatalogueIndex) -> None:
    assert sorted(index.dangling(), key=lambda r: (r.source_kind.value, r.target_id)) == [
        Ref(Kind.CERTIFICATES, 400, Kind.COURSES, 6077),
        Ref(Kind.SERIES, 200, Kind.WEBINARS, 150),
        Ref(Kind.WEBINARS, 102, Kind.EXPERTS, 9),
    ]


def test_references_to_kinds_not_loaded_are_not_dangling(rowsets: dict[Kind, RowSet]) -> None:
    partial = CatalogueIndex({Kind.WEBINARS: rowsets[Kind.WEBINARS]})
    assert partial.dangling() == []
    assert partial.referrers(Kind.EXPERTS, 1) == {Kind.WEBINARS: [100, 101]}


# -- certificates -------------------------------------------------------------------------------------


def test_resolve_certificate(index: CatalogueIndex) -> None:
    ((_, certificate),) = decode_collection(
        Kind.CERTIFICATES,
        json.dumps(CATALOGUE[Kind.CERTIFICATES]).replace('"FEE"', "1899.50").encode(),
    ).records
    (level,) = resolve_certificate(certificate, lambda cid: index.title(Kind.COURSES, cid))
    assert level.level.id == 1
    # tracks by displayOrder, one without an order last; options as the level lists them
    assert [t.track_id for t, _ in level.tracks] == [6, 7, 8]
    assert [o.option_id for o, _ in level.options] == [2, 1]
    by_track = {t.track_id: [(c.course_id, c.label) for c in cs] for t, cs in level.tracks}
    assert by_track == {
        6: [(300, "Advanced tax")],
        7: [(6077, "Course #6077 (not in catalogue)")],
        8: [(300, "Advanced tax")],
    }
    by_option = {o.option_id: [c.course_id for c in cs] for o, cs in level.options}
    assert by_option == {1: [300], 2: [6077]}
    dangling = next(c for _, cs in level.tracks for c in cs if c.course_id == 6077)
    assert not dangling.in_catalogue and dangling.title is None
    assert [(c.course_id, c.option_id) for c in level.other] == [(301, 99)]
    assert level.problems == [
        "levels[0] course 6077: the catalogue does not list this course",
        "levels[0] course 301: refers to option 99, not in level",
    ]


def test_resolve_certificate_without_levels() -> None:
    ((_, certificate),) = decode_collection(Kind.CERTIFICATES, b'[{"certificateId": 1}]').records
    assert resolve_certificate(certificate, lambda cid: None) == []


def test_resolve_certificate_dangling_track() -> None:
    payload = b'[{"certificateId": 1, "levels": [{"id": 5, "courses": [{"courseId": 3, "trackId": 4}]}]}]'
    ((_, certificate),) = decode_collection(Kind.CERTIFICATES, payload).records
    (level,) = resolve_certificate(certificate, lambda cid: "Known")
    assert level.problems == ["levels[0] course 3: refers to track 4, not in level"]
    assert [c.course_id for c in level.other] == [3]
    assert level.options == [] and level.tracks == []


# -- sorting ------------------------------------------------------------------------------------------


def rowset_of(kind: Kind, key: str, values: list[Any]) -> tuple[RowSet, int]:
    width = len(COLUMNS[kind])
    column = column_index(kind, key)
    rows = []
    for i, value in enumerate(values):
        row: list[Any] = [None] * width
        row[column] = value
        row[column_index(kind, "id")] = i
        rows.append(row)
    return RowSet(kind, rows=rows, links=[[] for _ in rows], positions=list(range(len(rows)))), column


def order(kind: Kind, key: str, values: list[Any], descending: bool = False) -> list[Any]:
    rowset, column = rowset_of(kind, key, values)
    return [values[i] for i in sorted_rows(rowset, column, descending)]


def test_sort_dates_blanks_last_both_ways() -> None:
    values = [1_700_000_000_000, None, 1_600_000_000_000, 1_800_000_000_000, None]
    assert order(Kind.WEBINARS, "start", values) == [
        1_600_000_000_000,
        1_700_000_000_000,
        1_800_000_000_000,
        None,
        None,
    ]
    assert order(Kind.WEBINARS, "start", values, descending=True) == [
        1_800_000_000_000,
        1_700_000_000_000,
        1_600_000_000_000,
        None,
        None,
    ]


def test_sort_money_numbers_not_text() -> None:
    values = [1000, None, 99, 250]
    assert order(Kind.WEBINARS, "fee", values) == [99, 250, 1000, None]
    assert order(Kind.WEBINARS, "fee", values, descending=True) == [1000, 250, 99, None]


def test_sort_decimal_text_money_as_numbers() -> None:
    values = ["1899.50", "999.00", None, "12345678901234567.89", "1899.49", "10"]
    assert order(Kind.CERTIFICATES, "fee", values) == [
        "10",
        "999.00",
        "1899.49",
        "1899.50",
        "12345678901234567.89",
        None,
    ]
    assert order(Kind.CERTIFICATES, "fee", values, descending=True) == [
        "12345678901234567.89",
        "1899.50",
        "1899.49",
        "999.00",
        "10",
        None,
    ]
    assert sort_key(ColumnType.MONEY, "1899.50") == (0, Decimal("1899.50"))


def test_sort_money_ranges_by_minimum_then_maximum() -> None:
    values = [[995, 1095], None, [500, 2000], [995, 995], [100, 100]]
    assert order(Kind.COURSES, "fee", values) == [[100, 100], [500, 2000], [995, 995], [995, 1095], None]
    assert order(Kind.COURSES, "fee", values, descending=True) == [
        [995, 1095],
        [995, 995],
        [500, 2000],
        [100, 100],
        None,
    ]


def test_sort_codes_numbers_then_text_blanks_last() -> None:
    values = [3, "LIVE", None, 1, "ARCHIVE", 2]
    assert order(Kind.WEBINARS, "type", values) == [1, 2, 3, "ARCHIVE", "LIVE", None]
    assert order(Kind.WEBINARS, "type", values, descending=True) == ["LIVE", "ARCHIVE", 3, 2, 1, None]


def test_sort_text_case_insensitive_and_stable() -> None:
    values = ["beta", "Alpha", None, "alpha", "Gamma"]
    rowset, column = rowset_of(Kind.TOPICS, "title", values)
    assert sorted_rows(rowset, column) == [1, 3, 0, 4, 2]  # "Alpha" before "alpha": stable
    assert sorted_rows(rowset, column, descending=True) == [4, 0, 1, 3, 2]


def test_sort_bools_and_ints() -> None:
    assert order(Kind.WEBINARS, "cle", [True, None, False, True]) == [False, True, True, None]
    assert order(Kind.SERIES, "sessions", [3, 0, None, 12]) == [0, 3, 12, None]


def test_sort_loaded_rows_by_each_column(rowsets: dict[Kind, RowSet]) -> None:
    for kind, rowset in rowsets.items():
        for column in range(len(rowset.columns)):
            for descending in (False, True):
                result = sorted_rows(rowset, column, descending)
                assert sorted(result) == list(range(len(rowset)))
                blanks = [i for i in result if rowset.rows[i][column] is None]
                assert result[len(result) - len(blanks) :] == blanks, (kind, column)
    webinars = rowsets[Kind.WEBINARS]
    start = column_index(Kind.WEBINARS, "start")
    assert [webinars.record_id(i) for i in sorted_rows(webinars, start)] == [101, 100, 102]


def test_a_row_set_filled_from_columns_equals_one_filled_from_rows(tmp_path: Path) -> None:
    path = tmp_path / "catalogue.sqlite3"
    by_rows = load(path, CATALOGUE)
    with Store(path) as s:
        for kind, expected in by_rows.items():
            rowset = RowSet(kind)
            for chunk in s.iter_columns(kind, chunk=2):
                rowset.extend_columns(*chunk)
            assert (rowset.positions, rowset.rows, rowset.links) == (
                expected.positions,
                expected.rows,
                expected.links,
            )
            assert rowset.rows_by_id() == expected.rows_by_id()
    with pytest.raises(ValueError, match="differ in length"):
        RowSet(Kind.TOPICS).extend_columns([0, 1], [[]], [[]])


class _Packed:
    """Links as ``Store.iter_columns(packed_links=True)`` gives them (see ``store.PackedLinks``)."""

    def __init__(self, links: list[Any]) -> None:
        self.links = links
        self.unpacked = 0

    def __len__(self) -> int:
        return len(self.links)

    def unpack(self) -> list[Any]:
        self.unpacked += 1
        return self.links


def test_packed_links_are_unpacked_in_order_when_asked_or_a_chunk_at_a_time() -> None:
    rowset = RowSet(Kind.TOPICS)
    first, second = _Packed([[[1]], [[2]]]), _Packed([[[3]]])
    rowset.extend_columns([0, 1], [["A", None, 10], ["B", None, 11]], first)
    rowset.extend_columns([2], [["C", None, 12]], second)
    assert rowset.packed_links == 2 and first.unpacked == second.unpacked == 0
    assert not rowset.unpack_links(1)  # one chunk: the first
    assert (first.unpacked, second.unpacked, rowset.packed_links) == (1, 0, 1)
    rowset.extend_columns([3], [["D", None, 13]], [[[4]]])  # lists after packed: order kept
    assert rowset.links == [[[1]], [[2]], [[3]], [[4]]] and rowset.packed_links == 0
    assert second.unpacked == 1
    with pytest.raises(ValueError, match="differ in length"):
        rowset.extend_columns([4, 5], [["E", None, 14], ["F", None, 15]], _Packed([[]]))


def test_the_index_answers_reverse_links_of_rows_whose_links_are_still_packed() -> None:
    expert = [None] * len(COLUMNS[Kind.EXPERTS])
    expert[column_index(Kind.EXPERTS, "id")] = 7
    experts = RowSet(Kind.EXPERTS, rows=[expert], links=[[]], positions=[0])
    webinars = RowSet(Kind.WEBINARS)
    slot = LINK_KINDS[Kind.WEBINARS].index(Kind.EXPERTS)
    links = [[[] for _ in LINK_KINDS[Kind.WEBINARS]] for _ in range(2)]
    links[1][slot] = [7]
    rows = [[None] * len(COLUMNS[Kind.WEBINARS]) for _ in range(2)]
    id_column = column_index(Kind.WEBINARS, "id")
    rows[0][id_column], rows[1][id_column] = 501, 502
    webinars.extend_columns([0, 1], rows, _Packed(links))
    index = CatalogueIndex({Kind.EXPERTS: experts, Kind.WEBINARS: webinars})
    assert index.referrers(Kind.EXPERTS, 7) == {Kind.WEBINARS: [502]}
    assert webinars.packed_links == 0
