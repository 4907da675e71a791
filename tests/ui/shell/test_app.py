"""The entry point: run(args) with and without --self-test, options, and a cold start that shows
cached rows without importing pydantic or httpx."""

from __future__ import annotations

import argparse
import gc
import json
import sys
import textwrap
import time
from typing import Any

import pytest
from PySide6.QtCore import QByteArray, QEvent, QLocale, QObject, Qt, QTimer
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.ui.shell.app import run
from catalogue_desktop.ui.shell.main_window import MainWindow
from catalogue_desktop.ui.shell.navigation import Place, parse_target
from catalogue_desktop.ui.shell.session import Options
from tests.fresh_python import run_json
from tests.ui.conftest import SMALL_PAGES
from tests.ui.shell.shipped_command import exit_when_ready


def args(**values: Any) -> argparse.Namespace:
    base = dict(
        base_url=None, demo=False, offline=False, cache_dir=None, open=None, self_test=False, currency=None
    )
    base.update(values)
    return argparse.Namespace(**base)


def test_options_from_the_cli_namespace() -> None:
    options = Options.from_args(args(base_url="http://x", offline=True, open="webinar:1"))
    assert options == Options(base_url="http://x", offline=True, open="webinar:1")
    assert Options.from_args(argparse.Namespace()) == Options()


def test_parse_open_targets() -> None:
    assert parse_target("webinar:7001") == Place(parse_target("webinars:1").kind, 7001)
    assert parse_target("Series: 12").record_id == 12
    with pytest.raises(ValueError, match="KIND:ID"):
        parse_target("7001")
    with pytest.raises(ValueError, match="not a number"):
        parse_target("expert:abc")


def test_self_test_passes_on_the_demo_catalogue(qapp: Any, capsys: Any) -> None:
    gc.collect()
    assert run(args(self_test=True)) == 0
    out = capsys.readouterr().out
    assert "FAIL" not in out
    assert out.count("PASS") >= 18  # window, sync, rows and details of every kind, time
    assert "details of" in out


def test_run_opens_the_window_and_returns_when_it_closes(qapp: Any, filled_cache: Any) -> None:
    gc.collect()
    seen: list[str] = []

    def close_window() -> None:
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
        if not windows or windows[-1].current_tab().model.rowCount() == 0:
            QTimer.singleShot(50, close_window)
            return
        seen.append(windows[-1].windowTitle())
        windows[-1].close()

    QTimer.singleShot(100, close_window)
    code = run(args(offline=True, base_url="http://127.0.0.1:9", cache_dir=str(filled_cache)))
    assert code == 0
    assert seen and "offline" in seen[0]


def test_cold_start_shows_cached_rows_before_importing_pydantic_or_httpx(
    filled_cache: Any, tmp_path: Any
) -> None:
    code = textwrap.dedent(f"""
        import asyncio, json, sys
        from PySide6.QtCore import QSettings
        from PySide6.QtWidgets import QApplication
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, {str(tmp_path)!r})
        app = QApplication([])
        import qasync
        from catalogue_desktop.core.records.kinds import Kind
        from catalogue_desktop.ui.shell.session import AppSession, Options

        async def main():
            session = AppSession(Options(base_url="http://127.0.0.1:9", offline=True,
                                         cache_dir={str(filled_cache)!r}))
            ready = asyncio.get_running_loop().create_future()
            session.ready.connect(lambda: ready.set_result(None))
            window = session.start()
            await ready
            rows = window.tab(Kind.WEBINARS).model.rowCount()
            loaded = sorted(m for m in sys.modules if m.split(".")[0] in ("pydantic", "httpx"))
            await session.aclose()
            return rows, loaded

        with asyncio.Runner(loop_factory=lambda: qasync.QEventLoop(app)) as runner:
            print(json.dumps(runner.run(main())))
    """)
    (rows, loaded), _ = run_json(code)
    assert rows == 60
    assert loaded == []


