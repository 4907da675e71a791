"""Decode one collection's JSON payload into models, one record at a time in spirit.

A record with a wrong type or a missing/invalid id is rejected on its own, with a Problem naming the
collection, record index and id, field path and reason; the rest of the collection is kept.
The common all-valid case takes pydantic's whole-array fast path (one ``validate_json`` call).

An escaped unpaired surrogate (``"\\ud800"``: grammatical JSON that encodes no character) makes
pydantic's parser refuse the whole payload; Python's ``json`` reads it, the character is shown as
U+FFFD and a Problem names the record and field, and the record is kept.

A number beyond reason (``core.formats.numbers``: a whole number past 64 bits, a decimal past 15
significant digits or 10^15) rejects its record alone, named with the field and the number
(shortened). pydantic's parser refuses a whole number of more than 4,300 digits for the whole
payload ("number out of range"): only then is the payload read again by Python's ``json``, each
such number kept as a Decimal (never turned into an int: that takes quadratic time) for its
record to be refused.
"""

from __future__ import annotations

import gc
import json
import re
import threading
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

import pydantic_core
from pydantic import BaseModel, TypeAdapter, ValidationError
from pydantic_core import ErrorDetails

from catalogue_desktop.core.formats.numbers import RULE, shown, within_reason
from catalogue_desktop.core.records import models
from catalogue_desktop.core.records.errors import CatalogueError
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.records.problems import Problem

MODELS: dict[Kind, type[models.Record]] = {
    Kind.WEBINARS: models.Webinar,
    Kind.SERIES: models.Series,
    Kind.COURSES: models.Course,
    Kind.CERTIFICATES: models.Certificate,
    Kind.EXPERTS: models.Expert,
    Kind.TOPICS: models.Topic,
    Kind.ROLES: models.Role,
    Kind.SITUATIONS: models.Situation,
}

# Built once, when first needed (``build_validators``): one adapter per collection (whole array)
# and per record.
_LIST_ADAPTERS: dict[Kind, TypeAdapter[list[models.Record]]] = {}
_ITEM_ADAPTERS: dict[Kind, TypeAdapter[models.Record]] = {}
# Held while one model or one collection is built: small collections are ingested on several
# threads of one process (``core.sync.runner``), each of which may be the first to decode.
_BUILDING = threading.Lock()

# Every model, each after the models it holds: a model's validator takes in those of its parts
# already built (built first, the outer one would make them again inside its own).
_BUILD_ORDER: tuple[type[models.Record], ...] = (
    models.Expert,
    models.Topic,
    models.Role,
    models.Situation,
    models.Webinar,
    models.Series,
    models.Location,
    models.Schedule,
    models.Course,
    models.Option,
    models.Track,
    models.LevelCourse,
    models.Level,
    models.Certificate,
)

# Fields whose allowed values the spec does not give: the codes seen are reported.
CODE_FIELDS: dict[Kind, tuple[str, ...]] = {
    Kind.WEBINARS: ("type",),
    Kind.COURSES: ("level",),
}


_SURROGATE = re.compile("[\ud800-\udfff]")


class DecodeError(CatalogueError):
    """The payload as a whole is unusable (not JSON, not an array, too deeply nested)."""


@dataclass
class Stats:
    """What the conformance report needs to know about one decoded collection."""

    valid: int = 0
    unknown_fields: Counter[str] = field(default_factory=Counter)
    nulls: Counter[str] = field(default_factory=Counter)
    codes: dict[str, Counter[str]] = field(default_factory=dict)
    duplicate_ids: list[int] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "unknown_fields": dict(self.unknown_fields),
            "nulls": dict(self.nulls),
            "codes": {name: dict(counts) for name, counts in self.codes.items()},
            "duplicate_ids": self.duplicate_ids,
        }


