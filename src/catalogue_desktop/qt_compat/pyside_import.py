"""PySide, imported once the core is, and spared reading the source of every later import.

Why: once imported, PySide looks at every module imported after it, once per module name, to decide
whether ``from __feature__ import snake_case`` may apply there: ``inspect.getsource(module)``,
then ``"PySide6" in source`` (``feature_imported`` in shiboken's ``feature.py``): the file is
read, decoded and split into lines. For the ~60 modules imported before the window shows, that
was a tax on every start (docs/decisions.md, "Start-up and Qt"; napari's issue 8584 is the same tax).

This app never selects a feature (``from __feature__ import ...``), and without one, a module's
entry in PySide's table changes nothing it sees. So the core, and the standard library it uses,
is imported first, then PySide, and PySide's table gets the entries its probe would make: ``-1``
("not a PySide module") for every module already loaded, ``0`` for the Qt layer's modules
(``catalogue_desktop.ui``) and this door's. Modules imported later are probed, with the same
question asked of the file's bytes (``b"PySide6" in`` them, the module's ``.py`` read whole):
``inspect.getsource`` stats it, opens it to find its encoding, opens it again and decodes and
splits every line into ``linecache``, then joins them. For the ~290 modules a refresh imports a
step at a time on the window's thread (``ui.common.stepped_import``) that was ~80-100 ms of CPU,
~20 ms read plainly (thread CPU, side by side, a loaded machine). A module without a ``.py`` file
is probed as PySide does. With a PySide that has no such table or probe, nothing is given and only
the time is lost. ``ui/__init__.py`` calls ``import_pyside()``: importing anything of the Qt layer
does it first.

Measured on PySide6 6.11.3 (Python 3.11); ``tests/qt_compat/test_pyside_import.py`` shows that
the window's modules are not read for the probe and that the answers are the probe's own.
"""

from __future__ import annotations

import os
import sys
import types

# The Qt-free modules the window starts with (and the standard library they use): before PySide.
import catalogue_desktop.core.cache.location
import catalogue_desktop.core.cache.store
import catalogue_desktop.core.connection.connection_settings
import catalogue_desktop.core.connection.profiles
import catalogue_desktop.core.formats.csv_cells
import catalogue_desktop.core.formats.drawn_text
import catalogue_desktop.core.formats.files
import catalogue_desktop.core.formats.links
import catalogue_desktop.core.formats.numbers
import catalogue_desktop.core.formats.time_text
import catalogue_desktop.core.listing.rowset
import catalogue_desktop.core.listing.sorting
import catalogue_desktop.core.query.matches
import catalogue_desktop.core.query.vocabulary
import catalogue_desktop.core.records.diff
import catalogue_desktop.core.records.zones  # (the window's times label offsets with it)
import catalogue_desktop.paths  # noqa: F401
from catalogue_desktop.qt_compat.quick_enums import install as quick_enums
from catalogue_desktop.qt_compat.support_code import compiled_once

_QT_PACKAGES = ("catalogue_desktop.ui", "catalogue_desktop.qt_compat")
NOT_PYSIDE, PYSIDE = -1, 0  # the probe's answers: the source does not / does say "PySide6"


def import_pyside() -> None:
    """Import PySide6.QtCore (its support modules' code kept from the last start:
    ``qt_compat.support_code``; its enums made in one pass: ``qt_compat.quick_enums``) and give
    its probe the answers for the modules known now."""
    quick_enums()
    if "shiboken6" in sys.modules:
        import PySide6.QtCore  # (imported already: nothing to compile)
    else:
        with compiled_once():
            import PySide6.QtCore  # noqa: F401

    table = getattr(sys.modules.get("PySide6.support.feature"), "pyside_feature_dict", None)
    if not isinstance(table, dict):
        return
    for name in _qt_modules():
        table.setdefault(name, PYSIDE)
    for name in list(sys.modules):
        if not name.startswith(("PySide6", "shiboken6")):
            table.setdefault(name, NOT_PYSIDE)
    _probe_plainly(sys.modules["PySide6.support.feature"])


def _probe_plainly(feature: types.ModuleType) -> None:
    """PySide's probe for the modules imported from now on: the same question of the file's bytes
    (the module's docstring says why)."""
    probe = getattr(feature, "_mod_uses_pyside", None)
    if not callable(probe) or probe in _PLAIN:
        return

    def _mod_uses_pyside(module: types.ModuleType) -> bool:
        path = getattr(module, "__file__", None)
        if isinstance(path, str) and path.endswith(".py"):
            try:
                with open(path, "rb") as source:
                    return b"PySide6" in source.read()
            except OSError:
                pass
        return bool(probe(module))

    _PLAIN.add(_mod_uses_pyside)
    vars(feature)["_mod_uses_pyside"] = _mod_uses_pyside  # (a global there: looked up at each call)


_PLAIN: set[object] = set()  # the probes put in by ``_probe_plainly`` (never wrapped twice)


def _qt_modules() -> list[str]:
    """The Qt layer's modules (``catalogue_desktop.ui``, sub-packages included) and this door's:
    their source says "PySide6". None in a bundle: no files there."""
    root = os.path.dirname(os.path.dirname(__file__))  # the catalogue_desktop package
    names = []
    for package in _QT_PACKAGES:
        top = os.path.join(root, *package.split(".")[1:])
        for folder, subfolders, files in os.walk(top):
            subfolders[:] = [name for name in subfolders if name != "__pycache__"]  # (half the walk)
            if "__init__.py" not in files:
                continue
            relative = os.path.relpath(folder, top)
            name = package if relative == os.curdir else f"{package}.{relative.replace(os.sep, '.')}"
            names.append(name)
            names += [
                f"{name}.{file[:-3]}" for file in files if file.endswith(".py") and file != "__init__.py"
            ]
    return names
