"""The window against a misbehaving service: the CLI's fault table (tests/core/sync/test_faults.py), seen
by a user.

The cases share one real window (``AppSession``, ``tests/ui/shared_window.py``: a start and its
close cost more than a case), started on a cache pre-filled with the demo sample as a healthy
FaultServer serves it (every collection with the ETag the server gives it, so the first refresh
and later refreshes of the healthy ones answer 304). Each case begins with the service healthy and
the window as its start showed it (put back if a case before failed half-way, and asserted), then
points ONE collection at a fault and presses F5.
The window must not crash; the faulty tab keeps its rows (the count label and the record ids do not
move) when the refresh fails, or shows the accepted rows when the variant is accepted; the status
panel says "failed" with a readable reason and a Retry button (or the rejected count for a partial
refresh); the other collections stay "up to date". Then the service is fixed and Retry (or F5)
brings the collection back to the sample.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QPushButton

from catalogue_desktop.core.cache.store import FILE_NAME
from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from tests.faultserver import FaultServer, refused_port
from tests.records import BAD_UTF8, DATES, DEEP, NEW_TOPICS, topics, webinar
from tests.ui.conftest import FILLED_AT, wait_rows_loaded
from tests.ui.shared_window import *  # noqa: F403 (the shared window's fixtures)
from tests.ui.shared_window import assert_as_started, module_session, qtbot_of, window_state

T, W = Kind.TOPICS, Kind.WEBINARS
RAW = Qt.ItemDataRole.UserRole
MAX_BYTES = 4 * 1024 * 1024
CLIENT = {"connect_timeout": 2.0, "read_timeout": 0.5, "retries": 1, "backoff": 0.01, "max_bytes": MAX_BYTES}
SAMPLE_COUNTS = {
    Kind.WEBINARS: 60,
    Kind.SERIES: 10,
    Kind.COURSES: 20,
    Kind.CERTIFICATES: 6,
    Kind.EXPERTS: 24,
    Kind.TOPICS: 16,
    Kind.ROLES: 8,
    Kind.SITUATIONS: 8,
}


@dataclass(frozen=True)
class Case:
    kind: Kind
    mode: str
    params: dict[str, Any] = field(default_factory=dict)
    status: str = "failed"  # the outcome: failed / partial / updated
    words: tuple[str, ...] = ()  # failed: the status line says these (the reason)
    label: str = "bad data"  # failed: what the status line calls the failure (ui.sync.wording)
    ids: list[int] | None = None  # partial/updated: the record ids the tab shows afterwards
    rejected: int = 0  # partial: "N rejected records skipped"


MAY_1_10H_UTC_MS = 1777629600000  # 2026-05-01T10:00:00Z

CASES: dict[str, Case] = {
    # Headers never come within read_timeout (retried once): failed "timed out".
    "slow headers (timeout)": Case(
        T, "slow_headers", {"delay": 3.0, "body": NEW_TOPICS}, words=("timed out",), label="no answer"
    ),
    "HTTP 500": Case(
        T, "status", {"status": 500}, words=("HTTP 500", "Internal Server Error"), label="service error"
    ),
    # Retry-After: 1 is honoured once (retries=1), then the collection is given up.
    "HTTP 503 with Retry-After": Case(
        T,
        "status",
        {"status": 503, "headers": {"Retry-After": "1"}},
        words=("HTTP 503", "Service Unavailable"),
        label="service error",
    ),
    "HTTP 404": Case(
        T,
        "status",
        {"status": 404, "body": '{"error": "gone"}', "content_type": "application/json"},
        words=("HTTP 404", "Not Found"),
        label="service error",
    ),
    "HTML page with 200": Case(T, "html200", words=("HTML page", "instead of JSON")),
    "not an array": Case(T, "not_array", words=("JSON array", "JSON object")),
    # Server text in the reason: shown, never interpreted as markup (see test below).
    "text body with markup": Case(
        T,
        "wrong_content_type",
        {
            "body": 'Down <img src="http://127.0.0.1:9/x.png"> until <b>10:00</b>',
            "content_type": "text/plain",
        },
        words=("text/plain instead of JSON", "<img src="),
    ),
    "truncated body": Case(
        T,
        "truncated",
        {"body": NEW_TOPICS[:-10]},
        words=("closed before the whole",),
        label="connection lost",
    ),
    "bad gzip": Case(T, "bad_gzip", words=("gzip", "could not be decoded")),
    "endless body over the size cap": Case(T, "endless", {"chunk": 65536}, words=("exceeded", "4 MiB")),
    "invalid UTF-8": Case(T, "json", {"body": BAD_UTF8, "etag": '"t2"'}, words=("not valid UTF-8",)),
    "deeply nested JSON": Case(T, "json", {"body": DEEP, "etag": '"t2"'}, words=("nested too deeply",)),
    "sudden empty collection": Case(
        T, "json", {"body": [], "etag": '"t2"'}, words=("empty list", "where the cache holds 16 topics")
    ),
    # Some records invalid: the valid ones shown, the rejected ones counted.
    "some records invalid": Case(
        T,
        "json",
        {
            "body": [
                *topics(1),
                {"topicId": "2"},
                {"topicId": None},
                5,
                None,
                {"title": "no id"},
                *topics(3),
            ],
            "etag": '"t2"',
        },
        status="partial",
        ids=[1, 3],
        rejected=5,
    ),
    # Repeated ids are the service's data: all rows shown.
    "duplicate ids": Case(
        T,
        "json",
        {
            "body": [
                *topics(1),
                {"topicId": 7, "title": "first"},
                *topics(2),
                {"topicId": 7, "title": "second"},
            ],
            "etag": '"t2"',
        },
        status="updated",
        ids=[1, 7, 2, 7],
    ),
    # Unknown Webinar.type codes and fields the spec does not list: accepted as they come.
    "unknown codes and fields": Case(
        W,
        "json",
        {
            "body": [
                webinar(1, type=99, colour="teal"),
                webinar(2, type="x", nested={"a": [1]}),
                webinar(3, type=-1),
                webinar(4, type=2),
            ],
            "etag": '"w2"',
        },
        status="updated",
        ids=[1, 2, 3, 4],
    ),
    # Date variants real servers send: accepted, each the right instant.
    "date variants": Case(
        W, "json", {"body": DATES, "etag": '"w2"'}, status="updated", ids=[1, 2, 3, 4, 5, 6, 7]
    ),
}


@pytest.fixture
def server(sample: dict[Kind, bytes]) -> Iterator[FaultServer]:
    with FaultServer() as s:
        serve_sample(s, sample)
        yield s


def serve_sample(server: FaultServer, sample: dict[Kind, bytes], kinds: Any = ALL_KINDS) -> None:
    for kind in kinds:
        server.set(kind.path, "json", body=sample[kind], etag=etag(kind))


def etag(kind: Kind) -> str:
    return f'"{kind.value}-1"'


@pytest.fixture(scope="module")
def served_store_template(tmp_path_factory: pytest.TempPathFactory, sample: dict[Kind, bytes]) -> Path:
    """A store holding the demo sample with the ETags ``serve_sample`` gives it: made once, copied
    for each test (a window's first refresh then finds it unchanged instead of storing the sample
    again, eight collections, in every case)."""
    from catalogue_desktop.core.sync.ingest import ingest

    path = tmp_path_factory.mktemp("served") / FILE_NAME
    for kind, payload in sample.items():
        report = ingest(str(path), kind.value, payload, etag(kind), None, FILLED_AT)
        assert report.status == "updated", report
    return path


@pytest.fixture(scope="module")
def shared_server(sample: dict[Kind, bytes]) -> Iterator[FaultServer]:
    """The service of the shared window (``fault_window``)."""
    with FaultServer() as s:
        serve_sample(s, sample)
        yield s


@pytest.fixture(scope="module")
def shared_window(
    request: pytest.FixtureRequest,
    shared_server: FaultServer,
    served_store_template: Path,
    module_folder: Path,
) -> Iterator[tuple[Any, dict[str, Any]]]:
    """The window the cases share, started on ``served_store_template`` (its first refresh
    answered 304), every tab made, and its state then (``window_state``)."""
    cache = module_folder / "cache"
    cache.mkdir()
    shutil.copy(served_store_template, cache / FILE_NAME)
    with module_session(
        request, base_url=shared_server.base_url, client_options=CLIENT, cache_dir=str(cache)
    ) as session:
        for kind in session.window.tab_kinds():  # every tab made (as a case's first look makes one)
            session.window.tab(kind)
        wait_rows_loaded(qtbot_of(request), session)
        yield session, window_state(session)


@pytest.fixture
def fault_window(
    shared_window: tuple[Any, dict[str, Any]],
    shared_server: FaultServer,
    sample: dict[Kind, bytes],
    qtbot: Any,
    qloop: Any,
) -> Any:
    """The shared window as its start showed it, its service healthy (``put_back``)."""
    session, fresh = shared_window
    put_back(qtbot, session, shared_server, sample, fresh)
    return session


def put_back(
    qtbot: Any, session: Any, server: FaultServer, sample: dict[Kind, bytes], fresh: dict[str, Any]
) -> None:
    """The service healthy again and the window as its start showed it: a case that failed
    half-way is refreshed from the healthy service, the status details folded, the first tab
    shown and no row selected; asserted equal to the window's state after its start."""
    window = session.window
    serve_sample(server, sample)
    state = window_state(session)
    if (
        state["statuses"] != fresh["statuses"]
        or state["banner"]
        or any(state["tabs"][kind]["rows"] != fresh["tabs"][kind]["rows"] for kind in fresh["tabs"])
    ):
        refresh(qtbot, session)
    if window.status.more.isChecked():
        qtbot.mouseClick(window.status.more, Qt.MouseButton.LeftButton)
    for kind in window.tab_kinds():
        tab = window.made_tab(kind)
        if tab is not None:
            tab.view.selectionModel().clear()  # (the current row too)
            tab.detail.clear()
    window.show_tab(fresh["tab"])
    assert_as_started(session, fresh)


