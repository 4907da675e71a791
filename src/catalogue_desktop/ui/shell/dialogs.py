"""The main window's dialogs: export the visible rows, the service URL, the currency, About.

Each Qt dialog class is imported when its dialog first opens: PySide creates a class's Python enums
when it is first touched (``QFileDialog`` and ``QMessageBox`` ~1 ms each), and start-up shows none.
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
    write them."""
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    tab = window.current_tab()
    path, chosen = QFileDialog.getSaveFileName(
        window, "Export visible rows", f"{tab.kind.value}.csv", ";;".join(EXPORT_FILTERS), DEFAULT_FILTER
    )
    if path and chosen == EXPORT_FILTERS[2] and not path.lower().endswith(".xlsx"):
        path = path[: -len(".csv")] if path.lower().endswith(".csv") else path
        path += ".xlsx"
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


def ask_currency(window: Any) -> None:
    """Ask for the currency of fees; ``window.currency_chosen`` says which (unless empty)."""
    from PySide6.QtWidgets import QInputDialog

    code, ok = QInputDialog.getText(
        window,
        "Currency",
        "ISO currency code for fees (e.g. USD, EUR):",
        text=window.settings.currency or "USD",
    )
    if ok and code.strip():
        window.currency_chosen.emit(code.strip().upper())


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
        syntax_markdown() + "\n\n**Fields per kind** (names are case-insensitive; the spec's "
        "names work too)\n\n" + reference_markdown(),
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
    dialog.resize(*size)
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
