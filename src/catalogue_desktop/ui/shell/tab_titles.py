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
from PySide6.QtGui import QColor, QPalette, QResizeEvent
from PySide6.QtWidgets import QTabBar, QTabWidget

_DIGIT = re.compile(r"\d")


_SLACK = 4  # px the titles leave free (QTabBar measures a sum of parts 1 px off)


class CountTabBar(QTabBar):
    """Tabs whose width does not follow their count (see the module doc).

    Titles are shortened by setting shorter texts when the tab widget is resized, not while a
    tab is drawn: overriding ``initStyleOption`` makes PySide build ``QStyle`` (its option's
    state is a ``QStyle`` flag, ~500 enum members) before the first paint.
    """

    def __init__(self, parent: QTabWidget) -> None:
        super().__init__(parent)
        self._titles: dict[int, tuple[str, str, str]] = {}  # tab -> (name, count shown, widest count)
        self._fitting = False
        self._fitted_tabs = -1  # the tabs there were at the last fit (a tab added: fit again)
        self._measured: tuple[object, list[str]] | None = None  # (what the names fit, the names)
        self.setUsesScrollButtons(False)  # all tabs in view: titles shortened where need be
        self.setElideMode(Qt.TextElideMode.ElideRight)  # (a last resort: the fit below cuts names)

    def set_count(self, index: int, label: str, count: str, widest: str) -> None:
        """Title tab ``index`` "``label`` ``count``", as wide as with ``widest`` as its count.
        The same title again fits nothing anew: the counts are said at every page of rows read
        and at every result, and a fit measures every title (a resize fits them anyway)."""
        title = (label, count, widest)
        if self._titles.get(index) == title and self._fitted_tabs == self.count():
            return
        self._titles[index] = title
        self.fit()

    def full_title(self, index: int) -> str:
        """Tab ``index``'s title before any shortening ("Situations 8")."""
        label, count, _widest = self._titles.get(index, (self.tabText(index), "", ""))
        return f"{label} {count}" if count else label

    def fit(self, *, anew: bool = False) -> None:
        """Give every tab its whole title if they all fit the tab widget's width; else cut the
        longest names first (never a count) until they do. ``anew``: every title measured again
        (a resize: the style or the screen may have changed too)."""
        if anew:
            self._measured = None
        if self._fitting:
            return
        self._fitting = True
        self._fitted_tabs = self.count()
        try:
            self._set_texts(self._fitted_texts())
        finally:
            self._fitting = False

    def _fitted_texts(self) -> list[str]:
        parts = [self._titles.get(i, (self.tabText(i), "", "")) for i in range(self.count())]
        parent = self.parentWidget()
        if not parent or not parent.isVisible():  # (measured when shown: its resize fits them)
            names = [label for label, _count, _widest in parts]
        else:
            names = self._names(parts, parent.width() - _SLACK)
        return [
            f"{name} {count}" if count else name for name, (_l, count, _w) in zip(names, parts, strict=True)
        ]

    def _names(self, parts: list[tuple[str, str, str]], room: int) -> list[str]:
        """Each tab's name as it fits ``room`` (whole, or cut: "Situ…"). A tab is measured with
        its widest count, not the count it shows, so the names do not change with the counts:
        they are measured again only when a name, a widest count, whether a count is shown, the
        room or the font change, not at each of a query's eight new counts (a fit measures every
        title, ~100 text widths)."""
        key = (tuple((label, bool(count), widest) for label, count, widest in parts), room, self.font().key())
        if self._measured is not None and self._measured[0] == key:
            return self._measured[1]
        names = self._measure(parts, room)
        self._measured = (key, names)
        return names

    def _measure(self, parts: list[tuple[str, str, str]], room: int) -> list[str]:
        metrics, mnemonic = self.fontMetrics(), Qt.TextFlag.TextShowMnemonic

        def width(text: str) -> int:
            return metrics.size(mnemonic, text).width()

        # a tab's width beside its text (padding, its close button): as QTabBar measures it
        extra = [QTabBar.tabSizeHint(self, i).width() - width(self.tabText(i)) for i in range(self.count())]
        tails = [f" {widest}" if count else "" for _label, count, widest in parts]
        whole = [extra[i] + width(label + tails[i]) for i, (label, _c, _w) in enumerate(parts)]
        labels = [label for label, _count, _widest in parts]
        if sum(whole) <= room:
            return labels

        def cut(cap: int) -> tuple[list[str], int]:  # the names of titles no wider than cap, their sum
            names, total = list(labels), 0
            for i, (label, count, _widest) in enumerate(parts):
                if whole[i] > cap and count:
                    name_room = cap - extra[i] - width(tails[i])
                    name = metrics.elidedText(label, Qt.TextElideMode.ElideRight, max(name_room, 0))
                    names[i] = name or "…"  # (no room for a letter: "… 9")
                    total += extra[i] + width(names[i] + tails[i])
                else:
                    total += whole[i]
            return names, total

        # a name is cut a whole letter at a time: the largest cap whose cut titles still fit
        low, high = _cap(whole, room), max(whole)
        while low < high:
            middle = (low + high + 1) // 2
            low, high = (middle, high) if cut(middle)[1] <= room else (low, middle - 1)
        return cut(low)[0]

    def _set_texts(self, texts: list[str]) -> None:
        for index, text in enumerate(texts):
            if self.tabText(index) != text:  # (a new title lays out the bar again and repaints it)
                self.setTabText(index, text)

    def tabSizeHint(self, index: int) -> QSize:
        size = super().tabSizeHint(index)
        _label, count, widest = self._titles.get(index, ("", "", ""))
        text = self.tabText(index)
        if count and text.endswith(" " + count):
            # the text's width measured as QTabBar measures it (a sum of parts was 1 px off)
            metrics, mnemonic = self.fontMetrics(), Qt.TextFlag.TextShowMnemonic
            wide = text[: -len(count)] + widest
            size.setWidth(
                size.width() + metrics.size(mnemonic, wide).width() - metrics.size(mnemonic, text).width()
            )
        return size


class CountTabs(QTabWidget):
    """A tab widget with a ``CountTabBar`` (``count_bar``) whose titles are fitted again to its
    width whenever it is resized.

    Told by its own ``resizeEvent``, not by an event filter: a Python method that is handed a
    plain ``QEvent`` (an event filter, ``event``, ``changeEvent``) makes PySide create every
    event class it could be (~50, with their enums) at the first event, before the first paint;
    a ``QResizeEvent`` is only itself."""

    def __init__(self, *, document_mode: bool = False) -> None:
        super().__init__(documentMode=document_mode)
        self.count_bar = CountTabBar(self)
        self.setTabBar(self.count_bar)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self.count_bar.fit(anew=True)  # the tab widget's width is the room the titles share


def _cap(widths: list[int], room: int) -> int:
    """The largest width such that the tabs, none wider than it, fit ``room`` (the widest are
    cut first, the narrow ones keep their whole titles)."""
    ordered = sorted(widths)
    left = room
    for place, width in enumerate(ordered):
        share = left // (len(ordered) - place)  # what each tab from here on may have
        if width > share:
            return share
        left -= width
    return ordered[-1] if ordered else room


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