@pytest.fixture
def served_cache(cache_dir: Path, served_store_template: Path) -> Path:
    """A cache dir holding ``served_store_template``."""
    shutil.copy(served_store_template, cache_dir / FILE_NAME)
    return cache_dir


def ids_shown(tab: Any) -> list[int]:
    return [tab.model.record_id(r) for r in range(tab.model.rowCount())]


def sample_ids(sample: dict[Kind, bytes], kind: Kind) -> list[int]:
    return [r[kind.id_field] for r in json.loads(sample[kind])]


def refresh(qtbot: Any, session: Any, how: str = "F5", kind: Kind | None = None) -> Any:
    window = session.window
    with qtbot.waitSignal(session.synced, timeout=20000) as blocker:
        if how == "F5":
            qtbot.keyClick(window, Qt.Key.Key_F5)
        elif how == "retry":
            assert kind is not None
            if not window.status.more.isChecked():
                qtbot.mouseClick(window.status.more, Qt.MouseButton.LeftButton)  # Details: the collections
            button = window.status.findChild(QPushButton, f"retry-{kind.value}")
            assert button is not None and button.isVisible()
            qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
        else:
            qtbot.mouseClick(window.banner.retry, Qt.MouseButton.LeftButton)
    wait_rows_loaded(qtbot, session)
    return blocker.args[0]


