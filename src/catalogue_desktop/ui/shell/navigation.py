"""Where the user has been: a back/forward history of records, ``--open KIND:ID`` parsing, and what
the window says when the record asked for is not there."""

from __future__ import annotations

from typing import NamedTuple

from PySide6.QtCore import QObject, Signal

from catalogue_desktop.core.records.kinds import Kind, ListKind


class Place(NamedTuple):
    """A record the person saw, and where: on the tab of a list of its own (``tab``: None), or on
    a row of another list's tab (the Dates: ``tab`` and its ``row`` key), where Back returns to
    that row, not to the record's own tab."""

    kind: Kind
    record_id: int
    tab: ListKind | None = None
    row: int | None = None


def parse_target(text: str) -> Place:
    """``"webinar:50007"`` -> ``Place(Kind.WEBINARS, 50007)``; ValueError with a readable message."""
    name, sep, number = text.partition(":")
    if not sep:
        raise ValueError(f"expected KIND:ID (e.g. webinar:50007), got {text!r}")
    kind = Kind.parse(name)
    try:
        record_id = int(number.strip())
    except ValueError:
        raise ValueError(f"the id in {text!r} is not a number") from None
    return Place(kind, record_id)


def not_found(place: Place, ids: list[int], where: str, *, final: bool = True) -> str:
    """The notice when ``--open`` names a record that is not among ``ids`` (the ids ``where``
    holds, e.g. "demo catalogue"); not ``final``: the refresh may still bring it."""
    what = f"{place.kind.singular.capitalize()} #{place.record_id}"
    if not final:
        return f"{what} is not in the cached {where}: looking for it again once the refresh is done."
    if not ids:
        return f"{what} is not in the {where}: nothing was selected (no {place.kind.value} are cached yet)."
    return (
        f"{what} is not in the {where}: nothing was selected. Its {len(ids):,} {place.kind.value} "
        f"have ids {min(ids)} to {max(ids)} (for example --open {place.kind.singular}:{ids[0]})."
    )


class History(QObject):
    """Browser-like history: visiting a new place drops the forward entries."""

    changed = Signal()

    def __init__(self, limit: int = 200, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._places: list[Place] = []
        self._at = -1
        self._limit = limit

    @property
    def current(self) -> Place | None:
        return self._places[self._at] if self._at >= 0 else None

    def can_back(self) -> bool:
        return self._at > 0

    def can_forward(self) -> bool:
        return self._at < len(self._places) - 1

    def visit(self, place: Place) -> None:
        if place == self.current:
            return
        del self._places[self._at + 1 :]
        self._places.append(place)
        if len(self._places) > self._limit:
            del self._places[0]
        self._at = len(self._places) - 1
        self.changed.emit()

    def back(self) -> Place | None:
        if not self.can_back():
            return None
        self._at -= 1
        self.changed.emit()
        return self.current

    def forward(self) -> Place | None:
        if not self.can_forward():
            return None
        self._at += 1
        self.changed.emit()
        return self.current
