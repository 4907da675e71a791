"""The main window's dialogs: export the visible rows, the service URL, About, the help pages.

Each Qt dialog class is imported when its dialog first opens: PySide creates a class's Python enums
when it is first touched (docs/decisions.md, "Start-up and Qt"), and start-up shows none.
``window`` is the ``MainWindow`` (duck-typed: this module sits below it).
"""

from __future__ import annotations

import sys
from typing import Any

import catalogue_desktop

EXPORT_FILTERS = ("CSV files (*.csv)", "CSV for Excel (*.csv)", "Excel workbooks (*.xlsx)")
# CSV for Excel (a UTF-8 byte-order mark) is the choice offered first on Windows, where Excel
# reads a CSV without one in the system's code page ("MÃ¼ller" for "Müller")
DEFAULT_FILTER = EXPORT_FILTERS[1] if sys.platform == "win32" else EXPORT_FILTERS[0]


def export_visible_rows(window: Any) -> None:
    """Ask where to write the current tab's visible rows, as CSV or a spreadsheet (.xlsx), and
    write them; the dialog starts in the folder last used (the documents folder the first time).
    The Dates tab's spreadsheet is its offer's (``ui.offers.desk``: the selected occasions, or
    all it shows, at their venues)."""
    from pathlib import Path

    from PySide6.QtWidgets import QFileDialog, QMessageBox

    from catalogue_desktop.core.formats.files import proposed_name
    from catalogue_desktop.ui.offers.dates_tab import DatesTab
    from catalogue_desktop.ui.offers.offer_settings import OfferSettings

    tab = window.current_tab()
    remembered = OfferSettings(window.settings)
    path, chosen = QFileDialog.getSaveFileName(
        window,
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
            QMessageBox.warning(window, "Export failed", f"Cannot write {path}: {exc}")
            return
        window.show_message(f"Exported {count:,} {tab.kind.value} to {path}")


def ask_service_url(window: Any) -> None:
    """Ask for the service's base URL; ``window.base_url_chosen`` says which (unless empty)."""
    from PySide6.QtWidgets import QInputDialog

    url, ok = QInputDialog.getText(
        window,
        "Service URL",
        "Base URL of the catalogue service (the part before /v1):",
        text=window.settings.base_url or "",
    )
    if ok and url.strip():
        window.base_url_chosen.emit(url.strip())


def about(window: Any, title: str) -> None:
    from PySide6.QtWidgets import QMessageBox

    QMessageBox.about(
        window,
        f"About {title}",
        f"<b>{title}</b> {catalogue_desktop.__version__}<br>"
        "Browse the seminar catalogue, online or from the local cache.",
    )


def query_help(window: Any) -> None:
    """Help ▸ Query language: the syntax and every field per kind (from the engine's own list)."""
    from catalogue_desktop.core.query.fields import reference_markdown
    from catalogue_desktop.core.query.manual import syntax_markdown

    _markdown(
        window,
        "Query language and fields",
        (860, 720),
        syntax_markdown() + "\n\n**Fields per kind** (names are case-insensitive; the service's "
        "own field names work too)\n\n" + reference_markdown(),
    )


def shortcuts(window: Any, rows: list[tuple[str, str]]) -> None:
    """Help ▸ Keyboard shortcuts: the window's actions and their keys (``menus.shortcut_rows``)."""
    extra = [
        ("Down (in the query box)", "Go to the results, on their first row"),
        ("Enter (in a table)", "Go into the row's details: arrows scroll, Tab walks its links"),
        ("Enter (in the palette)", "Open the hit"),
        ("Escape", "In the query box: clear the query; in the details: back to the table"),
        ("Tab / Shift+Tab", "Move between toolbar, query, facets, table and details"),
    ]
    lines = ["| keys | what |", "|---|---|"] + [f"| {k} | {w} |" for k, w in sorted(rows) + extra]
    _markdown(window, "Keyboard shortcuts", (520, 560), "\n".join(lines))


def _markdown(window: Any, title: str, size: tuple[int, int], markdown: str) -> None:
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


def fit_to_screen(dialog: Any, window: Any, width: int, height: int) -> None:
    """Size ``dialog`` ``width`` x ``height``, or less where the window's screen is smaller (a
    dialog taller than a 700 px screen had its buttons cut off at the bottom)."""
    screen = window.screen() if window is not None else None
    if screen is not None:
        room = screen.availableGeometry()
        width, height = min(width, room.width() * 9 // 10), min(height, room.height() * 9 // 10)
    dialog.resize(width, height)
