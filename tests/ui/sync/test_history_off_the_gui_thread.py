"""The history budget's work never on the window's thread (issue 40): pruning what a smaller span
or budget no longer keeps (Preferences ▸ Over time) and giving the freed space back after a refresh
(``space.reclaim``). Counted, not timed: each call records the thread it ran on."""

from __future__ import annotations

import json
import threading
from typing import Any

import pytest
from PySide6.QtWidgets import QDialog, QSpinBox

from catalogue_desktop.core.cache import record_history, space
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.shell.preferences import Preferences


def threads_of(monkeypatch: pytest.MonkeyPatch, module: Any, name: str) -> list[str]:
    """The names of the threads ``module.name`` runs on from now on."""
    seen: list[str] = []
    real = getattr(module, name)

    def recorded(*args: Any, **kwargs: Any) -> Any:
        seen.append(threading.current_thread().name)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, recorded)
    return seen


def test_a_smaller_span_and_budget_are_pruned_off_the_windows_thread(
    make_session: Any, demo_server: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = make_session(base_url=demo_server.base_url)
    payload = json.loads(demo_server.payload(Kind.WEBINARS))
    payload[0]["title"] = "Renamed by the service"
    demo_server.set_payload(Kind.WEBINARS, json.dumps(payload).encode())
    with qtbot.waitSignal(session.synced, timeout=20000):
        session.sync()
    store = session.loader.store
    assert any(e.change == "changed" for e in store.history.events(Kind.WEBINARS, payload[0]["webinarId"]))
    pruned = threads_of(monkeypatch, record_history, "prune")
    shown: list[Preferences] = []

    def exec_(dialog: Preferences) -> int:  # the user sets 1 day and 1 MB, then OK
        shown.append(dialog)
        spins = {s.accessibleName(): s for s in dialog.findChildren(QSpinBox)}
        spins["Keep each record's history for"].setValue(1)
        spins["Keep at most this much history"].setValue(1)
        return QDialog.DialogCode.Accepted

    monkeypatch.setattr(Preferences, "exec", exec_)
    session.window.menu_actions.preferences_action.trigger()
    assert len(shown) == 1
    assert store.history.span_days == 1 and store.history.budget_megabytes == 1  # written at once
    qtbot.waitUntil(
        lambda: bool(pruned) and not any(t.name == "history-prune" for t in threading.enumerate()),
        timeout=20000,
    )
    assert pruned == ["history-prune"]  # once, and not on the window's thread
    assert threading.main_thread().name not in pruned


def test_a_refresh_gives_space_back_off_the_windows_thread(
    make_session: Any, demo_server: Any, qtbot: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    reclaimed = threads_of(monkeypatch, space, "reclaim")
    pruned = threads_of(monkeypatch, record_history, "prune")
    session = make_session(base_url=demo_server.base_url)  # the first refresh stores every kind
    assert reclaimed, "the refresh gave no space back"
    payload = json.loads(demo_server.payload(Kind.COURSES))
    payload[0]["title"] += " (new edition)"
    demo_server.set_payload(Kind.COURSES, json.dumps(payload).encode())
    with qtbot.waitSignal(session.synced, timeout=20000):
        session.sync()  # (its history written, and pruned, where the ingest runs)
    assert len(reclaimed) == 2
    main = threading.main_thread().name
    assert main not in reclaimed and main not in pruned
