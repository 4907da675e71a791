"""Models against the spec, and the tolerant per-record decoder (decode_collection)."""

from __future__ import annotations

import json
import re
import sys
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from catalogue_desktop.core.records import models
from catalogue_desktop.core.records.decode import (
    MODELS,
    Decoded,
    DecodeError,
    decode_collection,
    decode_record,
    format_loc,
)
from catalogue_desktop.core.records.kinds import Kind
from tests.spec_shapes import ID_FIELDS, KIND_RECORD, SHAPES

SPEC = Path(__file__).resolve().parents[3] / "docs" / "catalogue-api-v1.md"  # in the repository


def model(name: str) -> type[models.Record]:
    return getattr(models, name)


def json_names(cls: type[models.Record]) -> list[str]:
    return [info.alias or name for name, info in cls.model_fields.items()]


def dumps(value: Any) -> bytes:
    return json.dumps(value).encode()


# -- models vs the spec ------------------------------------------------------------------------------


def parse_spec_tables(text: str) -> dict[str, list[str]]:
    """``### Name`` (optionally ``(inside ...)``) followed by a ``| Field | Type |`` table."""
    tables: dict[str, list[str]] = {}
    current: str | None = None
    in_table = False
    for line in text.splitlines():
        if line.startswith("#"):
            heading = re.match(r"^###\s+(\w+)\b", line)
            current = heading.group(1) if heading else None
            in_table = False
            continue
        if current is None or not line.startswith("|"):
            in_table = False
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if cells == ["Field", "Type"]:
            in_table = True
            tables[current] = []
        elif in_table and not set(cells[0]) <= {"-"}:
            tables[current].append(cells[0])
    return tables


def test_shapes_name_a_model_for_every_record() -> None:
    assert set(SHAPES) == set(ID_FIELDS)
    assert {KIND_RECORD[k] for k in Kind} <= set(SHAPES)
    for kind, name in KIND_RECORD.items():
        assert MODELS[kind] is model(name)
        assert ID_FIELDS[name] == kind.id_field
    for name, shape in SHAPES.items():
        assert json_names(model(name)) == list(shape), name


def test_model_json_names_equal_the_spec_tables_exactly() -> None:
    tables = parse_spec_tables(SPEC.read_text(encoding="utf-8"))
    assert set(tables) == set(SHAPES), "the spec's record tables changed"
    for name, fields in tables.items():
        assert json_names(model(name)) == fields, f"{name}: model names differ from the spec"
        assert list(SHAPES[name]) == fields


def test_models_are_frozen() -> None:
    for name in SHAPES:
        cls = model(name)
        assert cls.model_config.get("frozen") is True
        first = next(iter(cls.model_fields))
        record = cls.model_validate({ID_FIELDS[name]: 1} if ID_FIELDS[name] else {})
        with pytest.raises(ValidationError):
            setattr(record, first, 2)


@pytest.mark.parametrize("name", sorted(SHAPES))
def test_every_non_id_field_may_be_null_or_absent(name: str) -> None:
    cls = model(name)
    id_field = ID_FIELDS[name]
    base = {id_field: 7} if id_field else {}
    absent = cls.model_validate(base)
    nulls = cls.model_validate(base | {f: None for f in SHAPES[name] if f != id_field})
    for attr, info in cls.model_fields.items():
        if info.alias == id_field:
            assert getattr(absent, attr) == 7 == getattr(nulls, attr)
        else:
            assert getattr(absent, attr) is None and getattr(nulls, attr) is None