def assert_no_crash(window: Any) -> None:
    message = window.statusBar().currentMessage()
    assert "Internal error" not in message and "Refresh failed" not in message, message


def assert_others_up_to_date(window: Any, faulty: Kind | None) -> None:
    for kind in ALL_KINDS:
        if kind is faulty:
            continue
        assert window.status.status(kind) == "current", (kind, window.status.text(kind))
        assert window.status.text(kind) == f"{SAMPLE_COUNTS[kind]:,} up to date"
        assert window.tab(kind).model.rowCount() == SAMPLE_COUNTS[kind]
        assert not window.status.retry_visible(kind)


@pytest.mark.parametrize("name", list(CASES))
def test_one_collection_fault(
    name: str,
    fault_window: Any,
    shared_server: FaultServer,
    sample: dict[Kind, bytes],
    qtbot: Any,
) -> None:
    case = CASES[name]
    kind = case.kind
    session, server = fault_window, shared_server
    window = session.window
    tab = window.tab(kind)
    before_ids = ids_shown(tab)
    assert sorted(before_ids) == sorted(sample_ids(sample, kind))  # (in the tab's default order)
    count_before = tab.count_label.text()
    tab_text_before = window.tab_bar.full_title(window.tab_widget.indexOf(tab))
    assert count_before == f"{SAMPLE_COUNTS[kind]} {kind.value}"

    server.set(kind.path, case.mode, **case.params)
    report = refresh(qtbot, session)

    assert report is not None and report.collections[kind].status == case.status
    assert_no_crash(window)
    assert_others_up_to_date(window, kind)
    assert not window.banner.isVisible()  # one collection failing is not "offline"
    text = window.status.text(kind)
    if case.status == "failed":
        assert window.status.status(kind) == "failed"
        assert text.startswith(f"{case.label}: "), text
        assert f" — showing {SAMPLE_COUNTS[kind]} from cache as of " in text
        assert "kept the cached copy —" not in text  # said once, in the status's own words
        assert window.status.details_visible(kind)
        assert window.status.details_text(kind).startswith(f"{kind.label}: {text}")
        for word in case.words:
            assert word.lower() in text.lower(), (word, text)
        assert window.status.retry_visible(kind)
        assert ids_shown(tab) == before_ids
        assert tab.count_label.text() == count_before
        assert window.tab_bar.full_title(window.tab_widget.indexOf(tab)) == tab_text_before
        # The reason is server-influenced text: the status line shows it literally.
        assert f"{kind.label} failed (" in window.status.headline()  # the status line says it once
        label = window.status._lines()[kind].text
        assert label.textFormat() == Qt.TextFormat.PlainText
        if not window.status.more.isChecked():
            qtbot.mouseClick(window.status.more, Qt.MouseButton.LeftButton)  # Details: the collections
        # ... and can be selected with the mouse (from when the mouse comes over it)
        QTest.mouseMove(window, QPoint(1, 1))
        QTest.mouseMove(label)
        selectable = Qt.TextInteractionFlag.TextSelectableByMouse
        qtbot.waitUntil(lambda: bool(label.textInteractionFlags() & selectable))
    else:
        assert case.ids is not None
        assert window.status.status(kind) == "current"
        assert not window.status.retry_visible(kind)
        assert sorted(ids_shown(tab)) == sorted(case.ids)  # (in the tab's default order)
        noun = kind.singular if len(case.ids) == 1 else kind.value
        assert tab.count_label.text() == f"{len(case.ids)} {noun}"
        if case.status == "partial":
            assert text == (
                f"{len(case.ids)} up to date — bad data: {case.rejected} rejected records "
                f"skipped: topics[1] (id 2), topics[2], topics[3] and 2 more"
            )
            assert window.status.details_visible(kind)
            details = window.status.details_text(kind)
            assert f"Problems (5, {case.rejected} records rejected):" in details
            assert "topics[5] topicId: missing" in details and "topics[1] (id 2) topicId: " in details
        else:
            assert text == f"{len(case.ids)} up to date"
        if name == "date variants":
            start = column_index(W, "start")
            by_id = {
                tab.model.record_id(r): tab.model.index(r, start).data(RAW)
                for r in range(tab.model.rowCount())
            }
            hour = 3600 * 1000
            assert by_id == {
                1: MAY_1_10H_UTC_MS + 123,
                2: MAY_1_10H_UTC_MS,
                3: MAY_1_10H_UTC_MS + 123,
                4: MAY_1_10H_UTC_MS - 10 * hour,
                5: MAY_1_10H_UTC_MS - 2 * hour + 500,
                6: MAY_1_10H_UTC_MS,
                7: MAY_1_10H_UTC_MS + 5 * hour,
            }
        # The record shows in the detail pane without trouble.
        assert window.navigate(kind, case.ids[-1])
        assert tab.detail.current == (kind, case.ids[-1])

    # The service is fixed: Retry (failed) or F5 brings the sample back.
    serve_sample(server, sample, [kind])
    after = refresh(qtbot, session, "retry" if case.status == "failed" else "F5", kind)
    # A failed refresh kept the cached copy and its ETag: the fixed service answers 304.
    assert after.collections[kind].status == ("unchanged" if case.status == "failed" else "updated")
    assert window.status.status(kind) == "current"
    assert not window.status.retry_visible(kind)
    assert sorted(ids_shown(tab)) == sorted(sample_ids(sample, kind))
    assert tab.count_label.text() == count_before
    assert_others_up_to_date(window, kind)
    assert_no_crash(window)