@dataclass
class Decoded:
    """The valid records of one collection (with their array index) and what was rejected."""

    kind: Kind
    records: list[tuple[int, models.Record]]
    problems: list[Problem]
    stats: Stats
    total: int  # elements in the payload's array, valid or not

    @property
    def rejected(self) -> int:
        return self.total - len(self.records)


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic GC around bulk allocation of acyclic objects (see docs/decisions.md, "Downloads,
    ingest and the cache")."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def build_validators() -> Iterator[None]:
    """Build the models' validators and the collections' adapters, yielding after each model
    and each collection, so that a caller on an event loop's thread lets the loop run between
    them (``ui.common.stepped_import``: ~1-3 ms each, the first ~10 ms with pydantic's plugin
    lookup; ~100 ms all at once). What is built already is skipped. ``models`` builds nothing
    as it is imported (``defer_build``); ``ready`` builds what is left in one go."""
    for model in _BUILD_ORDER:
        if not model.__pydantic_complete__:
            with _BUILDING:
                if not model.__pydantic_complete__:
                    model.model_rebuild()
            yield
    for kind, model in MODELS.items():
        if kind not in _LIST_ADAPTERS:
            with _BUILDING:
                if kind not in _LIST_ADAPTERS:
                    _ITEM_ADAPTERS[kind] = TypeAdapter(model)
                    _LIST_ADAPTERS[kind] = TypeAdapter(list[model])  # type: ignore[valid-type]  # (the kind's model)
            yield


def ready() -> None:
    """Build every validator not built yet, now (a worker process, a command, a first decode)."""
    for _ in build_validators():
        pass


def _item_adapter(kind: Kind) -> TypeAdapter[models.Record]:
    if kind not in _ITEM_ADAPTERS:
        ready()
    return _ITEM_ADAPTERS[kind]


def _list_adapter(kind: Kind) -> TypeAdapter[list[models.Record]]:
    if kind not in _LIST_ADAPTERS:
        ready()
    return _LIST_ADAPTERS[kind]


def decode_record(kind: Kind, data: bytes | str) -> models.Record:
    """Validate one stored record (already known to be valid) back into its model."""
    if kind is Kind.CERTIFICATES:
        return _item_adapter(kind).validate_python(json.loads(data, parse_float=Decimal))
    return _item_adapter(kind).validate_json(data)


def decode_collection(kind: Kind, payload: bytes) -> Decoded:
    """Decode a whole collection; raises DecodeError only when the payload as a whole is unusable."""
    with gc_paused():
        records, problems, total = _validate(kind, payload)
        stats = _stats(kind, records)
    problems.extend(_duplicate_problems(kind, records, stats))
    return Decoded(kind, records, problems, stats, total)


def _validate(kind: Kind, payload: bytes) -> tuple[list[tuple[int, Any]], list[Problem], int]:
    if kind is not Kind.CERTIFICATES:  # Certificate.fee must come from the exact number text
        try:
            valid = _list_adapter(kind).validate_json(payload)
            return list(enumerate(valid)), [], len(valid)
        except ValidationError as exc:
            first = exc.errors(include_url=False)[0]
            if first["type"] == "json_invalid" and not _python_reads(first["msg"]):
                raise _invalid_json(kind, payload, first["msg"]) from None
        except RecursionError:
            raise DecodeError(f"{kind.value}: JSON nested too deeply") from None
    items, lenient = _parse(kind, payload)
    adapter = _item_adapter(kind)
    records: list[tuple[int, Any]] = []
    problems: list[Problem] = []
    for index, item in enumerate(items):
        try:
            if lenient:  # walking a record nested too deeply is the RecursionError below
                found: list[str] = []
                item = _without_surrogates(item, "", found)
                problems.extend(
                    Problem(
                        kind.value,
                        index,
                        _id_of(kind, item),
                        path or None,
                        "an escaped unpaired surrogate (\\uD800-\\uDFFF: no character), shown as U+FFFD",
                    )
                    for path in found
                )
            records.append((index, adapter.validate_python(item)))
        except ValidationError as exc:
            problems.extend(_record_problems(kind, index, item, exc))
        except RecursionError:
            problems.append(Problem(kind.value, index, _id_of(kind, item), None, "nested too deeply"))
    return records, problems, len(items)


def _parse(kind: Kind, payload: bytes) -> tuple[list[Any], bool]:
    """The payload's array, and whether it had to be read by Python's ``json`` because
    pydantic's parser refused an escaped unpaired surrogate (its strings may hold some)."""
    lenient = kind is Kind.CERTIFICATES
    try:
        if lenient:
            items = json.loads(payload, parse_float=Decimal, parse_int=_whole)
        else:
            try:
                items = pydantic_core.from_json(payload, cache_strings="keys")
            except ValueError as exc:
                if not _python_reads(str(exc)):
                    raise
                items, lenient = json.loads(payload, parse_int=_whole), True
    except RecursionError:
        raise DecodeError(f"{kind.value}: JSON nested too deeply") from None
    except UnicodeDecodeError as exc:
        raise DecodeError(f"{kind.value}: not valid UTF-8 (at byte {exc.start})") from None
    except ValueError as exc:
        raise DecodeError(f"{kind.value}: not valid JSON ({exc})") from None
    if not isinstance(items, list):
        raise DecodeError(f"{kind.value}: expected a JSON array of {kind.value}, got {_json_type(items)}")
    return items, lenient


def _python_reads(message: str) -> bool:
    """Whether Python's ``json`` is to read a payload pydantic's parser refused: for an escaped
    unpaired surrogate, or a whole number too long for it ("number out of range")."""
    return _maybe_surrogate(message) or "number out of range" in message


def _whole(text: str) -> int | Decimal:
    """A JSON integer for Python's ``json``: an int, or a Decimal when it has more digits than
    64 bits hold (``int()`` of 5,000 digits is refused; of 4,000, slow): beyond reason either way,
    the record holding it is refused (see the module)."""
    return int(text) if len(text) <= 20 else Decimal(text)


def _maybe_surrogate(message: str) -> bool:
    """Whether pydantic's parser may have refused an escaped unpaired surrogate ("lone leading
    surrogate in hex escape", "unexpected end of hex escape"): Python's ``json`` then decides."""
    return "surrogate" in message or "end of hex escape" in message


def _without_surrogates(value: object, path: str, found: list[str]) -> Any:
    """``value`` with unpaired surrogates replaced by U+FFFD; their field paths go to ``found``."""
    if isinstance(value, str):
        if _SURROGATE.search(value) is None:
            return value
        found.append(path)
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_without_surrogates(v, f"{path}[{i}]", found) for i, v in enumerate(value)]
    if isinstance(value, dict):
        out = {}
        for key, child in value.items():
            clean = _SURROGATE.sub("\ufffd", key)
            child_path = f"{path}.{clean}" if path else clean
            if clean != key:  # an unknown field's name
                found.append(child_path)
            out[clean] = _without_surrogates(child, child_path, found)
        return out
    return value


