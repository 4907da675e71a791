"""delete_later keeps a parentless object's wrapper until Qt has deleted it (on the GUI thread), with
a slot that makes PySide create no types; is_alive says whether Qt deleted an object."""

from __future__ import annotations

import gc
import json
import subprocess
import sys
import textwrap
from typing import Any

import pytest
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


def test_is_alive_says_whether_qt_deleted_the_object(qapp: Any) -> None:
    """A child's wrapper outlives the child once its parent is deleted: ``is_alive`` says so
    before the wrapper is used (using it raises)."""
    parent = QObject()
    child = QObject(parent)
    assert qt_lifetime.is_alive(child)
    qt_lifetime.delete_later(parent)
    del parent
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    assert not qt_lifetime.is_alive(child)
    with pytest.raises(RuntimeError, match="already deleted"):
        child.objectName()


_DESTROYED = textwrap.dedent("""
    import json, sys
    from PySide6 import QtCore
    from PySide6.QtCore import QCoreApplication, QEvent, QObject
    from catalogue_desktop.qt_compat.lifetime import delete_later
    app = QCoreApplication([])
    if sys.argv[1] == "delete_later":
        delete_later(QObject())
    else:  # a slot that takes the destroyed object
        obj = QObject()
        obj.destroyed.connect(lambda destroyed: None)
        obj.deleteLater()
        del obj
    QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    print(json.dumps([n for n in ("QSharedMemory", "QProcess", "QLibrary") if n in vars(QtCore)]))
""")


@pytest.mark.parametrize(
    ("how", "made"),
    [("delete_later", []), ("slot_taking_the_object", ["QSharedMemory", "QProcess", "QLibrary"])],
)
def test_delete_later_s_slot_makes_pyside_create_no_types(how: str, made: list[str]) -> None:
    """A slot taking the destroyed ``QObject*`` makes PySide create every QtCore type (the quirk);
    ``delete_later``'s slot takes nothing and creates none."""
    result = subprocess.run(
        [sys.executable, "-c", _DESTROYED, how], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == made
