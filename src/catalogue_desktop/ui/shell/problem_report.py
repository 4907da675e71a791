"""Help ▸ Report a problem…: what a person sends to whoever helps them, put on the clipboard:
the app's version, the platform, Python, Qt and PySide; the catalogue open; the connection
doctor's summary of it (``core.service.diagnosis``, on a worker thread with a short time limit,
never in offline mode: ``--offline`` contacts nothing; the last one when this one does not
finish in time); and the log's last lines. Every secret is taken out (``fault_log.redacted``:
user and password of addresses, tokens, passwords, authorization values).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication

import catalogue_desktop
from catalogue_desktop.core.connection.connection_settings import ConnectionSettings
from catalogue_desktop.ui.shell.fault_log import FaultLog, redacted

DOCTOR_SECONDS = 10.0  # the doctor's time in all; its steps each get half of it
POLL_MS = 100
LOG_LINES = 60


@dataclass(frozen=True)
class Catalogue:
    """The catalogue open, as the report names it."""

    name: str
    base_url: str | None  # None: the demo, served by the app itself
    settings: ConnectionSettings
    offline: bool


def doctor_summary(catalogue: Catalogue, timeout: float = DOCTOR_SECONDS / 2) -> str:
    """The doctor's report of ``catalogue`` as text (blocking: on a worker thread)."""
    import asyncio

    from catalogue_desktop.core.connection.resolved import Connection, resolve
    from catalogue_desktop.core.service.diagnosis import run_doctor

    assert catalogue.base_url is not None

    def connection_of(url: str) -> Connection:
        return resolve(url, catalogue.settings, profile=catalogue.name)

    return asyncio.run(run_doctor(catalogue.base_url, connection_of, timeout=timeout)).text()


def report_text(catalogue: Catalogue, doctor: str, log: FaultLog, log_lines: Sequence[str]) -> str:
    """The report, sections headed ``== … ==``, its secrets taken out."""
    import platform
    import sys

    import PySide6
    from PySide6.QtCore import qVersion

    where = catalogue.base_url or "the demo catalogue (served by the app itself)"
    sections = [
        "Catalogue Desktop problem report",
        "== Versions ==",
        f"Catalogue Desktop {catalogue_desktop.__version__}",
        f"Platform: {platform.platform()}",
        f"Python: {sys.version.split()[0]} ({platform.python_implementation()})",
        f"Qt: {qVersion()}, PySide6: {PySide6.__version__}",
        "== Catalogue ==",
        f"{catalogue.name}: {where}" + (" (offline mode)" if catalogue.offline else ""),
        "== Connection doctor ==",
        doctor,
        f"== Last lines of the log ({log.path}) ==",
        *(log_lines or ["(nothing logged)"]),
    ]
    return redacted("\n".join(sections)) + "\n"


class ProblemReport(QObject):
    """``start()`` gathers the report and puts it on the clipboard (``done``: its text)."""

    done = Signal(str)

    def __init__(self, catalogue_of: Callable[[], Catalogue], log: FaultLog) -> None:
        super().__init__()
        self._catalogue_of = catalogue_of
        self.log = log
        self._pool: ThreadPoolExecutor | None = None
        self._running: Future[str] | None = None
        self._started = 0.0
        self._catalogue: Catalogue | None = None
        self._last: tuple[str, str] | None = None  # (when, the doctor's summary) of the last run
        self._poll = QTimer(self)
        self._poll.setInterval(POLL_MS)
        self._poll.timeout.connect(self._check)

    @property
    def running(self) -> bool:
        return self._running is not None

    def start(self) -> None:
        if self._running is not None:
            return
        catalogue = self._catalogue = self._catalogue_of()
        if catalogue.offline:
            self._finish("not run: offline mode (--offline) contacts nothing")
        elif catalogue.base_url is None:
            self._finish("not run: the demo catalogue is served by the app itself")
        else:
            self._pool = self._pool or ThreadPoolExecutor(1, thread_name_prefix="problem-report")
            self._running = self._pool.submit(doctor_summary, catalogue)
            self._started = time.monotonic()
            self._poll.start()

    def _check(self) -> None:
        running = self._running
        if running is None:
            return
        if running.done():
            try:
                summary = running.result()
            except Exception as exc:  # the doctor says failures itself; this is its own error
                summary = f"the doctor could not run: {type(exc).__name__}: {exc}"
            else:
                self._last = (time.strftime("%Y-%m-%d %H:%M:%S"), summary)
        elif time.monotonic() - self._started > DOCTOR_SECONDS:
            summary = f"did not finish within {DOCTOR_SECONDS:g} s"
            if self._last is not None:
                summary += f"; the last one, at {self._last[0]}:\n{self._last[1]}"
        else:
            return
        self._poll.stop()
        self._running = None
        self._finish(summary)

    def _finish(self, doctor: str) -> None:
        assert self._catalogue is not None
        text = report_text(self._catalogue, doctor, self.log, self.log.last_lines(LOG_LINES))
        QApplication.clipboard().setText(text)
        self.done.emit(text)

    def close(self) -> None:
        self._poll.stop()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
