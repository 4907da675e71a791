"""The What's new dock: per watched search, the records it newly matches, the matches whose fee,
dates or place changed, and those it no longer matches (or withdrawn), since it was last looked
at. A click opens the record in its tab; showing the dock marks the news seen (``Watcher``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QDockWidget, QLabel, QVBoxLayout, QWidget

if TYPE_CHECKING:  # (made when the dock first shows: start-up makes no tree widget)
    from PySide6.QtWidgets import QTreeWidget, QTreeWidgetItem

    from catalogue_desktop.core.searches.news import News

from catalogue_desktop.core.records.kinds import Kind

PARTS = (("new", "New"), ("changed", "Changed"), ("gone", "No longer matching or withdrawn"))
_SHORT = {"new": "new", "changed": "changed", "gone": "gone"}
_PLACE = Qt.ItemDataRole.UserRole
_OFFERS = "offers"  # (a row's place: the offers, not a record)


class WhatsNewDock(QDockWidget):
    """What's new for the watched searches (``set_news``)."""

    record_activated = Signal(object, int)  # Kind, record id
    offers_activated = Signal()  # the offers that no longer match the catalogue: Go ▸ Offers

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__("What's new", parent)
        self.setObjectName("dock-whats-new")
        self.setMinimumWidth(280)  # (docked under the tables: ``ui.common.panels``)
        self.setWidget(QWidget())  # the list is made when the dock first shows
        self._tree: QTreeWidget | None = None
        self._pending: tuple[Sequence[News], Callable[[Kind, int], str | None], int] = ((), _none, 0)
        self._offers: list[str] = []  # the open offers' changes (``set_offers``)
        self.offers_flagged = 0  # how many open offers no longer match the catalogue
        self.visibilityChanged.connect(lambda visible: visible and self.tree)

    @property
    def tree(self) -> QTreeWidget:
        """The list (made on first use, with the news given meanwhile)."""
        if self._tree is None:
            body = QWidget()
            layout = QVBoxLayout(body)
            layout.setContentsMargins(6, 6, 6, 6)
            self.summary = QLabel()
            self.summary.setTextFormat(Qt.TextFormat.PlainText)
            self.summary.setWordWrap(True)
            self.summary.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
            tree = self._tree = _lines()
            tree.setHeaderHidden(True)
            tree.setAccessibleName("What's new")
            tree.itemActivated.connect(self._activated)
            tree.itemClicked.connect(self._activated)
            layout.addWidget(self.summary)
            layout.addWidget(tree, 1)
            placeholder = self.widget()
            self.setWidget(body)
            placeholder.deleteLater()
            self._show(*self._pending)
        return self._tree

    def set_news(self, items: Sequence[News], title: Callable[[Kind, int], str | None], watched: int) -> None:
        """Show ``items`` (``core.watch.news.News``, one per watched search); ``watched``: how
        many searches are watched. Kept for later if the list is not made yet."""
        self._pending = (items, title, watched)
        if self._tree is not None:
            self._show(items, title, watched)

    def set_offers(self, lines: Sequence[str], count: int) -> None:
        """The open offers that no longer match the catalogue (``count``) and their changes in
        words (``core.offers.checking``), listed after the searches' news."""
        self._offers, self.offers_flagged = list(lines), count
        if self._tree is not None:
            self._show(*self._pending)

    def _show(self, items: Sequence[News], title: Callable[[Kind, int], str | None], watched: int) -> None:
        from PySide6.QtWidgets import QTreeWidgetItem

        self.tree.clear()
        total = sum(item.count for item in items)
        if not watched:
            self.summary.setText("No watched searches yet: tick one in Searches ▸ Watch.")
        elif not total:
            self.summary.setText(
                f"Nothing new for the {watched} watched search{'es' if watched > 1 else ''}."
            )
        else:
            self.summary.setText(f"{total} news in {watched} watched search{'es' if watched > 1 else ''}:")
        for item in items:
            head = QTreeWidgetItem([f"{item.search.name} — {_counts(item)}"])
            head.setToolTip(0, item.search.query)
            self.tree.addTopLevelItem(head)
            for part, label in PARTS:
                found: dict[str, list[int]] = getattr(item, part)
                count = sum(len(ids) for ids in found.values())
                if not count:
                    continue
                group = QTreeWidgetItem([f"{label} ({count})"])
                head.addChild(group)
                for kind_value, ids in found.items():
                    kind = Kind(kind_value)
                    for record_id in ids:
                        name = title(kind, record_id) or f"{kind.singular.capitalize()} #{record_id}"
                        row = QTreeWidgetItem([f"{name}  ({kind.singular} {record_id})"])
                        row.setToolTip(0, row.text(0))
                        row.setData(0, _PLACE, (kind, record_id))
                        group.addChild(row)
            head.setExpanded(True)
            for group in _children(head):
                group.setExpanded(True)
        if self.offers_flagged:
            self._show_offers()
        self.tree.setVisible(self.tree.topLevelItemCount() > 0)  # (no blank box under "No …")

    def _show_offers(self) -> None:
        from PySide6.QtWidgets import QTreeWidgetItem

        n = self.offers_flagged
        words = f"{n} offer{'s' if n != 1 else ''} no longer match{'es' if n == 1 else ''} the catalogue"
        self.summary.setText(f"{self.summary.text()} {words}.")
        head = QTreeWidgetItem([f"Offers — {words}"])
        head.setData(0, _PLACE, _OFFERS)
        head.setToolTip(0, "Go ▸ Offers lists them; re-issue one from today's data there")
        for line in self._offers:
            row = QTreeWidgetItem([line])
            row.setToolTip(0, line)
            row.setData(0, _PLACE, _OFFERS)
            head.addChild(row)
        self.tree.addTopLevelItem(head)
        head.setExpanded(True)

    def _activated(self, item: QTreeWidgetItem, _column: int = 0) -> None:
        place = item.data(0, _PLACE)
        if place == _OFFERS:
            self.offers_activated.emit()
        elif place:
            self.record_activated.emit(place[0], place[1])

    def records(self) -> list[tuple[str, Kind, int]]:
        """(part label, kind, id) of every record listed (for tests and accessibility)."""
        out = []
        root = self.tree.invisibleRootItem()
        for head in _children(root):
            for group in _children(head):
                for row in _children(group):
                    kind, rid = row.data(0, _PLACE)
                    out.append((group.text(0).split(" (")[0], kind, rid))
        return out