def test_run_refreshes_on_asyncio_started_after_the_window_shows(
    qapp: Any, cache_dir: Any, demo_server: Any
) -> None:
    """An empty cache: the rows can only come from the refresh, which runs on the asyncio loop
    that ``run`` starts once the (empty) window is shown; closing then ends ``run`` cleanly."""
    gc.collect()
    seen: list[int] = []

    def close_when_refreshed() -> None:
        windows = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
        rows = windows[-1].tab(Kind.WEBINARS).model.rowCount() if windows else 0
        if rows == 0:
            QTimer.singleShot(50, close_when_refreshed)
            return
        seen.append(rows)
        windows[-1].close()

    QTimer.singleShot(100, close_when_refreshed)
    code = run(args(base_url=str(demo_server.base_url), cache_dir=str(cache_dir)))
    assert code == 0
    assert seen == [60]


def entry_point(cache: Any, settings_dir: Any, on_ready: str, after: str = "") -> dict[str, Any]:
    """Run ``cli.main --offline`` on ``cache`` in a fresh process. ``on_ready`` is the body of
    ``on_ready(window)``, called at ``AppSession.ready``: it fills the dict ``seen`` and closes
    the window (at once or later); ``after`` runs once ``cli.main`` returned. Returns ``seen``
    plus the exit code (``"code"``) and whether the cyclic GC ran while the window was made
    (``"gc_at_start"``)."""
    body = textwrap.indent(textwrap.dedent(on_ready).strip(), " " * 4)
    code = (
        textwrap.dedent(f"""
        import gc, json, sys
        from PySide6.QtCore import QSettings, QTimer
        QSettings.setPath(QSettings.Format.IniFormat, QSettings.Scope.UserScope, {str(settings_dir)!r})
        from catalogue_desktop import cli
        from catalogue_desktop.ui.shell import session
        seen = {{}}
        start = session.AppSession.start

        def on_ready(window):
        {{body}}

        def patched(self):
            seen["gc_at_start"] = gc.isenabled()
            window = start(self)
            self.ready.connect(lambda: on_ready(window))
            return window

        session.AppSession.start = patched
        seen["code"] = cli.main(["--offline", "--base-url", "http://127.0.0.1:9",
                                 "--cache-dir", {str(cache)!r}])
        {{after}}
        print(json.dumps(seen))
    """)
        .replace("{body}", body)
        .replace("{after}", textwrap.dedent(after).strip())
    )
    found, _ = run_json(code)
    return found


def test_exit_when_ready_reports_the_rows_shown_without_asyncio_and_exits(
    filled_cache: Any, tmp_path: Any
) -> None:
    """The shipped command with ``CATALOGUE_DESKTOP_EXIT_WHEN_READY`` (benchmarks, smoke tests):
    one JSON line once the cached rows show, then a normal exit. asyncio, qasync, pydantic and
    httpx were not needed for that."""
    before = time.time()
    report = exit_when_ready(filled_cache, tmp_path, "1")
    assert before < report.pop("ready_at") < time.time()
    assert "PySide6.QtWidgets" in report.pop("modules")  # (ui.shell.start_budget's test reads them)
    marks = report.pop("marks")  # the QApplication made, then the window, then the first paint
    assert before < marks["qapplication"] < marks["window_made"] < time.time()
    assert report == {
        "tab": ALL_KINDS[0].value,
        "rows_shown": 60,
        "rows": 60,
        "imported": [],
        "too_early": [],
        "threads": 1 if sys.platform == "linux" else None,  # (no thread before the first paint)
    }


class _PaintCounter(QObject):
    """Counts the paint events of one widget (kept alive by the test that made it)."""

    def __init__(self, widget: Any) -> None:
        super().__init__()
        self.paints = 0
        widget.installEventFilter(self)

    def eventFilter(self, _watched: Any, event: Any) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.paints += 1
        return False


@pytest.mark.parametrize(("exit_when", "shown"), [("1", SMALL_PAGES), ("all", 60)])
def test_exit_when_ready_reports_at_the_first_page_or_once_all_rows_are_read(
    paged_cache: Any, tmp_path: Any, exit_when: str, shown: int
) -> None:
    """The window is populated (``EXIT_WHEN_READY=1``) once the first page of its tab is on
    screen, and ready (``=all``) once every cached row is read."""
    report = exit_when_ready(paged_cache, tmp_path, exit_when)
    assert (report["rows_shown"], report["rows"]) == (shown, 60)


class _RowsAtPaint(QObject):
    """Notes the rows of ``model`` at each paint of ``widget`` (kept alive by its test)."""

    def __init__(self, widget: Any, model: Any) -> None:
        super().__init__()
        self.model = model
        self.rows: list[int] = []
        widget.installEventFilter(self)

    def eventFilter(self, _watched: Any, event: Any) -> bool:
        if event.type() == QEvent.Type.Paint:
            self.rows.append(self.model.rowCount())
        return False


