"""Item models: roles as plain ints mean the same roles; the layout signals carry their hint."""

from __future__ import annotations

import importlib
import os
import pkgutil
import subprocess
import sys
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


# -- data() that never raises ------------------------------------------------------------------

_WINDOW = """
import asyncio, sys
from PySide6.QtCore import QAbstractTableModel, QModelIndex
from PySide6.QtWidgets import QApplication, QTableView
import qasync
from catalogue_desktop.qt_compat.item_models import DISPLAY, TOOLTIP, guarded

class Broken(QAbstractTableModel):
    def rowCount(self, parent=QModelIndex()):
        return 300
    def columnCount(self, parent=QModelIndex()):
        return 4
    def data(self, index, role=DISPLAY):
        if index.row() % 3 == 1:
            raise ValueError("a fee the formatter cannot write")
        return f"{index.row()},{index.column()}" if role == DISPLAY else None

if sys.argv[1] == "guarded":
    Broken.data = guarded(Broken.data)
app = QApplication([])
loop = qasync.QEventLoop(app)
asyncio.set_event_loop(loop)
view, model = QTableView(), Broken()
view.setModel(model)
view.resize(800, 600)
view.show()

async def scroll():
    for i in range(20):
        view.scrollTo(model.index(i * 10, 0))
        view.viewport().repaint()
        await asyncio.sleep(0)
    view.grab()

with loop:
    loop.run_until_complete(scroll())
print("cell:", model.data(model.index(1, 0), DISPLAY))
print("tip:", model.data(model.index(1, 0), TOOLTIP))
print("fine:", model.data(model.index(0, 0), DISPLAY), flush=True)
"""


def _window(how: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    return subprocess.run(
        [sys.executable, "-c", _WINDOW, how],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_model_whose_data_raises_leaves_the_window_up_with_the_cell_marked() -> None:
    """Shown and painted offscreen under the app's qasync loop: guarded, the process ends
    normally, the broken cells show the mark and the error as tooltip, logged once."""
    done = _window("guarded")
    assert done.returncode == 0, done.stderr[-2000:]
    assert f"cell: {item_models.FAILED_CELL}\n" in done.stdout
    assert "tip: This cell could not be shown (ValueError: a fee the formatter cannot write)" in done.stdout
    assert "fine: 0,0\n" in done.stdout
    assert done.stderr.count("Broken.data() failed") == 1  # logged once, with its traceback
    assert "Traceback" in done.stderr


def test_the_quirk_an_unguarded_data_that_raises_ends_the_process() -> None:
    """The quirk behind ``guarded``: the error is left pending and ends the process later."""
    done = _window("bare")
    assert done.returncode != 0
    assert "cell:" not in done.stdout


def test_every_item_model_of_the_window_is_guarded() -> None:
    import catalogue_desktop.ui

    found = []
    for module in pkgutil.walk_packages(catalogue_desktop.ui.__path__, "catalogue_desktop.ui."):
        for value in vars(importlib.import_module(module.name)).values():
            model = isinstance(value, type) and issubclass(value, QAbstractItemModel)
            if model and "data" in vars(value) and value.__module__ == module.name:
                found.append(value)
                assert hasattr(value.data, "__wrapped__"), f"{value.__qualname__}.data is not guarded"
    assert len(found) >= 5
