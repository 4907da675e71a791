"""A person's hands on the real main window, for the journeys: clicks on tabs, rows, facets and
menus, keys and typing, dialogs answered when they open. They act only through the widgets a
person uses (the tab bar, the query box, the palette, the facet tree, dialogs) and read back what
a person sees. The fixtures that start the window are in ``conftest.py``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from PySide6.QtCore import QElapsedTimer, QModelIndex, QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QFont, QFontMetrics
from PySide6.QtTest import QTest
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QApplication,
    QDialog,
    QDialogButtonBox,
    QMenu,
    QMessageBox,
    QStyle,
    QTableView,
    QTreeView,
    QWidget,
)
from pytestqt.exceptions import TimeoutError as WaitTimedOut

from catalogue_desktop.ui.finder.palette import Item, Palette

ZONE = re.compile(r"(UTC[+−]\d\d:\d\d|\(UTC[+−]\d\d:\d\d\))$")  # a time's zone label, at its end


def click_tab(window: Any, kind: Any) -> Any:
    """Click ``kind``'s tab on the tab bar; its tab."""
    bar = window.tab_widget.tabBar()
    index = window.tab_kinds().index(kind)
    QTest.mouseClick(
        bar, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, bar.tabRect(index).center()
    )
    QApplication.processEvents()
    assert window.current_kind() is kind
    return window.current_tab()


def screen_sized(window: Any, width: int, height: int) -> None:
    """The window as a window manager shows it on a ``width`` x ``height`` screen, maximised."""
    window.show()
    window.resize(width, height)
    QApplication.processEvents()
    window.current_tab().columns.fit_title()
    QApplication.processEvents()


def key(
    widget: QWidget, name: Qt.Key, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier
) -> None:
    """A key pressed in ``widget``'s window, which is the active one (as when a person types)."""
    if QApplication.activeWindow() is not widget.window():
        widget.window().activateWindow()
        QApplication.processEvents()
    QTest.keyClick(widget, name, modifier)
    QApplication.processEvents()


def type_query(window: Any, text: str, *, enter: bool = True) -> None:
    """Click into the query box, select what it holds, type ``text`` (nothing: Delete), then Enter."""
    edit = window.query_box.edit
    QTest.mouseClick(edit, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, QPoint(5, 5))
    QTest.keyClick(edit, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    if text:
        QTest.keyClicks(edit, text)
    else:
        QTest.keyClick(edit, Qt.Key.Key_Delete)
    if enter:
        QTest.keyClick(edit, Qt.Key.Key_Return)
    QApplication.processEvents()


def each_case(cases: Iterable[Any], check: Callable[[Any], None]) -> None:
    """Cases that drive the same path with different data, in one window (a start costs more than
    most cases): ``check(case)`` for each in turn, and every case that fails is reported with its
    own message, not only the first. ``check`` begins by putting the window back where a fresh
    start has it, and asserts it is."""
    failed = []
    for case in cases:
        try:
            check(case)
        except (AssertionError, WaitTimedOut) as error:  # (pytest-qt's waitUntil raises its own)
            failed.append(f"{case!r}: {error}")
    assert not failed, "\n\n".join(failed)


def until(condition: Callable[[], object], timeout_ms: int = 5000) -> None:
    """Let the event loop run until ``condition()`` holds (qtbot.waitUntil, for helpers that have
    no qtbot); fails after ``timeout_ms``."""
    timer = QElapsedTimer()
    timer.start()
    while not condition():
        assert timer.elapsed() < timeout_ms, f"still not so after {timeout_ms} ms"
        QTest.qWait(5)  # (the loop runs meanwhile: QTest.qWaitFor is not in PySide6)


def menu_items(window: Any, title: str) -> list[str]:
    """The texts of a menu bar menu's items (submenus' items too, as "Sub ▸ Item")."""
    menu = next(a.menu() for a in window.menuBar().actions() if a.text().replace("&", "") == title)
    menu.aboutToShow.emit()  # menus filled when shown (Columns, Searches)

    def walk(m: QMenu, prefix: str) -> list[str]:
        out = []
        for act in m.actions():
            if act.isSeparator():
                continue
            text = prefix + act.text().replace("&", "")
            out.append(text)
            submenu = act.menu()
            if isinstance(submenu, QMenu):
                out += walk(submenu, text + " ▸ ")
        return out

    return walk(menu, "")


_POLLS: list[QTimer] = []  # every dialog poll still running: stopped when its test ends


def stop_polls() -> None:
    """Stop the polls whose dialog never opened: one firing after its test (during teardown, or
    at the interpreter's exit with its Python callable half torn down) crashed the run (exit
    status 139). The journeys' conftest calls this after every test."""
    for timer in _POLLS:
        timer.stop()
        timer.deleteLater()
    _POLLS.clear()


def when_dialog_opens(act: Any, timeout_ms: int = 5000) -> list[Any]:
    """Call ``act(dialog)`` once the next modal dialog (or message box) is open; returns
    [dialog] once done (empty if none opened)."""
    done: list[Any] = []
    waited = [0]
    timer = QTimer()
    timer.setInterval(20)
    _POLLS.append(timer)

    def poll() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            waited[0] += 20
            if waited[0] >= timeout_ms:
                timer.stop()
            return
        timer.stop()
        done.append(dialog)
        try:
            act(dialog)
        except BaseException:
            # a dialog that is not as expected: closed, the test fails (no hang)
            dialog.reject() if isinstance(dialog, QDialog) else dialog.close()
            raise

    timer.timeout.connect(poll)
    timer.start()
    return done


def click_row(tab: Any, row: int, modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier) -> None:
    """Click a row of ``tab``'s table (on its first visible cell, scrolled to it first)."""
    view = tab.view
    column = view.horizontalHeader().logicalIndexAt(5)
    view.scrollTo(tab.model.index(row, column))
    QApplication.processEvents()
    point = view.visualRect(tab.model.index(row, column)).center()
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, modifier, point)
    QApplication.processEvents()


