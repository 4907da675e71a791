"""The main window: a thin wiring of tabs, query box, facets, status panel, offline banner, changes
view and menus (``menus``).

It knows nothing of the network or the store; ``session.AppSession`` feeds it rows and outcomes,
and the finder (``ui.finder.controller``) which of them a query matches.

Start-up makes only what the first screen shows: dialogs (``dialogs``), the changes view and the web-link
opener are imported when first used. PySide creates a Qt class's Python enums when the class is first touched
(``QStyle``'s ~500 members, ``QFileDialog``, ``QMessageBox``: see docs/decisions.md, "Start-up and Qt")."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtWidgets import QDockWidget, QMainWindow, QTabWidget, QVBoxLayout, QWidget

from catalogue_desktop.core.formats.text import one_line
from catalogue_desktop.core.listing.rows import DATES
from catalogue_desktop.core.listing.rowset import RowSet
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.ui.browse.collection_tab import CollectionTab
from catalogue_desktop.ui.common.a11y import name_inner_buttons
from catalogue_desktop.ui.common.settings import Settings
from catalogue_desktop.ui.common.urls import is_web_url
from catalogue_desktop.ui.finder.facet_panel import FacetPanel
from catalogue_desktop.ui.finder.query_box import QueryBox
from catalogue_desktop.ui.shell import menus, tab_titles
from catalogue_desktop.ui.shell.navigation import History, Place
from catalogue_desktop.ui.sync.changes_dock import ChangesDock
from catalogue_desktop.ui.sync.status_panel import OfflineBanner, StatusPanel
from catalogue_desktop.ui.watch.search_book import SearchBook

if TYPE_CHECKING:
    from PySide6.QtGui import QCloseEvent

    from catalogue_desktop.core.query.engine import Finder
    from catalogue_desktop.ui.shell.window_finder import WindowFinder
    from catalogue_desktop.ui.sync.changes_view import ChangesView

APP_TITLE = "Catalogue Desktop"
TAB_KINDS: tuple[Any, ...] = (*ALL_KINDS, DATES)  # the collections, then the sales desk's Dates
toolbar_icon = menus.toolbar_icon


class MainWindow(QMainWindow):
    tab_made = Signal(object, object)  # kind, its CollectionTab (made when first shown)
    quick_open_requested = Signal()  # Ctrl+K (the finder opens its palette)
    refresh_requested = Signal()
    retry_requested = Signal(object)  # Kind
    base_url_chosen = Signal(str)
    preferences_changed = Signal()
    problem_report_requested = Signal()  # Help ▸ Report a problem… (the session gathers it)
    offers_requested = Signal()  # Go ▸ Offers (the session opens the offer log)
    closed = Signal()

    def __init__(
        self,
        settings: Settings,
        formatter: Any,
        images: Callable[[], Any],
        loader: Any,
        parent: QWidget | None = None,
    ) -> None:
        """``images() -> ImageLoader | None`` is called when a tab first shows a record."""
        super().__init__(parent)
        self.settings = settings
        self.formatter = formatter
        self.history = History(parent=self)
        self.setWindowTitle(APP_TITLE)

        self._images = images
        self._loader = loader
        self.search_book = SearchBook(lambda: loader.store, settings)  # saved searches, in the store
        self.ready = False  # every cached row shown (the session says: ``mark_ready``)
        self._finder: WindowFinder | None = None  # what a tab shows under the query (``use_finder``)
        self.banner = OfflineBanner(formatter.date)
        self.query_box = QueryBox(self)
        self.tab_widget = QTabWidget(documentMode=True)
        self.tab_widget.setAccessibleName("Lists")
        # A tab's widgets are made when it is first shown (or asked for): start-up builds one.
        self._tabs: dict[Any, CollectionTab] = {}
        self._pages: dict[Any, QWidget] = {}
        self._waiting_rows: dict[Any, tuple[RowSet, dict[str, Any] | None]] = {}
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
        self.banner.retry_requested.connect(self.refresh_requested)
        self.status_dock = self._dock("Status", self.status, Qt.DockWidgetArea.BottomDockWidgetArea)
        self.changes_dock = ChangesDock(self)
        self.addDockWidget(Qt.DockWidgetArea.RightDockWidgetArea, self.changes_dock)
        self.changes_dock.hide()
        self.changes_dock.record_activated.connect(self.navigate)
        self.facet_panel = FacetPanel()
        self.facet_dock = self._dock("Facets", self.facet_panel, Qt.DockWidgetArea.LeftDockWidgetArea)
        self.facet_dock.setMinimumWidth(200)

        from catalogue_desktop.ui.shell.window_layout import WindowLayout

        self.window_layout = WindowLayout(self)
        self.menu_actions = menus.build(self)
        self._reading_bar()
        self.history.changed.connect(self._history_changed)
        self._history_changed()
        self._restore()

    def _reading_bar(self) -> None:
        """The line under the query box (what it read, or its error), the window's width."""
        from PySide6.QtWidgets import QToolBar

        bar = QToolBar("Query reading", self)
        bar.setObjectName("toolbar-reading")
        bar.setMovable(False)
        bar.setFloatable(False)
        bar.toggleViewAction().setVisible(False)  # (not a toolbar to hide: the box's own line)
        bar.addWidget(self.query_box.line)
        self.addToolBarBreak()
        self.addToolBar(bar)

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

    def fill_columns_menu(self) -> None:
        self.menu_actions.columns_menu.clear()
        self.current_tab().column_actions(self.menu_actions.columns_menu)

    # -- tabs and rows ---------------------------------------------------------------------

    def tab(self, kind: Any) -> CollectionTab:
        """``kind``'s tab, made now if it was not shown yet."""
        tab = self._tabs.get(kind)
        if tab is None:
            if kind is DATES:
                from catalogue_desktop.ui.offers.dates_tab import DatesTab

                tab = DatesTab(
                    self.formatter,
                    self._images,
                    self._loader.record,
                    self._detail_context,
                    offers=self._offer_source(),
                )
            else:
                tab = CollectionTab(
                    kind, self.formatter, self._images, self._loader.record, self._detail_context
                )
            tab.counts_changed.connect(self._counts_changed)
            tab.record_selected.connect(lambda k, i: self.history.visit(Place(k, i)))
            tab.link_activated.connect(self.navigate)
            tab.open_url.connect(self.open_url)
            tab.message.connect(self.show_message)
            self._tabs[kind] = tab
            tab.restore_state(self.settings)
            self.window_layout.attach(tab)
            if self.ready:  # (while the window starts, ``name_inner_buttons`` waits: see it)
                name_inner_buttons(tab)
            self.tab_made.emit(kind, tab)
            page_layout = self._pages[kind].layout()
            assert page_layout is not None  # (each page is made with its layout)
            page_layout.addWidget(tab)
            waiting = self._waiting_rows.pop(kind, None)
            if waiting is not None:
                tab.set_rowset(*waiting, self._finder.result(kind) if self._finder is not None else None)
        return tab

    def use_finder(self, finder: WindowFinder) -> None:
        self._finder = finder

    def mark_ready(self) -> None:
        self.ready = True

    def _engine(self) -> Finder | None:
        return None if self._finder is None else self._finder.finder_if_made

    finder_engine = _engine  # the finder's engine, if made (a watched search's baseline)

    def _offer_source(self) -> Any:
        """What the Dates tab's offers need besides its rows (``ui.offers.desk``)."""
        from catalogue_desktop.ui.offers.desk import OfferSource

        return OfferSource(
            self._engine,
            self._loader.states,
            lambda: self.settings.offer_max_age_days,
            self.settings,
            lambda: self._loader.store,
        )

    def offer(self, what: str) -> None:
        """File ▸ Offer: "pdf", "print", "ics", "copy" (``ui.offers.routing``)."""
        from catalogue_desktop.ui.offers.routing import offer

        offer(self, what)

    def _detail_context(self, kind: Kind, record_id: int) -> Any:
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

    def sort_of(self, kind: Kind) -> tuple[int, bool] | None:
        """The column ``kind``'s tab is sorted by and whether descending; None if unsorted (or
        not made yet)."""
        tab = self._tabs.get(kind)
        if tab is None or tab.model.sort_column < 0:
            return None
        return tab.model.sort_column, tab.model.sort_order == Qt.SortOrder.DescendingOrder

    def made_tab(self, kind: Any) -> CollectionTab | None:
        return self._tabs.get(kind)

    @staticmethod
    def tab_kinds() -> tuple[Any, ...]:
        return TAB_KINDS

    def current_kind(self) -> Any:
        return TAB_KINDS[self.tab_widget.currentIndex()]

    def current_tab(self) -> CollectionTab:
        return self.tab(self.current_kind())

    def show_tab(self, kind: Any) -> CollectionTab:
        tab = self.tab(kind)
        self.tab_widget.setCurrentWidget(self._pages[kind])
        return tab

    def step_tab(self, step: int) -> None:
        """The next (or previous) tab, from wherever the focus is (Ctrl+Tab, Ctrl+PgDown)."""
        count = self.tab_widget.count()
        self.tab_widget.setCurrentIndex((self.tab_widget.currentIndex() + step) % count)

    def show_rowset(
        self, kind: Any, rowset: RowSet, changes: dict[str, Any] | None, result: Any = None
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

    def _counts_changed(self, kind: Any, visible: int, total: int) -> None:
        tab = self._tabs.get(kind)
        self.set_tab_count(kind, total, visible if tab is not None and tab.model.filtered else None)

    def set_tab_count(self, kind: Any, total: int | None, matched: int | None = None) -> None:
        """Show ``kind``'s count in its tab's title: "Courses (240)", or under a query "Courses
        12 / 240", dimmed at 0 (``tab_titles``)."""
        index = self.tab_widget.indexOf(self._pages[kind])
        tab_titles.show_count(self.tab_widget, index, kind.label, total, matched)

    def refresh_details(self) -> None:
        for tab in self._tabs.values():
            tab.refresh_details()
            tab.view.viewport().update()

    # -- navigation --------------------------------------------------------------------------

    def navigate(self, kind: Kind, record_id: int, *, remember: bool = True) -> bool:
        """Show ``kind``'s tab with ``record_id`` selected and its details (only its details,
        with a word, when the query hides its row); False if unlisted."""
        # Selected before its tab shows: shown, the tab's table takes the focus, and a table
        # without a current row would make its first row current (a record nobody chose).
        tab = self.tab(kind)
        found = tab.select_record(record_id, emit=False)
        self.show_tab(kind)
        if found is False:
            self.show_message(f"{kind.singular.capitalize()} #{record_id} is not in the catalogue")
            return False
        if found is None:
            self.show_message(
                f"{kind.singular.capitalize()} #{record_id} is shown in the details; the query hides its row"
            )
            # (the table focused would make its first row current, and show that row instead)
            tab.detail.setFocus()
        else:
            tab.view.setFocus()
        if remember:
            self.history.visit(Place(kind, record_id))
        return True

    def go_back(self) -> None:
        place = self.history.back()
        if place is not None:
            self.navigate(place.kind, place.record_id, remember=False)

    def go_forward(self) -> None:
        place = self.history.forward()
        if place is not None:
            self.navigate(place.kind, place.record_id, remember=False)

    def _history_changed(self) -> None:
        self.menu_actions.back_action.setEnabled(self.history.can_back())
        self.menu_actions.forward_action.setEnabled(self.history.can_forward())

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

    def show_message(self, text: str, timeout_ms: int = 8000) -> None:
        """A status message (it may quote service text: controls shown, one line, capped)."""
        self.statusBar().showMessage(one_line(text), timeout_ms)

    # -- dialogs -----------------------------------------------------------------------------

    def export_dialog(self) -> None:
        from catalogue_desktop.ui.shell import dialogs

        dialogs.export_visible_rows(self)

    def service_url_dialog(self) -> None:
        from catalogue_desktop.ui.shell import dialogs

        dialogs.ask_service_url(self)

    def preferences_dialog(self) -> None:
        """Catalogue ▸ Preferences: type labels and on-demand codes, time zones, currency, ..."""
        from catalogue_desktop.ui.shell.preferences import Preferences, codes_seen

        engine, catalogues = self._engine(), self.menu_actions.catalogue_menu
        codes = codes_seen(engine) if engine is not None else []
        dialog = Preferences(
            self.settings, self.formatter.vocabulary, codes, self, catalogue=catalogues.current
        )
        dialog.over_time.show_history(self.search_book.history())  # (kept in the catalogue's store)
        if dialog.exec():
            dialog.save()
            self.preferences_changed.emit()
        if dialog.connection_saved:  # (saved by its own OK, whatever became of Preferences)
            catalogues.connection_changed.emit()

    def refresh_display(self) -> None:
        """Show every cell and detail pane again (labels, time zones or currency changed)."""
        for tab in self._tabs.values():
            tab.model.refresh_display()
        self.refresh_details()

    def changeEvent(self, event: Any) -> None:
        """The app's palette changed (the system went dark or light): colours chosen from it
        (past rows, the banner, the query's error) are chosen again."""
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange:
            self.banner.follow_scheme()
            if self.query_box.has_error:
                self.query_box.apply()  # its red again
            self.refresh_display()

    def about(self) -> None:
        from catalogue_desktop.ui.shell import dialogs

        dialogs.about(self, APP_TITLE)

    def query_help(self) -> None:
        from catalogue_desktop.ui.shell import dialogs

        dialogs.query_help(self)

    def shortcuts_help(self) -> None:
        from catalogue_desktop.ui.shell import dialogs

        dialogs.shortcuts(self, menus.shortcut_rows(self))

    # -- the finder's menus ----------------------------------------------------------------

    def quick_open(self) -> None:
        """Ctrl+K: the palette (the finder's, ``ui.finder.wiring``)."""
        self.quick_open_requested.emit()

    def save_search(self) -> None:
        from catalogue_desktop.ui.finder import saved_searches

        saved_searches.save_current(self)

    def organize_searches(self) -> None:
        from catalogue_desktop.ui.finder import saved_searches

        saved_searches.organize(self)

    def fill_searches_menu(self) -> None:
        from catalogue_desktop.ui.finder import saved_searches

        saved_searches.fill_menu(self, self.menu_actions.searches_menu)

    # -- window state ------------------------------------------------------------------------

    def _restore(self) -> None:
        self.window_layout.restore_geometry()
        last = self.settings.last_tab
        if 0 <= last < self.tab_widget.count():
            self.tab_widget.setCurrentIndex(last)
        self.current_tab()  # made (and restored) now; the others when first shown
        self.tab_widget.currentChanged.connect(lambda index: self.tab(TAB_KINDS[index]))
        self.tab_widget.currentChanged.connect(lambda _index: self._order_focus())
        self._order_focus()
        self.query_box.edit.down_pressed.connect(lambda: self.current_tab().focus_rows())

    def _order_focus(self) -> None:
        """Tab walks the query box, the facets, the current tab's table, then its details."""
        tab = self.current_tab()
        QWidget.setTabOrder(self.query_box.chain_focus(), self.facet_panel.tree)
        QWidget.setTabOrder(self.facet_panel.tree, tab.view)

    def save_state(self) -> None:
        self.settings.save_window(self.saveGeometry(), self.saveState())
        self.settings.last_tab = self.tab_widget.currentIndex()
        self.window_layout.save()
        for tab in self._tabs.values():
            tab.save_state(self.settings)
        self.settings.sync()

    def closeEvent(self, event: QCloseEvent) -> None:
        self.save_state()
        super().closeEvent(event)
        self.closed.emit()
