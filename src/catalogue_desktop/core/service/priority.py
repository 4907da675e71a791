"""Lower CPU priority for background work, so that the window's thread gets a CPU first.

With two cores, busy decoders and a thread writing a download to disk kept the window's thread
waiting for a CPU for tens of ms during a big refresh. Best effort: a failure leaves the priority
as it was.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading

BACKGROUND_NICENESS = 10  # how much lower background work runs (POSIX nice)


def lower_process() -> None:
    """Run the calling process below normal priority (a worker process's initializer)."""
    with contextlib.suppress(OSError, AttributeError):
        if sys.platform == "win32":
            import ctypes

            kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
            kernel32.SetPriorityClass(kernel32.GetCurrentProcess(), 0x4000)  # BELOW_NORMAL
        else:
            os.nice(BACKGROUND_NICENESS)


def lower_thread() -> None:
    """Run the calling thread below normal priority, the rest of its process unchanged (Linux and
    Windows; elsewhere priority is per process, and this does nothing)."""
    with contextlib.suppress(OSError, AttributeError):
        if sys.platform.startswith("linux"):  # a thread's id is a PRIO_PROCESS target of its own
            tid = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, tid, os.getpriority(os.PRIO_PROCESS, tid) + BACKGROUND_NICENESS)
        elif sys.platform == "win32":
            import ctypes

            kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
            kernel32.SetThreadPriority(kernel32.GetCurrentThread(), -1)  # BELOW_NORMAL