def test_a_case_left_half_way_is_put_back(
    fault_window: Any,
    shared_window: tuple[Any, dict[str, Any]],
    shared_server: FaultServer,
    sample: dict[Kind, bytes],
    qtbot: Any,
) -> None:
    """The cases' window is put back as its start showed it after a case stopped anywhere: its
    collection failed and still faulty, the status details open, another tab shown with a record
    selected (``put_back``, which every case begins with). The state compared is the start's, and
    it differs at each of these steps (the check can fail)."""
    session, fresh = shared_window
    window = session.window
    assert window_state(session) == fresh
    shared_server.set(T.path, "status", status=500)
    refresh(qtbot, session)
    assert window_state(session)["statuses"] != fresh["statuses"]
    qtbot.mouseClick(window.status.more, Qt.MouseButton.LeftButton)
    assert window_state(session)["status details"] != fresh["status details"]
    assert window.navigate(Kind.EXPERTS, json.loads(sample[Kind.EXPERTS])[3]["expertId"])
    moved = window_state(session)
    assert moved["tab"] != fresh["tab"] and moved["tabs"][Kind.EXPERTS] != fresh["tabs"][Kind.EXPERTS]
    put_back(qtbot, session, shared_server, sample, fresh)
    assert window_state(session) == fresh
    assert window.status.status(T) == "current" and window.tab(T).model.rowCount() == SAMPLE_COUNTS[T]


