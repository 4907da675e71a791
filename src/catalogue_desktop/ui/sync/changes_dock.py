"""The Changes dock: what the last refresh changed, per collection (``changes_view``). The view
is made when the dock first shows (or is asked for): start-up builds none of it; changes given
before are kept for it."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QDockWidget, QWidget

from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance

    from catalogue_desktop.core.cache.store import Store
    from catalogue_desktop.core.query.engine import Finder
    from catalogue_desktop.core.query.syntax import Parsed
    from catalogue_desktop.ui.sync.changes_view import ChangesView, HistoryOf, MatchingOf


class QueryFinder(Protocol):
    """The window's finder as the Changes dock is narrowed by its query
    (``ui.finder.controller.FinderController``)."""

    @property
    def engine_if_made(self) -> Finder | None: ...
    @property
    def parsed(self) -> Parsed | None: ...
    @property
    def evaluated(self) -> SignalInstance: ...  # the query's results brought up to date


class ChangesDock(QDockWidget):
    record_activated = Signal(object, int)  # Kind, record id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("Changes", parent)
        self.setObjectName("dock-changes")
        self.setWidget(QWidget())
        self.setMinimumWidth(280)  # (docked under the tables: ``ui.common.panels``)
        self._view: ChangesView | None = None
        self._pending: dict[Kind, tuple[dict[str, Any] | None, Callable[[Kind, int], str | None]]] = {}
        self._history: tuple[HistoryOf, MatchingOf] | None = None  # ``use_history``
        self._copy: str | None = None  # ``refreshed``
        self.visibilityChanged.connect(lambda visible: visible and self.view)

    @property
    def view(self) -> ChangesView:
        """The changes view (made on first use)."""
        if self._view is None:
            from catalogue_desktop.ui.sync.changes_view import ChangesView

            view = self._view = ChangesView()
            view.record_activated.connect(self.record_activated)
            if self._history is not None:
                view.use_history(*self._history)
            if self._copy is not None:
                view.refreshed(self._copy)
            for kind, (changes, title) in self._pending.items():
                view.set_changes(kind, changes, title)
            self._pending.clear()
            placeholder = self.widget()
            self.setWidget(view)
            placeholder.deleteLater()
        return self._view

    def set_changes(
        self, kind: Kind, changes: dict[str, Any] | None, title: Callable[[Kind, int], str | None]
    ) -> None:
        """Show what the last refresh changed in ``kind`` (kept for later if the view is not
        made yet)."""
        if self._view is None:
            self._pending[kind] = (changes, title)
        else:
            self._view.set_changes(kind, changes, title)

    def refreshed(self, copy: str) -> None:
        """A refresh compared the catalogue with the copy ``copy`` (``ChangesView.refreshed``)."""
        self._copy = copy
        if self._view is not None:
            self._view.refreshed(copy)

    def use_history(self, history: HistoryOf, matching: MatchingOf) -> None:
        """Let the panel show periods of the history, narrowed by the query (``ChangesView``)."""
        self._history = (history, matching)
        if self._view is not None:
            self._view.use_history(history, matching)

    def query_changed(self) -> None:
        """The query changed: a panel narrowed by it follows."""
        if self._view is not None and self._view.period.narrow.isChecked():
            self._view.show_period()


def connect_changes(dock: ChangesDock, store: Callable[[], Store], finder: QueryFinder) -> None:
    """The Changes dock over the store's history: periods, narrowed by the finder's query."""
    dock.use_history(
        lambda kind, start, end: store().history.since(kind, start, end), lambda kind: matching(finder, kind)
    )
    finder.evaluated.connect(dock.query_changed)


def matching(finder: QueryFinder, kind: Kind) -> set[int] | None:
    """The ids of ``kind`` the window's query finds (None: no query, or no table yet)."""
    engine, parsed = finder.engine_if_made, finder.parsed
    if engine is None or parsed is None or parsed.root is None or kind.value not in engine.tables:
        return None
    from catalogue_desktop.core.query import bits
    from catalogue_desktop.core.searches.stored import local_now

    outcome = engine.evaluate(parsed, kind.value, local_now())
    if outcome.missing is not None:
        return set()
    return set(bits.pick(engine.tables[kind.value].ids, outcome.bits))


def copy_compared(store: Store) -> str:
    """The copy a refresh compared the service's catalogue with, in words: "from 2 hours ago"
    (the oldest collection's last change)."""
    from datetime import UTC, datetime

    from catalogue_desktop.ui.sync.wording import format_age, parse_time

    stamps = [when for kind in ALL_KINDS if (when := parse_time(store.state(kind).fetched_at)) is not None]
    if not stamps:
        return "kept before"
    age = format_age((datetime.now(UTC) - min(stamps)).total_seconds())
    return "made just now" if age == "just now" else f"from {age}"