def _lines() -> QTreeWidget:
    """What's new's list: as tall as its rows (``AdjustToContents``: the panel fits a line or
    two, ``ui.common.panels``), at least one line; a scroll area's own minimum (70 px) made one
    line a box a quarter of the window tall at 1024x700. (Its class is made with the first
    list: one defined at import would make ``QTreeWidget`` at start-up.)"""
    return _lines_class()()


@cache
def _lines_class() -> type[QTreeWidget]:
    from PySide6.QtCore import QSize
    from PySide6.QtWidgets import QTreeWidget

    class Lines(QTreeWidget):
        def __init__(self) -> None:
            super().__init__()
            self.setSizeAdjustPolicy(QTreeWidget.SizeAdjustPolicy.AdjustToContents)

        def minimumSizeHint(self) -> QSize:
            line = self.fontMetrics().height() + 2 * self.frameWidth() + 4
            return QSize(super().minimumSizeHint().width(), line)

    return Lines


def _children(item: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    return [child for i in range(item.childCount()) if (child := item.child(i)) is not None]


def _none(_kind: Kind, _record_id: int) -> str | None:
    return None


def _counts(item: News) -> str:
    parts = [
        f"{sum(len(v) for v in getattr(item, part).values())} {_SHORT[part]}"
        for part, _label in PARTS
        if getattr(item, part)
    ]
    return ", ".join(parts) if parts else "nothing new"
