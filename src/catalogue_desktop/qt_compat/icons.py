"""Standard icons without ``QStyle``: from the desktop's icon theme, else from Qt's own images.

Why: ``QStyle.standardIcon`` makes PySide6 create ``QStyle``'s Python enums, ~500 members (docs/decisions.md,
"Start-up and Qt"); the theme, or the image files behind Qt's standard icons (the ones ``QStyle.standardIcon``
shows for SP_ArrowBack ... SP_DialogSaveButton without a theme), cost nothing extra. Measured on PySide6
6.11.3 (Python 3.11); ``tests/qt_compat/test_icons.py`` shows it still does what it claims."""

from __future__ import annotations

from PySide6.QtGui import QIcon

QT_IMAGES = ":/qt-project.org/styles/commonstyle/images/"  # Qt's own, built into QtWidgets


def theme_icon(theme_name: str, qt_image: str) -> QIcon:
    """The icon ``theme_name`` (a freedesktop name) of the desktop's theme, else Qt's image
    ``qt_image`` (a file name under ``QT_IMAGES``, e.g. ``"refresh-32.png"``)."""
    return QIcon.fromTheme(theme_name, QIcon(QT_IMAGES + qt_image))
