"""The window driven with qtbot against the demo service over loopback (or a misbehaving one)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QAbstractButton, QLabel, QPushButton, QTreeView

from catalogue_desktop.core.cache.store import FILE_NAME, Store
from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from tests.faultserver import FaultServer, refused_port
from tests.ui.conftest import FILLED_AT, POPUP_NOISE, loop_passes, wait_rows_loaded

RAW = Qt.ItemDataRole.UserRole
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


def column_values(tab: Any, key: str) -> list[Any]:
    column = column_index(tab.kind, key)
    return [tab.model.index(r, column).data(RAW) for r in range(tab.model.rowCount())]


def click_header(qtbot: Any, tab: Any, column: int) -> None:
    header = tab.view.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    qtbot.mouseClick(header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2))


def tree_texts(view: QTreeView) -> list[str]:
    model = view.model()
    out: list[str] = []

    def walk(parent: Any) -> None:
        for row in range(model.rowCount(parent)):
            index = model.index(row, 0, parent)
            out.append(str(index.data() or ""))
            walk(index)

    walk(view.rootIndex())
    return out


def links_in(widget: Any, kind: Kind) -> dict[int, QLabel]:
    """Labels of the detail page holding internal links to ``kind``, by target id."""
    found: dict[int, QLabel] = {}
    for label in widget.findChildren(QLabel):
        for record_id in re.findall(rf"catalogue:{kind.value}/(\d+)", label.text()):
            found.setdefault(int(record_id), label)
    return found


# -- start, rows, counts ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def served_store_template(tmp_path_factory: pytest.TempPathFactory, sample: dict[Kind, bytes]) -> Path:
    """A store holding the demo sample with the ETags the demo service gives it (a digest of each
    payload): made once, copied for the tests about what the window does with a catalogue it has,
    whose first refresh then finds every collection unchanged instead of storing all eight again
    (the first sync into an empty cache is ``test_every_tab_has_rows_after_start_and_sync``'s)."""
    from catalogue_desktop.core.sync.ingest import ingest
    from catalogue_desktop.demo.server import DemoServer

    served = DemoServer(sample)
    path = tmp_path_factory.mktemp("served") / FILE_NAME
    for kind, payload in sample.items():
        report = ingest(str(path), kind.value, payload, served.etag(kind), None, FILLED_AT)
        assert report.status == "updated", report
    return path


@pytest.fixture
def served_session(make_session: Any, demo_server: Any, cache_dir: Path, served_store_template: Path) -> Any:
    """The window on ``served_store_template``'s copy, after its first refresh from the demo service."""
    shutil.copy(served_store_template, cache_dir / FILE_NAME)
    session = make_session(base_url=demo_server.base_url)
    statuses = {kind: o.status for kind, o in session.sync_controller.last_report.collections.items()}
    assert set(statuses.values()) == {"unchanged"}, statuses
    return session


def test_every_tab_has_rows_after_start_and_sync(make_session: Any, demo_server: Any) -> None:
    session = make_session(base_url=demo_server.base_url)
    window = session.window
    labels = [window.tab_bar.full_title(i) for i in range(window.tab_widget.count())]
    assert labels[:8] == [f"{k.label} {SAMPLE_COUNTS[k]}" for k in ALL_KINDS]
    assert labels[8].startswith("Dates")  # the sales desk's, made from the loaded catalogue
    for kind in ALL_KINDS:
        tab = window.tab(kind)
        assert tab.model.rowCount() == SAMPLE_COUNTS[kind]
        assert session.window.status.status(kind) == "current"
        assert "up to date" in session.window.status.text(kind)
    assert not window.banner.isVisible()
    assert demo_server.base_url in window.windowTitle()


def test_demo_mode_without_a_service_uses_its_own_store(make_session: Any, cache_dir: Any) -> None:
    session = make_session()  # no --base-url, none remembered: the bundled demo catalogue
    assert session.demo
    assert "Demo catalogue" in session.window.windowTitle()
    assert "Demo catalogue" in session.window.statusBar().currentMessage()
    assert session.store_file == cache_dir / "demo" / FILE_NAME
    assert not (cache_dir / FILE_NAME).exists()
    assert session.window.tab(Kind.WEBINARS).model.rowCount() == 60


@POPUP_NOISE  # typing "e" offers the fields that start with it
def test_the_query_narrows_the_count_label_and_title_and_escape_clears_it(
    served_session: Any, qtbot: Any
) -> None:
    session = served_session
    window = session.window
    tab = window.tab(Kind.WEBINARS)
    box = window.query_box.edit
    assert box.accessibleName() == "Query" and "field:value" in box.placeholderText()
    assert tab.count_label.text() == "60 webinars"
    # Buttons Qt makes inside widgets get names once the window is ready (``a11y``)
    corner = tab.view.findChild(QAbstractButton, "qt_tableview_cornerbutton")
    clear = box.findChildren(QAbstractButton, "", Qt.FindChildOption.FindDirectChildrenOnly)
    qtbot.waitUntil(lambda: corner.accessibleName() == "Select all rows", timeout=2000)
    assert [b.accessibleName() for b in clear] == ["Clear query"]
    qtbot.waitUntil(lambda: not session.finder.indexer.busy, timeout=10000)
    qtbot.keyClicks(box, "ethics")
    qtbot.waitUntil(lambda: tab.count_label.text() != "60 webinars", timeout=2000)
    visible = tab.model.rowCount()
    assert 0 < visible < 60
    assert tab.count_label.text() == f"{visible} of 60"
    assert window.tab_bar.full_title(0) == f"Webinars {visible}"
    assert window.tab_widget.tabToolTip(0) == f"{visible} of 60 webinars match the query"
    for row in range(visible):
        text = " ".join(str(tab.model.index(row, c).data() or "") for c in range(tab.model.columnCount()))
        assert "ethics" in text.lower()
    qtbot.keyClick(box, Qt.Key.Key_Escape)
    assert box.text() == ""
    qtbot.waitUntil(lambda: tab.count_label.text() == "60 webinars", timeout=2000)
    assert window.tab_bar.full_title(0) == "Webinars 60"


def test_sorting_by_start_date_and_fee_orders_the_rows(served_session: Any, qtbot: Any) -> None:
    tab = served_session.window.tab(Kind.WEBINARS)
    for key in ("start", "fee"):
        column = column_index(Kind.WEBINARS, key)
        click_header(qtbot, tab, column)
        for _ in range(2):  # the first click and the reverse click
            order = tab.view.horizontalHeader().sortIndicatorOrder()
            values = column_values(tab, key)
            present = [v for v in values if v is not None]
            assert values[: len(present)] == present, "blanks sort last"
            descending = order == Qt.SortOrder.DescendingOrder
            assert present == sorted(present, reverse=descending)
            assert len(set(present)) > 3
            click_header(qtbot, tab, column)


def test_cross_link_from_webinar_to_expert_then_back_and_forward(served_session: Any, qtbot: Any) -> None:
    window = served_session.window
    webinars = window.tab(Kind.WEBINARS)
    assert window.navigate(Kind.WEBINARS, 50007)
    links = links_in(webinars.detail, Kind.EXPERTS)
    assert set(links) >= {3101, 3109}
    links[3109].linkActivated.emit(f"catalogue:experts/{3109}")
    experts = window.tab(Kind.EXPERTS)
    assert window.current_tab() is experts
    assert experts.selected_record_id() == 3109
    assert experts.detail.current == (Kind.EXPERTS, 3109)
    assert window.menu_actions.back_action.isEnabled() and not window.menu_actions.forward_action.isEnabled()

    qtbot.keyClick(window, Qt.Key.Key_Left, Qt.KeyboardModifier.AltModifier)
    assert window.current_tab() is webinars
    assert webinars.selected_record_id() == 50007
    assert window.menu_actions.forward_action.isEnabled()
    qtbot.keyClick(window, Qt.Key.Key_Right, Qt.KeyboardModifier.AltModifier)
    assert window.current_tab() is experts
    assert experts.selected_record_id() == 3109


def test_navigation_to_a_record_the_query_hides_shows_its_details_and_says_so(
    served_session: Any, qtbot: Any
) -> None:
    session = served_session
    window = session.window
    experts = window.show_tab(Kind.EXPERTS)
    session.finder.indexer.finish_now()
    window.query_box.set_text("zzzz-no-such-expert")
    assert experts.model.rowCount() == 0
    assert window.navigate(Kind.EXPERTS, 3101)
    assert window.query_box.text() == "zzzz-no-such-expert"  # the query is the user's: kept
    assert experts.detail.current == (Kind.EXPERTS, 3101)
    assert "the query hides its row" in window.statusBar().currentMessage()


def test_certificate_details_show_the_level_tree(served_session: Any, demo_server: Any) -> None:
    window = served_session.window
    assert window.navigate(Kind.CERTIFICATES, 901)
    trees = window.tab(Kind.CERTIFICATES).detail.findChildren(QTreeView)
    assert trees, "the certificate page has a tree of levels"
    texts = tree_texts(trees[0])
    assert any("Level" in t for t in texts), texts
    courses = json.loads(demo_server.payload(Kind.COURSES))
    titles = {c["title"] for c in courses if c["courseId"] == 6106}
    assert titles and any(next(iter(titles)) in t for t in texts), texts


def test_open_option_selects_the_record_and_unknown_ids_only_say_so(
    make_session: Any, demo_server: Any
) -> None:
    # An empty cache: the record arrives with the first refresh and is selected then.
    window = make_session(base_url=demo_server.base_url, open="webinar:50014").window
    tab = window.tab(Kind.WEBINARS)
    assert window.current_tab() is tab
    assert tab.selected_record_id() == 50014
    assert tab.detail.current == (Kind.WEBINARS, 50014)

    other = make_session(base_url=demo_server.base_url, open="webinar:1").window
    assert "not in the catalogue" in other.statusBar().currentMessage()
    bad = make_session(base_url=demo_server.base_url, open="gadget:1", wait="ready").window
    assert "unknown kind" in bad.status.notice()


def test_keyboard_switches_tabs_and_focuses_the_query(
    make_session: Any, demo_server: Any, qtbot: Any
) -> None:
    window = make_session(base_url=demo_server.base_url, wait="ready").window
    window.activateWindow()
    qtbot.keyClick(window, Qt.Key.Key_2, Qt.KeyboardModifier.ControlModifier)
    assert window.current_tab() is window.tab(Kind.SERIES)
    qtbot.keyClick(window, Qt.Key.Key_8, Qt.KeyboardModifier.ControlModifier)
    assert window.current_tab() is window.tab(Kind.SITUATIONS)
    qtbot.keyClick(window, Qt.Key.Key_F, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: window.query_box.edit.hasFocus(), timeout=2000)


def test_only_web_links_are_opened(make_session: Any, demo_server: Any, monkeypatch: Any) -> None:
    window = make_session(base_url=demo_server.base_url, wait="ready").window
    opened: list[str] = []
    monkeypatch.setattr(
        "PySide6.QtGui.QDesktopServices.openUrl", lambda url: opened.append(url.toString()) or True
    )
    assert not window.open_url("file:///etc/passwd")
    assert not window.open_url("javascript:alert(1)")
    assert window.open_url("https://catalogue.example.org/webinars/50007")
    assert opened == ["https://catalogue.example.org/webinars/50007"]


# -- offline, failures, changes --------------------------------------------------------------


def test_offline_start_from_the_cache_with_the_service_down(
    make_session: Any, filled_cache: Any, qtbot: Any
) -> None:
    url = f"http://127.0.0.1:{refused_port()}"
    session = make_session(base_url=url, wait="ready")
    window = session.window
    # Rows come from the cache at once, before any network answer.
    assert window.tab(Kind.WEBINARS).model.rowCount() == 60
    assert "from cache" in window.status.text(Kind.WEBINARS)
    with qtbot.waitSignal(session.synced, timeout=15000):
        pass
    assert window.banner.isVisible()
    assert window.banner.text().startswith("Offline — cannot connect to 127.0.0.1:")
    title = window.banner.title
    assert title.font().bold() and not window.banner.label.font().bold()  # style sheet, polished
    # the reason can be selected with the mouse (from when the mouse comes over it)
    selectable = Qt.TextInteractionFlag.TextSelectableByMouse
    QTest.mouseMove(window, QPoint(1, 1))
    QTest.mouseMove(window.banner.label)
    qtbot.waitUntil(lambda: bool(window.banner.label.textInteractionFlags() & selectable))
    for kind in ALL_KINDS:
        assert window.tab(kind).model.rowCount() == SAMPLE_COUNTS[kind]
        assert window.status.status(kind) == "failed"
        assert "from cache" in window.status.text(kind)
        assert window.status.retry_visible(kind)


def test_offline_option_never_contacts_the_service(make_session: Any, filled_cache: Any, qtbot: Any) -> None:
    with FaultServer() as server:
        session = make_session(base_url=server.base_url, offline=True, wait="ready")
        loop_passes(qtbot)  # a sync would have started and asked the service
        assert server.requests == []
        window = session.window
        assert window.banner.isVisible()
        assert window.banner.text().startswith("Offline mode — the service is not contacted.")
        assert not window.menu_actions.sync_action.isEnabled()
        assert window.tab(Kind.EXPERTS).model.rowCount() == 24
        assert "from cache" in window.status.text(Kind.EXPERTS)


def test_one_failed_collection_keeps_its_rows_and_offers_retry(
    make_session: Any, filled_cache: Any, sample: dict[Kind, bytes], qtbot: Any
) -> None:
    with FaultServer() as server:
        for kind, payload in sample.items():
            server.set(kind.path, "json", body=payload)
        server.set(Kind.COURSES.path, "status", status=500)
        session = make_session(base_url=server.base_url)
        window = session.window
        assert window.tab(Kind.COURSES).model.rowCount() == 20
        assert window.status.status(Kind.COURSES) == "failed"
        assert "500" in window.status.text(Kind.COURSES)
        assert window.status.retry_visible(Kind.COURSES)
        assert window.status.status(Kind.WEBINARS) == "current"
        assert not window.banner.isVisible()

        server.set(Kind.COURSES.path, "json", body=sample[Kind.COURSES])
        qtbot.mouseClick(window.status.more, Qt.MouseButton.LeftButton)  # Details: the collections
        retry = window.status.findChild(QPushButton, "retry-courses")
        with qtbot.waitSignal(session.synced, timeout=10000):
            qtbot.mouseClick(retry, Qt.MouseButton.LeftButton)
        assert window.status.status(Kind.COURSES) == "current"
        assert not window.status.retry_visible(Kind.COURSES)
        assert server.requests_for(Kind.COURSES.path)[-1].method == "GET"


def test_toolbar_icons_come_from_the_theme_or_qt_s_own_images(make_session: Any) -> None:
    """Not from ``QStyle`` (its enums cost ~8 ms at start-up): the images behind its standard
    icons must still be found, or the toolbar would show text only."""
    window = make_session(offline=True, wait="ready").window
    actions = [
        window.menu_actions.back_action,
        window.menu_actions.forward_action,
        window.menu_actions.sync_action,
        window.menu_actions.changes_action,
        window.menu_actions.export_action,
    ]
    assert all(not action.icon().isNull() for action in actions)
    assert all(action.icon().pixmap(16, 16).width() == 16 for action in actions)


def test_changes_view_lists_a_changed_record_and_navigates_to_it(
    make_session: Any, demo_server: Any, qtbot: Any
) -> None:
    session = make_session(base_url=demo_server.base_url)
    window = session.window
    webinars = json.loads(demo_server.payload(Kind.WEBINARS))
    webinars[1]["fee"] = 9999
    changed_id = webinars[1]["webinarId"]
    demo_server.set_payload(Kind.WEBINARS, json.dumps(webinars).encode())
    with qtbot.waitSignal(session.synced, timeout=10000):
        qtbot.keyClick(window, Qt.Key.Key_F5)
    wait_rows_loaded(qtbot, session)
    assert window.changes_dock._view is None  # made when its dock first shows, with what came meanwhile
    window.menu_actions.changes_action.trigger()
    assert window.changes_dock.isVisible() and window.changes_dock._view is not None
    assert window.changes_dock.widget() is window.changes
    entries = window.changes.entries(Kind.WEBINARS)
    assert len(entries) == 1
    assert "fee 149 -> 9999" in entries[0][1]
    item = window.changes.item_for(Kind.WEBINARS, changed_id)
    window.changes.tree.itemActivated.emit(item, 0)
    assert window.current_tab() is window.tab(Kind.WEBINARS)
    assert window.tab(Kind.WEBINARS).selected_record_id() == changed_id
    fee = window.tab(Kind.WEBINARS).model.view_row_of(changed_id)
    assert column_values(window.tab(Kind.WEBINARS), "fee")[fee] == 9999


def test_a_corrupt_store_is_moved_aside_and_said(make_session: Any, cache_dir: Any) -> None:
    (cache_dir / FILE_NAME).write_bytes(b"this is not a database" * 100)
    window = make_session(base_url=f"http://127.0.0.1:{refused_port()}", wait="ready").window
    assert window.status.message.isVisible()
    assert "moved to" in window.status.message.text()


# -- remembered settings ---------------------------------------------------------------------


def test_layout_sort_and_tab_are_remembered_across_two_windows(
    make_session: Any, filled_cache: Any, qtbot: Any
) -> None:
    url = f"http://127.0.0.1:{refused_port()}"
    first = make_session(base_url=url, offline=True, wait="ready")
    window = first.window
    window.resize(760, 560)  # within the offscreen screen (800x600): restoreGeometry clamps
    tab = window.show_tab(Kind.COURSES)
    qtbot.waitUntil(lambda: tab.isVisible() and min(tab.splitter.sizes()) > 0)  # laid out
    fee = column_index(Kind.COURSES, "fee")
    cities = column_index(Kind.COURSES, "cities")
    tab.view.sortByColumn(fee, Qt.SortOrder.DescendingOrder)
    tab.columns.set_visible(cities, False)
    tab.view.horizontalHeader().resizeSection(0, 333)
    tab.splitter.setSizes([400, 300])
    sizes = tab.splitter.sizes()
    window.close()

    second = make_session(offline=True, wait="ready")  # base URL remembered
    assert second.base_url == url
    window2 = second.window
    tab2 = window2.tab(Kind.COURSES)
    assert window2.current_tab() is tab2
    assert window2.size().width() == 760
    assert tab2.view.horizontalHeader().isSectionHidden(cities)
    assert tab2.view.horizontalHeader().sectionSize(0) == 333
    assert tab2.model.sort_column == fee
    assert tab2.model.sort_order == Qt.SortOrder.DescendingOrder
    values = [v[0] for v in column_values(tab2, "fee") if v]
    assert values == sorted(values, reverse=True)
    qtbot.waitUntil(lambda: tab2.splitter.sizes() == sizes)


@pytest.mark.parametrize("kind", [Kind.WEBINARS, Kind.COURSES])
def test_a_refresh_keeps_the_selection(make_session: Any, demo_server: Any, qtbot: Any, kind: Kind) -> None:
    session = make_session(base_url=demo_server.base_url)
    tab = session.window.tab(kind)
    record_id = tab.model.record_id(5)
    assert session.window.navigate(kind, record_id)
    payload = json.loads(demo_server.payload(kind))
    payload[0]["title"] = "Renamed by the service"
    demo_server.set_payload(kind, json.dumps(payload).encode())
    with qtbot.waitSignal(session.synced, timeout=10000):
        session.sync()
    wait_rows_loaded(qtbot, session)
    assert "Renamed by the service" in column_values(tab, "title")
    assert tab.selected_record_id() == record_id


def test_store_file_is_the_given_cache_dir_for_a_real_service(
    make_session: Any, demo_server: Any, cache_dir: Any
) -> None:
    session = make_session(base_url=demo_server.base_url)
    assert session.store_file == cache_dir / FILE_NAME
    with Store(session.store_file) as store:
        assert store.state(Kind.WEBINARS).records == 60


# -- the Catalogue menu's dialogs ---------------------------------------------------------------


def _answer_dialogs(monkeypatch: Any, answers: list[tuple[str, bool]]) -> list[str]:
    """QInputDialog.getText answers ``answers`` in turn; returns the prompts it was asked."""
    asked: list[str] = []

    def get_text(_parent: Any, title: str, _label: str, **_options: Any) -> tuple[str, bool]:
        asked.append(title)
        return answers.pop(0)

    monkeypatch.setattr("PySide6.QtWidgets.QInputDialog.getText", get_text)
    return asked


def test_service_url_dialog_leaves_the_demo_catalogue_for_the_given_service(
    make_session: Any, demo_server: Any, cache_dir: Any, qtbot: Any, monkeypatch: Any
) -> None:
    session = make_session()  # the bundled demo catalogue, in its own store
    assert session.demo and session.store_file == cache_dir / "demo" / FILE_NAME
    assert not (cache_dir / FILE_NAME).exists()
    _answer_dialogs(monkeypatch, [("", True), (f" {demo_server.base_url} ", True)])
    with qtbot.assertNotEmitted(session.window.base_url_chosen):
        session.window.dialogs.ask_service_url()  # empty: ignored
    with qtbot.waitSignal(session.synced, timeout=20000):
        session.window.dialogs.ask_service_url()
    wait_rows_loaded(qtbot, session)
    assert not session.demo and session.base_url == demo_server.base_url
    assert session.store_file == cache_dir / FILE_NAME
    assert session.settings.base_url == demo_server.base_url
    assert demo_server.base_url in session.window.windowTitle()
    with Store(session.store_file) as store:  # filled from the chosen service
        assert store.state(Kind.WEBINARS).records == SAMPLE_COUNTS[Kind.WEBINARS]
        assert store.state(Kind.WEBINARS).etag is not None


def test_the_empty_detail_pane_says_what_to_select(make_session: Any) -> None:
    window = make_session(offline=True, wait="ready").window
    texts = {kind: window.tab(kind)._placeholder.text() for kind in (Kind.EXPERTS, Kind.WEBINARS)}
    assert texts == {
        Kind.EXPERTS: "Select an expert to see its details.",
        Kind.WEBINARS: "Select a webinar to see its details.",
    }
