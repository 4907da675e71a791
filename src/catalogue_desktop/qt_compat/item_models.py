"""Item models under PySide6: roles as plain ints, and the layout signals of a sort with its hint.

Measured on PySide6 6.11.3 (Python 3.11); ``tests/qt_compat/test_item_models.py`` shows each
workaround still does what it claims.
"""

from __future__ import annotations

from PySide6.QtCore import QAbstractItemModel, Qt

# Roles as plain ints. Why: PySide6's roles are Python enum members, so ``role == DisplayRole`` in ``data()``
# costs an enum attribute lookup per comparison, and a repaint asks 7 roles of every visible cell (~1,200
# calls): with ints a repaint takes a quarter less CPU (docs/decisions.md, "Sorting and the tables").
DISPLAY = Qt.ItemDataRole.DisplayRole.value
DECORATION = Qt.ItemDataRole.DecorationRole.value
TOOLTIP = Qt.ItemDataRole.ToolTipRole.value
FONT = Qt.ItemDataRole.FontRole.value
ALIGNMENT = Qt.ItemDataRole.TextAlignmentRole.value
FOREGROUND = Qt.ItemDataRole.ForegroundRole.value
BACKGROUND = Qt.ItemDataRole.BackgroundRole.value
CHECK_STATE = Qt.ItemDataRole.CheckStateRole.value
USER = Qt.ItemDataRole.UserRole.value

# The layout signals with a hint. Why: PySide picks a signal's overload by its C++ signature, and
# ``layoutChanged.emit()`` is the overload without arguments (``emit([], hint)`` on it raises TypeError).
# Without ``VerticalSortHint`` the selection model keeps one persistent index per selected cell, not per row:
# a sort with many rows selected took seconds (docs/decisions.md, "Sorting and the tables").
LAYOUT_SIGNATURE = ("QList<QPersistentModelIndex>", "QAbstractItemModel::LayoutChangeHint")
SORT_HINT = QAbstractItemModel.LayoutChangeHint.VerticalSortHint


def layout_about_to_be_changed(
    model: QAbstractItemModel, hint: QAbstractItemModel.LayoutChangeHint = SORT_HINT
) -> None:
    """``model.layoutAboutToBeChanged(parents=[], hint)``: the overload that carries the hint."""
    model.layoutAboutToBeChanged[LAYOUT_SIGNATURE].emit([], hint)  # type: ignore[index]  # (stubs: no overloads)


def layout_changed(model: QAbstractItemModel, hint: QAbstractItemModel.LayoutChangeHint = SORT_HINT) -> None:
    """``model.layoutChanged(parents=[], hint)``: the overload that carries the hint."""
    model.layoutChanged[LAYOUT_SIGNATURE].emit([], hint)  # type: ignore[index]  # (stubs: no overloads)
