"""Qt's own file dialog made readable: where the desktop offers no dialog of its own (no portal,
a bare X server), Qt shows its widget dialog at about 630x400 with its Name, Size, Type and Date
Modified columns cut ("28 11 2…6"). ``fit_next_file_dialog`` sizes the file dialog about to open
to the screen (at most 900x560) and its columns to their text, Name taking the rest.

It looks once the dialog is open (a zero-time timer, run by the dialog's own event loop), so
``save_file_name`` and ``open_file_name`` still call QFileDialog's static functions, native
wherever the desktop has a dialog: a native dialog is no QFileDialog widget on screen and is left
alone.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QHeaderView, QTreeView, QWidget

__all__ = ["fit_next_file_dialog", "open_file_name", "save_file_name"]

SIZE = (900, 560)  # wide enough for the four columns, low enough for a 1024x700 screen


def save_file_name(
    parent: QWidget | None, caption: str, path: str, filters: str, chosen: str = ""
) -> tuple[str, str]:
    """``QFileDialog.getSaveFileName``, readable: (path, filter chosen); ("", "") when cancelled."""
    fit_next_file_dialog(parent)
    if chosen:
        return QFileDialog.getSaveFileName(parent, caption, path, filters, chosen)
    return QFileDialog.getSaveFileName(parent, caption, path, filters)


def open_file_name(parent: QWidget | None, caption: str, path: str, filters: str) -> tuple[str, str]:
    """``QFileDialog.getOpenFileName``, readable."""
    fit_next_file_dialog(parent)
    return QFileDialog.getOpenFileName(parent, caption, path, filters)


def fit_next_file_dialog(parent: QWidget | None) -> None:
    """Call just before QFileDialog.getSaveFileName / getOpenFileName over ``parent``."""
    QTimer.singleShot(0, lambda: _fit(parent))


def _fit(parent: QWidget | None) -> None:
    dialog = QApplication.activeModalWidget()
    if not isinstance(dialog, QFileDialog):  # (a native dialog, or none: nothing to size)
        return
    screen = (parent or dialog).screen()
    width, height = SIZE
    if screen is not None:
        room = screen.availableGeometry()
        width, height = min(width, room.width() * 9 // 10), min(height, room.height() * 9 // 10)
    dialog.resize(max(width, dialog.width()), height)
    details = dialog.findChild(QTreeView, "treeView")  # (the Detail view's; Qt's own name)
    if details is None:
        return
    header = details.header()
    header.setStretchLastSection(False)
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    for column in range(1, header.count()):
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
