"""The main window's actions, menus and toolbars (one place, so that the window stays wiring).

Every action has its text, shortcut and tip here; Help ▸ Keyboard shortcuts lists them from the
actions themselves (``dialogs.shortcut_rows``), so the list cannot drift from what the keys do.
What the menus need of the window is ``MenuWindow``: its dialogs, saved searches and offers are
objects of their own (``dialogs.Dialogs``, ``ui.finder.saved_searches.SavedSearches``,
``ui.offers.routing.WindowOffers``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import Qt
from PySide6.QtGui import QAction, QIcon, QKeySequence, QResizeEvent
from PySide6.QtWidgets import QMainWindow, QToolBar, QToolButton, QWidget

from catalogue_desktop.qt_compat.icons import theme_icon
from catalogue_desktop.ui.common import panels

if TYPE_CHECKING:
    from PySide6.QtCore import SignalInstance
    from PySide6.QtWidgets import QDockWidget, QMenu

    from catalogue_desktop.core.records.kinds import ListKind
    from catalogue_desktop.ui.browse.collection_tab import CollectionTab
    from catalogue_desktop.ui.finder.query_box import QueryBox
    from catalogue_desktop.ui.offers.routing import WindowOffers
    from catalogue_desktop.ui.searches.organize import SavedSearches
    from catalogue_desktop.ui.shell.catalogue_menu import CatalogueMenu
    from catalogue_desktop.ui.shell.dialogs import Dialogs
    from catalogue_desktop.ui.shell.navigation import History
    from catalogue_desktop.ui.shell.window_layout import WindowLayout
    from catalogue_desktop.ui.sync.changes_dock import ChangesDock

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
    window: QWidget,
    text: str,
    slot: Callable[[], object],
    shortcut: str | QKeySequence.StandardKey | None = None,
    tip: str = "",
    *,
    extra: Sequence[str] = (),
) -> QAction:
    """An action of the window (its shortcut works wherever the focus is in the window)."""
    act = QAction(text, window)
    if isinstance(shortcut, QKeySequence.StandardKey):  # the platform's keys (Copy: Ctrl+C, Ctrl+Ins…)
        keys = QKeySequence.keyBindings(shortcut)
    else:
        keys = [QKeySequence(k) for k in ([shortcut] if shortcut is not None else []) + list(extra)]
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
    sync_action: QAction
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

    def __init__(self, **parts: object) -> None:
        named = self.__annotations__.keys()
        if parts.keys() != named:
            raise TypeError(f"WindowActions: missing {named - parts.keys()}, unknown {parts.keys() - named}")
        self.__dict__.update(parts)


class MenuWindow(Protocol):
    """What the menus need of the window (``ui.shell.main_window.MainWindow``): the objects their
    entries open, its tabs, docks, query box and history."""

    @property
    def dialogs(self) -> Dialogs: ...
    @property
    def searches(self) -> SavedSearches: ...
    @property
    def offers(self) -> WindowOffers: ...
    @property
    def window_layout(self) -> WindowLayout: ...
    @property
    def query_box(self) -> QueryBox: ...
    @property
    def history(self) -> History: ...
    @property
    def changes_dock(self) -> ChangesDock: ...
    @property
    def status_dock(self) -> QDockWidget: ...
    @property
    def facet_dock(self) -> QDockWidget: ...
    @property
    def sync_requested(self) -> SignalInstance: ...
    @property
    def offers_requested(self) -> SignalInstance: ...  # Go ▸ Offers (the offer log's window)
    @property
    def quick_open_requested(self) -> SignalInstance: ...  # Ctrl+K (the finder opens its palette)
    @property
    def problem_report_requested(self) -> SignalInstance: ...
    def go_back(self) -> None: ...
    def go_forward(self) -> None: ...
    def current_tab(self) -> CollectionTab: ...
    def step_tab(self, step: int) -> None: ...
    def show_tab(self, kind: ListKind) -> CollectionTab: ...
    def tab_kinds(self) -> tuple[ListKind, ...]: ...


def build(window: MenuWindow, catalogues: CatalogueMenu, main: QMainWindow) -> WindowActions:
    """Make the window's actions, its menus (``catalogues``: the Catalogue menu) and its toolbars
    on ``main`` (the window itself); returns the actions the window uses again
    (``MainWindow.menu_actions``)."""
    w, dialogs, searches, offers = window, window.dialogs, window.searches, window.offers
    export_action = action(main, "Export visible rows…", dialogs.export_visible_rows)
    quit_action = action(main, "Quit", main.close, "Ctrl+Q")
    back_action = action(main, "Back", w.go_back, "Alt+Left")
    forward_action = action(main, "Forward", w.go_forward, "Alt+Right")
    sync_action = action(
        main, "Refresh", w.sync_requested.emit, "F5", "Refresh the catalogue from the service (F5)"
    )
    changes_action = QAction("Changes", main)
    changes_action.setToolTip("What the last refresh changed, or any period of the history")
    panels.toggle(changes_action, w.changes_dock, main, lambda: w.current_tab().view)
    find_keys = QKeySequence(QKeySequence.StandardKey.Find).toString(QKeySequence.SequenceFormat.NativeText)
    find_tip = f"Type a query for every tab ({find_keys})"
    find_action = action(main, "Find…", w.query_box.focus, QKeySequence.StandardKey.Find, find_tip)
    copy_action = action(
        main,
        "Copy",
        lambda: w.current_tab().copy_selection(),
        QKeySequence.StandardKey.Copy,
        "Copy the selected rows (on Dates: for an e-mail)",
    )
    select_all_action = action(
        main, "Select All", lambda: w.current_tab().view.selectAll(), QKeySequence.StandardKey.SelectAll
    )
    details_action = action(
        main,
        "Details pane",
        lambda: w.window_layout.set_details_shown(details_action.isChecked()),
        "Ctrl+Shift+D",
        "Show or hide the selected record's details beside the table (Ctrl+Shift+D)",
    )
    details_action.setCheckable(True)
    details_action.setChecked(w.window_layout.details_shown)
    w.window_layout.details_shown_changed.connect(details_action.setChecked)
    quick_action = action(
        main,
        "Quick open…",
        w.quick_open_requested.emit,
        "Ctrl+K",
        "Open any record by title, name or id, or run a command (Ctrl+K)",
    )
    offers_action = action(
        main,
        "Offers",
        w.offers_requested.emit,
        "Ctrl+Shift+O",
        "The offers made, each checked against the catalogue; re-issue one from today's data (Ctrl+Shift+O)",
    )
    next_tab_action = action(main, "Next tab", lambda: w.step_tab(1), "Ctrl+Tab", extra=["Ctrl+PgDown"])
    previous_tab_action = action(
        main, "Previous tab", lambda: w.step_tab(-1), "Ctrl+Shift+Tab", extra=["Ctrl+PgUp"]
    )
    tab_actions = [
        action(main, kind.label, partial(w.show_tab, kind), f"Ctrl+{i + 1}")
        for i, kind in enumerate(w.tab_kinds())
    ]
    save_search_action = action(
        main,
        "Save search…",
        searches.save_current,
        "Ctrl+D",
        "Remember this query and tab under a name (Ctrl+D)",
    )
    organize_searches_action = action(main, "Organize searches…", searches.organize)

    offer_actions = [  # the offers (ui.offers.routing: of the Dates tab, or of selected records)
        action(
            main,
            "Offer sheet (PDF)…",
            lambda: offers.offer("pdf"),
            tip="Save an offer sheet as a PDF file: of the Dates tab's selected dates (or all it shows), "
            "or of the selected series', courses' or webinars' upcoming dates",
        ),
        action(
            main,
            "Print offer sheet…",
            lambda: offers.offer("print"),
            "Ctrl+P",
            "Print the offer sheet of the Dates tab's selected dates (or the selected series', "
            "courses' or webinars' upcoming dates), with a preview (Ctrl+P)",
        ),
        action(
            main,
            "Calendar file (.ics)…",
            lambda: offers.offer("ics"),
            tip="Save the Dates tab's selected dates (or all it shows), or the selected series', "
            "courses' or webinars' upcoming dates, as calendar events",
        ),
        action(
            main,
            "Spreadsheet (.xlsx)…",
            lambda: offers.offer("xlsx"),
            tip="Save the Dates tab's selected dates (or all it shows), or the selected series', "
            "courses' or webinars' upcoming dates, as a spreadsheet",
        ),
        action(
            main,
            "Copy for email",
            lambda: offers.offer("copy"),
            tip="Copy the Dates tab's selected "
            "dates as text and a table for an e-mail (Ctrl+C in the Dates table)",
        ),
    ]

    bar = main.menuBar()
    file_menu = bar.addMenu("&File")
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

    def fill_columns() -> None:  # the current tab's
        columns_menu.clear()
        w.current_tab().columns.add_actions(columns_menu)

    columns_menu.aboutToShow.connect(fill_columns)
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
    searches_menu.aboutToShow.connect(lambda: searches.fill_menu(searches_menu))
    bar.addMenu(catalogues)  # the catalogues and the connection (``CatalogueMenu``), and:
    catalogues.insertAction(catalogues.actions()[0], sync_action)  # Refresh, at its top
    catalogues.addAction("Service URL…", dialogs.ask_service_url)
    catalogues.addSeparator()
    preferences_action = action(
        main,
        "Preferences…",
        dialogs.preferences,
        "Ctrl+,",
        "Type labels, on-demand codes, time zones, currency (Ctrl+,)",
    )
    catalogues.addAction(preferences_action)
    help_menu = bar.addMenu("&Help")
    help_menu.addAction("Query language and fields", dialogs.query_help)
    help_menu.addAction("Keyboard shortcuts", dialogs.shortcuts)
    help_menu.addAction("Report a problem…", w.problem_report_requested.emit)
    help_menu.addSeparator()
    help_menu.addAction("About", dialogs.about)

    toolbar = MainToolBar(main)
    main.addToolBar(toolbar)
    toolbar.setObjectName("toolbar-main")
    toolbar.setMovable(False)
    for act, icon in (
        (back_action, "back"),
        (forward_action, "forward"),
        (sync_action, "refresh"),
        (changes_action, "changes"),
        (export_action, "export"),
    ):
        act.setIcon(toolbar_icon(icon))
        toolbar.addAction(act)
        if icon in ("back", "forward"):  # arrows say it (and tips): room for the query
            toolbar.keep_icon_only(act)
    export_action.setIconText("Export")
    toolbar.addSeparator()
    toolbar.addWidget(w.query_box.edit)
    toolbar.setAccessibleName("Main toolbar")
    _reading_bar(main, w.query_box)

    def history_changed() -> None:
        back_action.setEnabled(w.history.can_back())
        forward_action.setEnabled(w.history.can_forward())

    w.history.changed.connect(history_changed)
    history_changed()
    return WindowActions(
        export_action=export_action,
        back_action=back_action,
        forward_action=forward_action,
        sync_action=sync_action,
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


class MainToolBar(QToolBar):
    """The main toolbar: its buttons say their names beside their icons while the window is wide
    enough for them and the query box, and show their icons alone when it is not (their tips still
    name them), so the query box never goes behind the toolbar's » (in a narrow window it did:
    Ctrl+F then focused a box out of sight, and the words typed went to the table)."""

    def __init__(self, main: QMainWindow) -> None:
        super().__init__("Main", main)
        self._with_text = 0  # the width the toolbar needs with the buttons' names (0: not measured)
        self._icons_only: list[QAction] = []  # buttons that never show their names
        self.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        # (queued: the buttons' own connections, made as each is added, run after this one's)
        self.toolButtonStyleChanged.connect(self._keep_icons_only, Qt.ConnectionType.QueuedConnection)

    def keep_icon_only(self, action: QAction) -> None:
        """``action``'s button shows its icon alone, whatever the others show."""
        self._icons_only.append(action)
        self._keep_icons_only()

    def _keep_icons_only(self) -> None:
        for action in self._icons_only:
            button = self.widgetForAction(action)
            if isinstance(button, QToolButton):
                button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonIconOnly)

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        texts = self.toolButtonStyle() == Qt.ToolButtonStyle.ToolButtonTextBesideIcon
        if texts:
            self._with_text = self.sizeHint().width()
        room = event.size().width() >= self._with_text
        if room != texts:
            style = (
                Qt.ToolButtonStyle.ToolButtonTextBesideIcon if room else Qt.ToolButtonStyle.ToolButtonIconOnly
            )
            self.setToolButtonStyle(style)
            self._keep_icons_only()


def _reading_bar(main: QMainWindow, query_box: QueryBox) -> None:
    """The line under the query box (what it read, or its error), the window's width."""
    bar = QToolBar("Query reading", main)
    bar.setObjectName("toolbar-reading")
    bar.setMovable(False)
    bar.setFloatable(False)
    bar.toggleViewAction().setVisible(False)  # (not a toolbar to hide: the box's own line)
    bar.addWidget(query_box.line)
    main.addToolBarBreak()
    main.addToolBar(bar)