@pytest.mark.parametrize(
    ("text", "instant"),
    [
        ("2026-03-04T14:00:00.000-05:00", datetime(2026, 3, 4, 19, 0, tzinfo=UTC)),
        ("2026-03-04T19:00:00Z", datetime(2026, 3, 4, 19, 0, tzinfo=UTC)),
        ("2026-03-04T14:00:00-05:00", datetime(2026, 3, 4, 19, 0, tzinfo=UTC)),
        ("2026-03-04T19:00:00.1234567Z", datetime(2026, 3, 4, 19, 0, 0, 123456, tzinfo=UTC)),
        ("2026-03-04T14:00:00.1234567-05:00", datetime(2026, 3, 4, 19, 0, 0, 123456, tzinfo=UTC)),
        ("2026-03-04", datetime(2026, 3, 4, 0, 0, tzinfo=UTC)),
        ("2026-03-04T19:00:00", datetime(2026, 3, 4, 19, 0, tzinfo=UTC)),
        ("2026-03-04T19:00:00.250", datetime(2026, 3, 4, 19, 0, 0, 250000, tzinfo=UTC)),
    ],
)
def test_dates_are_aware_with_the_right_instant(text: str, instant: datetime) -> None:
    webinar = models.Webinar.model_validate({"webinarId": 1, "startDate": text})
    location = models.Location.model_validate({"locationId": 1, "endDate": text})
    for value in (webinar.start_date, location.end_date):
        assert value is not None and value.tzinfo is not None
        assert value.utcoffset() is not None
        assert value == instant


def test_documented_date_keeps_its_offset() -> None:
    value = models.Webinar.model_validate(
        {"webinarId": 1, "endDate": "2026-03-04T14:00:00.000-05:00"}
    ).end_date
    assert value is not None and value.utcoffset() == timedelta(hours=-5)
    assert value.hour == 14


@pytest.mark.parametrize("text", ["next tuesday", "2026-13-01", "", "2026-03-04T25:00:00Z"])
def test_bad_dates_reject_the_record(text: str) -> None:
    decoded = decode_collection(Kind.WEBINARS, dumps([{"webinarId": 1, "startDate": text}]))
    assert decoded.records == []
    (problem,) = decoded.problems
    assert (problem.record, problem.record_id, problem.field) == (0, 1, "startDate")


@pytest.mark.parametrize("fee", ["1899.50", "1234567890123.45", "0.1", "2495.00", "12"])
def test_certificate_fee_keeps_the_exact_decimal(fee: str) -> None:
    payload = f'[{{"certificateId": 1, "fee": {fee}}}]'.encode()
    decoded = decode_collection(Kind.CERTIFICATES, payload)
    ((_, record),) = decoded.records
    assert isinstance(record.fee, Decimal)
    assert record.fee == Decimal(fee) and str(record.fee) == fee
    # and it survives the store's round trip (model_dump_json -> decode_record)
    again = decode_record(Kind.CERTIFICATES, record.model_dump_json(by_alias=True))
    assert again.fee == Decimal(fee) and str(again.fee) == fee


def test_decode_record_round_trips_every_kind() -> None:
    samples = {
        Kind.WEBINARS: {
            "webinarId": 3,
            "type": 2,
            "startDate": "2026-03-04T14:00:00.000-05:00",
            "experts": [{"expertId": 9, "name": "Ann"}],
        },
        Kind.SERIES: {"seriesId": 4, "sessions": [{"webinarId": 3, "fee": 99}]},
        Kind.COURSES: {"courseId": 5, "locations": [{"locationId": 6, "fee": 995}]},
        Kind.CERTIFICATES: {"certificateId": 7, "fee": "1899.50"},
        Kind.EXPERTS: {"expertId": 9, "image2xUrl": "https://x/2x.png"},
        Kind.TOPICS: {"topicId": 1, "title": "Tax"},
        Kind.ROLES: {"roleId": 1},
        Kind.SITUATIONS: {"situationId": 1, "description": "d"},
    }
    for kind, data in samples.items():
        ((_, record),) = decode_collection(kind, dumps([data])).records
        assert decode_record(kind, record.model_dump_json(by_alias=True)) == record


# -- per-record rejection -----------------------------------------------------------------------------


def test_wrong_nested_type_rejects_only_that_record_with_a_full_problem() -> None:
    payload = dumps(
        [
            {"webinarId": 1, "title": "ok"},
            {"webinarId": 2, "experts": [{"expertId": "x", "name": "Bad"}]},
            {"webinarId": 3, "fee": 50},
        ]
    )
    decoded = decode_collection(Kind.WEBINARS, payload)
    assert [(i, r.webinar_id) for i, r in decoded.records] == [(0, 1), (2, 3)]
    assert decoded.total == 3 and decoded.rejected == 1
    (problem,) = decoded.problems
    assert problem.collection == "webinars"
    assert problem.record == 1 and problem.record_id == 2
    assert problem.field == "experts[0].expertId"
    assert "integer" in problem.message and '"x"' in problem.message
    assert str(problem) == f"webinars[1] (id 2) experts[0].expertId: {problem.message}"


