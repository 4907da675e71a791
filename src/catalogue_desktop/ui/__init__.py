"""The Qt layer (PySide6), by feature: ``shell`` on top (start, main window, session), then
``finder`` and ``offers``, then ``browse``, then ``detail`` and ``sync`` (independent of each
other), then ``common``; below them all the door for PySide workarounds,
``catalogue_desktop.qt_compat``. Imports core, never the reverse (pyproject.toml's contracts).

Importing this package first answers PySide's source probe (``qt_compat.pyside_import``): before
any module of the Qt layer imports PySide.
"""

from catalogue_desktop.qt_compat.pyside_import import import_pyside

import_pyside()
