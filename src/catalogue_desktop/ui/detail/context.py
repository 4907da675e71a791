"""What a detail page needs besides the record itself: the catalogue's index, the record's changes
in the last refresh and its kept history, course titles and the time against which dates count as
past. Qt-free; the shell makes one for each record shown (from the loader's index, changes
and history)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from catalogue_desktop.core.cache.record_history import Event
from catalogue_desktop.core.listing.rowset import CatalogueIndex

__all__ = ["DetailContext"]


@dataclass
class DetailContext:
    """What a detail page needs besides the record itself."""

    index: CatalogueIndex
    changes: dict[str, Any] | None = None  # {"id": 7, "fields": {...}} or {"added": True}
    course_title: Callable[[int], str | None] = field(default=lambda _id: None)
    now_ms: int = 0
    history: list[Event] = field(default_factory=list)  # oldest first
    # the date a Dates row stands for, when the page is shown for one: its course's location id,
    # or its series' session (webinar id); the page then leads with that date's own facts
    occasion: int | None = None
