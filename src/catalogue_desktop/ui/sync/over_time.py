"""Preferences ▸ Over time: how often the window refreshes on its own, and how long and how much
of the catalogue's history is kept (``store.history.set_span_days``, ``set_budget_megabytes``:
the window and the command line share them, per catalogue). The settings are written at once;
what they no longer keep is forgotten on a thread of its own with its own connection
(``prune_later``), never on the window's: its deletes grow with the history kept."""

from __future__ import annotations

import logging
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFormLayout, QGroupBox, QSpinBox, QWidget

from catalogue_desktop.core.cache.store import utc_now
from catalogue_desktop.ui.common.settings import Settings
from catalogue_desktop.ui.sync.auto_sync import set_sync_hours, sync_hours

if TYPE_CHECKING:
    from catalogue_desktop.core.cache.record_history import History

log = logging.getLogger(__name__)


def prune_later(store_file: Path, now: str) -> None:
    """Forget, on a thread of its own, what the history's span and budget no longer keep at
    ``now`` (``History.prune``, in its own connection); best effort: a store busy or failing
    now is pruned by the next sync."""

    def work() -> None:
        from catalogue_desktop.core.cache.store import Store
        from catalogue_desktop.core.records.errors import CatalogueError

        try:
            with Store(store_file, busy_timeout=30.0) as store:
                store.history.prune(now)
        except CatalogueError as exc:
            log.warning("the history of %s was not pruned now (the next refresh will): %s", store_file, exc)

    threading.Thread(target=work, name="history-prune").start()


class OverTimeBox(QGroupBox):
    """The three settings (the history's two once ``show_history`` gives the catalogue's)."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__("Over time", parent)
        self._settings = settings
        self._history: History | None = None
        self._store_file: Path | None = None
        self._form = form = QFormLayout(self)
        self.hours = QSpinBox()
        self.hours.setRange(0, 168)
        self.hours.setSuffix(" hours")
        self.hours.setSpecialValueText("never")
        self.hours.setValue(round(sync_hours(settings)))
        self.hours.setAccessibleName("Refresh on its own every")
        form.addRow("Refresh on its own every:", self.hours)
        self.days: QSpinBox | None = None
        self.megabytes: QSpinBox | None = None

    def show_history(self, history: History | None, store_file: Path | None = None) -> None:
        """Offer the span of ``history`` (the open catalogue's ``store.history``; None: none),
        kept in ``store_file`` (pruned there on a thread once changed; None: by the next sync)."""
        if history is None or self.days is not None:
            return
        self._history = history
        self._store_file = store_file
        self.days = QSpinBox()
        self.days.setRange(1, 3650)
        self.days.setSuffix(" days")
        self.days.setValue(history.span_days)
        self.days.setAccessibleName("Keep each record's history for")
        self._form.addRow("Keep each record's history for:", self.days)
        self.megabytes = QSpinBox()
        self.megabytes.setRange(1, 100_000)
        self.megabytes.setSuffix(" MB")
        self.megabytes.setValue(history.budget_megabytes)
        self.megabytes.setAccessibleName("Keep at most this much history")
        self.megabytes.setToolTip(
            "Past this size the oldest changes are forgotten first; the last refresh's are always kept"
        )
        self._form.addRow("Keep at most:", self.megabytes)

    def save(self) -> None:
        set_sync_hours(self._settings, float(self.hours.value()))
        if self._history is None:
            return
        changed = False
        if self.days is not None and self.days.value() != self._history.span_days:
            self._history.set_span_days(self.days.value(), None)  # (pruned below, not here)
            changed = True
        if self.megabytes is not None and self.megabytes.value() != self._history.budget_megabytes:
            self._history.set_budget_megabytes(self.megabytes.value(), None)
            changed = True
        if changed and self._store_file is not None:
            prune_later(self._store_file, utc_now())
