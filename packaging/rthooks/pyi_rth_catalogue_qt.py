"""Run-time hook replacing PyInstaller's ``pyi_rth_pyside6`` (removed from the spec's scripts).

The stock hook imports ``PySide6.QtCore`` at the start of every process, only to find that the
PySide6 wheel already embeds a relocatable qt.conf. That loads Qt (and ICU) before ``--version``,
``sync``, ``export`` and in every spawned sync worker - none of which use Qt - and made the frozen
``--version`` 2.5x slower than from source. This hook sets the same environment, without importing
anything from Qt; QML paths are left out (the app uses no QML).
"""


def _catalogue_qt_rthook() -> None:
    import os
    import sys

    base = sys._MEIPASS  # type: ignore[attr-defined]
    qt_dir = os.path.join(base, "PySide6") if sys.platform == "win32" else os.path.join(base, "PySide6", "Qt")
    os.environ["QT_PLUGIN_PATH"] = os.path.join(qt_dir, "plugins")
    if sys.platform == "win32":  # OpenSSL DLLs, if any were collected next to the executable
        os.environ["PATH"] = base + os.pathsep + os.environ.get("PATH", "")


_catalogue_qt_rthook()
del _catalogue_qt_rthook
