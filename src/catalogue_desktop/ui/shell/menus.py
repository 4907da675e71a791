"""The main window's actions, menus and toolbar (one place, so that the window stays wiring).

Every action has its text, shortcut and tip here; Help ▸ Keyboard shortcuts lists them from the
actions themselves (``shortcut_rows``), so the list cannot drift from what the keys do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QIcon, QKeySequence

from catalogue_desktop.qt_compat.icons import theme_icon

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
    keys = [QKeySequence(k) for k in ([shortcut] if shortcut is not None else []) + list(extra or ())]
    if keys:
        act.setShortcuts(keys)
    act.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
    act.setToolTip(tip or text.replace("…", ""))
    act.triggered.connect(lambda _checked=False: slot())
    window.addAction(act)
    return act


def build(window: Any) -> None:
    """Make the window's actions (as attributes of it), its menus and its toolbar."""
    w = window
    w.export_action = action(w, "Export visible rows…", w.export_dialog)
    quit_action = action(w, "Quit", w.close, "Ctrl+Q")
    w.back_action = action(w, "Back", w.go_back, "Alt+Left")
    w.forward_action = action(w, "Forward", w.go_forward, "Alt+Right")
    w.refresh_action = action(
        w, "Refresh", w.refresh_requested.emit, "F5", "Refresh the catalogue from the service (F5)"
    )
    w.changes_action = w.changes_dock.toggleViewAction()
    w.changes_action.setText("Changes")
    w.find_action = action(w, "Find…", w.query_box.focus, "Ctrl+F", "Type a query for every tab (Ctrl+F)")
    w.quick_action = action(
        w,
        "Quick open…",
        w.quick_open,
        "Ctrl+K",
        "Open any record by title, name or id, or run a command (Ctrl+K)",
    )
    w.next_tab_action = action(w, "Next tab", lambda: w.step_tab(1), "Ctrl+Tab", extra=["Ctrl+PgDown"])
    w.previous_tab_action = action(
        w, "Previous tab", lambda: w.step_tab(-1), "Ctrl+Shift+Tab", extra=["Ctrl+PgUp"]
    )
    w.tab_actions = [
        action(w, kind.label, lambda k=kind: w.show_tab(k), f"Ctrl+{i + 1}")
        for i, kind in enumerate(w.tab_kinds())
    ]
    w.save_search_action = action(
        w, "Save search…", w.save_search, "Ctrl+D", "Remember this query and tab under a name (Ctrl+D)"
    )
    w.organize_searches_action = action(w, "Organize searches…", w.organize_searches)

    w.offer_actions = [  # the Dates tab's offers (ui.offers.desk)
        action(
            w,
            "Offer sheet (PDF)…",
            lambda: w.offer("pdf"),
            tip="Save an offer sheet of the Dates tab's selected occasions (or all it shows) as a PDF file",
        ),
        action(
            w,
            "Print offer sheet…",
            lambda: w.offer("print"),
            "Ctrl+P",
            "Print the offer sheet of the Dates tab's selected occasions, with a preview (Ctrl+P)",
        ),
        action(
            w,
            "Calendar file (.ics)…",
            lambda: w.offer("ics"),
            tip="Save the Dates tab's selected occasions (or all it shows) as calendar events",
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

    w.catalogue_menu = CatalogueMenu(w)  # File ▸ Catalogue: the catalogues (profiles)
    file_menu.addMenu(w.catalogue_menu)
    file_menu.addAction(w.export_action)
    offer_menu = file_menu.addMenu("&Offer from Dates")
    for act in w.offer_actions:
        offer_menu.addAction(act)
    file_menu.addSeparator()
    file_menu.addAction(quit_action)
    view_menu = bar.addMenu("&View")
    view_menu.addAction(w.changes_action)
    view_menu.addAction(w.status_dock.toggleViewAction())
    facets = w.facet_dock.toggleViewAction()
    facets.setText("Facets")
    view_menu.addAction(facets)
    view_menu.addAction(w.find_action)
    w.columns_menu = view_menu.addMenu("Columns")
    w.columns_menu.aboutToShow.connect(w.fill_columns_menu)
    go_menu = bar.addMenu("&Go")
    for act in (w.back_action, w.forward_action, w.quick_action, w.next_tab_action, w.previous_tab_action):
        go_menu.addAction(act)
    go_menu.addSeparator()
    for act in w.tab_actions:
        go_menu.addAction(act)
    w.searches_menu = bar.addMenu("&Searches")
    w.searches_menu.aboutToShow.connect(w.fill_searches_menu)
    catalogue_menu = bar.addMenu("&Catalogue")
    catalogue_menu.addAction(w.refresh_action)
    catalogue_menu.addAction("Service URL…", w.service_url_dialog)
    catalogue_menu.addAction("Currency…", w.currency_dialog)
    w.preferences_action = action(
        w,
        "Preferences…",
        w.preferences_dialog,
        "Ctrl+,",
        "Type labels, on-demand codes, time zones, currency (Ctrl+,)",
    )
    catalogue_menu.addAction(w.preferences_action)
    help_menu = bar.addMenu("&Help")
    help_menu.addAction("Query language and fields", w.query_help)
    help_menu.addAction("Keyboard shortcuts", w.shortcuts_help)
    help_menu.addSeparator()
    help_menu.addAction("About", w.about)

    toolbar = w.addToolBar("Main")
    toolbar.setObjectName("toolbar-main")
    toolbar.setMovable(False)
    toolbar.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    for act, icon in (
        (w.back_action, "back"),
        (w.forward_action, "forward"),
        (w.refresh_action, "refresh"),
        (w.changes_action, "changes"),
        (w.export_action, "export"),
    ):
        act.setIcon(toolbar_icon(icon))
        toolbar.addAction(act)
    toolbar.addSeparator()
    toolbar.addWidget(w.query_box.edit)
    toolbar.setAccessibleName("Main toolbar")


def shortcut_rows(window: Any) -> list[tuple[str, str]]:
    """(keys, what they do) for every action of the window that has a shortcut."""
    rows = []
    for act in window.actions():
        keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in act.shortcuts()]
        if keys:
            rows.append((", ".join(keys), act.text().replace("&", "").replace("…", "")))
    return rows