@pytest.mark.parametrize(
    ("record", "field", "needle"),
    [
        ({"title": "no id"}, "webinarId", "missing"),
        ({"webinarId": None}, "webinarId", "null"),
        ({"webinarId": "7"}, "webinarId", "integer"),
        ({"webinarId": True}, "webinarId", "integer"),
        ({"webinarId": 1.5}, "webinarId", "integer"),
        ({"webinarId": 1, "fee": "10"}, "fee", "integer"),
        ({"webinarId": 1, "cleAccreditation": "yes"}, "cleAccreditation", "boolean"),
        ({"webinarId": 1, "type": True}, "type", "code"),
        ({"webinarId": 1, "type": [1]}, "type", "code"),
        ({"webinarId": 1, "topics": {"topicId": 1}}, "topics", "list"),
        ({"webinarId": 1, "roles": [{"title": "no id"}]}, "roles[0].roleId", "missing"),
    ],
)
def test_invalid_records_are_rejected_with_the_field(record: dict[str, Any], field: str, needle: str) -> None:
    decoded = decode_collection(Kind.WEBINARS, dumps([{"webinarId": 100}, record]))
    assert [i for i, _ in decoded.records] == [0]
    assert decoded.rejected == 1
    assert any(p.record == 1 and p.field == field for p in decoded.problems), decoded.problems
    problem = next(p for p in decoded.problems if p.field == field)
    assert needle in problem.message.lower()
    expected_id = record.get("webinarId")
    if isinstance(expected_id, bool) or not isinstance(expected_id, int | str):
        expected_id = None
    assert problem.record_id == expected_id


@pytest.mark.parametrize("junk", [5, "text", None, [1, 2], True, 1.5])
@pytest.mark.parametrize("kind", list(Kind))
def test_an_element_that_is_not_an_object_is_rejected(kind: Kind, junk: Any) -> None:
    decoded = decode_collection(kind, dumps([junk, {kind.id_field: 1}]))
    assert [(i, getattr(r, decoded_id(kind))) for i, r in decoded.records] == [(1, 1)]
    (problem,) = decoded.problems
    assert (problem.collection, problem.record, problem.record_id, problem.field) == (
        kind.value,
        0,
        None,
        None,
    )
    assert problem.message.startswith("not a record")


def decoded_id(kind: Kind) -> str:
    return next(n for n, i in MODELS[kind].model_fields.items() if i.alias == kind.id_field)


def test_certificate_records_are_rejected_one_by_one_too() -> None:
    payload = (
        b'[{"certificateId": 1, "fee": 1.5}, {"certificateId": 2, "fee": true},'
        b' {"certificateId": 3, "levels": [{"id": 1, "courses": [{"courseId": "x"}]}]}]'
    )
    decoded = decode_collection(Kind.CERTIFICATES, payload)
    assert [i for i, _ in decoded.records] == [0]
    assert sorted((p.record, p.record_id, p.field) for p in decoded.problems) == [
        (1, 2, "fee"),
        (2, 3, "levels[0].courses[0].courseId"),
    ]


# -- statistics ---------------------------------------------------------------------------------------


def test_extra_fields_are_tolerated_kept_and_counted() -> None:
    payload = dumps(
        [
            {"webinarId": 1, "colour": "red", "experts": [{"expertId": 2, "shoeSize": 9}]},
            {
                "webinarId": 2,
                "colour": "blue",
                "experts": [{"expertId": 3, "shoeSize": 9}, {"expertId": 4}],
                "topics": [{"topicId": 5, "legacy": True}],
            },
        ]
    )
    decoded = decode_collection(Kind.WEBINARS, payload)
    assert decoded.problems == [] and decoded.rejected == 0
    assert dict(decoded.stats.unknown_fields) == {"colour": 2, "experts[].shoeSize": 2, "topics[].legacy": 1}
    first = decoded.records[0][1]
    assert first.model_extra == {"colour": "red"}
    assert json.loads(first.model_dump_json(by_alias=True))["colour"] == "red"


