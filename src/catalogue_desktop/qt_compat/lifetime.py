"""Deleting Qt objects on the GUI thread, whatever Python's garbage collector does.

A QObject without a parent is owned by its Python wrapper. If the wrapper is collected while a
``deleteLater()`` is still pending, shiboken destroys the object at once, on the thread that ran
the collection. The cyclic GC runs on whichever thread allocates (an ingest or HTTP worker), and
an object destroyed there leaves its Qt timers registered with the GUI thread ("QObject::~QObject:
Timers cannot be stopped from another thread"), which later crashed the event loop. So objects
handed to ``delete_later`` are held here until Qt itself has deleted them.
"""

from __future__ import annotations

from PySide6.QtCore import QObject

_PENDING: dict[int, QObject] = {}


def delete_later(obj: QObject) -> None:
    """``obj.deleteLater()``, keeping ``obj``'s wrapper alive until the deletion happened."""
    key = id(obj)
    if key in _PENDING:
        return
    _PENDING[key] = obj

    def release() -> None:  # no parameters: a slot that takes the destroyed QObject* makes
        # PySide look up its most derived Python type, which creates every QtCore type and enum
        # not made yet (~15 ms at exit)
        _PENDING.pop(key, None)

    obj.destroyed.connect(release)
    obj.deleteLater()


def pending() -> int:
    """How many objects wait for their deferred deletion (for tests)."""
    return len(_PENDING)
