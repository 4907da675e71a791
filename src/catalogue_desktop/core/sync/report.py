"""What storing one collection came to (``core.sync.ingest``'s answer), in a module of its own:
the sync's process reads it back from a worker without importing the ingest (pydantic, the
models and their validators are the workers')."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class IngestReport:
    """The outcome of storing one collection: what the sync report and the window need."""

    kind: str
    status: str  # updated | partial | failed
    records: int = 0
    rejected: int = 0
    error: str | None = None
    problems: list[dict[str, Any]] = field(default_factory=list)
    changes: dict[str, Any] | None = None
    stats: dict[str, Any] | None = None
    seconds: float = 0.0
