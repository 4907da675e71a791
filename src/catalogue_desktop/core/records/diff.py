"""Changes between two snapshots of a collection: added, removed and changed records, field by field.

Records are compared as their stored JSON (camelCase names, as the spec). Nested records with ids
(a course's locations, a webinar's experts) are matched by id, so a course fee change reads
``locations[501].fee: [995, 1095]`` rather than "locations changed".
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

_NESTED_IDS = (
    "expertId",
    "topicId",
    "roleId",
    "situationId",
    "webinarId",
    "locationId",
    "optionId",
    "trackId",
    "courseId",
    "id",
)


def diff_snapshots(old: Mapping[int, bytes], new: Iterable[tuple[int, bytes]]) -> dict[str, Any]:
    """``old`` maps id -> stored JSON; ``new`` yields (id, JSON). Returns the change summary."""
    seen: set[int] = set()
    added: list[int] = []
    changed: list[dict[str, Any]] = []
    for record_id, data in new:
        if record_id in seen:
            continue
        seen.add(record_id)
        before = old.get(record_id)
        if before is None:
            added.append(record_id)
        elif before != data:
            fields = diff_values(json.loads(before), json.loads(data))
            if fields:
                changed.append({"id": record_id, "fields": fields})
    removed = [record_id for record_id in old if record_id not in seen]
    return {"added": added, "removed": removed, "changed": changed}


def diff_values(old: object, new: object, path: str = "") -> dict[str, list[Any]]:
    """Leaf-level differences between two JSON values, keyed by a readable path."""
    if isinstance(old, dict) and isinstance(new, dict):
        out: dict[str, list[Any]] = {}
        for key in dict.fromkeys([*old, *new]):
            sub = f"{path}.{key}" if path else key
            out.update(diff_values(old.get(key), new.get(key), sub))
        return out
    if isinstance(old, list) and isinstance(new, list):
        id_key = _id_key(old + new)
        if id_key:
            return _diff_by_id(old, new, id_key, path)
    if old != new:
        return {path: [_summary(old), _summary(new)]}
    return {}


def _id_key(items: list[Any]) -> str | None:
    if not items or not all(isinstance(i, dict) for i in items):
        return None
    for key in _NESTED_IDS:
        ids = [i.get(key) for i in items]
        if all(isinstance(v, int) for v in ids):
            return key
    return None


def _diff_by_id(old: list[Any], new: list[Any], key: str, path: str) -> dict[str, list[Any]]:
    before = {i[key]: i for i in old}
    after = {i[key]: i for i in new}
    out: dict[str, list[Any]] = {}
    for record_id in dict.fromkeys([*before, *after]):
        sub = f"{path}[{record_id}]"
        if record_id not in before:
            out[sub] = [None, _summary(after[record_id])]
        elif record_id not in after:
            out[sub] = [_summary(before[record_id]), None]
        else:
            out.update(diff_values(before[record_id], after[record_id], sub))
    return out


def _summary(value: object) -> Any:
    """Scalars as they are; a nested record by its title, name or city (and its start day, when it
    has one: ``Dallas, 2027-03-09``); lists by their items."""
    if isinstance(value, dict):
        for key in ("title", "name", "city", "venue"):
            if isinstance(value.get(key), str):
                start = value.get("startDate")
                return f"{value[key]}, {start[:10]}" if isinstance(start, str) else value[key]
        return json.dumps(value, sort_keys=True)[:120]
    if isinstance(value, list):
        return "; ".join(str(_summary(v)) for v in value)
    return value


def describe_fields(fields: Mapping[str, list[Any]], limit: int = 6) -> str:
    """``{"fee": [199, 219]}`` -> ``fee 199 -> 219`` (for tooltips and terminals)."""
    parts = [f"{name} {_short(old)} -> {_short(new)}" for name, (old, new) in fields.items()]
    if len(parts) > limit:
        parts = [*parts[:limit], f"and {len(parts) - limit} more"]
    return "; ".join(parts)


def _short(value: object) -> str:
    text = "(none)" if value is None else str(value)
    return text if len(text) <= 40 else text[:37] + "..."
