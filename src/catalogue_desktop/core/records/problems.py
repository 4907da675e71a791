"""Problems: what did not conform, said so that a person can find it (collection, record, field)."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any


@dataclass(frozen=True, slots=True)
class Problem:
    """One thing that did not conform to the spec.

    ``record`` is the index of the record in the collection's array (None for the collection as a
    whole), ``record_id`` its own id when it could be read, ``field`` a path such as
    ``experts[0].expertId`` (None when the problem is the whole record or collection).
    """

    collection: str
    record: int | None
    record_id: int | str | None
    field: str | None
    message: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Problem:
        return cls(
            collection=data["collection"],
            record=data.get("record"),
            record_id=data.get("record_id"),
            field=data.get("field"),
            message=data["message"],
        )

    def __str__(self) -> str:
        where = self.collection
        if self.record is not None:
            where += f"[{self.record}]"
            if self.record_id is not None:
                where += f" (id {self.record_id})"
        if self.field:
            where += f" {self.field}"
        return f"{where}: {self.message}"
