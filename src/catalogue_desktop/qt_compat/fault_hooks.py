"""Where the window's own failures go: uncaught Python exceptions (the GUI thread's, which
include those raised in slots and in Qt virtual overrides such as ``paintEvent``, and other
threads') and Qt's critical and fatal messages, handed to one function.

Why here: PySide6 does not let an exception raised in a slot or an override end the process; it
hands it to ``sys.excepthook`` and goes on (measured on PySide6 6.11.3:
``tests/qt_compat/test_fault_hooks.py``), so the hook is where such a fault can be seen at all.
Qt's own messages reach Python only through ``qInstallMessageHandler``, whose previous handler
is ``None`` when it was Qt's default (then the message is written to stderr as Qt would).

``install(on_fault)`` chains to the hooks and handler that were there (stderr still gets the
traceback; pytest-qt still sees the exception) and returns the function that puts them back
(each only if it is still ours). ``on_fault(what, details)`` may be called on any thread and
must not raise; an error inside it is swallowed rather than reported again (no loop).
"""

from __future__ import annotations

import contextlib
import sys
import threading
from collections.abc import Callable
from types import TracebackType

from PySide6.QtCore import QMessageLogContext, QtMsgType, qInstallMessageHandler

Fault = Callable[[str, str], None]  # (what went wrong in one line, the details: a traceback)


def install(on_fault: Fault) -> Callable[[], None]:
    """Send uncaught exceptions and Qt's critical/fatal messages to ``on_fault`` (see the
    module); returns the function that uninstalls the hooks."""
    before_sys = sys.excepthook
    before_thread = threading.excepthook

    def tell(what: str, details: str) -> None:
        with contextlib.suppress(Exception):  # (the report itself failed: never a loop of reports)
            on_fault(what, details)

    def sys_hook(kind: type[BaseException], value: BaseException, tb: TracebackType | None) -> None:
        if not issubclass(kind, KeyboardInterrupt):
            tell(_one_line(kind, value), _traceback(kind, value, tb))
        before_sys(kind, value, tb)

    def thread_hook(args: threading.ExceptHookArgs) -> None:
        if args.exc_type is not SystemExit:
            where = f" (thread {args.thread.name})" if args.thread is not None else ""
            details = _traceback(args.exc_type, args.exc_value, args.exc_traceback)
            tell(_one_line(args.exc_type, args.exc_value) + where, details)
        before_thread(args)

    def qt_handler(mode: QtMsgType, context: QMessageLogContext, message: str) -> None:
        if mode in (QtMsgType.QtCriticalMsg, QtMsgType.QtFatalMsg):
            place = f" ({context.file}:{context.line})" if getattr(context, "file", None) else ""
            tell(f"Qt: {message}", f"Qt {mode.name}: {message}{place}")
        if before_qt is not None:
            before_qt(mode, context, message)
        else:
            sys.stderr.write(message + "\n")

    before_qt = qInstallMessageHandler(qt_handler)
    sys.excepthook = sys_hook
    threading.excepthook = thread_hook

    def uninstall() -> None:
        if sys.excepthook is sys_hook:
            sys.excepthook = before_sys
        if threading.excepthook is thread_hook:
            threading.excepthook = before_thread
        mine = qInstallMessageHandler(before_qt)
        if mine is not qt_handler:  # someone installed theirs on top: leave it
            qInstallMessageHandler(mine)

    return uninstall


def _one_line(kind: type[BaseException] | None, value: BaseException | None) -> str:
    name = kind.__name__ if kind is not None else "Error"
    text = str(value) if value is not None else ""
    return f"{name}: {text}" if text else name


def _traceback(
    kind: type[BaseException] | None, value: BaseException | None, tb: TracebackType | None
) -> str:
    import traceback  # (only once something went wrong)

    return "".join(traceback.format_exception(kind, value, tb))
