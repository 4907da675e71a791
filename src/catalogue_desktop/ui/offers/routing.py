"""Where File ▸ Offer takes its occasions from: the series, courses or webinars selected on their
own tab (all their upcoming occasions: ``core.offers.of_records``), else the Dates tab (shown
first), which offers its selected rows or all it shows."""

from __future__ import annotations

from typing import Any, Protocol

from catalogue_desktop.core.offers.of_records import OFFERED_KINDS
from catalogue_desktop.core.records.kinds import OCCASIONS


class OfferWindow(Protocol):
    def current_kind(self) -> Any: ...
    def current_tab(self) -> Any: ...
    def tab(self, kind: Any) -> Any: ...
    def show_tab(self, kind: Any) -> Any: ...


def offer(window: OfferWindow, what: str) -> Any:
    """Make the offer ``what`` ("pdf", "print", "ics", "xlsx", "copy") from what the window shows."""
    kind = window.current_kind()
    if kind.value in OFFERED_KINDS:
        ids = window.current_tab().selected_ids()
        if ids:
            return window.tab(OCCASIONS).offer(what, (kind.value, ids))
    return window.show_tab(OCCASIONS).offer(what)
