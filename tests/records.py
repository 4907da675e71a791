"""Small hand-made records for tests that serve odd payloads."""

from typing import Any


def topics(*ids: int) -> list[dict[str, Any]]:
    return [{"topicId": i, "title": f"Topic {i}", "description": f"About {i}"} for i in ids]


def webinar(wid: int, **fields: Any) -> dict[str, Any]:
    base: dict[str, Any] = {"webinarId": wid, "sessionId": wid + 1, "type": 1, "title": f"Webinar {wid}",
                            "fee": 99, "startDate": "2026-05-01T10:00:00.000Z"}
    base.update(fields)
    return base
