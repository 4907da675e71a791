"""delete_later keeps a parentless object's wrapper until Qt has deleted it (on the GUI thread)."""

from __future__ import annotations

import gc
from typing import Any

import shiboken6
from PySide6.QtCore import QCoreApplication, QEvent, QObject, QTimer

from catalogue_desktop.qt_compat import lifetime as qt_lifetime


def test_a_parentless_object_outlives_the_collector_until_qt_deletes_it(qapp: Any) -> None:
    obj = QObject()
    timer = QTimer(obj, interval=1000)
    timer.start()  # an object with a running timer, as a page or a loop has
    destroyed: list[bool] = []
    obj.destroyed.connect(lambda *_: destroyed.append(True))
    before = qt_lifetime.pending()
    qt_lifetime.delete_later(obj)
    qt_lifetime.delete_later(obj)  # twice: one pending entry
    assert qt_lifetime.pending() == before + 1
    probe = obj
    del obj
    gc.collect()  # were the wrapper collected here, the object would die now, on this thread
    assert destroyed == [] and shiboken6.isValid(probe)
    del probe
    gc.collect()
    assert destroyed == []
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert destroyed == [True]
    assert qt_lifetime.pending() == before
