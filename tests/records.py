"""Small hand-made records for tests that serve odd payloads."""

import json
from typing import Any


def topics(*ids: int) -> list[dict[str, Any]]:
    return [{"topicId": i, "title": f"Topic {i}", "description": f"About {i}"} for i in ids]


def webinar(wid: int, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {
        "webinarId": wid,
        "sessionId": wid + 1,
        "type": 1,
        "title": f"Webinar {wid}",
        "fee": 99,
        "startDate": "2026-05-01T10:00:00.000Z",
    }
    base.update(fields)
    return base


# Payloads the fault tables serve, through the sync (tests/core) and through the window (tests/ui).
NEW_TOPICS = json.dumps(topics(1, 2, 3)).encode()
BAD_UTF8 = (
    b'[{"topicId": 1, "title": "fine", "description": "long enough to pass the first'
    b' 64 bytes"}, {"topicId": 2, "title": "caf\xe9 in Latin-1"}]'
)
DEEP = b'[{"topicId": 1, "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}]"
DATES = [  # each is 2026-05-01T10:00:00Z, give or take fractions, in another ISO 8601 form
    webinar(1, startDate="2026-05-01T10:00:00.123Z"),
    webinar(2, startDate="2026-05-01T10:00:00Z"),
    webinar(3, startDate="2026-05-01T10:00:00.1234567Z"),
    webinar(4, startDate="2026-05-01"),
    webinar(5, startDate="2026-05-01T10:00:00.5+02:00"),
    webinar(6, startDate="2026-05-01T10:00:00"),
    webinar(7, startDate="2026-05-01T10:00:00-05:00"),
]