def status_text(window: Any) -> str:
    return str(window.statusBar().currentMessage())


def facet_rows(window: Any) -> dict[str, list[str]]:
    """The facet panel as shown: facet title -> its value rows' texts ("✓ Live  3")."""
    model = window.facet_panel.model
    out: dict[str, list[str]] = {}
    for row in range(model.rowCount()):
        parent = model.index(row, 0)
        out[str(parent.data())] = [
            f"{model.index(r, 0, parent).data()}  {model.index(r, 1, parent).data()}"
            for r in range(model.rowCount(parent))
        ]
    return out


def selected_ids(tab: Any) -> list[int]:
    return sorted(tab.model.record_id(i.row()) for i in tab.view.selectionModel().selectedRows())


def press_ok_in_next_dialog(qtbot: Any) -> list[str]:
    """When the next modal dialog opens, click its OK button (returns [its title] once done)."""
    done: list[str] = []

    def press() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            QTimer.singleShot(20, press)
            return
        box = dialog.findChild(QDialogButtonBox)
        assert box is not None, f"no buttons in {dialog.windowTitle()!r}"
        ok = box.button(QDialogButtonBox.StandardButton.Ok)
        done.append(dialog.windowTitle())
        QTest.mouseClick(ok, Qt.MouseButton.LeftButton)

    QTimer.singleShot(0, press)
    return done


def preferences_ok(qtbot: Any, window: Any) -> None:
    """Catalogue ▸ Preferences…, then OK, nothing changed."""
    done = press_ok_in_next_dialog(qtbot)
    window.menu_actions.preferences_action.trigger()
    assert done, "Preferences did not open"
    QApplication.processEvents()


