"""The sync's worker processes end with the process that started them, however it ends.

Measured before: ``kill -9`` of ``catalogue-desktop sync`` (or of the window) during a refresh left
its two ingest workers and multiprocessing's resource tracker behind, idle forever (3 processes
per kill). A ``ProcessPoolExecutor`` worker waits for work on a pipe whose write end every worker
holds too (the call queue is handed to each child whole), so it never reads end-of-file when the
parent dies; the resource tracker exits only once every holder of its own pipe is gone, the workers
included. So each worker, as it starts (``init_worker``, the pool's initializer):

* on Linux asks the kernel for SIGKILL when its parent goes (``PR_SET_PDEATHSIG``): immediate,
  even while a validation holds the GIL for seconds. The signal comes when the *thread* that
  started the worker ends, so ``core.sync.runner.Ingestor`` starts its workers from a thread of its own
  that lives as long as the pool (or from the event loop's thread), never from a pooled thread;
* everywhere (macOS and Windows have no such signal) watches its parent from a daemon thread:
  ``multiprocessing.parent_process().sentinel`` (the read end of a pipe only the parent writes
  to; on Windows the parent's process handle) is ready the moment the parent is gone, and the
  worker then leaves with ``os._exit``. No polling; it needs the GIL, so a long validation
  delays it.

The resource tracker then sees its pipe close and exits by itself (tests/core/sync/test_orphans.py counts).

What a worker runs is here too (``warm_up``, ``run_ingest``), not in ``core.sync.runner``: a worker
imports the module of each function it is given, and the runner's imports (httpx, the client: 70 ms
of CPU) are no use to it.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import sys
import threading
from multiprocessing.connection import wait
from pathlib import Path

from catalogue_desktop.core.service.priority import lower_process
from catalogue_desktop.core.sync.report import IngestReport

PARENT_GONE = 70  # a worker's exit status when it ended because its parent had gone
_PR_SET_PDEATHSIG = 1


def init_worker() -> None:
    """A sync worker's initializer: below normal priority, and ends when its parent does."""
    lower_process()
    die_with_parent()


def die_with_parent(*, kernel_signal: bool = True, watch: bool = True) -> bool:
    """End this process when the process that started it ends: by the kernel's parent-death
    signal (Linux) and by a watching thread (see the module's docstring; the switches are for
    the tests, which try each alone). False if multiprocessing did not start this process."""
    parent = multiprocessing.parent_process()
    if parent is None:
        return False
    if kernel_signal and sys.platform.startswith("linux"):
        _parent_death_signal()
    if watch:
        sentinel = parent.sentinel

        def watching() -> None:
            wait([sentinel])
            os._exit(PARENT_GONE)

        # (a parent gone before the kernel's signal was asked for: its sentinel is ready already)
        threading.Thread(target=watching, name="catalogue-parent-watch", daemon=True).start()
    return True


def _parent_death_signal() -> None:
    import ctypes
    import signal

    with contextlib.suppress(OSError, AttributeError):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)


def warm_up() -> None:
    """A worker's first job: import the ingest (pydantic, the models) and build the validators."""
    import catalogue_desktop.core.sync.ingest  # noqa: F401
    from catalogue_desktop.core.records.decode import ready

    ready()


def run_ingest(
    store_file: str, kind: str, body: Path, etag: str | None, last_modified: str | None, checked_at: str
) -> IngestReport:
    """``core.sync.ingest.ingest``, imported where it runs: the sync's own process imports pydantic
    and builds the models' validators only if a small payload is stored there, in a thread."""
    from catalogue_desktop.core.sync.ingest import ingest

    return ingest(store_file, kind, body, etag, last_modified, checked_at)
