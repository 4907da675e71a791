"""The bar across the top of the window when no collection could be refreshed (or ``--offline``):
what is wrong (offline, no answer, service error, bad data...), how old the shown data is, Try
again and Details (the whole text, with each collection's reason, and a Copy button).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QWidget

from catalogue_desktop.ui.common.labels import MouseSelectableLabel
from catalogue_desktop.ui.common.plain_text import plain_tooltip
from catalogue_desktop.ui.sync import wording
from catalogue_desktop.ui.sync.wording import DateText

if TYPE_CHECKING:
    from catalogue_desktop.core.records.kinds import Kind
    from catalogue_desktop.core.sync.report import Cause
    from catalogue_desktop.core.sync.runner import CollectionOutcome
    from catalogue_desktop.ui.sync.status_details import StatusDetails


class OfflineBanner(QFrame):
    """A bar across the top of the window: what failed, since when the data is, and Retry."""

    retry_requested = Signal()

    def __init__(self, date_text: DateText, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.date_text = date_text
        self.setObjectName("offlineBanner")
        self._dark: bool | None = None
        self.follow_scheme()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(10, 6, 10, 6)
        self.title = QLabel("Offline")
        self.title.setObjectName("offlineTitle")
        self.label = MouseSelectableLabel(wordWrap=True)  # the reason quotes the service: plain text only
        self.label.setTextFormat(Qt.TextFormat.PlainText)
        self.details = QPushButton("Details…")
        self.details.setObjectName("bannerDetails")
        self.details.clicked.connect(lambda _checked=False: self.show_details())
        self.retry = QPushButton("Try again")
        self.retry.clicked.connect(lambda _checked=False: self.retry_requested.emit())
        layout.addWidget(self.title)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.details)
        layout.addWidget(self.retry)
        self._details = ""
        self.hide()

    def follow_scheme(self) -> None:
        """Amber on the light scheme, dark amber on the dark one (text AA on both); the window
        calls it again when the app's palette changes."""
        from PySide6.QtWidgets import QApplication

        from catalogue_desktop.ui.common.colors import is_dark

        dark = is_dark(QApplication.palette())  # (its own palette is the style sheet's amber)
        if dark == self._dark:
            return
        self._dark = dark
        background, border, text = (
            ("#4a3b0b", "#7a6420", "#ffe6a3") if dark else ("#fff3cd", "#e0c36c", "#5c4400")
        )
        # Bold by style sheet, not a QFont: making QFont's enums costs start-up time.
        self.setStyleSheet(
            f"#offlineBanner {{ background: {background}; border-bottom: 1px solid {border}; }}"
            f"#offlineBanner QLabel {{ color: {text}; }}"
            "#offlineBanner QLabel#offlineTitle { font-weight: bold; }"
        )

    def text(self) -> str:
        """What the banner says, as one line."""
        return f"{self.title.text()} {self.label.text()}"

    def details_text(self) -> str:
        """The whole story: the banner's line, then each collection's reason."""
        return self._details or self.text()

    def _show(self, title: str, text: str, details: str, *, can_retry: bool) -> None:
        self.title.setText(title)
        self.label.setText(text)
        self._details = details
        self.label.setToolTip(plain_tooltip(details or self.text()))
        self.details.setVisible(bool(details))  # (else the label, wrapped, shows it all)
        self.retry.setVisible(can_retry)
        self.show()

    def show_offline(
        self, reason: str, data_stamp: str | None, *, can_retry: bool = True, cause: Cause | None = "offline"
    ) -> None:
        """The service could not be used for ``reason`` (a ``core.sync.runner`` failure ``cause``)."""
        title, text = wording.banner(cause, reason, data_stamp, self.date_text)
        self._show(title, text, "", can_retry=can_retry)

    def show_failure(
        self, outcomes: Iterable[tuple[Kind, CollectionOutcome]], data_stamp: str | None
    ) -> None:
        """Every collection failed: ``outcomes`` are (Kind, CollectionOutcome) pairs."""
        pairs = list(outcomes)
        cause = wording.common_cause(o for _, o in pairs)
        title, text = wording.banner(cause, pairs[0][1].error or "", data_stamp, self.date_text)
        lines = [f"{title} {text}", ""]
        said: dict[str | None, str] = {}  # a failure all share (a refused certificate) said once
        for kind, o in pairs:
            first = said.setdefault(o.error, kind.label)
            lines.append(
                f"{kind.label}: " + (wording.failure(o) if first == kind.label else f"the same as {first}")
            )
        self._show(title, text, "\n".join(lines), can_retry=True)

    def show_offline_mode(self, data_stamp: str | None) -> None:
        title, text = wording.offline_mode(data_stamp, self.date_text)
        self._show(title, text, "", can_retry=False)

    def show_details(self) -> StatusDetails:
        from catalogue_desktop.ui.sync.status_details import show_details

        return show_details(self.window(), self.title.text(), self.details_text())
