"""``ui.shell.fault_log``: the log of what went wrong (a rotating file, the same fault written a
few times only) and ``redacted`` (no password, token or authorization value survives)."""

from __future__ import annotations

from pathlib import Path

import pytest

from catalogue_desktop.ui.shell import fault_log
from catalogue_desktop.ui.shell.fault_log import FaultLog, redacted


def test_secrets_are_taken_out_and_the_rest_kept() -> None:
    text = (
        "Connecting to https://alice:pa55-word@catalogue.example.org:8443/v1 via "
        "http://bob:pr0xy%2Fpw@proxy.corp:3128 (token=abc123XYZ, password: hunter2)\n"
        "Authorization: Bearer eyJhbGciOi.J9\nX-Api-Key: k-998877\nsecret_env=MY_VAR at https://plain.example/x"
    )
    out = redacted(text)
    for secret in ("pa55-word", "pr0xy", "abc123XYZ", "hunter2", "eyJhbGciOi", "k-998877"):
        assert secret not in out, (secret, out)
    assert "catalogue.example.org:8443/v1" in out and "proxy.corp:3128" in out
    assert "https://plain.example/x" in out and "token=***" in out


def test_an_address_shown_url_cannot_take_apart_is_not_shown() -> None:
    assert "w%rd" not in redacted("proxy http://bob:p@ss:w%rd/x@proxy.corp:99999 refused")


def test_the_log_rotates_and_writes_the_same_fault_a_few_times(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(fault_log, "LOG_BYTES", 4096)
    log = FaultLog(tmp_path / "log")
    assert log.last_lines() == []
    for n in range(200):
        log.write(f"ValueError: number {n}", f"Traceback\nValueError: number {n}\n")
    same = [log.write("KeyError: 'x'", "Traceback\nKeyError: 'x'\n") for _ in range(5)]
    log.close()
    assert same == [True, True, True, False, False]
    files = sorted(p.name for p in (tmp_path / "log").iterdir())
    assert files == [f"catalogue-desktop.log{s}" for s in ("", ".1", ".2", ".3")]
    assert all(p.stat().st_size <= 4096 + 200 for p in (tmp_path / "log").iterdir())
    lines = log.last_lines(4)
    assert lines[-1] == "KeyError: 'x'" and "(the same, 3 times)" in lines[-3]


def test_a_cell_the_window_could_not_show_is_in_the_log(tmp_path: Path, qapp: object) -> None:
    """A guarded model's error (the cell shows ⚠) reaches the fault log once the hooks are in."""
    from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex

    from catalogue_desktop.qt_compat.item_models import DISPLAY, FAILED_CELL, guarded
    from catalogue_desktop.ui.shell.faults import Faults

    class Broken(QAbstractTableModel):
        def rowCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:
            return 1

        def columnCount(self, parent: QModelIndex | QPersistentModelIndex | None = None) -> int:
            return 1

        @guarded
        def data(self, index: QModelIndex | QPersistentModelIndex, role: int = DISPLAY) -> object:
            raise ValueError("a fee the formatter cannot write")

    faults = Faults(lambda: None, FaultLog(tmp_path / "log"))
    faults.install()
    try:
        model = Broken()
        assert model.data(model.index(0, 0), DISPLAY) == FAILED_CELL
    finally:
        faults.uninstall()
    text = (tmp_path / "log" / fault_log.LOG_NAME).read_text(encoding="utf-8")
    assert "Broken.data() failed" in text and "ValueError: a fee the formatter cannot write" in text


def test_a_fault_after_its_window_was_deleted_is_logged_not_shown(tmp_path: Path, qapp: object) -> None:
    """A fault arriving (queued) after the window was closed and deleted: written to the log, not
    shown; asking the deleted window raised "Internal C++ object (MainWindow) already deleted" in
    the fault's display (seen once in a full run, in a later test's event processing)."""
    import shiboken6
    from PySide6.QtWidgets import QApplication, QWidget

    from catalogue_desktop.ui.shell.faults import Faults

    window = QWidget()
    faults = Faults(lambda: window, FaultLog(tmp_path / "log"))
    faults.report("a fault", "its details")  # (shown on a later loop pass)
    shiboken6.delete(window)
    QApplication.processEvents()  # (raised here before)
    assert faults.count == 0 and faults.dialog is None
    assert "a fault" in (tmp_path / "log" / fault_log.LOG_NAME).read_text(encoding="utf-8")


HOOKS_THEN_FOLDER = """
import json, os, sys
from PySide6.QtCore import QCoreApplication
from catalogue_desktop.ui.shell.faults import Faults

app = QCoreApplication([])
faults = Faults(lambda: None)
faults.install()
installed = "platformdirs" in sys.modules
path = str(faults.log.path)
print(json.dumps({"installed": installed, "then": "platformdirs" in sys.modules, "path": path}))
faults.uninstall()
"""


def test_the_hooks_are_installed_without_finding_the_log_folder(tmp_path: Path) -> None:
    """The hooks go in on the window's way to showing every cached row: the log's folder (and
    platformdirs, which finds it) when a fault is first written or the folder shown."""
    import json
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != fault_log.ENV_LOG_DIR}
    env["XDG_STATE_HOME"] = str(tmp_path / "state")
    done = subprocess.run(
        [sys.executable, "-c", HOOKS_THEN_FOLDER],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        check=True,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report == {
        "installed": False,
        "then": True,
        "path": str(tmp_path / "state" / "catalogue-desktop" / "log" / fault_log.LOG_NAME),
    }
