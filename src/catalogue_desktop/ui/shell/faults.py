"""When something breaks anyway: every uncaught exception (a slot's, a paint's, a task's, a
thread's) and Qt's critical messages are written to the log (``fault_log``) and shown in one
"Something went wrong" window, with Copy details and where the log is; the main window stays up.

The same fault again (a paint that fails does so at every paint) updates the window's count
instead of opening another; the dialog is shown on a later pass of the event loop, never from
inside the paint or slot that failed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import QWidget

from catalogue_desktop.qt_compat.lifetime import is_alive
from catalogue_desktop.ui.shell.fault_log import FaultLog

if TYPE_CHECKING:
    from catalogue_desktop.ui.shell.fault_dialog import FaultDialog


class Faults(QObject):
    """The hooks (``qt_compat.fault_hooks``) wired to the log and the dialog, for the window
    ``window_of()`` returns (None: not made yet, or closed: logged only)."""

    arrived = Signal(str, str)

    def __init__(self, window_of: Callable[[], QWidget | None], log: FaultLog | None = None) -> None:
        super().__init__()
        self.log = log or FaultLog()
        self._window_of = window_of
        self.dialog: FaultDialog | None = None
        self.count = 0
        self._uninstall: Callable[[], None] | None = None
        self.arrived.connect(self._show, Qt.ConnectionType.QueuedConnection)

    def install(self) -> None:
        from catalogue_desktop.qt_compat.fault_hooks import install

        if self._uninstall is None:
            undo_hooks, undo_logging = install(self.report), _log_errors_to(self.log)

            def uninstall() -> None:
                undo_logging()
                undo_hooks()

            self._uninstall = uninstall

    def uninstall(self) -> None:
        uninstall, self._uninstall = self._uninstall, None
        if uninstall is not None:
            uninstall()
        self.log.close()

    def report(self, what: str, details: str) -> None:
        """Log a fault and show it (from any thread; shown on the GUI thread, later)."""
        self.log.write(what, details)
        self.arrived.emit(what, details)

    def _show(self, what: str, details: str) -> None:
        window = self._window_of()
        # (a fault that arrives after its window was closed and deleted is in the log, not shown:
        # asking the deleted window raised in the fault's own display, a fault of its own)
        if window is None or not is_alive(window) or not window.isVisible():
            return
        self.count += 1
        if self.dialog is None:
            from catalogue_desktop.ui.shell.fault_dialog import FaultDialog  # (its widgets: when needed)

            self.dialog = FaultDialog(window, str(self.log.path))
        self.dialog.show_fault(what, details, self.count)
        self.dialog.show()
        self.dialog.raise_()


def _log_errors_to(log: FaultLog) -> Callable[[], None]:
    """Errors the app's own code logs (``logging``, under ``catalogue_desktop``: a table cell that
    could not be shown, ``qt_compat.item_models.guarded``) written to the fault log too, without
    the dialog (the cell says it); returns the undo."""
    import logging

    class ToFaultLog(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            what = record.getMessage()
            exc = record.exc_info
            details = logging.Formatter().formatException(exc) if exc else what
            log.write(what, details)

    handler = ToFaultLog(logging.ERROR)
    logger = logging.getLogger("catalogue_desktop")
    logger.addHandler(handler)
    return lambda: logger.removeHandler(handler)