def test_deeper_nested_extra_fields_have_the_full_path() -> None:
    payload = dumps([{"seriesId": 1, "sessions": [{"webinarId": 2, "roles": [{"roleId": 3, "odd": 1}]}]}])
    decoded = decode_collection(Kind.SERIES, payload)
    assert dict(decoded.stats.unknown_fields) == {"sessions[].roles[].odd": 1}


def test_sample_spec_names_are_not_unknown_fields() -> None:
    expert = {name: None for name in SHAPES["Expert"]} | {"expertId": 1, "image2xUrl": "x@2x.png"}
    decoded = decode_collection(Kind.EXPERTS, dumps([expert]))
    assert decoded.stats.unknown_fields == {}
    assert decoded.records[0][1].image2x_url == "x@2x.png"


def test_nulls_are_counted_per_field() -> None:
    payload = dumps(
        [
            {"topicId": 1, "title": None},
            {"topicId": 2},
            {"topicId": 3, "title": "T", "description": "D"},
        ]
    )
    stats = decode_collection(Kind.TOPICS, payload).stats
    assert stats.valid == 3
    assert dict(stats.nulls) == {"title": 2, "description": 2}


def test_webinar_type_codes_are_counted_including_unknown_and_text() -> None:
    payload = dumps(
        [
            {"webinarId": 1, "type": 1},
            {"webinarId": 2, "type": 2},
            {"webinarId": 3, "type": 1},
            {"webinarId": 4, "type": 3},
            {"webinarId": 5, "type": "LIVE"},
            {"webinarId": 6},
        ]
    )
    decoded = decode_collection(Kind.WEBINARS, payload)
    assert decoded.rejected == 0
    assert dict(decoded.stats.codes["type"]) == {"1": 2, "2": 1, "3": 1, '"LIVE"': 1, "null": 1}
    assert decoded.records[4][1].type == "LIVE"
    assert decoded.stats.to_json()["codes"] == {"type": {"1": 2, "2": 1, "3": 1, '"LIVE"': 1, "null": 1}}


def test_duplicate_ids_are_reported_and_both_kept() -> None:
    payload = dumps([{"topicId": 1, "title": "A"}, {"topicId": 2}, {"topicId": 1, "title": "B"}])
    decoded = decode_collection(Kind.TOPICS, payload)
    assert [(i, r.title) for i, r in decoded.records] == [(0, "A"), (1, None), (2, "B")]
    assert decoded.stats.duplicate_ids == [1]
    (problem,) = decoded.problems
    assert (problem.record, problem.record_id, problem.field) == (2, 1, "topicId")
    assert "duplicate" in problem.message and "record 0" in problem.message
    assert decoded.rejected == 0


def test_format_loc() -> None:
    assert format_loc(("experts", 0, "expertId")) == "experts[0].expertId"
    assert format_loc(("levels", 1, "courses", 2, "courseId")) == "levels[1].courses[2].courseId"
    assert format_loc(()) == ""


# -- whole-payload errors -----------------------------------------------------------------------------

BAD_PAYLOADS = {
    "not JSON": (b"<html>oops</html>", "not valid JSON"),
    "empty": (b"", "not valid JSON"),
    "object": (b'{"items": []}', "a JSON object"),
    "string": (b'"webinars"', "a JSON string"),
    "null": (b"null", "null"),
    "number": (b"42", "JSON"),
    "truncated": (b'[{"webinarId": 1}, {"webinarId": 2', "not valid JSON"),
    "truncated in an escape": (b'[{"webinarId": 1, "title": "\\ud8', "not valid JSON"),
    "invalid UTF-8": (b'[{"topicId": 1, "title": "\xff\xfe\x80"}]', "not valid"),
    "deeply nested": (b"[" * 100_000, "JSON"),
    "deeply nested, closed": (b"[" * 100_000 + b"]" * 100_000, "JSON"),
}


@pytest.mark.parametrize("case", sorted(BAD_PAYLOADS))
@pytest.mark.parametrize("kind", list(Kind))
def test_unusable_payloads_raise_decode_error(kind: Kind, case: str) -> None:
    payload, needle = BAD_PAYLOADS[case]
    with pytest.raises(DecodeError) as info:
        decode_collection(kind, payload)
    message = str(info.value)
    assert message.startswith(f"{kind.value}: ")
    assert needle in message


