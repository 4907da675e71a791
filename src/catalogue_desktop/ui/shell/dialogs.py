"""The main window's dialogs (``Dialogs``): export the visible rows, the service URL, Preferences,
About, the help pages.

Each Qt dialog class is imported when its dialog first opens: PySide creates a class's Python enums
when it is first touched (docs/decisions.md, "Start-up and Qt"), and start-up shows none.
What the dialogs need of the window is ``DialogWindow`` (this module sits below ``main_window``).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Protocol

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QWidget

import catalogue_desktop
from catalogue_desktop.ui.shell.window_layout import fit_to_screen

if TYPE_CHECKING:
    from catalogue_desktop.core.query.engine import Finder
    from catalogue_desktop.ui.browse.collection_tab import CollectionTab
    from catalogue_desktop.ui.common.formatting import Formatter
    from catalogue_desktop.ui.common.settings import Settings
    from catalogue_desktop.ui.searches.book import SearchBook
    from catalogue_desktop.ui.shell.catalogue_menu import CatalogueMenu

EXPORT_FILTERS = ("CSV files (*.csv)", "CSV for Excel (*.csv)", "Excel workbooks (*.xlsx)")
# CSV for Excel (a UTF-8 byte-order mark) is the choice offered first on Windows, where Excel
# reads a CSV without one in the system's code page ("MÃ¼ller" for "Müller")
DEFAULT_FILTER = EXPORT_FILTERS[1] if sys.platform == "win32" else EXPORT_FILTERS[0]


class DialogWindow(Protocol):
    """What the dialogs need of the window (``ui.shell.main_window.MainWindow``)."""

    @property
    def settings(self) -> Settings: ...
    @property
    def formatter(self) -> Formatter: ...
    @property
    def search_book(self) -> SearchBook: ...
    def current_tab(self) -> CollectionTab: ...
    def show_message(self, text: str, timeout_ms: int = 8000) -> None: ...
    def finder_engine(self) -> Finder | None: ...


class Dialogs(QObject):
    """The window's dialogs, each opened by its menu entry (``menus``)."""

    base_url_chosen = Signal(str)  # Catalogue ▸ Service URL…: the address given
    preferences_changed = Signal()  # Preferences were saved

    def __init__(self, window: DialogWindow, catalogues: CatalogueMenu, title: str, parent: QWidget) -> None:
        """``catalogues``: the Catalogue menu (the one open is the one Preferences' connection edits);
        ``title``: the app's (About); ``parent``: the window the dialogs open over."""
        super().__init__(parent)
        self.window = window
        self.catalogues = catalogues
        self.title = title
        self.parent_widget = parent

    def export_visible_rows(self) -> None:
        """Ask where to write the current tab's visible rows, as CSV or a spreadsheet (.xlsx), and
        write them; the dialog starts in the folder last used (the documents folder the first
        time). The Dates tab's spreadsheet is its offer's (``ui.offers.desk``: the selected
        occasions, or all it shows, at their venues)."""
        from pathlib import Path

        from PySide6.QtWidgets import QMessageBox

        from catalogue_desktop.core.formats.files import proposed_name
        from catalogue_desktop.ui.common.file_dialogs import save_file_name
        from catalogue_desktop.ui.offers.dates_tab import DatesTab
        from catalogue_desktop.ui.offers.offer_settings import OfferSettings

        window, parent = self.window, self.parent_widget
        tab = window.current_tab()
        remembered = OfferSettings(window.settings)
        path, chosen = save_file_name(
            parent,
            "Export visible rows",
            str(Path(remembered.folder) / proposed_name(tab.kind.value, ".csv")),
            ";;".join(EXPORT_FILTERS),
            DEFAULT_FILTER,
        )
        if path and chosen == EXPORT_FILTERS[2] and not path.lower().endswith(".xlsx"):
            path = path[: -len(".csv")] if path.lower().endswith(".csv") else path
            path += ".xlsx"
        if path:
            remembered.folder = str(Path(path).parent)
        if path and isinstance(tab, DatesTab) and tab.desk is not None and path.lower().endswith(".xlsx"):
            tab.desk.save_xlsx(Path(path))
            return
        if path:
            model = tab.model
            if model.loading:  # the rest are not read yet, and a filter applies once they are
                window.show_message(
                    f"Not exported: {tab.kind.value} are still being read from the "
                    f"cache ({model.visible_count():,} of {model.total_count():,}). "
                    "Try again in a moment."
                )
                return
            try:
                count = tab.export_visible(
                    path, currency=window.formatter.currency, excel=chosen == EXPORT_FILTERS[1]
                )
            except OSError as exc:
                QMessageBox.warning(parent, "Export failed", f"Cannot write {path}: {exc}")
                return
            window.show_message(f"Exported {count:,} {tab.kind.value} to {path}")

    def ask_service_url(self) -> None:
        """Ask for the service's base URL; ``base_url_chosen`` says which (unless empty)."""
        from PySide6.QtWidgets import QInputDialog

        url, ok = QInputDialog.getText(
            self.parent_widget,
            "Service URL",
            "Base URL of the catalogue service (the part before /v1):",
            text=self.window.settings.base_url or "",
        )
        if ok and url.strip():
            self.base_url_chosen.emit(url.strip())

    def preferences(self) -> None:
        """Catalogue ▸ Preferences: type labels and on-demand codes, time zones, currency, ..."""
        from catalogue_desktop.ui.shell.preferences import Preferences, codes_seen

        window, catalogues = self.window, self.catalogues
        engine = window.finder_engine()
        codes = codes_seen(engine) if engine is not None else []
        dialog = Preferences(
            window.settings,
            window.formatter.vocabulary,
            codes,
            self.parent_widget,
            catalogue=catalogues.current,
        )
        store = window.search_book.store()  # (the history is kept in the catalogue's store)
        dialog.over_time.show_history(
            None if store is None else store.history, None if store is None else store.path
        )
        if dialog.exec():
            dialog.save()
            self.preferences_changed.emit()
        if dialog.connection_saved:  # (saved by its own OK, whatever became of Preferences)
            catalogues.connection_changed.emit()

    def about(self) -> None:
        from PySide6.QtWidgets import QMessageBox

        title = self.title
        QMessageBox.about(
            self.parent_widget,
            f"About {title}",
            f"<b>{title}</b> {catalogue_desktop.__version__}<br>"
            "Browse the seminar catalogue, online or from the local cache.",
        )

    def query_help(self) -> None:
        """Help ▸ Query language: the syntax and every field per kind (from the engine's own list)."""
        from catalogue_desktop.core.query.fields import reference_markdown
        from catalogue_desktop.core.query.manual import syntax_markdown

        _markdown(
            self.parent_widget,
            "Query language and fields",
            (860, 720),
            syntax_markdown() + "\n\n**Fields per kind** (names are case-insensitive; the service's "
            "own field names work too)\n\n" + reference_markdown(),
        )

    def shortcuts(self) -> None:
        """Help ▸ Keyboard shortcuts: the window's actions and their keys (``shortcut_rows``)."""
        extra = [
            ("Down (in the query box)", "Go to the results, on their first row"),
            ("Enter (in a table)", "Go into the row's details: arrows scroll, Tab walks its links"),
            ("Enter (in the palette)", "Open the hit"),
            ("Escape", "In the query box: clear the query; in the details: back to the table"),
            ("Tab / Shift+Tab", "Move between toolbar, query, facets, table and details"),
        ]
        rows = shortcut_rows(self.parent_widget)
        lines = ["| keys | what |", "|---|---|"] + [f"| {k} | {w} |" for k, w in sorted(rows) + extra]
        _markdown(self.parent_widget, "Keyboard shortcuts", (520, 560), "\n".join(lines))


def shortcut_rows(window: QWidget) -> list[tuple[str, str]]:
    """(keys, what they do) for every action of the window that has a shortcut."""
    rows = []
    for act in window.actions():
        keys = [k.toString(QKeySequence.SequenceFormat.NativeText) for k in act.shortcuts()]
        if keys:
            rows.append((", ".join(keys), act.text().replace("&", "").replace("…", "")))
    return rows


def _markdown(window: QWidget, title: str, size: tuple[int, int], markdown: str) -> None:
    """A dialog showing ``markdown`` (read-only, links not followed), with Close."""
    from PySide6.QtWidgets import QDialog, QDialogButtonBox, QTextBrowser, QVBoxLayout

    dialog = QDialog(window)
    dialog.setWindowTitle(title)
    fit_to_screen(dialog, window, *size)
    text = QTextBrowser(dialog)
    text.setAccessibleName(title)
    text.setOpenExternalLinks(False)
    text.setMarkdown(markdown)
    buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, parent=dialog)
    buttons.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(text)
    layout.addWidget(buttons)
    dialog.exec()
