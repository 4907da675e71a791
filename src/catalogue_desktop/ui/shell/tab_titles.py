"""A tab's title: its kind and how many rows it shows ("Courses 240"; under a query "Courses 12",
the total in its tooltip and beside the rows), dimmed when the query leaves it no row (the
results are on other tabs).

The tab bar (``CountTabBar``) keeps each tab as wide as its title with the widest count it can
show (the total's digits, each an 8): typing a query changes the counts, never the tabs' widths,
so a click lands on the tab it was aimed at. Every tab stays in view: when the window is too
narrow for all the titles they are shortened, never scrolled out of the bar: the name is cut,
never the count ("Situ… 8", not "Situati…").
"""

from __future__ import annotations

import re

from PySide6.QtCore import QLocale, QSize, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QStyleOptionTab, QTabBar, QTabWidget, QWidget

_DIGIT = re.compile(r"\d")


_PADDING = 24  # at least a tab's padding either side of its text (Fusion: 2 x 12)


class CountTabBar(QTabBar):
    """Tabs whose width does not follow their count (see the module doc)."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self._counts: dict[int, tuple[str, str]] = {}  # tab -> (the count shown, its widest form)
        self.setUsesScrollButtons(False)  # all tabs in view: titles shortened where need be
        self.setElideMode(Qt.TextElideMode.ElideRight)

    def set_count(self, index: int, label: str, count: str, widest: str) -> None:
        """Title tab ``index`` "``label`` ``count``", as wide as with ``widest`` as its count."""
        self._counts[index] = (count, widest)
        text = f"{label} {count}" if count else label
        if self.tabText(index) != text:  # (a new title lays out the bar again and repaints it)
            self.setTabText(index, text)

    def initStyleOption(self, option: QStyleOptionTab, tabIndex: int) -> None:
        """The title as the tab draws it: shortened, the name is cut and the count kept."""
        super().initStyleOption(option, tabIndex)
        count, _widest = self._counts.get(tabIndex, ("", ""))
        text = self.tabText(tabIndex)
        if not count or not text.endswith(" " + count):
            return
        metrics, mnemonic = self.fontMetrics(), Qt.TextFlag.TextShowMnemonic
        if metrics.size(mnemonic, text).width() + _PADDING <= option.rect.width():
            option.text = text  # (it fits: QStyle, ~500 enum members, is not read at start-up)
            return
        from PySide6.QtWidgets import QStyle

        room = self.style().subElementRect(QStyle.SubElement.SE_TabBarTabText, option, self).width()
        if metrics.size(mnemonic, text).width() <= room:
            option.text = text
            return
        tail = " " + count
        name = metrics.elidedText(
            text[: -len(tail)], Qt.TextElideMode.ElideRight, room - metrics.size(mnemonic, tail).width()
        )
        option.text = (name or "…") + tail  # (a first letter beyond the room is clipped: "D… 9")

    def tabSizeHint(self, index: int) -> QSize:
        size = super().tabSizeHint(index)
        count, widest = self._counts.get(index, ("", ""))
        text = self.tabText(index)
        if count and text.endswith(" " + count):  # (not while measured shortened)
            # the text's width measured as QTabBar measures it (a sum of parts was 1 px off)
            metrics, mnemonic = self.fontMetrics(), Qt.TextFlag.TextShowMnemonic
            wide = text[: -len(count)] + widest
            size.setWidth(
                size.width() + metrics.size(mnemonic, wide).width() - metrics.size(mnemonic, text).width()
            )
        return size


def show_count(tabs: QTabWidget, index: int, label: str, total: int | None, matched: int | None) -> None:
    """Set tab ``index``'s title and its colour: ``matched`` of ``total`` rows shown under a
    query (None: no query), no count while none is known."""
    locale = QLocale()
    bar = tabs.tabBar()
    count = "" if total is None else locale.toString(total if matched is None else matched)
    widest = _DIGIT.sub("8", locale.toString(total)) if total is not None else ""
    if isinstance(bar, CountTabBar):
        bar.set_count(index, label, count, widest)
    elif tabs.tabText(index) != f"{label} {count}".strip():
        tabs.setTabText(index, f"{label} {count}".strip())
    none = matched == 0
    colour = (
        bar.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText) if none else QColor()
    )
    noun = label.lower()
    if total is None:
        tip = ""
    elif matched is None:
        tip = f"{locale.toString(total)} {noun}"
    elif none:
        tip = f"No {noun} match the query"
    else:
        tip = f"{locale.toString(matched)} of {locale.toString(total)} {noun} match the query"
    if bar.tabTextColor(index) != colour:
        bar.setTabTextColor(index, colour)
    if bar.tabToolTip(index) != tip:
        bar.setTabToolTip(index, tip)