MINIMAL = {
    Kind.WEBINARS: {"sessionId": 1, "type": 1, "title": "T", "fee": 99},
    Kind.CERTIFICATES: {"title": "T", "fee": 1.5},
}


@pytest.mark.parametrize("kind", [Kind.WEBINARS, Kind.TOPICS, Kind.CERTIFICATES])
def test_an_escaped_unpaired_surrogate_is_shown_as_a_replacement_and_reported(kind: Kind) -> None:
    """``"\\ud800"`` is grammatical JSON but no character (pydantic's parser refuses the whole
    payload, UTF-8 cannot store it): the record is kept with U+FFFD, and a Problem names it."""
    good = {kind.id_field: 1, **MINIMAL.get(kind, {"title": "T"})}
    bad = {**good, kind.id_field: 2, "title": "Tax \ud800 update", "odd\udc00name": "x"}
    payload = json.dumps([good, bad]).encode()  # ensure_ascii: the surrogates as \\u escapes
    assert b'"Tax \\ud800 update"' in payload and b'"odd\\udc00name"' in payload
    decoded = decode_collection(kind, payload)
    assert decoded.rejected == 0 and [i for i, _ in decoded.records] == [0, 1]
    first, second = (record for _, record in decoded.records)
    assert first.title == "T" and second.title == "Tax \ufffd update"
    assert [(p.record, p.record_id, p.field) for p in decoded.problems] == [
        (1, 2, "title"),
        (1, 2, "odd\ufffdname"),
    ]
    assert all("unpaired surrogate" in p.message for p in decoded.problems)
    stored = second.model_dump_json(by_alias=True).encode()  # what the store keeps: UTF-8
    assert decode_record(kind, stored).title == "Tax \ufffd update"
    assert decode_collection(kind, json.dumps([good]).encode()).problems == []


def test_a_certificate_nested_too_deeply_for_the_walk_is_rejected_alone() -> None:
    """Certificates are read by Python's ``json`` (exact decimals), then walked record by record
    (unpaired surrogates): a record nested deeper than that walk can go, though not too deep to
    parse, is rejected with a problem naming it, and the others are kept. It used to escape as a
    RecursionError (found by ``test_properties``). Other kinds' parser refuses such a payload
    whole ("nested too deeply")."""
    kind = Kind.CERTIFICATES
    good = {kind.id_field: 1, **MINIMAL[kind]}
    deep: Any = "x"
    for _ in range(700):  # deeper than the walk's recursion, within the parser's
        deep = [deep]
    payload = json.dumps([good, {**good, kind.id_field: 2, "extra": deep}]).encode()
    decoded = decode_collection(kind, payload)
    assert [i for i, _ in decoded.records] == [0]
    assert [(p.record, p.record_id, p.message) for p in decoded.problems] == [(1, 2, "nested too deeply")]


def test_empty_array_decodes_to_nothing() -> None:
    for kind in Kind:
        decoded = decode_collection(kind, b" [ ] ")
        assert (decoded.records, decoded.problems, decoded.total) == ([], [], 0)


# -- property: decode never raises anything but DecodeError, and loses nothing --------------------------

TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
INTS = st.integers(min_value=-(2**53), max_value=2**53)
DATE_FORMS = st.sampled_from(
    [
        "%Y-%m-%dT%H:%M:%S.000-05:00",
        "%Y-%m-%dT%H:%M:%SZ",
        "%Y-%m-%dT%H:%M:%S",
        "%Y-%m-%d",
        "%Y-%m-%dT%H:%M:%S.1234567+01:00",
    ]
)
DATES = st.builds(
    lambda d, f: d.strftime(f),
    st.datetimes(min_value=datetime(1990, 1, 1), max_value=datetime(2090, 1, 1)),
    DATE_FORMS,
)
DECIMAL_MARK = "\x00decimal:"
DECIMALS = st.decimals(min_value=0, max_value=Decimal("999999999999999.99"), places=2, allow_nan=False).map(
    lambda d: DECIMAL_MARK + str(d)
)
SCALARS = {
    "int": INTS,
    "str": TEXT,
    "bool": st.booleans(),
    "date": DATES,
    "decimal": DECIMALS,
    "code": st.one_of(st.integers(0, 9), st.sampled_from(["LIVE", "ON_DEMAND"])),
}
# A value that is certainly wrong for each type.
WRONG = {
    "int": "x",
    "str": 123,
    "bool": "yes",
    "date": "not a date",
    "decimal": "abc",
    "code": [1],
    "list": "not a list",
}
EXTRA_NAMES = st.sampled_from(["colour", "legacyCode", "internalNote", "x"])


