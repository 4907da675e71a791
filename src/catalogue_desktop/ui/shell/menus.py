"""The main window's actions, menus and toolbar (one place, so that the window stays wiring).

Every action has its text, shortcut and tip here; Help ▸ Keyboard shortcuts lists them from the
actions themselves (``shortcut_rows``), so the list cannot drift from what the keys do.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QIcon, QKeySequence

from catalogue_desktop.qt_compat.icons import theme_icon

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMenu

    from catalogue_desktop.ui.shell.catalogue_menu import CatalogueMenu

# Toolbar icons: the desktop's icon theme (freedesktop names), else Qt's own images (not QStyle:
# see ``qt_compat.icons``).
TOOLBAR_ICONS = {
    "back": ("go-previous", "arrow-left-32.png"),
    "forward": ("go-next", "arrow-right-32.png"),
    "refresh": ("view-refresh", "refresh-32.png"),
    "changes": ("view-list-details", "viewdetailed-32.png"),
    "export": ("document-save", "standardbutton-save-32.png"),
}


def toolbar_icon(name: str) -> QIcon:
    """The toolbar icon ``name`` (a key of ``TOOLBAR_ICONS``)."""
    return theme_icon(*TOOLBAR_ICONS[name])


def action(
    window: Any, text: str, slot: Callable[[], Any], shortcut: Any = None, tip: str = "", *, extra: Any = None
) -> QAction:
    """An action of the window (its shortcut works wherever the focus is in the window)."""
    act = QAction(text, window)
    if isinstance(shortcut, QKeySequence.StandardKey):  # the platform's keys (Copy: Ctrl+C, Ctrl+Ins…)
        keys = QKeySequence.keyBindings(shortcut)
    else:
        keys = [QKeySequence(k) for k in ([shortcut] if shortcut is not None else []) + list(extra or ())]
    if keys:
        act.setShortcuts(keys)
    act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    act.setToolTip(tip or text.replace("…", ""))
    act.triggered.connect(lambda _checked=False: slot())
    window.addAction(act)
    return act


class WindowActions:
    """The window's actions and menus that it (or a test) uses after ``build``. (A plain class:
    making a frozen dataclass of 20 fields, its methods compiled from source, was ~1 ms of the
    window's start-up: docs/decisions.md, "Start-up and Qt".)"""

    export_action: QAction
    back_action: QAction
    forward_action: QAction
    refresh_action: QAction
    changes_action: QAction
    find_action: QAction
    quick_action: QAction
    next_tab_action: QAction
    previous_tab_action: QAction
    tab_actions: list[QAction]
    save_search_action: QAction
    organize_searches_action: QAction
    offer_actions: list[QAction]
    columns_menu: QMenu
    searches_menu: QMenu
    catalogue_menu: CatalogueMenu
    preferences_action: QAction
    details_action: QAction
    copy_action: QAction
    select_all_action: QAction

    def __init__(self, **parts: Any) -> None:
        named = self.__annotations__.keys()
        if parts.keys() != named:
            raise TypeError(f"WindowActions: missing {named - parts.keys()}, unknown {parts.keys() - named}")
        self.__dict__.update(parts)


