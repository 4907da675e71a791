"""Layout at every size: the window opens sized to the screen and fits a small one, the Dates tab
shows what a sales person reads first at 1024x700, no tab scrolls sideways at 1920x1080, and the
table/detail split is one remembered setting that a person can move, hide and show."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, QRect, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.listing.rows import column_index
from catalogue_desktop.core.records.kinds import OCCASIONS, Kind
from tests.journeys.hands import click_row, click_tab, key, menu_items, screen_sized


def _right_edges(tab: Any, keys: list[str]) -> dict[str, int]:
    header = tab.view.horizontalHeader()
    out = {}
    for name in keys:
        column = column_index(tab.kind, name)
        assert not header.isSectionHidden(column), name
        out[name] = header.sectionViewportPosition(column) + header.sectionSize(column)
    return out


def test_a_first_start_fills_most_of_the_screen_and_a_restart_restores_the_size(start: Any) -> None:
    session = start(finder_ready=False)
    window = session.window
    window.show()
    QApplication.processEvents()
    available = window.screen().availableGeometry()
    frame = window.geometry()
    assert available.contains(frame), (frame, available)
    assert frame.width() >= 0.8 * available.width() and frame.height() >= 0.8 * available.height()
    assert abs(frame.center().x() - available.center().x()) <= 2  # centred
    window.setGeometry(QRect(40, 30, 700, 560))  # the person makes it smaller
    QApplication.processEvents()
    window.close()
    again = start(finder_ready=False).window
    assert again.geometry().size() == window.geometry().size()


def test_the_window_fits_a_1024x700_screen_with_every_part_on_it(start: Any) -> None:
    window = start().window
    window.show()
    tab = click_tab(window, OCCASIONS)
    click_row(tab, 0)
    screen = window.screen().availableGeometry()
    parts = (
        tab.detail,
        window.status_dock,
        window.facet_dock,
        tab.view,
        window.statusBar(),
        window.query_box.edit,
    )
    for part in parts:
        box = QRect(part.mapToGlobal(QPoint(0, 0)), part.size())
        assert part.isVisible() and screen.contains(box), (part.objectName(), box, screen)
    hint = window.minimumSizeHint()
    assert hint.width() <= 1024 and hint.height() <= 700, hint
    screen_sized(window, 1024, 700)
    inside = QRect(0, 0, window.width(), window.height())
    tab = window.current_tab()
    click_row(tab, 0)
    for part in parts:
        box = QRect(part.mapTo(window, QPoint(0, 0)), part.size())
        assert part.isVisible() and inside.contains(box), (part.objectName(), box, inside)


def test_dates_at_1024x700_shows_title_start_place_and_fee_without_scrolling(start: Any) -> None:
    window = start().window
    screen_sized(window, 1024, 700)
    tab = click_tab(window, OCCASIONS)
    QApplication.processEvents()
    tab.columns.fit_title()
    width = tab.view.viewport().width()
    edges = _right_edges(tab, ["title", "start", "city", "fee"])
    assert all(0 < edge <= width for edge in edges.values()), (edges, width)
    assert tab.view.horizontalHeader().sectionSize(column_index(OCCASIONS, "title")) >= 120


def test_at_1920x1080_no_tab_scrolls_sideways_with_its_default_columns(start: Any) -> None:
    from catalogue_desktop.ui.shell.window_layout import first_geometry

    window = start().window
    frame = first_geometry(QRect(0, 0, 1920, 1080), (800, 600))  # as a first start opens there
    screen_sized(window, frame.width(), frame.height())
    for kind in window.tab_kinds():
        tab = click_tab(window, kind)
        QApplication.processEvents()
        assert tab.view.horizontalScrollBar().maximum() == 0, kind.label


def test_the_details_pane_hides_and_shows_from_the_view_menu_and_its_key_remembered(start: Any) -> None:
    window = start(finder_ready=False).window
    screen_sized(window, 1280, 800)
    assert "Details pane" in menu_items(window, "View")
    tab = click_tab(window, Kind.WEBINARS)
    click_row(tab, 0)
    assert tab.detail.isVisible()
    key(tab.view, Qt.Key.Key_D, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier)
    assert not tab.detail.isVisible() and not window.menu_actions.details_action.isChecked()
    courses = click_tab(window, Kind.COURSES)
    click_row(courses, 0)
    assert not courses.detail.isVisible()  # one setting for every tab
    window.close()
    again = start(finder_ready=False).window
    screen_sized(again, 1280, 800)
    tab = click_tab(again, Kind.WEBINARS)
    click_row(tab, 0)
    assert not tab.detail.isVisible()
    again.menu_actions.details_action.trigger()  # View ▸ Details pane
    assert tab.detail.isVisible()


def test_the_table_detail_split_is_one_setting_for_all_tabs_and_remembered(start: Any) -> None:
    window = start(finder_ready=False).window
    screen_sized(window, 1280, 800)
    tab = click_tab(window, Kind.WEBINARS)
    handle = tab.splitter.handle(1)
    before = tab.splitter.sizes()
    middle = QPoint(handle.width() // 2, handle.height() // 2)
    QTest.mousePress(handle, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, middle)
    QTest.mouseMove(handle, middle - QPoint(150, 0))
    QTest.mouseRelease(
        handle, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, middle - QPoint(150, 0)
    )
    QApplication.processEvents()
    moved = tab.splitter.sizes()
    assert moved[1] > before[1] + 100, (before, moved)
    courses = click_tab(window, Kind.COURSES)
    assert courses.splitter.sizes() == moved
    window.close()
    again = start(finder_ready=False).window
    screen_sized(again, 1280, 800)
    assert click_tab(again, Kind.TOPICS).splitter.sizes() == moved


def test_the_details_reflow_to_their_width_and_never_stay_scrolled_sideways(start: Any) -> None:
    window = start(finder_ready=False).window
    screen_sized(window, 1024, 700)
    for kind in (Kind.WEBINARS, Kind.SERIES, Kind.COURSES, Kind.CERTIFICATES, Kind.EXPERTS):
        tab = click_tab(window, kind)
        for row in range(min(tab.model.rowCount(), 6)):
            click_row(tab, row)
            scroll = tab.detail.current_page()
            while scroll is not None and not hasattr(scroll, "horizontalScrollBar"):
                scroll = scroll.parentWidget()
            content = scroll.widget()
            assert content.width() <= scroll.viewport().width(), (kind.label, row)  # nothing cut on the right
            for _ in range(6):  # Tab walks the details' links
                key(QApplication.focusWidget() or tab.view, Qt.Key.Key_Tab)
            click_row(tab, row + 1)
            assert scroll.horizontalScrollBar().value() == 0, (kind.label, row)


def test_dialogs_fit_the_screen_with_their_buttons_on_it(start: Any) -> None:
    from PySide6.QtWidgets import QDialogButtonBox

    from tests.journeys.hands import when_dialog_opens

    window = start(finder_ready=False).window
    window.show()
    screen = window.screen().availableGeometry()
    seen: list[str] = []

    def check(dialog: Any) -> None:
        QApplication.processEvents()
        buttons = dialog.findChild(QDialogButtonBox)
        box = QRect(buttons.mapToGlobal(QPoint(0, 0)), buttons.size())
        seen.append(dialog.windowTitle())
        assert dialog.height() <= screen.height() and box.bottom() <= screen.bottom(), (
            dialog.windowTitle(),
            box,
        )
        dialog.reject()

    for act in ("Query language and fields", "Keyboard shortcuts", "Preferences…"):
        when_dialog_opens(check)
        next(
            a for a in window.findChildren(type(window.menu_actions.find_action)) if a.text() == act
        ).trigger()
    assert len(seen) == 3, seen
