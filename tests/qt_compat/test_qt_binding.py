"""The Qt binding itself: guards against a PySide6 release that breaks the interpreter.

PySide6 6.12.0 on Python 3.11 drops one reference to ``None`` on every call of a Qt method that
returns nothing (``setText``, ``repaint``...); after a few thousand calls CPython frees ``None``
and aborts ("Fatal Python error: none_dealloc"). pyproject.toml pins a release without the bug.
"""

import sys

from PySide6.QtWidgets import QLabel


def test_void_qt_calls_keep_none_alive(qtbot) -> None:
    label = QLabel()
    qtbot.addWidget(label)
    before = sys.getrefcount(None)
    for _ in range(2000):
        label.setText("x")
        label.setVisible(False)
    after = sys.getrefcount(None)
    assert after >= before - 50, f"None lost {before - after} references in 4,000 void Qt calls"