def build(window: Any) -> WindowActions:
    """Make the window's actions, its menus and its toolbar; returns the actions the window
    uses again (``MainWindow.menu_actions``)."""
    w = window
    export_action = action(w, "Export visible rows…", w.export_dialog)
    quit_action = action(w, "Quit", w.close, "Ctrl+Q")
    back_action = action(w, "Back", w.go_back, "Alt+Left")
    forward_action = action(w, "Forward", w.go_forward, "Alt+Right")
    refresh_action = action(
        w, "Refresh", w.refresh_requested.emit, "F5", "Refresh the catalogue from the service (F5)"
    )
    changes_action = w.changes_dock.toggleViewAction()
    changes_action.setText("Changes")
    find_keys = QKeySequence(QKeySequence.StandardKey.Find).toString(QKeySequence.SequenceFormat.NativeText)
    find_tip = f"Type a query for every tab ({find_keys})"
    find_action = action(w, "Find…", w.query_box.focus, QKeySequence.StandardKey.Find, find_tip)
    copy_action = action(
        w,
        "Copy",
        lambda: w.current_tab().copy_selection(),
        QKeySequence.StandardKey.Copy,
        "Copy the selected rows (on Dates: for an e-mail)",
    )
    select_all_action = action(
        w, "Select All", lambda: w.current_tab().view.selectAll(), QKeySequence.StandardKey.SelectAll
    )
    details_action = action(
        w,
        "Details pane",
        lambda: w.window_layout.set_details_shown(details_action.isChecked()),
        "Ctrl+Shift+D",
        "Show or hide the selected record's details beside the table (Ctrl+Shift+D)",
    )
    details_action.setCheckable(True)
    details_action.setChecked(w.window_layout.details_shown)
    w.window_layout.details_shown_changed.connect(details_action.setChecked)
    quick_action = action(
        w,
        "Quick open…",
        w.quick_open,
        "Ctrl+K",
        "Open any record by title, name or id, or run a command (Ctrl+K)",
    )
    offers_action = action(
        w,
        "Offers",
        w.offers_requested.emit,
        "Ctrl+Shift+O",
        "The offers made, each checked against the catalogue; re-issue one from today's data (Ctrl+Shift+O)",
    )
    next_tab_action = action(w, "Next tab", lambda: w.step_tab(1), "Ctrl+Tab", extra=["Ctrl+PgDown"])
    previous_tab_action = action(
        w, "Previous tab", lambda: w.step_tab(-1), "Ctrl+Shift+Tab", extra=["Ctrl+PgUp"]
    )
    tab_actions = [
        action(w, kind.label, partial(w.show_tab, kind), f"Ctrl+{i + 1}")
        for i, kind in enumerate(w.tab_kinds())
    ]
    save_search_action = action(
        w, "Save search…", w.save_search, "Ctrl+D", "Remember this query and tab under a name (Ctrl+D)"
    )
    organize_searches_action = action(w, "Organize searches…", w.organize_searches)

    offer_actions = [  # the offers (ui.offers.routing: of the Dates tab, or of selected records)
        action(
            w,
            "Offer sheet (PDF)…",
            lambda: w.offer("pdf"),
            tip="Save an offer sheet as a PDF file: of the Dates tab's selected occasions (or all it shows), "
            "or of the selected series', courses' or webinars' upcoming dates",
        ),
        action(
            w,
            "Print offer sheet…",
            lambda: w.offer("print"),
            "Ctrl+P",
            "Print the offer sheet of the Dates tab's selected occasions (or the selected series', "
            "courses' or webinars' upcoming dates), with a preview (Ctrl+P)",
        ),
        action(
            w,
            "Calendar file (.ics)…",
            lambda: w.offer("ics"),
            tip="Save the Dates tab's selected occasions (or all it shows), or the selected series', "
            "courses' or webinars' upcoming dates, as calendar events",
        ),
        action(
            w,
            "Copy for email",
            lambda: w.offer("copy"),
            tip="Copy the Dates tab's selected "
            "occasions as text and a table for an e-mail (Ctrl+C in the Dates table)",
        ),
    ]

    bar = w.menuBar()
    file_menu = bar.addMenu("&File")
    from catalogue_desktop.ui.shell.catalogue_menu import CatalogueMenu

    catalogues = CatalogueMenu(w)  # File ▸ Catalogue: the catalogues (profiles)
    file_menu.addMenu(catalogues)
    file_menu.addAction(export_action)
    offer_menu = file_menu.addMenu("&Offer")
    for act in offer_actions:
        offer_menu.addAction(act)
    file_menu.addSeparator()
    file_menu.addAction(quit_action)
    edit_menu = bar.addMenu("&Edit")
    for act in (copy_action, select_all_action):
        edit_menu.addAction(act)
    edit_menu.addSeparator()
    edit_menu.addAction(find_action)
    view_menu = bar.addMenu("&View")
    view_menu.addAction(changes_action)
    view_menu.addAction(w.status_dock.toggleViewAction())
    facets = w.facet_dock.toggleViewAction()
    facets.setText("Facets")
    view_menu.addAction(facets)
    view_menu.addAction(details_action)
    columns_menu = view_menu.addMenu("Columns")
    columns_menu.aboutToShow.connect(w.fill_columns_menu)
    go_menu = bar.addMenu("&Go")
    for act in (
        back_action,
        forward_action,
        quick_action,
        offers_action,
        next_tab_action,
        previous_tab_action,
    ):
        go_menu.addAction(act)
    go_menu.addSeparator()
    for act in tab_actions:
        go_menu.addAction(act)
    searches_menu = bar.addMenu("&Searches")
    searches_menu.aboutToShow.connect(w.fill_searches_menu)
    catalogue_menu = bar.addMenu("&Catalogue")
    catalogue_menu.addAction(refresh_action)
    catalogue_menu.addAction("Service URL…", w.service_url_dialog)
    preferences_action = action(
        w,
        "Preferences…",
        w.preferences_dialog,
        "Ctrl+,",
        "Type labels, on-demand codes, time zones, currency (Ctrl+,)",
    )
    catalogue_menu.addAction(preferences_action)
    help_menu = bar.addMenu("&Help")
    help_menu.addAction("Query language and fields", w.query_help)
    help_menu.addAction("Keyboard shortcuts", w.shortcuts_help)
    help_menu.addAction("Report a problem…", w.problem_report_requested.emit)
    help_menu.addSeparator()
    help_menu.addAction("About", w.about)

    toolbar = w.addToolBar("Main")
    toolbar.setObjectName("toolbar-main")
    toolbar.setMovable(False)
    toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    for act, icon in (
        (back_action, "back"),
        (forward_action, "forward"),
        (refresh_action, "refresh"),
        (changes_action, "changes"),
        (export_action, "export"),
    ):
        act.setIcon(toolbar_icon(icon))
        toolbar.addAction(act)
        if icon in ("back", "forward"):  # arrows say it (and their tips): room for the query
            toolbar.widgetForAction(act).setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)
    export_action.setIconText("Export")
    toolbar.addSeparator()
    toolbar.addWidget(w.query_box.edit)
    toolbar.setAccessibleName("Main toolbar")
    return WindowActions(
        export_action=export_action,
        back_action=back_action,
        forward_action=forward_action,
        refresh_action=refresh_action,
        changes_action=changes_action,
        find_action=find_action,
        quick_action=quick_action,
        next_tab_action=next_tab_action,
        previous_tab_action=previous_tab_action,
        tab_actions=tab_actions,
        save_search_action=save_search_action,
        organize_searches_action=organize_searches_action,
        offer_actions=offer_actions,
        columns_menu=columns_menu,
        searches_menu=searches_menu,
        preferences_action=preferences_action,
        catalogue_menu=catalogues,
        details_action=details_action,
        copy_action=copy_action,
        select_all_action=select_all_action,
    )


def shortcut_rows(window: Any) -> list[tuple[str, str]]:
    """(keys, what they do) for every action of the window that has a shortcut."""
    rows = []
    for act in window.actions():
        keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in act.shortcuts()]
        if keys:
            rows.append((", ".join(keys), act.text().replace("&", "").replace("…", "")))
    return rows
