"""What the spec leaves open about codes, as the user settled it (Preferences)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from catalogue_desktop.core.records.kinds import OccasionKind

_OCCASION_KINDS = {kind.code: kind.value for kind in OccasionKind}


class Vocabulary:
    """What the spec leaves to the user: labels of ``Webinar.type`` codes and which codes mean
    on demand. The default follows the demo catalogue's convention (1 on demand, 2 live).
    (A plain class, not a dataclass: a dataclass is compiled at every start, docs/decisions.md.)"""

    __slots__ = ("on_demand", "type_labels")

    def __init__(
        self, type_labels: Mapping[str, str] | None = None, on_demand: frozenset[str] = frozenset({"1"})
    ) -> None:
        self.type_labels: Mapping[str, str] = (
            {"1": "On demand", "2": "Live"} if type_labels is None else type_labels
        )
        self.on_demand = on_demand

    def __repr__(self) -> str:
        return f"Vocabulary({dict(self.type_labels)!r}, {set(self.on_demand)!r})"

    def label(self, field_name: str, code: object) -> str:
        """A code in words: its label, else "Type 7" (never a bare number)."""
        if code is None:
            return ""
        if field_name == "type":
            return self.type_labels.get(str(code)) or f"Type {code}"
        if field_name == "level":
            return f"Level {code}"
        if field_name == "kind":  # an occasion's kind as the Dates tab writes it ("Session")
            return _OCCASION_KINDS.get(str(code), str(code))
        return str(code)

    def key(self) -> tuple[Any, ...]:
        return (tuple(sorted(self.type_labels.items())), tuple(sorted(self.on_demand)))

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Vocabulary) and other.key() == self.key()

    def __hash__(self) -> int:
        return hash(self.key())