def test_whole_service_refused_shows_offline_banner_then_recovers(
    make_session: Any, filled_cache: Any, sample: dict[Kind, bytes], qtbot: Any
) -> None:
    """Connection refused everywhere: the banner says offline and how old the data is; every tab
    keeps its rows; "Try again" once the service is back brings everything up to date."""
    port = refused_port()
    session = make_session(base_url=f"http://127.0.0.1:{port}", client_options=CLIENT, wait="ready")
    window = session.window
    with qtbot.waitSignal(session.synced, timeout=20000) as blocker:
        pass
    wait_rows_loaded(qtbot, session)
    report = blocker.args[0]
    assert {o.status for o in report.collections.values()} == {"failed"}
    assert_no_crash(window)
    banner = window.banner.text()
    assert window.banner.isVisible() and window.banner.retry.isVisible()
    assert "Offline" in banner and "connection refused" in banner
    # The pre-filled cache is from 2026-01-05: the banner gives that age, not "just now".
    assert "Showing the cached catalogue as of" in banner
    assert "ago)" in banner and "just now" not in banner, banner
    for kind in ALL_KINDS:
        tab = window.tab(kind)
        assert tab.model.rowCount() == SAMPLE_COUNTS[kind]
        assert tab.count_label.text() == f"{SAMPLE_COUNTS[kind]} {kind.value}"
        assert window.status.status(kind) == "failed"
        assert "connection refused" in window.status.text(kind)
        assert "from cache as of" in window.status.text(kind)
        assert window.status.retry_visible(kind)

    with FaultServer(port=port) as server:  # the service comes back where it was
        serve_sample(server, sample)
        after = refresh(qtbot, session, "banner")
        assert {o.status for o in after.collections.values()} == {"updated"}
        assert not window.banner.isVisible()
        assert_others_up_to_date(window, None)
        assert_no_crash(window)


@pytest.mark.usefixtures("served_cache")
def test_offline_banner_shows_the_services_text_literally(
    make_session: Any, server: FaultServer, sample: dict[Kind, bytes], qtbot: Any
) -> None:
    """Every collection answers a proxy's text page with markup: the banner quotes the reason as
    text (the markup is not rendered, its image never requested)."""
    session = make_session(base_url=server.base_url, client_options=CLIENT)
    window = session.window
    markup = '<img src="http://127.0.0.1:9/x.png"> <b>maintenance</b>'
    for kind in ALL_KINDS:
        server.set(kind.path, "wrong_content_type", body=f"Down: {markup}", content_type="text/plain")
    report = refresh(qtbot, session)
    assert {o.status for o in report.collections.values()} == {"failed"}
    assert window.banner.isVisible()
    assert window.banner.label.textFormat() == Qt.TextFormat.PlainText
    shown = window.banner.text()
    assert shown.startswith(
        "Bad data — the service sent text/plain instead of JSON (it starts with "
        "'Down: <img src=\"http://127.0.0.1:9/x.png"
    )
    for kind in ALL_KINDS:
        assert window.tab(kind).model.rowCount() == SAMPLE_COUNTS[kind]
    serve_sample(server, sample)
    refresh(qtbot, session, "banner")
    assert not window.banner.isVisible()
    assert_others_up_to_date(window, None)
