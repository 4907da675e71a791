"""The main window: a thin wiring of tabs, query box, facets, status panel, offline banner, changes
view, and the objects its menus (``menus``) open: its dialogs (``dialogs.Dialogs``), saved searches
(``ui.searches.organize.SavedSearches``) and offers (``ui.offers.routing.WindowOffers``).

It knows nothing of the network or the store; ``session.AppSession`` feeds it rows and outcomes,
and the finder (``ui.finder.controller``) which of them a query matches.

Start-up makes only what the first screen shows: the dialogs' Qt classes, the changes view and the
web-link opener are imported when first used. PySide creates a Qt class's Python enums when the
class is first touched (``QStyle``'s ~500 members, ``QFileDialog``, ``QMessageBox``: see
docs/decisions.md, "Start-up and Qt")."""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import pairwise
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QDockWidget, QMainWindow, QVBoxLayout, QWidget

from catalogue_desktop.core.formats.drawn_text import one_line
from catalogue_desktop.core.listing.rowset import RowSet
from catalogue_desktop.core.records.kinds import ALL_KINDS, OCCASIONS, Kind, ListKind
from catalogue_desktop.ui.browse.collection_tab import CollectionTab
from catalogue_desktop.ui.common import panels
from catalogue_desktop.ui.common.a11y import name_inner_buttons
from catalogue_desktop.ui.common.settings import Settings
from catalogue_desktop.ui.common.urls import is_web_url
from catalogue_desktop.ui.finder.facet_panel import FacetPanel
from catalogue_desktop.ui.finder.query_box import QueryBox
from catalogue_desktop.ui.offers.routing import WindowOffers
from catalogue_desktop.ui.searches.book import SearchBook
from catalogue_desktop.ui.searches.organize import SavedSearches
from catalogue_desktop.ui.shell import menus, tab_titles
from catalogue_desktop.ui.shell.catalogue_menu import CatalogueMenu
from catalogue_desktop.ui.shell.dialogs import Dialogs
from catalogue_desktop.ui.shell.navigation import History, Place
from catalogue_desktop.ui.sync.changes_dock import ChangesDock
from catalogue_desktop.ui.sync.status_panel import OfflineBanner, StatusPanel

if TYPE_CHECKING:
    from PySide6.QtGui import QCloseEvent

    from catalogue_desktop.core.query.engine import Finder
    from catalogue_desktop.ui.browse.catalogue_loader import CatalogueLoader
    from catalogue_desktop.ui.common.formatting import Formatter
    from catalogue_desktop.ui.detail.context import DetailContext
    from catalogue_desktop.ui.detail.images import ImageLoader
    from catalogue_desktop.ui.finder.controller import Result
    from catalogue_desktop.ui.shell.window_finder import WindowFinder
    from catalogue_desktop.ui.sync.changes_view import ChangesView

APP_TITLE = "Catalogue Desktop"
TAB_KINDS: tuple[ListKind, ...] = (*ALL_KINDS, OCCASIONS)  # the collections, then the sales desk's Dates
toolbar_icon = menus.toolbar_icon


