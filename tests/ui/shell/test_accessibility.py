"""Screen readers and keyboards: every interactive widget has a name (what AT-SPI reads out), the
Tab key walks toolbar, query, facets, table and details in that order, and the colours the window
chooses keep WCAG AA contrast in the light and the dark scheme."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QAccessible, QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QLineEdit,
    QTabBar,
    QWidget,
)

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.common import colors
from catalogue_desktop.ui.common.scheme import dark_palette

INTERACTIVE = (QAbstractButton, QLineEdit, QAbstractItemView, QTabBar, QComboBox, QAbstractSpinBox)


@pytest.fixture
def window(make_session: Any, filled_cache: Any, qtbot: Any) -> Any:
    session = make_session(base_url="http://127.0.0.1:9", offline=True, wait="ready")
    session.finder.indexer.finish_now()
    qtbot.waitUntil(lambda: session.async_started, timeout=5000)  # after ready's first pass
    return session.window


def unnamed(window: Any) -> list[str]:
    """Shown interactive widgets without an accessible name (what a screen reader announces)."""
    found = []
    for widget in window.findChildren(QWidget):
        if not isinstance(widget, INTERACTIVE) or not widget.isVisibleTo(window):
            continue
        iface = QAccessible.queryAccessibleInterface(widget)
        if iface is None or not iface.text(QAccessible.Text.Name).strip():
            found.append(
                f"{type(widget).__name__} {widget.objectName()!r} in "
                f"{type(widget.parent()).__name__} {widget.parent().objectName()!r}"
            )
    return found


def test_every_interactive_widget_of_every_tab_has_a_name(window: Any) -> None:
    for kind in window.tab_kinds():  # each tab made and shown, a record in its detail pane
        tab = window.show_tab(kind)
        if tab.model.rowCount():
            tab.view.selectRow(0)
        assert unnamed(window) == [], kind
    window.query_box.set_text("fees:<3")  # the error line too
    assert unnamed(window) == []


def test_the_tab_key_walks_query_facets_table_and_details_in_order(window: Any, qtbot: Any) -> None:
    tab = window.show_tab(Kind.WEBINARS)
    tab.view.selectRow(0)
    window.activateWindow()
    window.query_box.edit.setFocus()
    seen: list[QWidget] = [window.query_box.edit]
    for _ in range(60):
        focus = QApplication.focusWidget()
        qtbot.keyClick(focus, Qt.Key.Key_Tab)
        now = QApplication.focusWidget()
        if now is window.query_box.edit or now is None:
            break
        seen.append(now)
    order = {"query": 0, "facets": None, "table": None, "detail": None}
    for i, widget in enumerate(seen):
        if widget is window.facet_panel.tree and order["facets"] is None:
            order["facets"] = i
        elif widget is tab.view and order["table"] is None:
            order["table"] = i
        elif tab.detail.isAncestorOf(widget) and order["detail"] is None:
            order["detail"] = i
    assert None not in order.values(), (order, [type(w).__name__ for w in seen])
    assert order["query"] < order["facets"] < order["table"] < order["detail"]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_chosen_colours_keep_aa_contrast(qapp: Any, scheme: str) -> None:
    palette = dark_palette() if scheme == "dark" else QApplication.style().standardPalette()
    assert colors.is_dark(palette) == (scheme == "dark")
    grounds = colors.backgrounds(palette)
    muted = colors.muted(palette)
    assert all(colors.contrast(muted, g) >= colors.AA for g in grounds)  # past rows
    assert muted != palette.color(QPalette.ColorRole.Text)  # still quieter than the rest
    window_ground = palette.color(QPalette.ColorRole.Window)
    for color in (colors.error(palette), colors.warning(palette)):
        assert all(colors.contrast(color, g) >= colors.AA for g in [*grounds, window_ground])
    link = palette.color(QPalette.ColorRole.Link)
    assert colors.contrast(link, palette.color(QPalette.ColorRole.Base)) >= colors.AA
    text = palette.color(QPalette.ColorRole.Text)
    assert colors.contrast(text, palette.color(QPalette.ColorRole.Base)) >= 7


def _assert_banner_readable(banner: Any, *, dark: bool) -> None:
    """The banner's text on its background at AA, in the scheme's lightness."""
    import re

    sheet = banner.styleSheet()
    ground = QColor(re.search(r"background: (#[0-9a-f]{6})", sheet).group(1))
    text = QColor(re.search(r"QLabel \{ color: (#[0-9a-f]{6})", sheet).group(1))
    assert colors.contrast(text, ground) >= colors.AA
    assert (ground.lightness() < 128) == dark


def test_past_rows_and_errors_take_their_colours_from_the_palette(window: Any, qapp: Any) -> None:
    tab = window.show_tab(Kind.WEBINARS)
    light = tab.model._grey_color()
    _assert_banner_readable(window.banner, dark=False)
    original = QApplication.palette()
    try:
        window.query_box.set_text("fees:<3")
        QApplication.setPalette(dark_palette())  # the window follows by itself
        QApplication.processEvents()
        dark = tab.model._grey_color()
        assert dark != light and colors.contrast(dark, dark_palette().color(QPalette.ColorRole.Base)) >= 4.5
        assert colors.error(dark_palette()).name() in window.query_box.error.styleSheet()
        _assert_banner_readable(window.banner, dark=True)
    finally:
        QApplication.setPalette(original)
