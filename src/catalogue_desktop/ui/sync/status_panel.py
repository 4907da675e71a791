"""Freshness of the data: one status line per collection, and the offline banner.

``StatusPanel`` shows per collection: loading (with bytes received), up to date, from cache
"as of <date> (<age>)", or failed with the reason and a Retry button. ``OfflineBanner`` is a
coloured bar across the top of the window when the service cannot be reached (or ``--offline``),
saying how old the shown data is.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from PySide6.QtCore import QDateTime, QLocale, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QWidget,
)

from catalogue_desktop.core.kinds import ALL_KINDS, Kind
from catalogue_desktop.core.store import CollectionState
from catalogue_desktop.ui.common.plain_text import plain_tooltip


def parse_time(stamp: str | None) -> datetime | None:
    """The store's ``2026-03-04T19:00:00Z`` stamps as aware datetimes."""
    if not stamp:
        return None
    if len(stamp) != 20 or not stamp.endswith("Z"):
        return None
    try:  # fromisoformat: strptime would import _strptime (2 ms) during start-up
        return datetime.fromisoformat(stamp[:-1]).replace(tzinfo=UTC)
    except ValueError:
        return None


def format_age(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 60:
        return "just now"
    for size, unit in ((86400 * 7, "week"), (86400, "day"), (3600, "hour"), (60, "minute")):
        if seconds >= size:
            n = seconds // size
            return f"{n} {unit}{'s' if n != 1 else ''} ago"
    return "just now"  # pragma: no cover


def _local_date(ms: int) -> str:
    local = QDateTime.fromMSecsSinceEpoch(ms).toLocalTime()
    return QLocale().toString(local, QLocale.FormatType.ShortFormat)


DateText = Callable[[int], str]  # epoch ms -> text (the window passes its Formatter's ``date``)


def as_of(stamp: str | None, date_text: DateText = _local_date, now: datetime | None = None) -> str:
    """``"as of 3/4/26 2:00 PM (3 hours ago)"`` in the user's locale and time zone."""
    when = parse_time(stamp)
    if when is None:
        return "age unknown"
    now = now or datetime.now(UTC)
    text = date_text(int(when.timestamp() * 1000))
    return f"as of {text} ({format_age((now - when).total_seconds())})"


def data_time(state: CollectionState) -> str | None:
    """When the cached copy was last known current: last contact, else when it was fetched."""
    return state.checked_at or state.fetched_at


_SHOWN = 100  # characters of a status line shown; the tooltip has all of it


class _Row:
    def __init__(self, panel: StatusPanel, grid: QGridLayout, row: int, kind: Kind) -> None:
        self.name = QLabel(kind.label)
        self.text = QLabel("not loaded")
        self.text.setTextFormat(Qt.TextFormat.PlainText)  # reasons quote the service's text
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        # Long reasons must not widen the window: the label shrinks, the tooltip has it all.
        self.text.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.text.setMinimumWidth(80)
        self.bar = QProgressBar(maximumWidth=120, maximumHeight=14, textVisible=False)
        self.bar.hide()
        self.retry = QPushButton("Retry")
        self.retry.setObjectName(f"retry-{kind.value}")
        self.retry.hide()
        self.retry.clicked.connect(lambda _checked=False: panel.retry_requested.emit(kind))
        self.name.setStyleSheet("font-weight: bold")
        self.full_text = ""
        base = (row % 2) * 5  # two collections per line: the panel stays four lines tall
        line = 1 + row // 2
        grid.addWidget(self.name, line, base)
        grid.addWidget(self.bar, line, base + 1)
        grid.addWidget(self.text, line, base + 2)
        grid.addWidget(self.retry, line, base + 3)


class StatusPanel(QWidget):
    """One line per collection; emits ``retry_requested(kind)`` from its Retry buttons."""

    retry_requested = Signal(object)

    def __init__(self, date_text: DateText = _local_date, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.date_text = date_text
        grid = QGridLayout(self)
        grid.setContentsMargins(8, 4, 8, 4)
        grid.setVerticalSpacing(2)
        self.message = QLabel(wordWrap=True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.hide()
        grid.addWidget(self.message, 0, 0, 1, 9)
        self._rows = {kind: _Row(self, grid, i, kind) for i, kind in enumerate(ALL_KINDS)}
        self._states: dict[Kind, CollectionState] = {}
        self._status: dict[Kind, str] = {}
        grid.setColumnStretch(2, 1)
        grid.setColumnStretch(7, 1)
        grid.setColumnMinimumWidth(4, 24)

    def text(self, kind: Kind) -> str:
        """The whole status text of ``kind`` (the label may show it shortened)."""
        return self._rows[kind].full_text

    def status(self, kind: Kind) -> str:
        """``loading`` / ``current`` / ``cached`` / ``failed`` / ``empty``."""
        return self._status.get(kind, "empty")

    def retry_visible(self, kind: Kind) -> bool:
        return not self._rows[kind].retry.isHidden()

    def show_message(self, text: str) -> None:
        self.message.setText(text)
        self.message.setVisible(bool(text))

    def _set(self, kind: Kind, status: str, text: str, *, retry: bool = False,
             busy: bool = False, tip: str = "") -> None:
        row = self._rows[kind]
        self._status[kind] = status
        row.full_text = text
        row.text.setText(text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…")
        row.text.setToolTip(plain_tooltip(tip or text))
        row.retry.setVisible(retry)
        row.bar.setVisible(busy)
        if busy:
            row.bar.setRange(0, 0)

    def set_cached(self, kind: Kind, state: CollectionState) -> None:
        self._states[kind] = state
        if state.has_data:
            text = f"{state.records:,} from cache {as_of(data_time(state), self.date_text)}"
            self._set(kind, "cached", text)
        else:
            self._set(kind, "empty", "no cached copy yet")

    def set_loading(self, kind: Kind) -> None:
        self._set(kind, "loading", "refreshing…", busy=True)

    def set_progress(self, kind: Kind, received: int, total: int | None) -> None:
        row = self._rows[kind]
        if self._status.get(kind) != "loading":
            return
        if total:
            row.bar.setRange(0, 1000)
            row.bar.setValue(min(1000, received * 1000 // max(total, 1)))
            row.text.setText(f"refreshing… {received / 1024:,.0f} of {total / 1024:,.0f} KiB")
        else:
            row.text.setText(f"refreshing… {received / 1024:,.0f} KiB")

    def set_outcome(self, kind: Kind, outcome: Any, state: CollectionState | None = None) -> None:
        if state is not None:
            self._states[kind] = state
        if outcome.status in ("updated", "unchanged", "partial"):
            text = f"{outcome.records:,} up to date"
            if outcome.rejected:
                text += f", {outcome.rejected:,} rejected records skipped"
            self._set(kind, "current", text, tip=f"{text} {as_of(outcome.checked_at, self.date_text)}")
            return
        reason = outcome.error or "unknown error"
        cached = self._states.get(kind)
        if cached is not None and cached.has_data:
            text = (f"refresh failed — {cached.records:,} from cache "
                    f"{as_of(data_time(cached), self.date_text)} — {reason}")
        else:
            text = f"refresh failed: {reason} — nothing cached yet"
        self._set(kind, "failed", text, retry=True)

    def set_offline_mode(self) -> None:
        for kind in ALL_KINDS:
            state = self._states.get(kind)
            if state is not None:
                self.set_cached(kind, state)

    def summary(self) -> str:
        counts: dict[str, int] = {}
        for kind in ALL_KINDS:
            status = self.status(kind)
            counts[status] = counts.get(status, 0) + 1
        names = {"current": "up to date", "cached": "from cache", "failed": "failed",
                 "loading": "refreshing", "empty": "not cached"}
        return ", ".join(f"{n} {names[s]}" for s, n in counts.items())

    def oldest_data_time(self) -> str | None:
        stamps = [data_time(s) for s in self._states.values() if s.has_data and data_time(s)]
        return min(stamps) if stamps else None  # type: ignore[type-var]


class OfflineBanner(QFrame):
    """A bar across the top of the window: offline, since when the data is, and Retry."""

    retry_requested = Signal()

    def __init__(self, date_text: DateText = _local_date, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.date_text = date_text
        self.setObjectName("offlineBanner")
        # Bold by style sheet, not a QFont: making QFont's enums costs ~1 ms of a start-up.
        self.setStyleSheet(
            "#offlineBanner { background: #fff3cd; border-bottom: 1px solid #e0c36c; }"
            "#offlineBanner QLabel { color: #5c4400; }"
            "#offlineBanner QLabel#offlineTitle { font-weight: bold; }"
        )
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        self.title = QLabel("Offline", objectName="offlineTitle")
        self.label = QLabel(wordWrap=True)  # the reason quotes the service: plain text only
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.retry = QPushButton("Try again")
        self.retry.clicked.connect(lambda _checked=False: self.retry_requested.emit())
        layout.addWidget(self.title)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.retry)
        self.hide()

    def text(self) -> str:
        """What the banner says, as one line."""
        return f"{self.title.text()} {self.label.text()}"

    def show_offline(self, reason: str, data_stamp: str | None, *, can_retry: bool = True) -> None:
        age = as_of(data_stamp, self.date_text) if data_stamp else "no cached data yet"
        self.label.setText(f"— {reason}. Showing the cached catalogue {age}.")
        self.retry.setVisible(can_retry)
        self.show()