class MainWindow(QMainWindow):
    quick_open_requested = Signal()  # Ctrl+K (the finder opens its palette)
    sync_requested = Signal()
    retry_requested = Signal(object)  # Kind
    base_url_chosen = Signal(str)
    preferences_changed = Signal()
    problem_report_requested = Signal()  # Help ▸ Report a problem… (the session gathers it)
    offers_requested = Signal()  # Go ▸ Offers (the session opens the offer log)
    closed = Signal()

    def __init__(
        self,
        settings: Settings,
        formatter: Formatter,
        images: Callable[[], ImageLoader | None],
        loader: CatalogueLoader,
        parent: QWidget | None = None,
    ) -> None:
        """``images() -> ImageLoader | None`` is called when a tab first shows a record."""
        super().__init__(parent)
        self.settings = settings
        self.formatter = formatter
        self.history = History(parent=self)
        self._navigating = False  # ``navigate`` is showing a tab (``_remember_shown``)
        self.setWindowTitle(APP_TITLE)

        self._images = images
        self._loader = loader
        self.search_book = SearchBook(lambda: loader.store, settings, self)  # saved searches, in the store
        self.ready = False  # every cached row shown (the session says: ``mark_ready``)
        self._finder: WindowFinder | None = None  # what a tab shows under the query (``use_finder``)
        self.banner = OfflineBanner(formatter.date)
        self.query_box = QueryBox(self)
        self.tab_widget = tab_titles.CountTabs(document_mode=True)
        self.tab_bar = self.tab_widget.count_bar  # (widths that stay while counts change)
        self.tab_widget.setAccessibleName("Lists")
        # A tab's widgets are made when it is first shown (or asked for): start-up builds one.
        self._tabs: dict[ListKind, CollectionTab] = {}
        self._pages: dict[ListKind, QWidget] = {}
        self._waiting_rows: dict[ListKind, tuple[RowSet, dict[str, Any] | None]] = {}
        for kind in TAB_KINDS:
            page = QWidget()
            page.setObjectName(f"page-{kind.value}")
            QVBoxLayout(page).setContentsMargins(0, 0, 0, 0)
            self._pages[kind] = page
            self.tab_widget.addTab(page, kind.label)
        central = QWidget()
        layout = QVBoxLayout(central)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self.banner)
        layout.addWidget(self.tab_widget, 1)
        self.setCentralWidget(central)

        self.status = StatusPanel(formatter.date)
        self.status.retry_requested.connect(self.retry_requested)
        self.banner.retry_requested.connect(self.sync_requested)
        self.status.refresh_requested.connect(self.sync_requested)
        self.status_dock = self._dock("Status", self.status, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.status_dock.setTitleBarWidget(QWidget())  # one line, no title bar (View ▸ Status)
        self.changes_dock = ChangesDock(self)
        panels.place(self, self.changes_dock, None, above=self.status_dock)  # under the tables
        self.changes_dock.record_activated.connect(self.navigate)
        self.facet_panel = FacetPanel()
        self.facet_dock = self._dock("Facets", self.facet_panel, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.facet_dock.setMinimumWidth(200)

        from catalogue_desktop.ui.shell.window_layout import WindowLayout

        self.window_layout = WindowLayout(self, settings)
        # What the menus open, each an object of its own: the Catalogue menu, the dialogs, the saved
        # searches, the offers.
        self.catalogues = CatalogueMenu(settings, self)
        self.dialogs = Dialogs(self, self.catalogues, APP_TITLE, self)
        self.dialogs.base_url_chosen.connect(self.base_url_chosen)
        self.dialogs.preferences_changed.connect(self.preferences_changed)
        self.searches = SavedSearches(self, self)
        self.offers = WindowOffers(
            self, loader, settings, self._engine, self._offer_about, lambda: self.query_box.shown_query
        )
        self.menu_actions = menus.build(self, self.catalogues, self)
        # Told by the application's signal, not by ``changeEvent``: a Python method handed a plain
        # ``QEvent`` makes PySide create every event class it could be (~50, with their enums) at
        # the window's first event, before its first paint.
        app = QGuiApplication.instance()
        if isinstance(app, QGuiApplication):
            app.paletteChanged.connect(self._palette_changed)
        self._restore()

    def _dock(self, title: str, widget: QWidget, area: Qt.DockWidgetArea) -> QDockWidget:
        dock = QDockWidget(title, self)
        dock.setObjectName(f"dock-{title.lower()}")
        dock.setWidget(widget)
        self.addDockWidget(area, dock)
        return dock

    @property
    def changes(self) -> ChangesView:
        """What the last refresh changed (the view is made on first use)."""
        return self.changes_dock.view

    def set_changes(
        self, kind: Kind, changes: dict[str, Any] | None, title: Callable[[Kind, int], str | None]
    ) -> None:
        self.changes_dock.set_changes(kind, changes, title)

    # -- tabs and rows ---------------------------------------------------------------------

    def tab(self, kind: ListKind) -> CollectionTab:
        """``kind``'s tab, made now if it was not shown yet."""
        tab = self._tabs.get(kind)
        if tab is None:
            if isinstance(kind, Kind):
                tab = CollectionTab(
                    kind, self.formatter, self._images, self._loader.record, self._detail_context
                )
            else:  # the Dates
                from catalogue_desktop.ui.offers.dates_tab import DatesTab

                tab = DatesTab(
                    self.formatter,
                    self._images,
                    self._loader.record,
                    self._detail_context,
                    offers=self.offers.source(),
                )
                tab.show_past_changed.connect(self._show_past)
            tab.counts_changed.connect(self._counts_changed)
            tab.record_selected.connect(lambda k, i, tab=tab: self.history.visit(self._place(tab, k, i)))
            tab.link_activated.connect(self.navigate)
            tab.open_url.connect(self.open_url)
            tab.message.connect(self.show_message)
            tab.message_withdrawn.connect(self._withdraw_message)
            self._tabs[kind] = tab
            tab.restore_state(self.settings)
            self.window_layout.attach(tab)
            if self.ready:  # (while the window starts, ``name_inner_buttons`` waits: see it)
                name_inner_buttons(tab)
            page_layout = self._pages[kind].layout()
            assert page_layout is not None  # (each page is made with its layout)
            page_layout.addWidget(tab)
            waiting = self._waiting_rows.pop(kind, None)
            if waiting is not None:
                tab.set_rowset(*waiting, self._finder.result(kind) if self._finder is not None else None)
        return tab

    def use_finder(self, finder: WindowFinder) -> None:
        self._finder = finder

    def _show_past(self, shown: bool) -> None:
        """The Dates tab's "Show past" (its rows are the finder's)."""
        if self._finder is not None:
            self._finder.set_show_past(shown)

    def mark_ready(self) -> None:
        self.ready = True

    def _engine(self) -> Finder | None:
        return None if self._finder is None else self._finder.engine_if_made

    finder_engine = _engine  # the finder's engine, if made (a watched search's baseline)

    def _offer_about(self) -> list[str]:
        """Where an offer's occasions come from (its spreadsheet's About sheet)."""
        catalogue = self.menu_actions.catalogue_menu.current or self.settings.base_url or "demo"
        shown = self.query_box.shown_query  # (the box's text has an error: the last valid query)
        query = self.query_box.text() if shown is None else shown
        return [f"Catalogue: {catalogue}", f"Query: {query or '(all)'}"]

    def _detail_context(self, kind: Kind, record_id: int) -> DetailContext:
        """What ``kind``'s detail page needs to show ``record_id``, besides the record: the
        loader's index, the record's changes in the last refresh, course titles, the time now."""
        from catalogue_desktop.ui.detail.context import DetailContext

        loader = self._loader
        return DetailContext(
            index=loader.index,
            changes=loader.record_changes(kind, record_id),
            course_title=loader.course_title,
            now_ms=int(time.time() * 1000),
            history=loader.record_history(kind, record_id),
        )

    def sort_of(self, kind: ListKind) -> tuple[int, bool] | None:
        """The column ``kind``'s tab is sorted by and whether descending; None if unsorted (or
        not made yet)."""
        tab = self._tabs.get(kind)
        if tab is None or tab.model.sort_column < 0:
            return None
        return tab.model.sort_column, tab.model.sort_order == Qt.SortOrder.DescendingOrder

    def made_tab(self, kind: ListKind) -> CollectionTab | None:
        return self._tabs.get(kind)

    @staticmethod
    def tab_kinds() -> tuple[ListKind, ...]:
        return TAB_KINDS

    def current_kind(self) -> ListKind:
        return TAB_KINDS[self.tab_widget.currentIndex()]

    def current_tab(self) -> CollectionTab:
        return self.tab(self.current_kind())

    def show_tab(self, kind: ListKind) -> CollectionTab:
        tab = self.tab(kind)
        self.tab_widget.setCurrentWidget(self._pages[kind])
        return tab

    def step_tab(self, step: int) -> None:
        """The next (or previous) tab, from wherever the focus is (Ctrl+Tab, Ctrl+PgDown)."""
        count = self.tab_widget.count()
        self.tab_widget.setCurrentIndex((self.tab_widget.currentIndex() + step) % count)

    def show_rowset(
        self, kind: ListKind, rowset: RowSet, changes: dict[str, Any] | None, result: Result | None = None
    ) -> None:
        tab = self._tabs.get(kind)
        if tab is not None:
            tab.set_rowset(rowset, changes, result)
        else:
            self._waiting_rows[kind] = (rowset, changes)

    def show_growing(self, kind: Kind, rowset: RowSet, expected: int, changes: dict[str, Any] | None) -> None:
        """The first rows of a collection still being read (then more): shown if its tab is."""
        tab = self._tabs.get(kind)
        if tab is not None:
            tab.show_growing(rowset, expected, changes)

    def _counts_changed(self, kind: ListKind, visible: int, total: int) -> None:
        tab = self._tabs.get(kind)
        self.set_tab_count(kind, total, visible if tab is not None and tab.model.filtered else None)

    def set_tab_count(self, kind: ListKind, total: int | None, matched: int | None = None) -> None:
        """Show ``kind``'s count in its tab's title: "Courses 240", or under a query the
        rows it shows, "Courses 12", dimmed at 0 (``tab_titles``)."""
        index = self.tab_widget.indexOf(self._pages[kind])
        tab_titles.show_count(self.tab_widget, index, kind.label, total, matched)

    def redraw_details(self) -> None:
        for tab in self._tabs.values():
            tab.redraw_details()
            tab.view.viewport().update()

    # -- navigation --------------------------------------------------------------------------

    def navigate(self, kind: Kind, record_id: int, *, remember: bool = True) -> bool:
        """Show ``kind``'s tab with ``record_id`` selected and its details (only its details,
        with a word, when the query hides its row); False if unlisted."""
        return self._show_row(kind, record_id, Place(kind, record_id), remember=remember)

    def _show_row(self, tab_kind: ListKind, row_key: int, place: Place, *, remember: bool) -> bool:
        """Show ``tab_kind``'s tab with the row ``row_key`` selected (on a record's own tab, its
        id) and ``place``'s record in its details."""
        kind, record_id = place.kind, place.record_id
        # Selected before its tab shows: shown, the tab's table takes the focus, and a table
        # without a current row would make its first row current (a record nobody chose).
        tab = self.tab(tab_kind)
        found = tab.select_record(row_key, emit=False)
        self._navigating = True  # (the tab shown is this record: remembered below, or not at all)
        try:
            self.show_tab(tab_kind)
        finally:
            self._navigating = False
        if found is False:
            self.show_message(f"{kind.singular.capitalize()} #{record_id} is not in the catalogue")
            return False
        if found is None:  # (the tab said why, if a query hides its row)
            # (the table focused would make its first row current, and show that row instead)
            tab.detail.setFocus()
        else:
            tab.view.setFocus()
        if remember:
            self.history.visit(place)
        return True

    def _place(self, tab: CollectionTab, kind: Kind, record_id: int) -> Place:
        """``kind``'s record ``record_id`` as ``tab`` shows it: on a row of the Dates, that row."""
        row = tab.shown_row()
        if tab.kind is kind or row is None or tab.target(row) != (kind, record_id):
            return Place(kind, record_id)
        return Place(kind, record_id, tab.kind, row)

    def _remember_shown(self) -> None:
        """Another tab was clicked: its details are what the person sees now, so Back returns
        to the record shown before (the one a link was followed from), never to an older record
        of another tab. (Only a selection was remembered: after a link followed from a tab
        clicked to, Back skipped that tab's record.)"""
        if self._navigating:
            return
        tab = self.current_tab()
        shown = tab.shown_record()  # (a pane not made yet shows none)
        if shown is not None:
            self.history.visit(self._place(tab, *shown))

    def _go(self, place: Place | None) -> None:
        """Back or Forward to ``place``: the Dates row it was seen on, while that row still
        opens its record (rows are made anew on a refresh); else the record on its own tab."""
        if place is None:
            return
        if place.tab is not None and place.row is not None:
            tab = self.tab(place.tab)
            if tab.target(place.row) == (place.kind, place.record_id):
                self._show_row(place.tab, place.row, place, remember=False)
                return
        self.navigate(place.kind, place.record_id, remember=False)

    def go_back(self) -> None:
        self._go(self.history.back())

    def go_forward(self) -> None:
        self._go(self.history.forward())

    def open_url(self, url: str) -> bool:
        """Open web links in the browser; anything but http/https is refused (the same test as
        the links the detail pane makes: ``common.urls.is_web_url``)."""
        from PySide6.QtCore import QUrl
        from PySide6.QtGui import QDesktopServices

        qurl = QUrl(url.strip())
        if not is_web_url(url) or not qurl.host():
            self.show_message(f"Not opening {url!r}: only web (http/https) links are opened")
            return False
        return QDesktopServices.openUrl(qurl)

    def _withdraw_message(self, text: str) -> None:
        """A tab's message that is no longer true goes, if the status line still shows it."""
        if self.statusBar().currentMessage() == one_line(text):
            self.statusBar().clearMessage()

    def show_message(self, text: str, timeout_ms: int = 8000) -> None:
        """A status message (it may quote service text: controls shown, one line, capped)."""
        self.statusBar().showMessage(one_line(text), timeout_ms)

    def redraw(self) -> None:
        """Show every cell and detail pane again (labels, time zones or currency changed)."""
        for tab in self._tabs.values():
            tab.redraw()
        self.redraw_details()

    def _palette_changed(self) -> None:
        """The app's palette changed (the system went dark or light): colours chosen from it
        (past rows, the banner, the query's error) are chosen again."""
        self.banner.follow_scheme()
        if self.query_box.has_error:
            self.query_box.apply()  # its red again
        self.redraw()

    # -- window state ------------------------------------------------------------------------

    def _restore(self) -> None:
        self.window_layout.restore_geometry(self.facet_dock, self.status_dock)
        last = self.settings.last_tab
        if 0 <= last < self.tab_widget.count():
            self.tab_widget.setCurrentIndex(last)
        self.current_tab()  # made (and restored) now; the others when first shown
        self.tab_widget.currentChanged.connect(lambda index: self.tab(TAB_KINDS[index]))
        self.tab_widget.currentChanged.connect(lambda _index: self._order_focus())
        self.tab_widget.currentChanged.connect(lambda _index: self._remember_shown())
        self._order_focus()
        self.query_box.edit.down_pressed.connect(lambda: self.current_tab().focus_rows())

    def _order_focus(self) -> None:
        """Tab walks in reading order: the query box, the facets, the current tab's row of
        tools left to right (Dates: Show past, the offer buttons, More), its table, its details."""
        tab = self.current_tab()
        chain = [self.query_box.chain_focus(), self.facet_panel.tree, *tab.focus_order()]
        for before, after in pairwise(chain):
            QWidget.setTabOrder(before, after)

    def save_state(self) -> None:
        from catalogue_desktop.ui.shell.window_layout import STATE_VERSION

        self.settings.save_window(self.saveGeometry(), self.saveState(STATE_VERSION))
        self.settings.last_tab = self.tab_widget.currentIndex()
        self.settings.last_query = self.query_box.text()
        self.window_layout.save()
        for tab in self._tabs.values():
            tab.save_state(self.settings)
        self.settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_state()
        super().closeEvent(event)
        self.closed.emit()
