"""Freshness of the data: one status line for the whole catalogue, the collections one click away;
the banner.

The line (``headline``) says the catalogue's age in words ("Catalogue from 2 hours ago"), or,
when every collection failed, what failed and which copy is shown ("Offline — showing the copy from
…"), and what failed once per cause ("Courses and Webinars failed (service error)"); Try again
refreshes, Details shows the collections beneath it. (It was a 130 px block of eight terse lines,
"60 up to date", the age only in tooltips, and offline eight identical lines with sixteen buttons.)

Beneath, while Details is on, ``StatusPanel`` shows per collection what ``wording`` says for its
state: no cached data yet, from cache "as of <date> (<age>)", waiting for the service, receiving
(bytes and a bar), validating, up to date (and the records a refresh rejected), failed with what
failed (offline, service error, bad data...) and a Retry button, or cancelled. A line that does not
fit is shortened on screen; its tooltip has all of it, and its Details button opens it whole (with
every problem) with a Copy button. Above: a lasting notice (``show_notice``, with Dismiss) and,
while a refresh runs, Cancel. ``OfflineBanner`` (``banner``) is the bar across the window when
nothing could be refreshed.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import QDateTime, QLocale, Qt, QTimer, Signal
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import (
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from catalogue_desktop.core.cache.store import CollectionState
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.ui.common.labels import MouseSelectableLabel
from catalogue_desktop.ui.common.plain_text import plain_tooltip
from catalogue_desktop.ui.sync import wording
from catalogue_desktop.ui.sync.banner import OfflineBanner
from catalogue_desktop.ui.sync.wording import DateText, as_of, data_time, format_age, parse_time

if TYPE_CHECKING:
    from catalogue_desktop.core.sync.report import Cause
    from catalogue_desktop.core.sync.runner import CollectionOutcome
    from catalogue_desktop.ui.sync.status_details import StatusDetails

__all__ = ["DateText", "OfflineBanner", "StatusPanel", "as_of", "data_time", "format_age", "parse_time"]


def _local_date(ms: int) -> str:
    local = QDateTime.fromMSecsSinceEpoch(ms).toLocalTime()
    return QLocale().toString(local, QLocale.FormatType.ShortFormat)


_SHOWN = 100  # characters of a status line shown at most; the tooltip and the details have it all
_COLUMNS = 6  # per collection: name, bar, text, Details, Retry, a gap


class _ElidedLabel(MouseSelectableLabel):
    """A one-line label that ends in "…" where its text does not fit (rather than clipping it
    mid-letter); ``whole`` is the text it stands for."""

    def __init__(self, text: str = "") -> None:
        super().__init__(text)
        self.whole = text

    def set_whole(self, text: str) -> None:
        self.whole = text
        self._fit()

    def resizeEvent(self, event: QResizeEvent) -> None:  # (a handler, not an event filter: see qt_compat)
        super().resizeEvent(event)
        self._fit()

    def _fit(self) -> None:
        text = self.whole if len(self.whole) <= _SHOWN else self.whole[: _SHOWN - 1] + "…"
        fitted = self.fontMetrics().elidedText(text, Qt.TextElideMode.ElideRight, max(self.width(), 40))
        if fitted != self.text():
            self.setText(fitted)


class _Row:
    """A collection's line: what it says and which of its buttons and bar show. Its widgets
    (``_RowWidgets``) are made when the lines are first shown or one needs a button or its bar
    (a refresh, a failure): a start from the cache shows only the status line above them."""

    def __init__(self, kind: Kind) -> None:
        self.kind = kind
        self.full_text = ""
        self.extra = ""  # what the details add to the text (the problems)
        self.received: int | None = None
        self.shown = "not loaded"  # the line's text (the label shortens it to fit)
        self.tip = ""
        self.retry = False
        self.details = False
        self.busy = False
        self.bar: tuple[int, int, int] = (0, 0, 0)  # minimum, maximum, value
        self.widgets: _RowWidgets | None = None

    def needs_widgets(self) -> bool:
        return self.retry or self.details or self.busy

    def apply(self) -> None:
        """Show the state on the widgets, if they are made."""
        if (w := self.widgets) is None:
            return
        w.text.set_whole(self.shown)
        w.text.setToolTip(self.tip)
        w.retry.setVisible(self.retry)
        w.details.setVisible(self.details)
        w.bar.setVisible(self.busy)
        low, high, value = self.bar
        w.bar.setRange(low, high)
        if high:
            w.bar.setValue(value)


class _RowWidgets:
    def __init__(self, panel: StatusPanel, grid: QGridLayout, row: int, kind: Kind) -> None:
        self.name = QLabel(kind.label)
        self.text = _ElidedLabel("not loaded")
        self.text.setTextFormat(Qt.TextFormat.PlainText)  # reasons quote the service's text
        # Long reasons must not widen the window: the label shrinks, the tooltip has it all.
        self.text.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.text.setMinimumWidth(80)
        self.bar = QProgressBar()
        self.bar.setMaximumSize(120, 14)
        self.bar.setTextVisible(False)
        self.bar.hide()
        self.details = QPushButton("Details…")
        self.details.setObjectName(f"details-{kind.value}")
        self.details.hide()
        self.details.clicked.connect(lambda _checked=False: panel.show_details(kind))
        self.retry = QPushButton("Retry")
        self.retry.setObjectName(f"retry-{kind.value}")
        self.retry.hide()
        self.retry.clicked.connect(lambda _checked=False: panel.retry_requested.emit(kind))
        bold = self.name.font()  # (a QFont, not a style sheet: 8 of them cost ~1 ms to polish and paint)
        bold.setBold(True)
        self.name.setFont(bold)
        base = (row % 2) * _COLUMNS  # two collections per line: the panel stays four lines tall
        line = 1 + row // 2
        grid.addWidget(self.name, line, base)
        grid.addWidget(self.bar, line, base + 1)
        grid.addWidget(self.text, line, base + 2)
        grid.addWidget(self.details, line, base + 3)
        grid.addWidget(self.retry, line, base + 4)


class StatusPanel(QWidget):
    """One line per collection; emits ``retry_requested(kind)`` from its Retry buttons and
    ``cancel_requested`` from Cancel (shown while a collection is refreshing)."""

    retry_requested = Signal(object)
    refresh_requested = Signal()  # the line's Try again: every collection
    cancel_requested = Signal()

    def __init__(self, date_text: DateText = _local_date, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.date_text = date_text
        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 2, 8, 2)
        outer.setSpacing(2)
        head = QHBoxLayout()
        head.setContentsMargins(0, 0, 0, 0)
        self.line = _ElidedLabel()
        self.line.setObjectName("statusLine")
        self.line.setAccessibleName("Catalogue status")
        self.line.setTextFormat(Qt.TextFormat.PlainText)
        self.line.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.try_again = QPushButton("Try again")
        self.try_again.setObjectName("statusTryAgain")
        self.try_again.setToolTip("Refresh the catalogue from the service (F5)")
        self.try_again.hide()
        self.try_again.clicked.connect(lambda _checked=False: self.refresh_requested.emit())
        self.more = QPushButton("Details")
        self.more.setObjectName("statusMore")
        self.more.setCheckable(True)
        self.more.setToolTip("Each collection's status, with its reasons")
        self.more.toggled.connect(self._show_rows)
        head.addWidget(self.line, 1)
        head.addWidget(self.try_again)
        head.addWidget(self.more)
        outer.addLayout(head)
        self.rows = QWidget()
        self.rows.setObjectName("statusRows")
        self.rows.hide()
        outer.addWidget(self.rows)
        self._grid = grid = QGridLayout(self.rows)
        grid.setContentsMargins(0, 0, 0, 0)
        grid.setVerticalSpacing(2)
        top = QHBoxLayout()
        top.setContentsMargins(0, 0, 0, 0)
        self.message = MouseSelectableLabel(wordWrap=True)
        self.message.setObjectName("statusNotice")
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.message.hide()
        self.dismiss = QPushButton("Dismiss")
        self.dismiss.setObjectName("dismissNotice")
        self.dismiss.hide()
        self.dismiss.clicked.connect(lambda _checked=False: self.show_message(""))
        self.cancel = QPushButton("Cancel refresh")
        self.cancel.setObjectName("cancelRefresh")
        self.cancel.setToolTip("Stop the refresh; every collection keeps the data it has")
        self.cancel.hide()
        self.cancel.clicked.connect(lambda _checked=False: self.cancel_requested.emit())
        top.addWidget(self.message, 1)
        right = Qt.AlignmentFlag.AlignRight  # (alone on the line, a button keeps its size)
        top.addWidget(self.dismiss, 0, right)
        head.addWidget(self.cancel, 0, right)
        outer.insertLayout(0, top)
        self._rows = {kind: _Row(kind) for kind in ALL_KINDS}  # (their widgets: ``_lines``)
        self._states: dict[Kind, CollectionState] = {}
        self._status: dict[Kind, str] = {}
        self._causes: dict[Kind, Cause | None] = {}
        grid.setColumnStretch(2, 1)
        grid.setColumnStretch(_COLUMNS + 2, 1)
        grid.setColumnMinimumWidth(_COLUMNS - 1, 24)
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Maximum)  # (no taller)
        self._ageing = QTimer(self, interval=60_000)  # "2 hours ago" grows older
        self._ageing.timeout.connect(self._say)
        self._say()

    def headline(self) -> str:
        """The status line as a sentence (``wording.status_line``)."""
        return wording.status_line(
            {kind.label: self.status(kind) for kind in ALL_KINDS},
            {kind.label: self._causes.get(kind) for kind in ALL_KINDS},
            self.oldest_data_time(),
            self.date_text,
        )

    def _say(self) -> None:
        text = self.headline()
        self.line.set_whole(text)
        details = "\n".join(f"{kind.label}: {self.text(kind) or 'not loaded'}" for kind in ALL_KINDS)
        self.line.setToolTip(plain_tooltip(f"{text}\n\n{details}"))
        failed = any(self.status(kind) == "failed" for kind in ALL_KINDS)
        self.try_again.setVisible(failed and not self.cancel_visible())
        if any(self._states.get(kind) is not None for kind in ALL_KINDS) and not self._ageing.isActive():
            self._ageing.start()

    def _lines(self) -> dict[Kind, _RowWidgets]:
        """Each collection's widgets, made now if they were not yet (docs/decisions.md,
        "Start-up and Qt")."""
        for i, row in enumerate(self._rows.values()):
            if row.widgets is None:
                row.widgets = _RowWidgets(self, self._grid, i, row.kind)
                row.apply()
        return {kind: row.widgets for kind, row in self._rows.items() if row.widgets is not None}

    def _show_rows(self, shown: bool) -> None:
        if shown:
            self._lines()
        self.rows.setVisible(shown)
        self.more.setText("Hide details" if shown else "Details")
        self.updateGeometry()

    def text(self, kind: Kind) -> str:
        """The whole status text of ``kind`` (the label may show it shortened)."""
        return self._rows[kind].full_text

    def shown_text(self, kind: Kind) -> str:
        """What ``kind``'s line shows (shortened if it is long)."""
        return self._lines()[kind].text.text()

    def status(self, kind: Kind) -> str:
        """``loading`` / ``current`` / ``cached`` / ``failed`` / ``empty``."""
        return self._status.get(kind, "empty")

    def retry_visible(self, kind: Kind) -> bool:
        return self._rows[kind].retry

    def details_visible(self, kind: Kind) -> bool:
        return self._rows[kind].details

    def details_text(self, kind: Kind) -> str:
        """Everything about ``kind``'s status: its whole line, then any problems, one a line."""
        row = self._rows[kind]
        return f"{kind.label}: {row.full_text}" + (f"\n\n{row.extra}" if row.extra else "")

    def show_details(self, kind: Kind) -> StatusDetails:
        """The details dialog of ``kind`` (with Copy)."""
        from catalogue_desktop.ui.sync.status_details import show_details

        return show_details(self.window(), f"{kind.label} — status", self.details_text(kind))

    def show_message(self, text: str) -> None:
        """A lasting notice above the lines (until dismissed or replaced); "" hides it."""
        self.message.setText(text)
        self.message.setToolTip(plain_tooltip(text))
        self.message.setVisible(bool(text))
        self.dismiss.setVisible(bool(text))

    show_notice = show_message

    def notice(self) -> str:
        return self.message.text() if not self.message.isHidden() else ""

    def cancel_visible(self) -> bool:
        return not self.cancel.isHidden()

    def _set(
        self,
        kind: Kind,
        status: str,
        text: str,
        *,
        retry: bool = False,
        busy: bool = False,
        tip: str = "",
        extra: str = "",
        say: bool = True,
    ) -> None:
        row = self._rows[kind]
        self._status[kind] = status
        row.full_text = row.shown = text
        row.extra = extra
        row.tip = plain_tooltip(tip or text)
        row.retry = retry
        row.details = bool(extra) or status == "failed" or len(text) > _SHOWN
        row.busy = busy
        if busy:
            row.bar = (0, 0, 0)
        if row.widgets is None and row.needs_widgets():
            self._lines()
        row.apply()
        if status != "failed":
            self._causes.pop(kind, None)
        self.cancel.setVisible(any(s == "loading" for s in self._status.values()))
        if say:
            self._say()

    def set_cached(self, kind: Kind, state: CollectionState, *, say: bool = True) -> None:
        self._states[kind] = state
        status = "cached" if state.has_data else "empty"
        self._set(kind, status, wording.cached(state, self.date_text), say=say)

    def set_all_cached(self, states: Mapping[Kind, CollectionState]) -> None:
        """Every collection's cached state (the window starting): the status line said once."""
        for kind in ALL_KINDS:
            self.set_cached(kind, states[kind], say=False)
        self._say()

    def set_loading(self, kind: Kind) -> None:
        """Refreshing ``kind`` has begun: waiting for the service."""
        self._rows[kind].received = None
        self._set(kind, "loading", wording.WAITING, busy=True)

    def set_progress(self, kind: Kind, received: int, total: int | None) -> None:
        row = self._rows[kind]
        if self._status.get(kind) != "loading":
            return
        row.received = received
        row.full_text = row.shown = row.tip = wording.receiving(received, total)
        if total:
            row.bar = (0, 1000, min(1000, received * 1000 // max(total, 1)))
        row.apply()

    def set_phase(self, kind: Kind, phase: str) -> None:
        """``SyncController.phase``: "waiting" or "validating"."""
        if phase == "validating" and self._status.get(kind) == "loading":
            self._set(kind, "loading", wording.validating(self._rows[kind].received), busy=True)
        elif phase == "waiting" and self._status.get(kind) != "loading":
            self.set_loading(kind)

    def set_outcome(
        self, kind: Kind, outcome: CollectionOutcome, state: CollectionState | None = None
    ) -> None:
        if state is not None:
            self._states[kind] = state
        problems = "\n".join(wording.problem_lines(outcome.problems, outcome.rejected))
        if not outcome.failed:
            text = wording.done(outcome)
            tip = f"{text} {wording.as_of(outcome.checked_at, self.date_text)}"
            self._set(kind, "current", text, tip=tip, extra=problems)
            return
        text = wording.failed(outcome, self._states.get(kind), self.date_text)
        self._causes[kind] = outcome.cause or "error"
        self._set(kind, "failed", text, retry=True, extra=problems)

    def set_cancelled(self, kind: Kind, state: CollectionState) -> bool:
        """``kind``'s refresh was cancelled; ``state`` is what the store holds. True if that is
        another snapshot than the one shown (an ingest finished as the cancel came): reload it."""
        before = self._states.get(kind)
        self._states[kind] = state
        self._set(kind, "cached" if state.has_data else "empty", wording.cancelled(state, self.date_text))
        return before is None or before.snapshot != state.snapshot

    def summary(self) -> str:
        """What a refresh left, for the status bar: ``8 collections up to date``, ``6 collections
        up to date; Courses and Webinars failed``."""
        names = {
            "current": "up to date",
            "cached": "from cache",
            "loading": "refreshing",
            "empty": "not cached",
        }
        counts: dict[str, int] = {}
        failed: list[str] = []
        for kind in ALL_KINDS:
            status = self.status(kind)
            if status == "failed":
                failed.append(kind.label)
            else:
                counts[status] = counts.get(status, 0) + 1
        parts = [f"{n} collection{'s' if n != 1 else ''} {names[s]}" for s, n in counts.items()]
        if failed:
            parts.append(f"{wording.names(failed)} failed")
        return "; ".join(parts)

    def oldest_data_time(self) -> str | None:
        stamps = [data_time(s) for s in self._states.values() if s.has_data and data_time(s)]
        return min(stamps) if stamps else None  # type: ignore[type-var]
