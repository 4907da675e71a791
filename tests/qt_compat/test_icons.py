"""Toolbar icons from Qt's own images: found, and made without creating QStyle's enums."""

from __future__ import annotations

import textwrap

from tests.fresh_python import run_json


def test_an_icon_without_a_theme_comes_from_qt_s_images_without_qstyle() -> None:
    code = textwrap.dedent("""
        import json
        from PySide6 import QtWidgets
        from PySide6.QtWidgets import QApplication
        from catalogue_desktop.qt_compat.icons import theme_icon
        app = QApplication([])
        icon = theme_icon("catalogue-desktop-no-such-icon", "refresh-32.png")
        seen = {"null": icon.isNull(), "width": icon.pixmap(16, 16).width(),
                "qstyle_made": "QStyle" in vars(QtWidgets)}
        from PySide6.QtWidgets import QStyle
        app.style().standardIcon(QStyle.StandardPixmap.SP_BrowserReload)
        seen["qstyle_made_by_the_standard_icon_route"] = "QStyle" in vars(QtWidgets)
        print(json.dumps(seen))
    """)
    seen, _ = run_json(code)
    assert seen == {
        "null": False,
        "width": 16,
        "qstyle_made": False,
        "qstyle_made_by_the_standard_icon_route": True,
    }  # what it avoids: QStyle made
