"""The count beside a tab's rows: "240 courses", "12 of 240", "loading 3,000 of 10,000"."""

from __future__ import annotations

from PySide6.QtCore import QLocale, Qt
from PySide6.QtWidgets import QLabel


class CountLabel(QLabel):
    """A fixed-size label, wide enough for its longest text up to 999,999 records ("loading
    888,888 of 888,888"): a fixed-size label's new text repaints only the label, where one sized
    to its text laid out the tab again (and resized and repainted the filter line) on every count
    that changed width."""

    def __init__(self, noun: str, singular: str, name: str) -> None:
        super().__init__()
        self._noun, self._singular = noun, singular
        self.setObjectName(name)
        self.setAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        self._fix_width()

    def show_counts(self, visible: int, total: int, *, loading: bool, filtered: bool) -> None:
        locale = QLocale()
        if loading:
            text = f"loading {locale.toString(visible)} of {locale.toString(total)}"
        elif visible == total and not filtered:
            noun = self._singular if total == 1 else self._noun
            text = f"{locale.toString(total)} {noun}"
        else:
            text = f"{locale.toString(visible)} of {locale.toString(total)}"
        if self.fontMetrics().horizontalAdvance(text) > self.contentsRect().width():
            self._fix_width(text)  # millions of records: wider, once
        self.setText(text)

    def _fix_width(self, text: str = "") -> None:
        big = QLocale().toString(888_888)
        metrics = self.fontMetrics()
        width = max(
            metrics.horizontalAdvance(f"{big} {self._noun}"),
            metrics.horizontalAdvance(f"loading {big} of {big}"),
            metrics.horizontalAdvance(text),
        )
        self.setFixedSize(width + 2 * self.margin() + 4, self.sizeHint().height())
