"""The toolbar's What's new: made with the window, so the first paint lays the toolbar out as it
stays; the watch behind it (``watcher.Watcher``) is made once the first page is painted
(``ui.shell.start_budget``)."""

from __future__ import annotations

from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMainWindow, QToolBar


def whats_new_action(main: QMainWindow) -> QAction:
    """What's new on ``main``'s toolbar, after Changes (it opens the dock once the watch is made)."""
    action = QAction("What's new", main)
    action.setToolTip("What newly matches your watched searches")
    toolbar = main.findChild(QToolBar, "toolbar-main")
    if toolbar is not None and len(toolbar.actions()) > 4:  # after Changes
        toolbar.insertAction(toolbar.actions()[4], action)
    elif toolbar is not None:
        toolbar.addAction(action)
    return action