def test_the_window_paints_the_first_page_of_its_tab_then_the_rows_grow_in(
    make_session: Any, paged_cache: Any, qtbot: Any
) -> None:
    """A cold start reads the first page of the current tab's rows before the window's first
    paint, which shows it (not an empty table) with the count saying how many are coming and the
    tab's title already right: ``populated``. The other rows are then appended (no reset: a
    selection or scroll stays) and the window is ``ready``."""
    session = make_session(base_url="http://127.0.0.1:9", offline=True, wait=None)
    window = session.window
    tab = window.current_tab()
    model = tab.model
    painted = _RowsAtPaint(tab.view.viewport(), model)
    resets: list[int] = []
    model.modelReset.connect(lambda: resets.append(model.rowCount()))
    at_populated: list[Any] = []
    session.populated.connect(
        lambda: at_populated.append(
            (
                model.rowCount(),
                model.loading,
                tab.count_label.text(),
                window.tab_bar.full_title(0),
                session.loaded,
            )
        )
    )
    label_size = tab.count_label.size()
    with qtbot.waitSignal(session.ready, timeout=10000):
        pass
    QApplication.sendPostedEvents()
    title = f"{tab.kind.label} 60"
    assert at_populated == [(SMALL_PAGES, True, f"loading {SMALL_PAGES} of 60", title, False)]
    assert painted.rows[0] == SMALL_PAGES  # the first paint: the first page, not an empty table
    assert resets == []  # (the first page was set during start()) the other rows were appended
    assert model.rowCount() == 60 and not model.loading
    assert tab.count_label.text() == f"60 {tab.kind.value}" and window.tab_bar.full_title(0) == title
    assert tab.count_label.size() == label_size  # "loading 16 of 60" fitted, as "60 webinars" does
    # then in the tab's default order (by start, upcoming first), put so without a reset
    start = column_index(tab.kind, "start")
    starts = [  # (0 upcoming, 1 on demand, 2 past; start)
        (
            2 if model.is_past(r) else int(str(model.index(r, start).data()).startswith("On demand")),
            model.data(model.index(r, start), Qt.ItemDataRole.UserRole),
        )
        for r in range(60)
    ]
    assert starts == sorted(starts, key=lambda s: (s[0], s[1] is None, s[1] or 0))
    assert {model.record_id(row) for row in range(60)} == {
        row[model.rowset.id_column] for row in session.loader.rowsets[tab.kind].rows
    }


def test_a_tab_restored_sorted_shows_its_rows_once_all_are_read(
    make_session: Any, paged_cache: Any, qtbot: Any
) -> None:
    """A tab that starts sorted paints the first page it reads at once, as an unsorted one does,
    and is sorted once every row is read (a sort needs them all)."""
    from catalogue_desktop.ui.common.settings import Settings

    fee = column_index(ALL_KINDS[0], "fee")
    Settings().save_tab(ALL_KINDS[0], QByteArray(), (fee, 1))
    session = make_session(base_url="http://127.0.0.1:9", offline=True, wait=None)
    model = session.window.current_tab().model
    at_populated: list[Any] = []
    session.populated.connect(lambda: at_populated.append((model.rowCount(), model.loading)))
    with qtbot.waitSignal(session.ready, timeout=10000):
        pass
    assert at_populated == [(SMALL_PAGES, True)]
    assert model.rowCount() == 60 and not model.loading
    fees = [model.data(model.index(row, fee), Qt.ItemDataRole.UserRole) for row in range(60)]
    present = [f for f in fees if f is not None]
    assert present == sorted(present, reverse=True) and len(present) > 3


def test_the_ready_report_comes_once_the_rows_are_painted(
    make_session: Any, filled_cache: Any, qtbot: Any, capsys: Any
) -> None:
    """``EXIT_WHEN_READY`` measures a start-up to the rows on screen: rows loaded but not yet
    painted are painted before the report (and the close that follows it)."""
    from catalogue_desktop.ui.shell import app as app_module

    session = make_session(base_url="http://127.0.0.1:9", offline=True, wait="ready")
    window = session.window
    viewport = window.current_tab().view.viewport()
    counter = _PaintCounter(viewport)
    viewport.update()  # rows waiting for their paint
    app_module._report_ready_and_close(session)
    assert counter.paints  # painted before the report, not on some later loop pass
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["rows_shown"] == window.current_tab().model.rowCount() > 0
    qtbot.waitUntil(lambda: not window.isVisible())


