"""Preferences ▸ Over time: how often the window refreshes on its own, and how long and how much
of the catalogue's history is kept (``store.history.set_span_days``, ``set_budget_megabytes``:
the window and the command line share them, per catalogue)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtWidgets import QFormLayout, QGroupBox, QSpinBox, QWidget

from catalogue_desktop.core.cache.store import utc_now
from catalogue_desktop.ui.common.settings import Settings
from catalogue_desktop.ui.sync.auto_sync import set_sync_hours, sync_hours

if TYPE_CHECKING:
    from catalogue_desktop.core.cache.record_history import History


class OverTimeBox(QGroupBox):
    """The three settings (the history's two once ``show_history`` gives the catalogue's)."""

    def __init__(self, settings: Settings, parent: QWidget | None = None) -> None:
        super().__init__("Over time", parent)
        self._settings = settings
        self._history: History | None = None
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

    def show_history(self, history: History | None) -> None:
        """Offer the span of ``history`` (the open catalogue's ``store.history``; None: none)."""
        if history is None or self.days is not None:
            return
        self._history = history
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
        if self.days is not None and self.days.value() != self._history.span_days:
            self._history.set_span_days(self.days.value(), utc_now())
        if self.megabytes is not None and self.megabytes.value() != self._history.budget_megabytes:
            self._history.set_budget_megabytes(self.megabytes.value(), utc_now())
