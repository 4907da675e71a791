"""Refresh on its own, as a user meets it: the window refreshes after the period set in
Preferences (here ~2 s) and when the network comes back, keeping the selection and the query; the
period and the history's span are set in Preferences ▸ Over time."""

from __future__ import annotations

import json
from typing import Any

from PySide6.QtWidgets import QDialogButtonBox, QSpinBox

from catalogue_desktop.core.cache.store import Store
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.sync.runner import CollectionOutcome, SyncReport
from catalogue_desktop.ui.common.settings import Settings
from catalogue_desktop.ui.sync.auto_sync import KEY, network_gone, sync_hours


def test_the_window_refreshes_on_its_own_keeping_selection_and_query(
    make_session: Any, demo_server: Any, qtbot: Any
) -> None:
    settings = Settings()
    settings.q.setValue(KEY, "1")  # an hour: nothing is due while the window is set up
    settings.sync()
    session = make_session(base_url=demo_server.base_url)
    window = session.window
    tab = window.show_tab(Kind.WEBINARS)
    window.query_box.set_text("cle:yes")
    # (the query is applied once the finder's tables are made: waited for, not assumed)
    qtbot.waitUntil(lambda: not session.finder.indexer.busy and tab.model.rowCount() > 2, timeout=20000)
    rows = tab.model.rowCount()
    window.resize(900, 420)  # rows to scroll
    chosen = tab.model.record_id(rows - 1)
    tab.select_record(chosen)  # the last row, scrolled to
    bar = tab.view.verticalScrollBar()
    bar.setValue(bar.maximum())
    scrolled = bar.value()
    assert scrolled > 0
    from catalogue_desktop.ui.shell.preferences import Preferences

    dialog = Preferences(window.settings, window.formatter.vocabulary, [], window)
    dialog.open()  # a dialog the user left open
    webinars = json.loads(demo_server.payload(Kind.WEBINARS))
    webinars[0]["title"] = "Retitled while nobody looked"
    demo_server.set_payload(Kind.WEBINARS, json.dumps(webinars).encode())
    assert session.auto_sync.timer.isActive() and session.auto_sync.timer.remainingTime() > 60_000
    settings.q.setValue(KEY, "0.0006")  # ~2 s, as Preferences sets it (it restarts the count)
    session.auto_sync.start()
    assert session.auto_sync.timer.isActive()
    with qtbot.waitSignal(session.synced, timeout=15000) as synced:
        pass  # nobody presses F5
    report = synced.args[0]
    assert report.collections[Kind.WEBINARS].status == "updated"
    assert window.query_box.text() == "cle:yes"
    assert tab.selected_record_id() == chosen
    assert dialog.isVisible() and bar.value() == scrolled
    dialog.reject()
    assert session.auto_sync.timer.isActive()  # and the next one is counted from now

    # the network gone, then back: a refresh at once
    session.auto_sync.offline = True
    with qtbot.waitSignal(session.synced, timeout=15000):
        session.auto_sync.network_changed(True)
    assert not session.auto_sync.offline


def test_network_gone_is_every_collection_failing_for_want_of_a_network() -> None:
    down = SyncReport({k: CollectionOutcome("failed", cause="offline") for k in Kind})
    service = SyncReport({k: CollectionOutcome("failed", cause="service") for k in Kind})
    fine = SyncReport({k: CollectionOutcome("unchanged") for k in Kind})
    assert network_gone(down) and network_gone(None)
    assert not network_gone(service) and not network_gone(fine)


def test_preferences_set_the_period_and_the_history_span(
    make_session: Any, filled_cache: Any, qtbot: Any
) -> None:
    from catalogue_desktop.ui.shell.preferences import Preferences

    session = make_session(base_url="http://127.0.0.1:9", offline=True, wait="ready")
    window = session.window
    dialog = Preferences(window.settings, window.formatter.vocabulary, [], window)
    dialog.over_time.show_history(window.search_book.history())
    spins = {s.accessibleName(): s for s in dialog.findChildren(QSpinBox)}
    assert spins["Refresh on its own every"].value() == 4
    assert spins["Keep each record's history for"].value() == 400
    assert spins["Keep at most this much history"].value() == 200  # MB
    spins["Refresh on its own every"].setValue(2)
    spins["Keep each record's history for"].setValue(30)
    spins["Keep at most this much history"].setValue(50)
    dialog.findChild(QDialogButtonBox).accepted.emit()  # OK
    assert dialog.result() == dialog.DialogCode.Accepted
    dialog.save()  # (what the window does once the dialog is accepted)
    assert sync_hours(Settings()) == 2
    assert session.loader.store.history.span_days == 30
    assert session.loader.store.history.budget_megabytes == 50
    with Store(session.loader.store.path) as again:  # kept in the catalogue's file
        assert again.history.budget_megabytes == 50
