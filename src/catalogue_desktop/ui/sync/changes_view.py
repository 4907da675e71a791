"""What changed: per collection, records added, removed and changed (by field), in the last
refresh or, once the history is given (``use_history``), in a period chosen above the list (7 or
30 days, a range of days), narrowed by the query if asked (``changes_period``).

Activating (double-click / Enter) an added or changed entry emits ``record_activated(kind, id)``;
removed records are no longer in the catalogue, so they only say so.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from catalogue_desktop.core.cache.record_history import Event
from catalogue_desktop.core.records.diff import describe_fields
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.ui.common.plain_text import plain_tooltip
from catalogue_desktop.ui.sync.changes_period import PeriodBar, merge, narrowed

# (kind, start, end) -> the changes to its records in that period (``History.since``)
HistoryOf = Callable[[Kind, str, str | None], list[tuple[int, Event]]]
MatchingOf = Callable[[Kind], set[int] | None]  # the ids the current query finds (None: no query)

_TARGET = Qt.ItemDataRole.UserRole


class ChangesView(QWidget):
    """A tree: collection -> added / removed / changed records (with field changes)."""

    record_activated = Signal(object, int)  # Kind, record id

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        self.summary = QLabel("No changes recorded yet: changes appear after a refresh.")
        self.summary.setWordWrap(True)
        self.summary.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.tree = QTreeWidget()
        self.tree.setVisible(False)  # until there are changes to list (no blank box)
        self.tree.setHeaderLabels(["Record", "What changed"])
        self.tree.setColumnWidth(0, 280)
        self.tree.setUniformRowHeights(True)
        self.tree.itemActivated.connect(self._activated)
        self.period = PeriodBar()
        self.period.setVisible(False)  # until the history is given
        self.period.changed.connect(self.show_period)
        layout.addWidget(self.period)
        layout.addWidget(self.summary)
        layout.addWidget(self.tree, 1)
        self._changes: dict[Kind, dict[str, Any] | None] = {}
        self._items: dict[Kind, QTreeWidgetItem] = {}
        self._title: Callable[[Kind, int], str | None] = lambda _kind, _rid: None
        self._history: HistoryOf | None = None
        self._matching: Callable[[Kind], set[int] | None] = lambda _kind: None
        self._compared: str | None = None  # the copy a refresh compared with, in words (``refreshed``)

    def use_history(
        self,
        history: HistoryOf,
        matching: MatchingOf,
    ) -> None:
        """Offer periods: ``history(kind, start, end)`` gives the events (``store.history.since``);
        ``matching(kind)`` the ids the current query finds (None: no query)."""
        self._history, self._matching = history, matching
        self.period.setVisible(True)

    def show_period(self) -> None:
        """Show the period chosen (the last refresh: what ``set_changes`` gave)."""
        span = self.period.span()
        narrow = self.period.narrow.isChecked()
        for kind in ALL_KINDS:
            if span is None or self._history is None:
                summary = self._changes.get(kind)
            else:
                summary = merge(self._history(kind, span[0], span[1]))
            if narrow and summary is not None:
                summary = narrowed(summary, self._matching(kind))
            self._show(kind, summary)
        self._summarize(None if span is None else self.period.describe())

    def set_changes(
        self, kind: Kind, changes: dict[str, Any] | None, title: Callable[[Kind, int], str | None]
    ) -> None:
        """Take ``changes`` (the store's diff of ``kind``'s last two snapshots), shown when the
        period is the last refresh."""
        self._changes[kind] = changes
        self._title = title
        if self.period.span() is None and not self.period.narrow.isChecked():
            self._show(kind, changes)
            self._summarize(None)
        else:
            self.show_period()

    def refreshed(self, copy: str) -> None:
        """A refresh compared the service's catalogue with the copy ``copy`` (in words: "from 2
        hours ago"); with no earlier snapshot it found nothing to change, and says so."""
        self._compared = copy
        if self.period.span() is None:
            self._summarize(None)

    def _show(self, kind: Kind, changes: dict[str, Any] | None) -> None:
        title = self._title
        old = self._items.pop(kind, None)
        if old is not None:
            self.tree.takeTopLevelItem(self.tree.indexOfTopLevelItem(old))
        added = list(changes.get("added") or ()) if changes else []
        removed = list(changes.get("removed") or ()) if changes else []
        changed = list(changes.get("changed") or ()) if changes else []
        if added or removed or changed:
            item = QTreeWidgetItem(
                [
                    kind.label,
                    f"{len(added)} added, {len(removed)} removed, {len(changed)} changed",
                ]
            )
            name = kind.singular.capitalize()
            for record_id in added:
                label = title(kind, record_id) or f"{name} #{record_id}"
                self._child(item, kind, record_id, label, "added")
            for record_id in removed:
                self._child(
                    item, None, record_id, f"{name} #{record_id}", "removed (no longer in the catalogue)"
                )
            for entry in changed:
                record_id = entry.get("id")
                label = title(kind, record_id) or f"{name} #{record_id}"
                self._child(
                    item, kind, record_id, label, "changed: " + describe_fields(entry.get("fields") or {})
                )
            position = sum(1 for k in ALL_KINDS[: ALL_KINDS.index(kind)] if k in self._items)
            self.tree.insertTopLevelItem(position, item)
            item.setExpanded(True)
            self._items[kind] = item

    def _summarize(self, period: str | None) -> None:
        """The line above the list (``period``: in words; None: the last refresh)."""
        total = sum(self._count(k) for k in self._items)
        narrow = " that the query finds" if self.period.narrow.isChecked() else ""
        if period is not None:
            text = (
                f"{total:,} records changed {period}{narrow}."
                if total
                else f"Nothing changed {period}{narrow}."
            )
        elif total:
            text = f"The last refresh changed {total:,} records{narrow}."
        elif all(c is None for c in self._changes.values()) and self._compared is not None:
            copy = self._compared
            text = f"The last refresh compared the service's catalogue with the copy {copy}: nothing changed."
        elif all(c is None for c in self._changes.values()):  # no earlier snapshot to compare
            text = "This is the first copy of the catalogue: nothing to compare with yet."
        else:
            text = "The last refresh changed nothing."
        self.summary.setText(text)
        self.tree.setVisible(bool(self._items))

    def _count(self, kind: Kind) -> int:
        item = self._items.get(kind)
        return item.childCount() if item is not None else 0

    @staticmethod
    def _child(parent: QTreeWidgetItem, kind: Kind | None, record_id: object, label: str, what: str) -> None:
        child = QTreeWidgetItem(parent, [label, what])
        child.setToolTip(1, plain_tooltip(what))
        if kind is not None and isinstance(record_id, int):
            child.setData(0, _TARGET, (kind, record_id))

    def entries(self, kind: Kind) -> list[tuple[str, str]]:
        """(label, what) of each entry of ``kind`` (for tests and the self-test)."""
        item = self._items.get(kind)
        if item is None:
            return []
        children = [item.child(i) for i in range(item.childCount())]
        return [(child.text(0), child.text(1)) for child in children if child is not None]

    def item_for(self, kind: Kind, record_id: int) -> QTreeWidgetItem | None:
        item = self._items.get(kind)
        if item is None:
            return None
        for i in range(item.childCount()):
            child = item.child(i)
            if child is not None and child.data(0, _TARGET) == (kind, record_id):
                return child
        return None

    def _activated(self, item: QTreeWidgetItem, _column: int) -> None:
        target = item.data(0, _TARGET)
        if target:
            self.record_activated.emit(target[0], target[1])