def test_after_ready_what_asyncio_imports_comes_a_module_a_timer_call_then_asyncio(
    make_session: Any, filled_cache: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch, tmp_path: Any
) -> None:
    """Counted, not timed: after ready, what starting asyncio imports (~65-70 ms of the window's
    CPU: ``stepped_import.ASYNC``) comes a module per timer call on later loop passes, asyncio
    started after the last, and nothing is flushed synchronously (the rows ready showed are
    painted on a pass of their own, not in one gap with all the imports). Stand-in modules: this
    process has asyncio already."""
    from catalogue_desktop.ui.common import stepped_import
    from catalogue_desktop.ui.shell.session import AppSession

    (tmp_path / "h40rec.py").write_text("EVENTS = []\n")
    for name in ("h40a", "h40b", "h40c"):
        (tmp_path / f"{name}.py").write_text(f"import h40rec\nh40rec.EVENTS.append('{name}')\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import h40rec  # type: ignore[import-not-found]

    session = make_session(base_url="http://127.0.0.1:9", offline=True, wait="ready")
    monkeypatch.setattr(stepped_import, "ASYNC", ("h40a", "h40b", "h40c"), raising=False)
    real_go = getattr(AppSession, "_go_async", None)
    monkeypatch.setattr(
        AppSession, "_go_async", lambda self: (h40rec.EVENTS.append("go"), real_go and real_go(self))
    )
    calls: list[list[str]] = []  # what each timer call of the session imported
    real_next_pass = getattr(AppSession, "_next_pass", None)

    def next_pass(self: Any, call: Any) -> None:
        def counted() -> None:
            before = len(h40rec.EVENTS)
            call()
            calls.append(h40rec.EVENTS[before:])

        assert real_next_pass is not None
        real_next_pass(self, counted)

    monkeypatch.setattr(AppSession, "_next_pass", next_pass, raising=False)
    flushed = [0]
    monkeypatch.setattr(QApplication, "sendPostedEvents", lambda *_: flushed.__setitem__(0, flushed[0] + 1))
    try:
        session._after_ready()
        assert h40rec.EVENTS == []  # nothing imported in the pass after ready itself
        qtbot.waitUntil(lambda: "go" in h40rec.EVENTS, timeout=5000)
    finally:
        for name in ("h40rec", "h40a", "h40b", "h40c"):
            sys.modules.pop(name, None)
    assert [e for e in h40rec.EVENTS if e != "go"] == ["h40a", "h40b", "h40c"]
    # a module per timer call; asyncio started by a later call than the last one's (the chain
    # the session began at ready, its modules all imported, may say "go" at any time)
    imports = [c for c in calls if c and c != ["go"]]
    assert imports == [["h40a"], ["h40b"], ["h40c"]], calls
    assert ["go"] in calls[calls.index(["h40c"]) + 1 :], calls
    assert flushed == [0]


def test_the_start_up_s_jobs_take_their_turns_from_one_budget_per_pass(
    make_session: Any, paged_cache: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counted: from the window's first paint on, the start-up's jobs (the loader's chunks, the
    finder's indexer, the current table's idle work, the session's later steps) run only in the
    turns of the one budget of the event loop's passes (``ui.common.pass_budget.loop_budget``),
    none from a timer of its own (on their own timers, several fell in one pass: issue 40)."""
    from catalogue_desktop.ui.browse.catalogue_loader import CatalogueLoader
    from catalogue_desktop.ui.browse.idle_work import IdleWork
    from catalogue_desktop.ui.common.pass_budget import PassBudget, loop_budget
    from catalogue_desktop.ui.finder.indexer import FinderIndexer
    from catalogue_desktop.ui.shell.session import AppSession

    turns = getattr(PassBudget, "run_pass", None)
    calls: list[tuple[str, Any]] = []  # (the job, the budget whose turn ran it, or None)

    def turn_of() -> Any:
        frame: Any = sys._getframe(2)
        while frame is not None and (turns is None or frame.f_code is not turns.__code__):
            frame = frame.f_back
        return None if frame is None else frame.f_locals["self"]

    jobs = [
        (CatalogueLoader, "_step"),
        (FinderIndexer, "_pass"),
        (IdleWork, "step"),
        (AppSession, "_import_watch"),
        (AppSession, "_watch_faults"),
        (AppSession, "_after_ready"),
    ]
    for cls, name in jobs:
        real = getattr(cls, name)

        def spy(self: Any, real: Any = real, name: str = f"{cls.__name__}.{name}") -> Any:
            calls.append((name, turn_of()))
            return real(self)

        monkeypatch.setattr(cls, name, spy)
    session = make_session(base_url="http://127.0.0.1:9", offline=True, wait="ready")
    model = session.window.current_tab().model
    qtbot.waitUntil(lambda: not session.finder.indexer.busy and not model.idle_work.pending, timeout=10000)
    assert {name for name, _ in calls} == {f"{cls.__name__}.{name}" for cls, name in jobs}
    assert [name for name, budget in calls if budget is not loop_budget()] == []
    assert len([name for name, _ in calls if name == "CatalogueLoader._step"]) > 4  # (chunks: pages of 16)


def test_the_watch_s_modules_and_the_watch_come_on_different_loop_passes(
    make_session: Any, paged_cache: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Counted (loop passes, not time): once the first page is painted, the watch's modules are
    imported on one pass and the watch made on a later one (together they shared a gap of the
    loop with a start-up pass and the table's repaint)."""
    from catalogue_desktop.ui.shell.session import AppSession

    passes = [0]
    ticker = QTimer(interval=0)
    ticker.timeout.connect(lambda: passes.__setitem__(0, passes[0] + 1))
    seen: list[tuple[str, int]] = []
    for name in ("_import_watch", "_connect_watch"):
        real = getattr(AppSession, name, None)
        assert real is not None, f"no {name}"

        def spy(self: Any, real: Any = real, name: str = name) -> None:
            seen.append((name, passes[0]))
            real(self)

        monkeypatch.setattr(AppSession, name, spy)
    loaded = AppSession._loaded

    def read_on_for_five_passes(self: Any, left: int = 5) -> None:
        """The rows read a few loop passes after the first page's paint, as a catalogue of some
        thousands is (the small sample is read in one: its ``ready`` makes the watch at once)."""
        if left:
            QTimer.singleShot(0, lambda: read_on_for_five_passes(self, left - 1))
        else:
            loaded(self)

    monkeypatch.setattr(AppSession, "_loaded", read_on_for_five_passes)
    ticker.start()
    session = make_session(base_url="http://127.0.0.1:9", offline=True, wait="ready")
    ticker.stop()
    assert session.watcher is not None
    (imported, made) = (next(p for n, p in seen if n == key) for key in ("_import_watch", "_connect_watch"))
    assert made > imported, seen


def test_the_first_paint_shows_what_the_store_says_and_loading_rows_moves_nothing(
    make_session: Any, filled_cache: Any, qtbot: Any
) -> None:
    """Before a row is read, the window shows each collection's cached status and record count
    and, offline, the banner with the data's age; so the rows arriving move nothing: the table
    stays where it was (no banner pushing it down) and the titles stay as they were."""
    session = make_session(base_url="http://127.0.0.1:9", offline=True, wait=None)
    window = session.window
    assert session.loader._jobs  # nothing read yet: start() has just returned
    states = session.loader.states()
    tabs = window.tab_widget
    titles = [window.tab_bar.full_title(i) for i in range(tabs.count())]
    for kind in ALL_KINDS:
        assert window.status.status(kind) == "cached"
        count = QLocale().toString(states[kind].records)
        assert titles[ALL_KINDS.index(kind)] == f"{kind.label} {count}"
    assert window.banner.isVisibleTo(window)
    assert window.banner.text().startswith(
        "Offline mode — the service is not contacted. Showing the cached catalogue as of "
    )
    assert "no cached data yet" not in window.banner.label.text()
    tab = window.current_tab()
    QApplication.sendPostedEvents()  # the first layout
    table_at = tab.view.mapTo(window, tab.view.rect().topLeft())
    query_width = window.query_box.edit.width()

    with qtbot.waitSignal(session.ready, timeout=10000):
        pass
    QApplication.sendPostedEvents()
    assert tab.model.rowCount() > 0
    assert tab.view.mapTo(window, tab.view.rect().topLeft()) == table_at
    assert window.query_box.edit.width() == query_width  # no count's text resized the query box
    assert [window.tab_bar.full_title(i) for i in range(tabs.count())] == titles


def test_a_count_label_keeps_its_size_whatever_it_says(
    make_session: Any, filled_cache: Any, qtbot: Any
) -> None:
    """The count above the table has a fixed size that fits its longest text: a new count
    (every keystroke of a query) repaints the label alone, without laying out the tab again.
    A count of millions widens it, once."""
    session = make_session(base_url="http://127.0.0.1:9", offline=True, wait="ready")
    tab = session.window.current_tab()
    label = tab.count_label

    def fits() -> bool:
        return label.fontMetrics().horizontalAdvance(label.text()) <= label.contentsRect().width()

    size = label.size()
    for visible, total in ((0, 0), (888_888, 888_888), (1, 888_888), (888_888, 999_999)):
        tab._counts_changed(visible, total)
        QApplication.sendPostedEvents()
        assert label.size() == size
        assert fits()
    tab._counts_changed(1_234_567_890, 1_234_567_891)
    QApplication.sendPostedEvents()
    assert label.width() > size.width()
    assert fits()


def test_start_up_makes_only_what_the_first_screen_shows(filled_cache: Any, tmp_path: Any) -> None:
    """Until the window is ready the cyclic GC is held off; dialogs, the changes view and the Qt
    classes with the most enums (``QStyle``) are not made, nor the tray icon (until the watch has
    news to tell), nor the status panel's line per
    collection (hidden until Details) or the query box's completion list (until completions are
    offered); no Python method is handed a plain ``QEvent`` (an event filter or ``changeEvent``
    made PySide create every event class, ``QWheelEvent`` and ``QTabletEvent`` among them);
    closing the window does not make PySide create every QtCore type (a ``destroyed`` slot taking
    the object did)."""
    seen = entry_point(
        filled_cache,
        tmp_path,
        """
        from PySide6 import QtGui, QtWidgets
        seen["gc_at_ready"] = gc.isenabled()
        seen["made"] = sorted(name for name in ("QStyle", "QFileDialog", "QInputDialog",
                                                "QMessageBox", "QTreeWidget", "QSystemTrayIcon")
                              if name in vars(QtWidgets))
        seen["changes_view"] = "catalogue_desktop.ui.sync.changes_view" in sys.modules
        seen["status_lines"] = len(window.status.rows.findChildren(QtWidgets.QWidget))
        seen["completions"] = "catalogue_desktop.ui.finder.completion_list" in sys.modules
        seen["event_classes"] = [name for name in ("QWheelEvent", "QTabletEvent") if name in vars(QtGui)]
        QTimer.singleShot(0, window.close)
    """,
        after="""
        from PySide6 import QtCore
        seen["qtcore_after"] = [name for name in ("QSharedMemory", "QProcess", "QLibrary")
                                if name in vars(QtCore)]
    """,
    )
    assert seen == {
        "gc_at_start": False,
        "gc_at_ready": True,
        "made": [],
        "changes_view": False,
        "status_lines": 0,
        "completions": False,
        "event_classes": [],
        "qtcore_after": [],
        "code": 0,
    }


def test_offline_the_decoder_is_imported_in_the_background_after_ready(
    filled_cache: Any, tmp_path: Any
) -> None:
    """No refresh imports pydantic offline: it is imported on a thread after ``ready``, so the
    first detail pane does not wait for it; nothing was selected meanwhile."""
    seen = entry_point(
        filled_cache,
        tmp_path,
        """
        seen["at_ready"] = "pydantic" in sys.modules
        polls = [0]

        def poll():
            if "catalogue_desktop.core.records.decode" in sys.modules or polls[0] > 200:
                seen["decoder"] = "catalogue_desktop.core.records.decode" in sys.modules
                seen["detail_made"] = window.current_tab()._detail is not None
                window.close()
                return
            polls[0] += 1
            QTimer.singleShot(50, poll)

        QTimer.singleShot(0, poll)
    """,
    )
    assert seen == {"at_ready": False, "decoder": True, "detail_made": False, "code": 0, "gc_at_start": False}
