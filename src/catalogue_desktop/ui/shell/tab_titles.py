"""A tab's title: its kind and count, one form ("Courses (240)"; under a query "Courses (12 of
240)"; a filter that leaves every row, as the Dates tab's past rows hidden when none are past,
says the count alone), dimmed when the query leaves it no row (the results are on other tabs)."""

from __future__ import annotations

from PySide6.QtCore import QLocale
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QTabWidget


def show_count(tabs: QTabWidget, index: int, label: str, total: int | None, matched: int | None) -> None:
    """Set tab ``index``'s title (an unchanged one is not set again: a new title lays out the tab
    bar again and repaints it) and its colour."""
    locale = QLocale()
    if total is None:
        text = label
    elif matched is None or matched == total:
        text = f"{label} ({locale.toString(total)})"
    else:
        text = f"{label} ({locale.toString(matched)} of {locale.toString(total)})"
    if tabs.tabText(index) != text:
        tabs.setTabText(index, text)
    bar = tabs.tabBar()
    none = matched == 0
    colour = (
        bar.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.WindowText) if none else QColor()
    )
    if bar.tabTextColor(index) != colour:
        bar.setTabTextColor(index, colour)
        bar.setTabToolTip(index, f"No {label.lower()} match the query" if none else "")
