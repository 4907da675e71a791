"""Item models under PySide6: roles as plain ints, the layout signals of a sort with its hint, and
``data()`` that never raises (``guarded``).

Measured on PySide6 6.11.3 (Python 3.11); ``tests/qt_compat/test_item_models.py`` shows each
workaround still does what it claims.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, TypeVar

from PySide6.QtCore import QAbstractItemModel, QModelIndex, QPersistentModelIndex, Qt

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


# ``data()`` that never raises. Why: an exception raised in a Python override of ``data()`` is printed by
# PySide6 but left pending, and surfaces from a later, unrelated call: ``QWidget.grab()`` raised the
# ``data()``'s ValueError, and under the app's qasync loop the process ended with it (exit 1) after a
# repaint; the probe of issue 35 saw the window die with SIGSEGV right after a table filled (a certificate
# fee the formatter could not write). Guarded, the cell shows FAILED_CELL with the error as its tooltip,
# the error is logged once per model and error, and the window stays up.
FAILED_CELL = "\u26a0"  # ⚠
_log = logging.getLogger("catalogue_desktop.ui")
_logged: set[tuple[str, str]] = set()
_Data = TypeVar("_Data", bound=Callable[..., Any])


def guarded(data: _Data) -> _Data:
    """An item model's ``data()`` that never raises (see above): decorate each model's ``data``."""

    @functools.wraps(data)
    def guarded_data(
        self: QAbstractItemModel, index: QModelIndex | QPersistentModelIndex, role: int = DISPLAY
    ) -> Any:
        try:
            return data(self, index, role)
        except Exception as exc:
            return failed_cell(self, index, role, exc)

    return guarded_data  # type: ignore[return-value]  # (the same signature)


def failed_cell(
    model: QAbstractItemModel, index: QModelIndex | QPersistentModelIndex, role: int, exc: Exception
) -> Any:
    """What a cell whose ``data()`` raised shows for ``role``: the mark, the error as its tooltip."""
    reason = f"{type(exc).__name__}: {str(exc)[:200]}"
    key = (type(model).__qualname__, reason)
    if key not in _logged:
        _logged.add(key)
        row, column = (index.row(), index.column()) if hasattr(index, "row") else (-1, -1)
        _log.error("%s.data() failed (row %d, column %d)", key[0], row, column, exc_info=exc)
    if role == DISPLAY:
        return FAILED_CELL
    if role == TOOLTIP:
        return f"This cell could not be shown ({reason}). The error was logged."
    return None
