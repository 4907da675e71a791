"""Rich clipboard content made in Python, put there so that the process can still exit cleanly.

``QClipboard.setMimeData`` takes a ``QMimeData`` that PySide made. Left on the clipboard, Qt's own
exit handler deletes it after Python has finished, through its Python wrapper: a segmentation
fault (exit status 139) at the very end of a process that otherwise ended well (PySide6 6.11.3,
Python 3.11, offscreen and xcb; ``tests/qt_compat/test_clipboard.py`` shows the crash without
this and none with it). The window leaves through ``fast_exit`` and never met it; the test run
did, after Copy for email. ``put_mime_data`` clears the clipboard from an exit handler, which
runs while Python is still whole; a clipboard manager (X11, Wayland, Windows, macOS) has taken a
copy by then.
"""

from __future__ import annotations

import atexit

from PySide6.QtCore import QMimeData
from PySide6.QtGui import QGuiApplication

__all__ = ["put_mime_data"]

_cleared_at_exit = False


def put_mime_data(mime: QMimeData) -> None:
    """Put ``mime`` on the application's clipboard (its text and HTML, say)."""
    global _cleared_at_exit
    QGuiApplication.clipboard().setMimeData(mime)
    if not _cleared_at_exit:
        atexit.register(_clear)
        _cleared_at_exit = True


def _clear() -> None:
    if QGuiApplication.instance() is not None:
        QGuiApplication.clipboard().clear()
