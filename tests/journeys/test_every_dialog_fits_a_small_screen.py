"""Every dialog the menus open fits a 1024x700 screen with its buttons on it, and every table or
tree in it labels each of its columns (issue 39, points 15 and 16: Preferences was 731 px tall,
the connection's dialog asked for 820 px; the series sessions' Title column had no visible
heading).

The walk takes each menu entry that asks something (its text ends in "…", and Help's pages),
opens it as a person does (the menu's own action) over a window of 1024x700, and looks at what
opened: its smallest size within the screen's room, its button rows inside it once it is sized
to that room, and every column heading of its tables and trees."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDialog,
    QDialogButtonBox,
    QTableView,
    QTreeView,
    QWidget,
)

from catalogue_desktop.core.records.kinds import OCCASIONS
from catalogue_desktop.ui.finder.commands import menu_commands
from tests.journeys.hands import (
    click_row,
    click_tab,
    screen_sized,
    stop_polls,
    type_query,
    until,
    when_dialog_opens,
)

SCREEN = QSize(1024, 700)
TITLE_BAR = 32  # what a window manager's frame takes of the screen's height above a dialog
ROOM = QSize(SCREEN.width(), SCREEN.height() - TITLE_BAR)
NO_DIALOG = {"Find…"}  # (puts the cursor in the query box)


def header_problems(view: QTableView | QTreeView, where: str) -> list[str]:
    """The column headings of ``view`` that a person cannot read: blank, narrower than their
    name, or (in a view that does not scroll sideways) out of its sight."""
    header = view.horizontalHeader() if isinstance(view, QTableView) else view.header()
    if header.isHidden():
        return []
    model = view.model()
    problems = []
    metrics = header.fontMetrics()
    scrolls = view.horizontalScrollBarPolicy() != Qt.ScrollBarPolicy.ScrollBarAlwaysOff
    for section in range(header.count()):
        if header.isSectionHidden(section):
            continue
        text = str(model.headerData(section, header.orientation()) or "").strip()
        if not text:
            problems.append(f"{where}: column {section} has no heading")
            continue
        wide = metrics.horizontalAdvance(text)
        if header.sectionSize(section) < wide:
            problems.append(f"{where}: heading {text!r} is {header.sectionSize(section)} px of {wide}")
        if scrolls:
            continue
        left = header.sectionViewportPosition(section)
        shown = min(left + header.sectionSize(section), header.viewport().width()) - max(left, 0)
        if shown < wide:
            problems.append(f"{where}: heading {text!r} shows {shown} px of {wide}")
    return problems


def fit_problems(dialog: QWidget) -> list[str]:
    """What keeps ``dialog`` from fitting a 1024x700 screen with its buttons and headings shown."""
    title = dialog.windowTitle()
    problems = []
    screen = dialog.screen().availableGeometry()  # (the test's screen: a dialog sizes itself to it)
    if dialog.height() > screen.height() or dialog.width() > screen.width():
        opened, room = f"{dialog.width()}x{dialog.height()}", f"{screen.width()}x{screen.height()}"
        problems.append(f"{title}: opened {opened} on a {room} screen")
    smallest = dialog.minimumSizeHint().expandedTo(dialog.minimumSize())
    if smallest.width() > ROOM.width() or smallest.height() > ROOM.height():
        problems.append(f"{title}: needs at least {smallest.width()}x{smallest.height()}")
    dialog.resize(dialog.size().boundedTo(ROOM))  # as it opens on that screen
    QApplication.processEvents()
    inside = QRect(QPoint(0, 0), dialog.size())
    if dialog.width() > ROOM.width() or dialog.height() > ROOM.height():
        problems.append(f"{title}: {dialog.width()}x{dialog.height()} on a 1024x700 screen")
    for buttons in dialog.findChildren(QDialogButtonBox):
        if not buttons.isVisibleTo(dialog):
            continue
        box = QRect(buttons.mapTo(dialog, QPoint(0, 0)), buttons.size())
        if not inside.contains(box):
            problems.append(f"{title}: its buttons at {box} are outside {inside}")
    for view in dialog.findChildren(QAbstractItemView):
        if isinstance(view, QTableView | QTreeView) and view.isVisibleTo(dialog) and view.model() is not None:
            problems += header_problems(view, f"{title} ▸ {view.accessibleName() or view.objectName()}")
    return problems


def _open_dialogs() -> list[QDialog]:
    return [w for w in QApplication.topLevelWidgets() if isinstance(w, QDialog) and w.isVisible()]


def test_every_dialog_the_menus_open_fits_1024x700_with_its_buttons_and_headings(start: Any) -> None:
    window = start().window
    screen_sized(window, SCREEN.width(), SCREEN.height())
    tab = click_tab(window, OCCASIONS)
    click_row(tab, 0)  # (the offers offer the selected date)
    type_query(window, "ethics")  # (a search to save)
    seen: dict[str, list[str]] = {}
    commands = [
        c
        for c in menu_commands(window.menuBar())
        if (c.text.endswith("…") or c.path == "Help") and c.text not in NO_DIALOG
    ]
    for command in commands:
        name = f"{command.path} ▸ {command.text}"

        def look(dialog: Any, name: str = name) -> None:
            seen[name] = fit_problems(dialog)
            dialog.reject() if isinstance(dialog, QDialog) else dialog.close()

        before = set(_open_dialogs())
        opened = when_dialog_opens(look)  # a modal one
        command.action.trigger()

        def something_opened(opened: list[Any] = opened, before: set[QDialog] = before) -> bool:
            return bool(opened) or bool(set(_open_dialogs()) - before)

        try:  # (or one that leaves the window usable: Report a problem…'s)
            until(something_opened)
        except AssertionError:
            raise AssertionError(f"{name} opened no dialog (seen: {sorted(seen)})") from None
        stop_polls()  # (a modal one's wait, had none opened, would catch the next)
        for dialog in set(_open_dialogs()) - before:
            look(dialog)
        QApplication.processEvents()
    assert len(seen) == len(commands) >= 12, sorted(seen)
    assert not [p for problems in seen.values() for p in problems], seen
