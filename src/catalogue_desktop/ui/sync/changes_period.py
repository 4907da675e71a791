"""The Changes panel over the history: which period it shows (the last refresh, the last 7 or 30
days, or a chosen range of days) and whether the query narrows it; and a period's history events
merged into the summary the panel shows (one entry per record)."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from PySide6.QtCore import QDate, Signal
from PySide6.QtWidgets import QCheckBox, QComboBox, QDateEdit, QHBoxLayout, QWidget

from catalogue_desktop.core.cache.record_history import Event

LAST_REFRESH = "last"
PERIODS = ((LAST_REFRESH, "Last refresh"), ("7", "Last 7 days"), ("30", "Last 30 days"), ("range", "Days…"))


def merge(events: Iterable[tuple[int, Event]]) -> dict[str, Any]:
    """Events (record id, ``record_history.Event``), oldest first, as one summary: a record added in the
    period is "added" (whatever changed after), one removed last is "removed", else "changed"
    with each field's first old and last new value."""
    state: dict[int, str] = {}
    fields: dict[int, dict[str, list[Any]]] = {}
    for rid, event in events:
        if event.change == "added" or (event.change == "changed" and state.get(rid) == "added"):
            state[rid] = "added"
        elif event.change == "removed":
            state[rid] = "gone-after-added" if state.get(rid) == "added" else "removed"
        else:
            state[rid] = "changed"
            merged = fields.setdefault(rid, {})
            for path, (old, new) in event.fields.items():
                merged[path] = [merged[path][0] if path in merged else old, new]
    return {
        "added": [rid for rid, s in state.items() if s == "added"],
        "removed": [rid for rid, s in state.items() if s == "removed"],
        "changed": [
            {"id": rid, "fields": {p: v for p, v in fields[rid].items() if v[0] != v[1]}}
            for rid, s in state.items()
            if s == "changed" and any(v[0] != v[1] for v in fields[rid].values())
        ],
    }


def narrowed(summary: dict[str, Any], matching: set[int] | None) -> dict[str, Any]:
    """``summary`` for the records the query finds (``matching``; None: no query): withdrawn
    records are not in the catalogue the query searches, so they go too."""
    if matching is None:
        return summary
    return {
        "added": [rid for rid in summary["added"] if rid in matching],
        "removed": [],
        "changed": [entry for entry in summary["changed"] if entry["id"] in matching],
    }


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


class PeriodBar(QWidget):
    """The period chooser and the "as the query narrows it" tick."""

    changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        self.period = QComboBox()
        self.period.setAccessibleName("Changes in")
        for key, label in PERIODS:
            self.period.addItem(label, key)
        today = QDate.currentDate()
        self.first = QDateEdit(today.addDays(-30))
        self.first.setAccessibleName("From day")
        self.last = QDateEdit(today)
        self.last.setAccessibleName("To day")
        self.narrow = QCheckBox("Only what the query finds")
        self.narrow.setToolTip("Show only the changed records the query in the search box finds")
        for edit in (self.first, self.last):
            edit.setCalendarPopup(True)
        for widget in (self.period, self.first, self.last, self.narrow):
            row.addWidget(widget)
        row.addStretch(1)
        self.period.currentIndexChanged.connect(self._period_changed)
        for edit in (self.first, self.last):
            edit.dateChanged.connect(lambda _d: self.changed.emit())
        self.narrow.toggled.connect(lambda _on: self.changed.emit())
        self._period_changed()

    @property
    def key(self) -> str:
        return str(self.period.currentData())

    def _period_changed(self) -> None:
        ranged = self.key == "range"
        self.first.setVisible(ranged)
        self.last.setVisible(ranged)
        self.changed.emit()

    def span(self, now: datetime | None = None) -> tuple[str, str | None] | None:
        """The period as (start, end) ISO 8601 UTC (end None: up to now); None: the last refresh."""
        key = self.key
        if key == LAST_REFRESH:
            return None
        now = now or datetime.now().astimezone()
        if key == "range":
            first_day: date = self.first.date().toPython()  # type: ignore[assignment]
            last_day: date = self.last.date().toPython()  # type: ignore[assignment]
            first, after = _local_midnight(first_day), _local_midnight(last_day + timedelta(days=1))
            return _iso(first), _iso(after)
        return _iso(now - timedelta(days=int(key))), None

    def describe(self) -> str:
        """The period in words, for the panel's summary."""
        if self.key == "range":
            days = (edit.date().toString("d MMM yyyy") for edit in (self.first, self.last))
            return "from {} to {}".format(*days)
        return str(self.period.currentText()).lower().replace("last", "in the last", 1)


def _local_midnight(day: date) -> datetime:
    return datetime.combine(day, time()).astimezone()