@st.composite
def valid_record(draw: st.DrawFn, name: str, depth: int = 0) -> dict[str, Any]:
    shape = SHAPES[name]
    out: dict[str, Any] = {}
    for field, type_ in shape.items():
        if field == ID_FIELDS[name]:
            out[field] = draw(INTS)
            continue
        choice = draw(st.sampled_from(["value", "value", "null", "absent"]))
        if choice == "absent":
            continue
        if choice == "null":
            out[field] = None
        elif isinstance(type_, tuple):
            if depth >= 2:
                out[field] = []
            else:
                out[field] = draw(st.lists(valid_record(type_[1], depth + 1), max_size=2))
        else:
            out[field] = draw(SCALARS[type_])
    if draw(st.integers(0, 4)) == 0:
        out[draw(EXTRA_NAMES)] = draw(st.one_of(INTS, TEXT, st.none()))
    return out


@st.composite
def corrupt(draw: st.DrawFn, name: str, record: dict[str, Any]) -> Any:
    how = draw(st.sampled_from(["wrong_type", "null_id", "missing_id", "junk", "bad_nested"]))
    id_field = ID_FIELDS[name]
    if how == "junk":
        return draw(st.one_of(INTS, TEXT, st.none(), st.booleans(), st.lists(INTS, max_size=2)))
    bad = dict(record)
    if how == "null_id":
        bad[id_field] = None
    elif how == "missing_id":
        bad.pop(id_field, None)
    elif how == "bad_nested" and any(isinstance(t, tuple) for t in SHAPES[name].values()):
        field, (_, child) = next((f, t) for f, t in SHAPES[name].items() if isinstance(t, tuple))
        child_id = ID_FIELDS[child] or "day"
        bad[field] = [{child_id: "not an int"}]
    else:
        field = draw(st.sampled_from([f for f in SHAPES[name] if f != id_field]))
        type_ = SHAPES[name][field]
        bad[field] = WRONG["list" if isinstance(type_, tuple) else type_]
    return bad


def encode(items: list[Any]) -> bytes:
    text = json.dumps(items, ensure_ascii=False)
    # Decimals are written as exact JSON number text (json.dumps cannot write a Decimal).
    text = re.sub(r'"\\u0000decimal:([0-9.]+)"', r"\1", text)
    return text.encode("utf-8")


@st.composite
def collections(draw: st.DrawFn) -> tuple[Kind, list[tuple[bool, Any]]]:
    kind = draw(st.sampled_from(list(Kind)))
    name = KIND_RECORD[kind]
    items = []
    for _ in range(draw(st.integers(0, 6))):
        record = draw(valid_record(name))
        if draw(st.integers(0, 2)) == 0:
            items.append((False, draw(corrupt(name, record))))
        else:
            items.append((True, record))
    return kind, items


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collections())
def test_decode_keeps_every_valid_record_and_reports_every_bad_one(
    case: tuple[Kind, list[tuple[bool, Any]]],
) -> None:
    kind, items = case
    payload = encode([item for _, item in items])
    decoded = decode_collection(kind, payload)  # a JSON array: never a DecodeError
    check_decoded(kind, items, decoded)


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | INTS | st.floats(allow_nan=False) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from(list(Kind)),
    st.one_of(st.binary(max_size=64), JSON_VALUES.map(lambda v: json.dumps(v).encode())),
)
def test_arbitrary_payloads_raise_nothing_but_decode_error(kind: Kind, payload: bytes) -> None:
    try:
        decoded = decode_collection(kind, payload)
    except DecodeError as exc:
        assert str(exc).startswith(kind.value)
        return
    assert decoded.total == len(json.loads(payload))
    assert (
        len(decoded.records)
        + len({p.record for p in decoded.problems if not p.message.startswith("duplicate ")})
        == decoded.total
    )