def open_palette(window: Any, text: str) -> Palette:
    """Ctrl+K where the focus is, type ``text``; returns the palette, its hits shown."""
    window.activateWindow()
    focus = QApplication.focusWidget() or window
    key(focus, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    palette = QApplication.activeModalWidget()
    assert isinstance(palette, Palette) and palette.windowTitle() == "Quick open", palette
    QTest.keyClicks(palette.line, text)
    palette.update_hits()  # (the palette looks after 15 ms of no typing)
    return palette


def quick_open(qtbot: Any, window: Any, text: str, downs: int = 0, *, first: str | None = None) -> Item:
    """Ctrl+K, type ``text``, Down ``downs`` times (or to the ``first`` item that is a "Course",
    "Command"...), Enter; returns the item chosen."""
    palette = open_palette(window, text)
    if first is not None:
        downs = next(i for i, item in enumerate(palette.model.items) if item.what == first)
    chosen = palette.model.items[downs]
    for _ in range(downs):
        key(palette.line, Qt.Key.Key_Down)
    key(palette.line, Qt.Key.Key_Return)
    return chosen


def pane_text(tab: Any) -> str:
    """The detail pane's message, or its record page's label texts."""
    from PySide6.QtWidgets import QLabel

    page = tab.detail.current_page()
    if isinstance(page, QLabel):
        return str(page.text())
    return "\n".join(label.text() for label in page.findChildren(QLabel))


def choose_in_next_popup_menu(text: str) -> list[str]:
    """When the next popup menu opens, click its entry ``text`` (returns [text] once done)."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QMenu

    done: list[str] = []

    def choose() -> None:
        menu = QApplication.activePopupWidget()
        if not isinstance(menu, QMenu):
            QTimer.singleShot(20, choose)
            return
        action = next(a for a in menu.actions() if a.text() == text)
        done.append(text)
        QTest.mouseClick(
            menu,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
            menu.actionGeometry(action).center(),
        )

    QTimer.singleShot(0, choose)
    return done


def facet_index(window: Any, title: str, value: str | None = None, column: int = 0) -> Any:
    """The facet panel's row of facet ``title`` (its title as shown starts with it), or of its
    value ``value`` (as shown, without its ✓/✗ mark)."""
    model = window.facet_panel.model
    for row in range(model.rowCount()):
        parent = model.index(row, 0)
        if not str(parent.data()).startswith(title):
            continue
        if value is None:
            return model.index(row, column)
        for r in range(model.rowCount(parent)):
            shown = str(model.index(r, 0, parent).data()).lstrip("✓✗ ")
            if shown == value:
                return model.index(r, column, parent)
    raise AssertionError(f"no facet {title!r} value {value!r} in {facet_rows(window)}")


def click_facet(
    window: Any,
    title: str,
    value: str | None = None,
    column: int = 0,
    modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
) -> None:
    """Click a facet value (or a facet's row, at ``column``: 1 is its "+N more"), with
    ``modifier`` held (Shift adds, Ctrl leaves out)."""
    tree = window.facet_panel.tree
    index = facet_index(window, title, value, column)
    for _ in range(50):  # (wrapped names: rows' heights settle after a scroll; scroll again)
        tree.scrollTo(index)
        QApplication.processEvents()
        if tree.viewport().rect().contains(tree.visualRect(index).center()):
            break
    assert tree.viewport().rect().contains(tree.visualRect(index).center()), (title, value)
    QTest.mouseClick(
        tree.viewport(),
        Qt.MouseButton.LeftButton,
        modifier,
        tree.visualRect(index).center(),
    )
    QApplication.processEvents()


def show_facets(qtbot: Any, window: Any) -> None:
    """View ▸ Facets shown, the panel filled for the current tab."""
    window.facet_dock.show()
    panel = window.facet_panel
    qtbot.waitUntil(
        lambda: "Preparing" not in panel.heading.text() and panel.model.rowCount() > 0, timeout=5000
    )


def open_offers(qtbot: Any, session: Any, rows: int) -> Any:
    """Go ▸ Offers by its keys (Ctrl+Shift+O in the current tab's table); the Offers window, once
    it shows ``rows`` offers."""
    window = session.window
    key(
        window.current_tab().view,
        Qt.Key.Key_O,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    offers = session.offer_log.window
    assert offers is not None
    qtbot.waitUntil(lambda: offers.isVisible() and offers.offers.rowCount() == rows, timeout=10000)
    return offers


def settle_facets(qtbot: Any, session: Any) -> None:
    """Wait until the facet panel's counts are for the query as it stands (none pending)."""
    qtbot.waitUntil(lambda: not session.finder.panel_pending, timeout=3000)
    QApplication.processEvents()


def open_facets(qtbot: Any, session: Any, kind: Any, query: str) -> Any:
    """Click ``kind``'s tab, show the facets (``show_facets``), type ``query`` and wait for the
    panel's counts (``settle_facets``); returns the tab."""
    tab = click_tab(session.window, kind)
    show_facets(qtbot, session.window)
    type_query(session.window, query)
    settle_facets(qtbot, session)
    return tab


def choose_facet(
    qtbot: Any,
    session: Any,
    title: str,
    value: str,
    modifier: Qt.KeyboardModifier = Qt.KeyboardModifier.NoModifier,
) -> None:
    """Click facet ``title``'s value ``value`` (``click_facet``, with ``modifier`` held), then
    wait for the panel's counts (``settle_facets``)."""
    click_facet(session.window, title, value, modifier=modifier)
    settle_facets(qtbot, session)


def facet_count(window: Any, title: str, value: str) -> int:
    """The count the facet panel shows beside facet ``title``'s value ``value`` (as shown, without
    its ✓/✗ mark)."""
    for shown in next(v for t, v in facet_rows(window).items() if t.startswith(title)):
        text, count = shown.rsplit("  ", 1)
        if text.lstrip("✓✗ ") == value:
            return int(count.replace(",", ""))
    raise AssertionError(f"no {value!r} in {title!r}: {facet_rows(window)}")


def answer_dialogs(act: Any, timeout_ms: int = 10000) -> list[Any]:
    """Call ``act(dialog)`` for each modal dialog (or message box) that opens from now on, each
    once, in turn (an offer asks several: the data's age, the offer's dialog...); returns the
    dialogs answered so far. The poll stops ``timeout_ms`` after the last dialog (``stop_polls``
    stops it at the test's end)."""
    done: list[Any] = []
    idle = [0]
    timer = QTimer()
    timer.setInterval(20)
    _POLLS.append(timer)

    def poll() -> None:
        dialog = QApplication.activeModalWidget()
        if dialog is None or (done and dialog is done[-1]):
            idle[0] += 20
            if idle[0] >= timeout_ms:
                timer.stop()
            return
        idle[0] = 0
        done.append(dialog)
        try:
            act(dialog)
        except BaseException:
            dialog.reject() if isinstance(
                dialog, QDialog
            ) else dialog.close()  # not as expected: closed, the test fails (no hang)
            raise

    timer.timeout.connect(poll)
    timer.start()
    return done


def press(dialog: QWidget, text: str, *, start: bool = False) -> None:
    """Click the dialog's button that says ``text`` (OK, Cancel, Continue...; with ``start``, the
    first whose text starts with it: "Calendar file (.ics)…")."""
    for button in dialog.findChildren(QAbstractButton):
        said = button.text().replace("&", "")
        if said == text or (start and said.startswith(text)):
            QTest.mouseClick(button, Qt.MouseButton.LeftButton)
            return
    raise AssertionError(f"no {text!r} button in {dialog.windowTitle()!r}")


def press_continue(dialog: Any) -> bool:
    """If ``dialog`` is the warning about the data's age (a message box with Continue), click its
    Continue, as a seller who makes the offer all the same; whether it was that warning."""
    if not isinstance(dialog, QMessageBox):
        return False
    if not any(b.text().replace("&", "") == "Continue" for b in dialog.buttons()):
        return False
    press(dialog, "Continue")
    return True


def answer_offer(dialog: Any) -> None:
    """Answer one dialog an offer opens as a seller who goes on: the data's age (``press_continue``),
    a doubtful time (its default button: kept as written), the offer's own dialog (accepted, the
    customer's title as proposed)."""
    if press_continue(dialog):
        return
    if isinstance(dialog, QMessageBox) and dialog.defaultButton() is not None:
        dialog.defaultButton().click()
    else:
        dialog.accept()


def answer_offer_dialogs(timeout_ms: int = 10000) -> list[Any]:
    """Answer every dialog the offers made from now on open (``answer_offer``, through
    ``answer_dialogs``); returns the dialogs answered so far."""
    return answer_dialogs(answer_offer, timeout_ms)


def each_row_shown(
    window: Any, kind: Any, sizes: Iterable[tuple[int, int]], most: int | None = None
) -> Iterator[tuple[str, Any]]:
    """At each screen size of ``sizes`` (``screen_sized``), click ``kind``'s tab, then each of its
    rows in turn (the first ``most``), as a person does; yields (where, the tab) with that row's
    page shown in the details pane, where as a problem names it ("1024x700 series row 3")."""
    for width, height in sizes:
        screen_sized(window, width, height)
        tab = click_tab(window, kind)
        rows = tab.model.rowCount()
        for row in range(rows if most is None else min(rows, most)):
            click_row(tab, row)
            QApplication.processEvents()
            yield f"{width}x{height} {kind.singular} row {row}", tab


def cell_cut(view: QAbstractItemView, index: QModelIndex, text: str) -> bool:
    """Whether ``text`` drawn in ``index``'s cell of ``view`` (in the cell's font, within its text
    margins, wrapped) needs more lines than the cell has."""
    rect = view.visualRect(index)
    margin = view.style().pixelMetric(QStyle.PixelMetric.PM_FocusFrameHMargin, None, view) + 1
    font = index.data(Qt.ItemDataRole.FontRole)
    metrics = QFontMetrics(font) if isinstance(font, QFont) else view.fontMetrics()
    needs = metrics.boundingRect(
        QRect(0, 0, max(1, rect.width() - 2 * margin), 100000), Qt.TextFlag.TextWordWrap, text
    )
    return needs.height() > rect.height()


def rows_top_down(view: QTableView | QTreeView) -> list[QModelIndex]:
    """The first cell of each of ``view``'s rows as a person reads them down: a table's rows, or
    every row of a tree (children under their parent, as expanded)."""
    model = view.model()
    if not isinstance(view, QTreeView):
        return [model.index(row, 0) for row in range(model.rowCount())]
    rows = []
    index = model.index(0, 0)
    while index.isValid():
        rows.append(index)
        index = view.indexBelow(index)
    return rows


def cut_cells(view: QTableView | QTreeView, where: str) -> list[str]:
    """The texts of ``view``'s cells (a table's rows, or every row of a tree top to bottom; the
    columns not hidden) that are cut (``cell_cut``): "<where>: 'text' is cut"."""
    model = view.model()
    problems = []
    for first in rows_top_down(view):
        for column in range(model.columnCount()):
            if view.isColumnHidden(column):
                continue
            cell = first.siblingAtColumn(column)
            text = str(cell.data() or "")
            if text and cell_cut(view, cell, text):
                problems.append(f"{where}: {text!r} is cut")
    return problems
