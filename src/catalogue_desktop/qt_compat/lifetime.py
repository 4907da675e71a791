"""Qt objects and their shiboken wrappers: deleted on the GUI thread, and checked before use.

Measured on PySide6 / shiboken6 6.11.3 (Python 3.11); ``tests/qt_compat/test_lifetime.py`` shows
each workaround still does what it claims.

``delete_later(obj)``. Why: a QObject without a parent is owned by its Python wrapper. If the
wrapper is collected while a ``deleteLater()`` is still pending, shiboken destroys the object at
once, on the thread that ran the collection. The cyclic GC runs on whichever thread allocates (an
ingest or HTTP worker), and an object destroyed there left its Qt timers registered with the GUI
thread ("QObject::~QObject: Timers cannot be stopped from another thread"), which later crashed
the event loop. So objects handed to ``delete_later`` are held here until Qt itself deleted them.
Its slot on ``destroyed`` takes no argument. Why: a Python slot that takes the destroyed
``QObject*`` makes PySide look up the object's most derived Python type, which created every
QtCore type and enum not made yet (docs/decisions.md, "Start-up and Qt").

``is_alive(obj)``. Why: a wrapper outlives its C++ object once Qt deleted it (a photo label of a
page refilled for another record, say); calling it then raises "Internal C++ object already
deleted". ``shiboken6.isValid`` says whether the object is still there.
"""

from __future__ import annotations

import shiboken6
from PySide6.QtCore import QObject

_PENDING: dict[int, QObject] = {}


def delete_later(obj: QObject) -> None:
    """``obj.deleteLater()``, keeping ``obj``'s wrapper alive until the deletion happened."""
    key = id(obj)
    if key in _PENDING:
        return
    _PENDING[key] = obj

    def release() -> None:  # no parameters: see the module's docstring
        _PENDING.pop(key, None)

    obj.destroyed.connect(release)
    obj.deleteLater()


def pending() -> int:
    """How many objects wait for their deferred deletion (for tests)."""
    return len(_PENDING)


def is_alive(obj: object) -> bool:
    """Whether ``obj``'s C++ object still exists (Qt has not deleted it)."""
    return bool(shiboken6.isValid(obj))
