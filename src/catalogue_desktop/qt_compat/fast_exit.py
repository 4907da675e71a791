"""Leaving the process without the interpreter's teardown (imports no PySide6: every command uses it).

``leave(code)`` ends the process once everything is closed: it runs the exit handlers (PySide6
destroys the QApplication in one, ``logging`` flushes in another), flushes stdout and stderr, and calls
``os._exit``. Why: the interpreter's own exit then tears down every module and object one by one
(docs/decisions.md, "Start-up and Qt"); ``multiprocessing`` ends its workers the same way. While a non-daemon
thread still runs, the interpreter's own exit is used: it waits for it. Measured on PySide6 6.11.3 (Python
3.11); ``tests/qt_compat/test_fast_exit.py`` shows it still does what it claims."""

from __future__ import annotations

import sys
from typing import NoReturn


def leave(code: int) -> NoReturn:
    """End the process with ``code``: exit handlers, flushed output, no teardown (see above)."""
    import atexit
    import os
    import threading

    main_thread = threading.main_thread()
    if any(t is not main_thread and not t.daemon and t.is_alive() for t in threading.enumerate()):
        sys.exit(code)
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:
                stream.flush()
        except (OSError, ValueError):  # a closed pipe, a closed stream: nothing left to say
            pass
    os._exit(code)
