"""The window's file dialogs ("Export visible rows", "Save PDF…", a logo, a CA file): Qt's own,
with columns that show what they hold. Qt's widget dialog (used where the desktop offers no native
one: a bare X server, a fresh session) gives Size, Type and Date Modified fixed narrow widths, so
a date read "28 11 2…6"; here every column but the name fits its contents and the name takes the
rest. A native dialog is left as the desktop draws it.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QFileDialog, QHeaderView, QTreeView, QWidget


def save_file_name(
    parent: QWidget | None, caption: str, path: str, filters: str, chosen: str = ""
) -> tuple[str, str]:
    """``QFileDialog.getSaveFileName`` with readable columns: (path, filter chosen); ("", "")
    when cancelled."""
    _fit_columns_when_open()
    if chosen:
        return QFileDialog.getSaveFileName(parent, caption, path, filters, chosen)
    return QFileDialog.getSaveFileName(parent, caption, path, filters)


def open_file_name(parent: QWidget | None, caption: str, path: str, filters: str) -> tuple[str, str]:
    """``QFileDialog.getOpenFileName`` with readable columns."""
    _fit_columns_when_open()
    return QFileDialog.getOpenFileName(parent, caption, path, filters)


def fit_columns(dialog: QFileDialog) -> None:
    """Size, Type and Date Modified as wide as their contents (kept so as a folder's rows come in);
    the name column takes the rest."""
    view = dialog.findChild(QTreeView, "treeView")
    if view is None:
        return
    header = view.header()
    header.setStretchLastSection(False)
    header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
    for column in range(1, header.count()):
        header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)


def _fit_columns_when_open() -> None:
    """Fit the columns of the file dialog about to open (a static dialog is shown in its own
    event loop: the timer runs there, once it is up)."""

    def fit() -> None:
        dialog = QApplication.activeModalWidget()
        if isinstance(dialog, QFileDialog):
            fit_columns(dialog)

    QTimer.singleShot(0, fit)