def _invalid_json(kind: Kind, payload: bytes, message: str) -> DecodeError:
    """The whole-payload error, in the same words whichever parser found it."""
    if "recursion limit" in message:
        return DecodeError(f"{kind.value}: JSON nested too deeply")
    try:
        payload.decode("utf-8")
    except UnicodeDecodeError as exc:
        return DecodeError(f"{kind.value}: not valid UTF-8 (at byte {exc.start})")
    return DecodeError(f"{kind.value}: not valid JSON ({message})")


def _json_type(value: object) -> str:
    if isinstance(value, dict):
        return "a JSON object"
    if isinstance(value, str):
        return "a JSON string"
    if value is None:
        return "null"
    return f"a JSON {type(value).__name__}"


def _id_of(kind: Kind, item: object) -> int | str | None:
    value = item.get(kind.id_field) if isinstance(item, dict) else None
    if isinstance(value, (int, str)) and not isinstance(value, bool):
        return value if not isinstance(value, str) else value[:40]
    return None


def _record_problems(kind: Kind, index: int, item: object, exc: ValidationError) -> list[Problem]:
    record_id = _id_of(kind, item)
    out = []
    for error in exc.errors(include_url=False):
        path = format_loc(error["loc"])
        message = error["msg"]
        if error["type"] == "missing":
            message = "missing (required)"
        elif "input" in error and _beyond_reason(error):
            message = f"{RULE}, got {shown(error['input'])}"
        elif "input" in error and error["type"] != "model_type":
            message += f", got {_short(error['input'])}"
        if not path:
            message = f"not a record ({message})"
        out.append(Problem(kind.value, index, record_id, path or None, message))
    return out


def _beyond_reason(error: ErrorDetails) -> bool:
    """Whether a validation error is the number rule's: a number out of bounds (a whole number's
    ``le``/``ge``, the decimal's own check), or a huge JSON integer kept as a Decimal where a whole
    number belongs."""
    value = error["input"]
    if error["type"] == "number_beyond_reason":
        return True
    if isinstance(value, bool) or not isinstance(value, (int, Decimal)):
        return False
    return error["type"] in ("less_than_equal", "greater_than_equal", "int_type") and not within_reason(value)