def check_decoded(kind: Kind, items: list[tuple[bool, Any]], decoded: Decoded) -> None:
    attr = decoded_id(kind)
    kept = {index: record for index, record in decoded.records}
    assert decoded.total == len(items)
    assert [i for i, _ in decoded.records] == sorted(kept)
    for index, (valid, item) in enumerate(items):
        mine = [p for p in decoded.problems if p.record == index]
        assert all(p.collection == kind.value for p in mine)
        if valid:
            assert index in kept, f"valid record {index} was lost: {mine}"
            assert getattr(kept[index], attr) == item[kind.id_field]
            assert all(p.message.startswith("duplicate ") for p in mine), mine  # ids repeated: kept
        else:
            assert index not in kept, f"corrupt record {index} was kept: {item!r}"
            assert mine, f"corrupt record {index} was not reported"
    assert decoded.stats.valid == len(decoded.records)


def test_each_kind_has_one_maker_and_a_titled_record_is_read_by_its_own_id() -> None:
    """``kinds.per_kind``: the makers of the rows, facts and details pages, one per kind in the
    kinds' order, the titled kinds' made from their kind; a topic, role or situation gives its id
    as ``own_id``."""
    from catalogue_desktop.core.listing.facts import FACTS, facts
    from catalogue_desktop.core.listing.rows import ROWS
    from catalogue_desktop.core.records.kinds import TITLED, per_kind

    told: list[Kind] = []

    def titled(kind: Kind) -> str:
        told.append(kind)
        return f"titled {kind.value}"

    made = per_kind(webinars="w", series="s", courses="c", certificates="z", experts="e", titled=titled)
    assert list(made) == list(Kind) and told == list(TITLED) == [Kind.TOPICS, Kind.ROLES, Kind.SITUATIONS]
    assert [made[k] for k in Kind][:5] == ["w", "s", "c", "z", "e"] and made[Kind.ROLES] == "titled roles"
    assert list(FACTS) == list(ROWS) == list(Kind)
    for kind in TITLED:
        record = decode_record(kind, json.dumps({kind.id_field: 7, "title": "T", "description": "D"}))
        assert isinstance(record, models.Topic | models.Role | models.Situation)
        assert record.own_id == 7
        assert facts(kind, record) == {"id": 7, "title": "T", "description": "D"}


# A fresh interpreter (this one has built the validators already): eight threads released at once
# each make the first decode of a collection, as small collections are ingested on threads of one
# process; every model's validator is built once, and every collection decodes.
_THREADS_SCRIPT = """
import json, sys, threading
from pydantic import BaseModel
from catalogue_desktop.core.records import decode, models
from catalogue_desktop.demo.server import load_sample

builds = []
for name in models.__all__:
    model = getattr(models, name)
    def counted(cls, *a, _real=BaseModel.model_rebuild.__func__, **k):
        if cls.__dict__.get("__pydantic_complete__") is not True:
            builds.append(cls.__name__)
        return _real(cls, *a, **k)
    model.model_rebuild = classmethod(counted)

sample = load_sample()
start = threading.Barrier(len(sample))
decoded = {}

def first_decode(kind):
    start.wait()
    decoded[kind.value] = len(decode.decode_collection(kind, sample[kind]).records)

threads = [threading.Thread(target=first_decode, args=(kind,)) for kind in sample]
for t in threads:
    t.start()
for t in threads:
    t.join()
print(json.dumps({"builds": builds, "decoded": decoded}))
"""


def test_concurrent_first_decodes_build_each_validator_once() -> None:
    import json
    import subprocess

    from catalogue_desktop.demo.server import load_sample

    out = subprocess.run(
        [sys.executable, "-c", _THREADS_SCRIPT], capture_output=True, text=True, check=True, timeout=120
    )
    seen = json.loads(out.stdout)
    assert sorted(seen["builds"]) == sorted(set(seen["builds"])), seen["builds"]
    assert set(seen["decoded"]) == {kind.value for kind in load_sample()}
    assert all(count > 0 for count in seen["decoded"].values()), seen["decoded"]
