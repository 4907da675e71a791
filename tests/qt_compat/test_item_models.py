"""Item models: roles as plain ints mean the same roles; the layout signals carry their hint."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QAbstractItemModel, QStringListModel, Qt

from catalogue_desktop.qt_compat import item_models


def test_roles_are_plain_ints_equal_to_qt_s_roles() -> None:
    pairs = {
        item_models.DISPLAY: Qt.ItemDataRole.DisplayRole,
        item_models.DECORATION: Qt.ItemDataRole.DecorationRole,
        item_models.TOOLTIP: Qt.ItemDataRole.ToolTipRole,
        item_models.FONT: Qt.ItemDataRole.FontRole,
        item_models.ALIGNMENT: Qt.ItemDataRole.TextAlignmentRole,
        item_models.FOREGROUND: Qt.ItemDataRole.ForegroundRole,
        item_models.BACKGROUND: Qt.ItemDataRole.BackgroundRole,
        item_models.CHECK_STATE: Qt.ItemDataRole.CheckStateRole,
        item_models.USER: Qt.ItemDataRole.UserRole,
    }
    assert len(pairs) == 9
    for number, role in pairs.items():
        assert type(number) is int and number == role.value
    # the quirk: PySide's roles are enum members, looked up through the enum on each use
    assert type(Qt.ItemDataRole.DisplayRole) is not int


def test_the_layout_signals_carry_the_sort_hint(qapp: Any) -> None:
    """The bare signal is the overload without arguments (the quirk: a hint cannot be given
    there); the helpers emit the overload that carries it."""
    model = QStringListModel(["b", "a"])
    with pytest.raises(TypeError):
        model.layoutChanged.emit([], item_models.SORT_HINT)
    hints: list[Any] = []
    for signal in (model.layoutAboutToBeChanged, model.layoutChanged):
        signal[item_models.LAYOUT_SIGNATURE].connect(lambda parents, hint: hints.append(hint))
    item_models.layout_about_to_be_changed(model)
    item_models.layout_changed(model)
    assert hints == [QAbstractItemModel.LayoutChangeHint.VerticalSortHint] * 2
