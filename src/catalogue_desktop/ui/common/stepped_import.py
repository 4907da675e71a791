"""Heavy modules imported on the window's thread a module at a time, the event loop running
between them, instead of on a worker thread.

Measured (docs/decisions.md, "Start-up and Qt"): the refresh's modules (httpx, pydantic, the models) imported
on a worker thread froze the window while they loaded, a smaller ``sys.setswitchinterval`` did not cure it,
and no step below is long (``tests/ui/common/test_stepped_import.py`` checks the loop runs between them).

Each list names modules deepest first, so that importing one brings few others with it; a name
already imported costs nothing, one that is not installed is skipped.

What a step imported is frozen after it (``gc.freeze``: a module's objects live as long as the
process): else the next step's allocations started full collections of the cyclic GC over every
object the steps before it made. Measured (thread CPU, one process importing the lists in turn,
load ~7): the models' step 38-45 ms, 11-15 with each step frozen (10-11 with the GC off); the
lists 406 ms, 352 (issue 40: the models' step was one of a 10,000 refresh's longest gaps).
"""

from __future__ import annotations

import gc
import importlib
import sys
from collections.abc import Iterable, Iterator

# What a refresh imports (``core.sync.runner``: the client, httpx and its backends; the ingest's
# pydantic models). httpx imports its command line's click and rich when they are installed
# (a development environment has them).
_PYDANTIC = (
    "annotated_types",
    "pydantic_core.core_schema",
    "pydantic_core",
    "typing_inspection.introspection",
    "pydantic.errors",
    "pydantic",
    "zoneinfo",
    "pydantic._internal._validators",
    "pydantic._internal._generics",
    "pydantic._internal._config",
    "pydantic._internal._fields",
    "pydantic._internal._decorators",
    "secrets",
    "uuid",
    "pydantic.annotated_handlers",
    "pydantic.plugin",
    "pydantic._internal._mock_val_ser",
    "pydantic._internal._core_utils",
    "pydantic.json_schema",
    "pydantic.types",
    "pydantic.functional_validators",
    "pydantic._internal._generate_schema",
    "pydantic._internal._model_construction",
    "pydantic.fields",
    "pydantic.main",
    "pydantic.alias_generators",
    "pydantic.type_adapter",
    # pydantic looks for plugins (package metadata) as it builds its first validator
    "email.message",
    "importlib.resources",
    "csv",
    "importlib.metadata",
    "pydantic.plugin._loader",
    "catalogue_desktop.core.records.models",
    "catalogue_desktop.core.records.problems",
    "catalogue_desktop.core.records.decode",  # (then its validators, a model at a time: below)
)
DECODER = _PYDANTIC
# The app's own modules a step each (a test holds it); a package whose ``__init__`` imports all of
# its modules (httpx, httpcore, h11, click, anyio's backends) is one step, what it imports from
# elsewhere steps before it.
REFRESH = (
    "email.charset",
    "email.header",
    "calendar",
    "email.utils",
    "email._policybase",
    "email.feedparser",
    "email.parser",
    "email._encoded_words",
    "email.iterators",
    "http.client",
    "urllib.request",
    "copy",
    "h11",
    "typing_extensions",
    "anyio",
    "anyio._core._tasks",
    "anyio.lowlevel",
    "anyio._core._synchronization",
    "anyio._core._streams",
    "anyio._core._sockets",
    "anyio.streams.memory",
    "anyio.streams.stapled",
    "anyio.streams.tls",
    "anyio._backends._asyncio",
    "anyio.to_thread",
    "certifi",
    "httpcore",
    "httpcore._backends.anyio",
    "html.entities",
    "pygments.lexers._mapping",
    "pygments.util",
    "pygments.lexers",
    "pygments.token",
    "pygments.filters",
    "pygments.lexer",
    "pickle",
    "rich.color",
    "rich.style",
    "rich.default_styles",
    "rich.themes",
    "rich.segment",
    "rich.text",
    "rich.align",
    "rich._log_render",
    "rich.console",
    "fractions",
    "rich.table",
    "rich.live",
    "rich.spinner",
    "rich.progress",
    "rich.syntax",
    "platform",
    "click",
    "http.cookiejar",
    "idna",
    "httpx",
    *_PYDANTIC,
    "catalogue_desktop.core.listing.facts",
    "catalogue_desktop.core.sync.report",
    "catalogue_desktop.core.sync.ingest",
    "multiprocessing.context",
    "runpy",
    "multiprocessing.spawn",
    "multiprocessing.popen_spawn_posix",
    "multiprocessing.synchronize",
    "multiprocessing.resource_tracker",
    "multiprocessing.connection",
    "concurrent.futures.process",
    # what the connection is resolved with, and the client built with, on worker threads (a
    # keyring lookup; the TLS context): imported there, they held the window's loop by the GIL
    # and PySide's source probe (up to 69 ms at 10,000 webinars, bench/run.py --only stall)
    "catalogue_desktop.core.connection.credentials",
    "catalogue_desktop.core.connection.desktop_proxies",
    "catalogue_desktop.core.connection.proxies",
    "catalogue_desktop.core.connection.tls",
    "catalogue_desktop.core.connection.resolved",
    "catalogue_desktop.core.service.failures",
    "truststore",
    "catalogue_desktop.core.connection.proxy_failures",
    "catalogue_desktop.core.connection.probes",
    "catalogue_desktop.core.connection.refusals",
    "catalogue_desktop.core.service.download",
    "catalogue_desktop.core.service.priority",
    "catalogue_desktop.core.service.client",
    "catalogue_desktop.core.sync.workers",
    "catalogue_desktop.core.sync.runner",
)
RELIST = (*_PYDANTIC, "catalogue_desktop.core.sync.relist")
# What starting asyncio on the Qt loop imports after ``ready`` (``ui.shell.session``): ~65-70 ms of
# the window's CPU in one pass (a loaded machine), asyncio's own package ~30 of it: its standard
# library first, a step each, driven by Qt timers (no asyncio to await with yet).
ASYNC = ("concurrent.futures", "socket", "selectors", "subprocess", "ssl", "asyncio", "qasync")
# What the finder's indexer first builds a table with (``ui.finder.indexer``): ~30 ms in one step
# of its first job at start-up once the window is on screen (bench/run.py --only stall).
FINDER = (
    "dataclasses",
    "difflib",
    "catalogue_desktop.core.query.literals",
    "catalogue_desktop.core.query.fields",
    "catalogue_desktop.core.query.index",
    "catalogue_desktop.core.query.timeline",
    "catalogue_desktop.core.query.table",
    "catalogue_desktop.core.query.syntax",
    "catalogue_desktop.core.query.leaves",
    "catalogue_desktop.core.query.engine",
    "catalogue_desktop.core.query.withdrawn",
    # the lexicon and the reading of plain words (its rules, rapidfuzz's typo matches), first
    # needed once the tables are built: imported in one go then, ~64 ms (thread CPU, loaded
    # machine) in one gap of the window's loop during a 10,000 refresh (bench/run.py --only stall)
    "catalogue_desktop.core.query.lexicon",
    "rapidfuzz",
    "catalogue_desktop.core.query.rules",
    "catalogue_desktop.core.query.reading",
)


_DECODE = "catalogue_desktop.core.records.decode"


async def import_in_steps(names: Iterable[str]) -> None:
    """Import ``names`` in order on this (the loop's) thread, letting the loop run after each
    one that was not imported yet. When they name ``core.records.decode``, its validators are
    built after them, a model at a time (``core.records.models`` builds none as it is imported:
    all at once, the models step held the loop ~65 ms at a 10,000 refresh)."""
    import asyncio  # (here: the finder's indexer imports this module before the first paint)

    names = list(names)
    for _ in import_steps(names):
        await asyncio.sleep(0)
    if _DECODE in names:
        from catalogue_desktop.core.records.decode import build_validators

        for _ in build_validators():
            await asyncio.sleep(0)


def import_steps(names: Iterable[str]) -> Iterator[None]:
    """Import ``names`` in order, yielding after each one that was not imported yet (for a job
    run a step at a time by an idle timer: ``ui.finder.indexer``)."""
    for name in names:
        if name in sys.modules:
            continue
        try:
            importlib.import_module(name)
        except ImportError:  # an optional module that is not installed
            continue
        gc.freeze()  # (its objects kept out of every later collection: the module's doc)
        yield
