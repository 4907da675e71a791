"""The main window's dialogs: export the visible rows, the service URL, the currency, About.

Each Qt dialog class is imported when its dialog first opens: PySide creates a class's Python enums
when it is first touched (``QFileDialog`` and ``QMessageBox`` ~1 ms each), and start-up shows none.
``window`` is the ``MainWindow`` (duck-typed: this module sits below it).
"""

from __future__ import annotations

from typing import Any

import catalogue_desktop


def export_visible_rows(window: Any) -> None:
    """Ask where to write the current tab's visible rows as CSV, and write them."""
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    tab = window.current_tab()
    path, _ = QFileDialog.getSaveFileName(
        window, "Export visible rows", f"{tab.kind.value}.csv", "CSV files (*.csv)"
    )
    if path:
        model = tab.model
        if model.loading:  # the rest are not read yet, and a filter applies once they are
            window.show_message(f"Not exported: {tab.kind.value} are still being read from the "
                                f"cache ({model.visible_count():,} of {model.total_count():,}). "
                                "Try again in a moment.")
            return
        try:
            count = tab.export_visible(path)
        except OSError as exc:
            QMessageBox.warning(window, "Export failed", f"Cannot write {path}: {exc}")
            return
        window.show_message(f"Exported {count:,} {tab.kind.value} to {path}")


def ask_service_url(window: Any) -> None:
    """Ask for the service's base URL; ``window.base_url_chosen`` says which (unless empty)."""
    from PySide6.QtWidgets import QInputDialog

    url, ok = QInputDialog.getText(
        window, "Service URL", "Base URL of the catalogue service (the part before /v1):",
        text=window.settings.base_url or "",
    )
    if ok and url.strip():
        window.base_url_chosen.emit(url.strip())


def ask_currency(window: Any) -> None:
    """Ask for the currency of fees; ``window.currency_chosen`` says which (unless empty)."""
    from PySide6.QtWidgets import QInputDialog

    code, ok = QInputDialog.getText(
        window, "Currency", "ISO currency code for fees (e.g. USD, EUR):",
        text=window.settings.currency or "USD",
    )
    if ok and code.strip():
        window.currency_chosen.emit(code.strip().upper())


def about(window: Any, title: str) -> None:
    from PySide6.QtWidgets import QMessageBox

    QMessageBox.about(
        window, f"About {title}",
        f"<b>{title}</b> {catalogue_desktop.__version__}<br>"
        "Browse the seminar catalogue, online or from the local cache.",
    )
