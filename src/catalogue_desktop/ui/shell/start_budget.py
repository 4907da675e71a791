"""The start-up budget: modules the window must not import before its first paint.

The cold start shows the first page of the current tab's cached rows; nothing else is needed
for that paint. Each round of features added an import to that path (history, offers, zones,
truststore) and each speed issue took it back once; this list makes the next one fail loudly.
``CATALOGUE_DESKTOP_EXIT_WHEN_READY`` (``ui.shell.app``) reports which of these were imported
when the first page was painted, ``tests/ui/shell/test_start_budget.py`` starts the shipped command
on a cached catalogue and fails on any, and ``bench/run.py`` prints them beside the cold-start
figures. docs/decisions.md ("Start-up and shutdown") explains the list.

A name covers the module and its submodules. Each entry says why the first page can do without it
and when it comes instead; an entry is taken out only with a measurement showing the first page
needs it.
"""

from __future__ import annotations

from collections.abc import Iterable

NOT_BEFORE_FIRST_PAINT: dict[str, str] = {
    # -- the network, which a cold start from the cache never touches before ``ready``
    "asyncio": "the event loop joins the Qt loop once every cached row is read (~50 ms with qasync)",
    "qasync": "with asyncio, after ``ready`` (qt_compat.event_loop.LateEventLoop)",
    "httpx": "the refresh's client, after ``ready``, a module at a time (ui.common.stepped_import)",
    "pydantic": "validation is the refresh's and the detail pane's (~150 ms), after ``ready``",
    "ssl": "TLS set-up (the OS's certificate store) is the refresh's, after ``ready``",
    "truststore": "TLS against the OS's certificate store: when the first connection is made",
    "catalogue_desktop.core.connection.tls": "TLS set-up: when the first connection is made",
    "catalogue_desktop.core.connection.proxies": "proxy machinery is the refresh's, after ``ready``",
    "catalogue_desktop.core.connection.desktop_proxies": "the desktop's proxy settings are the "
    "refresh's, after ``ready``",
    "keyring": "credentials are read when a connection needs them, never to show cached rows",
    "catalogue_desktop.core.connection.credentials": "credentials as headers: when a connection is made "
    "(a profile's address with a password in it reads it at once, to keep the password aside)",
    "catalogue_desktop.core.sync": "the refresh itself, after ``ready``",
    "catalogue_desktop.core.service": "the service's client: the refresh's, after ``ready``",
    "catalogue_desktop.core.records.models": "the records' pydantic models: the refresh's and the "
    "detail pane's",
    # -- what other screens and commands need, not the first page of rows
    "catalogue_desktop.core.records.history_words": "the history in words: the changes view and a "
    "record's history, when shown",
    "catalogue_desktop.ui.sync.changes_view": "the changes view, built when first shown",
    "catalogue_desktop.ui.detail.history_section": "a record's history, when its detail pane shows",
    "catalogue_desktop.core.offers": "the offers and their log: checked after a refresh, Go ▸ Offers",
    "catalogue_desktop.ui.offers.offer_log_window": "the offer log's window, opened from Go ▸ Offers",
    "catalogue_desktop.ui.offers.dates_tab": "the Dates tab, built when first shown",
    "catalogue_desktop.core.export": "exports (CSV, spreadsheets, JSON) run when asked for",
    "xlsxwriter": "spreadsheets (.xlsx) are written when asked for (core.export.spreadsheet)",
    "catalogue_desktop.core.formats.xlsx_book": "spreadsheets are written when asked for",
    "catalogue_desktop.ui.offers.sheet_pdf": "the offer sheet's PDF is laid out when asked for",
    "PySide6.QtPrintSupport": "the PDF writer: when a sheet is written",
    "icalendar": "the offers' .ics is written when asked for (~9 MB with its dependencies)",
    "catalogue_desktop.core.formats.ics": "the offers' .ics is written when asked for",
    "zoneinfo": "time zones and their data are read when a zone is first asked for",
    "tzdata": "zoneinfo's data where the system has none: when a zone is first asked for",
    "catalogue_desktop.ui.searches.watcher": "the watch of saved searches: made once the first page "
    "is painted (``AppSession._connect_watch``), at work from ``ready``",
    "catalogue_desktop.ui.searches.whats_new": "What's new, the watch's dock: made with it",
    "catalogue_desktop.core.searches": "the watched searches' news, worked out after ``ready``",
    "rapidfuzz": "quick-open's typo matches (core.query.quick), when it is first opened",
    "catalogue_desktop.core.query.lexicon": "the vocabulary of plain words, built off the GUI thread "
    "once the rows are read",
    "catalogue_desktop.core.query.reading": "plain words are read when the first query is typed",
    "catalogue_desktop.core.query.engine": "the finder's engine (~20 ms): the first query or "
    "the indexing after the rows are read",
    "catalogue_desktop.core.query.table": "the finder's tables and indexes, built in idle time "
    "once rows are read",
    "catalogue_desktop.ui.detail": "detail panes are built when a record is first selected",
    "catalogue_desktop.ui.finder.completion_list": "the query box's completion list (QListView, "
    "QWindow and their enums): made when completions are first offered",
    "concurrent.futures": "worker threads and processes (indexing, the vocabulary, the refresh) "
    "start after the first paint",
    "multiprocessing": "the refresh's ingest in worker processes, after ``ready``",
    "importlib.metadata": "the version string is read without it (~35 ms)",
    "catalogue_desktop.ui.shell.faults": "the fault hooks and their log: a loop pass after the first "
    "paint (``AppSession._populate``), not in the pass that paints it",
    "catalogue_desktop.ui.shell.fault_log": "the fault log: with the fault hooks, a loop pass after "
    "the first paint (its folder, and platformdirs, when a fault is first written or the folder shown)",
    "email": "mail and HTTP headers are the offers' and the refresh's",
    "dataclasses": "a dataclass is compiled at every start (~1.5 ms each): the records the start "
    "path reads (profiles, settings, snapshots, history, searches) are named tuples or plain classes",
    "hashlib": "OpenSSL's library loads with it: a removed record's body is hashed when a refresh "
    "keeps it (core.cache.record_history.keep_body)",
}


def too_early(modules: Iterable[str]) -> list[str]:
    """Of ``modules`` (names as in ``sys.modules``), those the budget says must wait for the first
    paint, sorted."""
    return sorted(name for name in modules if _kept_for_later(name))


def _kept_for_later(name: str) -> bool:
    """``name`` or a package it is in is on the list (its prefixes looked up, not the list
    scanned: the report is made inside the measured start-up)."""
    parts = name.split(".")
    return any(".".join(parts[:n]) in NOT_BEFORE_FIRST_PAINT for n in range(1, len(parts) + 1))
