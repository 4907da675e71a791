"""What storing one collection came to (``core.sync.ingest``'s answer), in a module of its own:
the sync's process reads it back from a worker without importing the ingest (pydantic, the
models and their validators are the workers')."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from catalogue_desktop.core.records.errors import ProxyCause

# What a sync came to for one collection: ``IngestStatus`` once its payload was stored (all
# records, some, or none: the old copy kept), ``unchanged`` when the service said 304.
IngestStatus = Literal["updated", "partial", "failed"]
Status = Literal[IngestStatus, "unchanged"]
# What kind of failure a ``failed`` one was (``core.sync.runner.cause_of``; their words: ``ui.sync.wording``)
Cause = Literal[
    "offline",
    "no-answer",
    "connection-lost",
    "service",
    "bad-data",
    "certificate",
    "credentials-wanted",
    "credentials-refused",
    "error",
    ProxyCause,
]


@dataclass
class IngestReport:
    """The outcome of storing one collection: what the sync report and the window need."""

    kind: str
    status: IngestStatus
    records: int = 0
    rejected: int = 0
    error: str | None = None
    problems: list[dict[str, Any]] = field(default_factory=list)
    changes: dict[str, Any] | None = None
    stats: dict[str, Any] | None = None
    seconds: float = 0.0
