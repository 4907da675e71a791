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
    """Run the calling process ``BACKGROUND_NICENESS`` below the process that started it (a worker
    process's initializer). A process born that low already stays as it is: on Linux a child
    inherits the niceness of the thread that started it, so a worker started from a thread
    lowered by ``lower_thread`` runs low from its first instruction (its interpreter's start and
    imports, ~70 ms of CPU each, included), not from its initializer on."""
    with contextlib.suppress(OSError, AttributeError):
        if sys.platform == "win32":
            import ctypes

            kernel32 = ctypes.windll.kernel32  # type: ignore[attr-defined]
            kernel32.SetPriorityClass(kernel32.GetCurrentProcess(), 0x4000)  # BELOW_NORMAL
        else:
            # (the parent's niceness is its main thread's: on Linux a thread id is a process id)
            wanted = min(19, os.getpriority(os.PRIO_PROCESS, os.getppid()) + BACKGROUND_NICENESS)
            own = os.getpriority(os.PRIO_PROCESS, 0)
            if own < wanted:
                os.nice(wanted - own)


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