def format_loc(loc: tuple[int | str, ...]) -> str:
    """``('experts', 0, 'expertId')`` -> ``experts[0].expertId``."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        else:
            text += f".{part}" if text else str(part)
    return text


def _short(value: object) -> str:
    text = json.dumps(value, default=str, ensure_ascii=False) if value is not None else "null"
    return text if len(text) <= 60 else text[:57] + "..."


def _stats(kind: Kind, records: list[tuple[int, Any]]) -> Stats:
    stats = Stats(valid=len(records))
    names = [(name, info.alias or name) for name, info in MODELS[kind].model_fields.items()]
    code_fields = CODE_FIELDS.get(kind, ())
    for name in code_fields:
        stats.codes[name] = Counter()
    for _, record in records:
        values = record.__dict__
        for name, alias in names:
            if values[name] is None:
                stats.nulls[alias] += 1
        for name in code_fields:
            stats.codes[name][json.dumps(values[name])] += 1
        _count_unknown(record, "", stats.unknown_fields)
    return stats


def _count_unknown(model: BaseModel, prefix: str, counts: Counter[str]) -> None:
    extra = model.__pydantic_extra__
    if extra:
        for key in extra:
            counts[prefix + key] += 1
    values = model.__dict__
    for name, alias in _nested_fields(type(model)):
        children = values[name]
        if children:
            child_prefix = f"{prefix}{alias}[]."
            if _nested_fields(type(children[0])):
                for child in children:
                    _count_unknown(child, child_prefix, counts)
            else:  # (a list of records without lists of their own: the common case, inline)
                for child in children:
                    extra = child.__pydantic_extra__
                    if extra:
                        for key in extra:
                            counts[child_prefix + key] += 1


_NESTED: dict[type[BaseModel], tuple[tuple[str, str], ...]] = {}


def _nested_fields(cls: type[BaseModel]) -> tuple[tuple[str, str], ...]:
    """(attribute, JSON name) of the fields holding lists of nested records."""
    found = _NESTED.get(cls)
    if found is None:
        found = tuple(
            (name, info.alias or name)
            for name, info in cls.model_fields.items()
            if "list[" in str(info.annotation)
        )
        _NESTED[cls] = found
    return found


def _duplicate_problems(kind: Kind, records: list[tuple[int, Any]], stats: Stats) -> list[Problem]:
    seen: dict[int, int] = {}
    problems = []
    id_attr = _id_attr(kind)
    for index, record in records:
        record_id = getattr(record, id_attr)
        if record_id in seen:
            stats.duplicate_ids.append(record_id)
            problems.append(
                Problem(
                    kind.value,
                    index,
                    record_id,
                    kind.id_field,
                    f"duplicate id (also record {seen[record_id]}); both kept, "
                    "their calendar events given distinct UIDs",
                )
            )
        else:
            seen[record_id] = index
        problems.extend(_nested_duplicates(kind, index, record_id, record))
    return problems


# Nested records whose ids make an occasion's calendar UID: a course's locations, a series' sessions.
_NESTED_IDS: dict[Kind, tuple[str, str, str]] = {
    Kind.COURSES: ("locations", "location_id", "locationId"),
    Kind.SERIES: ("sessions", "webinar_id", "webinarId"),
}


def _nested_duplicates(
    kind: Kind, index: int, record_id: int | str | None, record: models.Record
) -> list[Problem]:
    """Problems for ids repeated within one record's locations or sessions (both kept: the
    offers' calendar gives their events distinct UIDs)."""
    nested = _NESTED_IDS.get(kind)
    if nested is None:
        return []
    attr, id_attr, name = nested
    seen: dict[Any, int] = {}
    out = []
    for i, child in enumerate(getattr(record, attr) or ()):
        child_id = getattr(child, id_attr)
        if child_id is None:
            continue
        if child_id in seen:
            out.append(
                Problem(
                    kind.value,
                    index,
                    record_id,
                    f"{attr}[{i}].{name}",
                    f"duplicate {name} {child_id} (also {attr}[{seen[child_id]}]); both kept, "
                    "their calendar events given distinct UIDs",
                )
            )
        else:
            seen[child_id] = i
    return out


def _id_attr(kind: Kind) -> str:
    return next(n for n, i in MODELS[kind].model_fields.items() if i.alias == kind.id_field)


ID_ATTRS: dict[Kind, str] = {kind: _id_attr(kind) for kind in Kind}
