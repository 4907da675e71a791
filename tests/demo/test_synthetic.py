"""The synthetic catalogue generator: deterministic, valid, proportional, fast."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from pydantic import TypeAdapter

from catalogue_desktop.core.records import models
from catalogue_desktop.core.records.decode import MODELS
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.demo.synthetic import generate, plan

EXPERT_FIELDS = {"expertId", "name", "title", "bio", "education", "imageUrl", "image2xUrl"}
WEBINAR_FIELDS = {
    "webinarId", "sessionId", "type", "title", "description", "fee", "cleAccreditation",
    "cpeAccreditation", "productionDate", "startDate", "endDate", "detailUrl", "accessUrl",
    "topics", "roles", "situations", "experts",
}  # fmt: skip


def parse(kind: Kind, payload: bytes) -> list[dict]:
    return json.loads(payload, parse_float=Decimal)


@pytest.fixture(scope="module")
def catalogue() -> dict[Kind, bytes]:
    return generate(2000, seed=7)


@pytest.fixture(scope="module")
def records(catalogue: dict[Kind, bytes]) -> dict[Kind, list[dict]]:
    return {kind: parse(kind, payload) for kind, payload in catalogue.items()}


def test_same_size_and_seed_give_identical_bytes() -> None:
    first = generate(300, seed=3)
    assert set(first) == set(Kind)
    assert generate(300, seed=3) == first
    other = generate(300, seed=4)
    assert other[Kind.WEBINARS] != first[Kind.WEBINARS]
    assert len(json.loads(other[Kind.WEBINARS])) == 300


def test_every_collection_validates_against_the_models(catalogue: dict[Kind, bytes]) -> None:
    for kind, payload in catalogue.items():
        adapter = TypeAdapter(list[MODELS[kind]])
        if kind is Kind.CERTIFICATES:
            decoded = adapter.validate_python(json.loads(payload, parse_float=Decimal))
        else:
            decoded = adapter.validate_json(payload)
        assert len(decoded) == plan(2000)[kind], kind


def test_counts_follow_the_plan(records: dict[Kind, list[dict]]) -> None:
    counts = {kind: len(items) for kind, items in records.items()}
    assert counts == plan(2000)
    assert counts[Kind.WEBINARS] == 2000
    assert counts[Kind.EXPERTS] == 100
    assert counts[Kind.TOPICS] == 20
    assert counts[Kind.SERIES] == 200
    assert counts[Kind.COURSES] == 200
    assert counts[Kind.CERTIFICATES] == 10
    assert counts[Kind.ROLES] == counts[Kind.SITUATIONS] == 12
    small = plan(10)
    assert small[Kind.EXPERTS] == 10 and small[Kind.TOPICS] == 10 and small[Kind.CERTIFICATES] == 3


def test_field_names_are_exactly_the_spec(records: dict[Kind, list[dict]]) -> None:
    for webinar in records[Kind.WEBINARS]:
        assert set(webinar) == WEBINAR_FIELDS
        for expert in webinar["experts"]:
            assert set(expert) == EXPERT_FIELDS
    for expert in records[Kind.EXPERTS]:
        assert set(expert) == EXPERT_FIELDS


def test_ids_are_unique(records: dict[Kind, list[dict]]) -> None:
    for kind, items in records.items():
        ids = [item[kind.id_field] for item in items]
        assert len(ids) == len(set(ids)), kind
        assert all(isinstance(i, int) for i in ids)
    locations = [loc["locationId"] for c in records[Kind.COURSES] for loc in c["locations"]]
    assert len(locations) == len(set(locations))
    levels = [lv for cert in records[Kind.CERTIFICATES] for lv in cert["levels"]]
    assert len({lv["id"] for lv in levels}) == len(levels)
    options = [o["optionId"] for lv in levels for o in lv["options"]]
    assert len(options) == len(set(options))


def test_embedded_records_are_full_copies(records: dict[Kind, list[dict]]) -> None:
    top = {
        key: {r[kind.id_field]: r for r in records[kind]}
        for key, kind in [
            ("experts", Kind.EXPERTS),
            ("topics", Kind.TOPICS),
            ("roles", Kind.ROLES),
            ("situations", Kind.SITUATIONS),
        ]
    }
    id_of = {"experts": "expertId", "topics": "topicId", "roles": "roleId", "situations": "situationId"}
    for webinar in records[Kind.WEBINARS]:
        assert 1 <= len(webinar["experts"]) <= 3
        for key, table in top.items():
            for embedded in webinar[key]:
                assert embedded == table[embedded[id_of[key]]]
    for course in records[Kind.COURSES]:
        for expert in course["experts"]:
            assert expert == top["experts"][expert["expertId"]]
        for topic in course["topics"]:
            assert topic == top["topics"][topic["topicId"]]
    webinars = {w["webinarId"]: w for w in records[Kind.WEBINARS]}
    for series in records[Kind.SERIES]:
        assert 3 <= len(series["sessions"]) <= 6
        for session in series["sessions"]:
            assert session == webinars[session["webinarId"]]


def test_courses_and_certificates_have_the_promised_shape(
    records: dict[Kind, list[dict]],
) -> None:
    course_ids = {c["courseId"] for c in records[Kind.COURSES]}
    for course in records[Kind.COURSES]:
        assert 1 <= len(course["locations"]) <= 4
        days = {entry["day"] for entry in course["schedule"]}
        assert days == set(range(1, max(days) + 1)) and max(days) <= 3
        for location in course["locations"]:
            assert 495 <= location["fee"] <= 1995
    references = dangling = 0
    for cert in records[Kind.CERTIFICATES]:
        assert isinstance(cert["fee"], Decimal)
        for level in cert["levels"]:
            options = {o["optionId"] for o in level["options"]}
            tracks = {t["trackId"] for t in level["tracks"]}
            for ref in level["courses"]:
                references += 1
                dangling += ref["courseId"] not in course_ids
                assert ref["optionId"] in options and ref["trackId"] in tracks
    assert 0 < dangling < references * 0.3


def test_texts_are_long_and_domain_words(records: dict[Kind, list[dict]]) -> None:
    bios = [len(e["bio"]) for e in records[Kind.EXPERTS]]
    assert min(bios) >= 600 and max(bios) <= 1300
    descriptions = [len(w["description"]) for w in records[Kind.WEBINARS]]
    assert min(descriptions) >= 700 and max(descriptions) <= 1200
    text = json.dumps(records[Kind.WEBINARS][:50]).lower()
    assert "lorem" not in text and "ipsum" not in text
    codes = {w["type"] for w in records[Kind.WEBINARS]}
    assert {1, 2} <= codes <= {1, 2, 3}


def test_output_is_compact(catalogue: dict[Kind, bytes]) -> None:
    for kind in (Kind.WEBINARS, Kind.SERIES, Kind.COURSES, Kind.EXPERTS):
        payload = catalogue[kind]
        redumped = json.dumps(json.loads(payload), separators=(",", ":")).encode()
        assert payload == redumped, kind


def test_size_scales_linearly() -> None:
    small = generate(100)
    large = generate(1000)
    assert len(json.loads(large[Kind.WEBINARS])) == 1000
    ratio = len(large[Kind.WEBINARS]) / len(small[Kind.WEBINARS])
    assert 8 < ratio < 12
    # about 5 KB per webinar: size=10,000 gives 50-60 MB of webinars JSON
    assert 4_800_000 < len(large[Kind.WEBINARS]) < 6_000_000
    assert len(large[Kind.SERIES]) > len(small[Kind.SERIES]) * 5


def test_tiny_sizes_are_valid() -> None:
    for size in (0, 1, 2, 5):
        payloads = generate(size)
        assert len(json.loads(payloads[Kind.WEBINARS])) == size
        TypeAdapter(list[models.Series]).validate_json(payloads[Kind.SERIES])
        TypeAdapter(list[models.Webinar]).validate_json(payloads[Kind.WEBINARS])


def test_negative_size_is_rejected() -> None:
    with pytest.raises(ValueError):
        generate(-1)


def test_generation_reaches_benchmark_scale() -> None:
    payloads = generate(10_000)
    assert len(payloads[Kind.WEBINARS]) > 45_000_000
