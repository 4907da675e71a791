"""CSV carries what JSON carries: every kind of the demo catalogue exported both ways, field by field."""

from __future__ import annotations

import csv
import io
import json
from datetime import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.cache.store import FILE_NAME, Store
from catalogue_desktop.core.export.records import REFERENCE_FIELDS, export_collection
from catalogue_desktop.core.records.kinds import ALL_KINDS, Kind
from catalogue_desktop.core.sync.ingest import ingest


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory, sample: dict[Kind, bytes]) -> Any:
    path = tmp_path_factory.mktemp("export") / FILE_NAME
    for kind, payload in sample.items():
        assert ingest(str(path), kind.value, payload, None, None, "2026-01-05T09:30:00Z").status == "updated"
    with Store(path) as opened:
        yield opened


def both_ways(store: Store, kind: Kind) -> tuple[list[dict[str, Any]], list[dict[str, str]], list[str]]:
    as_json, as_csv = io.StringIO(), io.StringIO()
    assert export_collection(store, kind, "json", as_json) == export_collection(store, kind, "csv", as_csv)
    reader = csv.DictReader(io.StringIO(as_csv.getvalue()))
    rows = list(reader)
    return json.loads(as_json.getvalue(), parse_float=Decimal), rows, list(reader.fieldnames or [])


def same_instant(text: str, value: str) -> bool:
    try:
        return datetime.fromisoformat(text) == datetime.fromisoformat(value).replace(microsecond=0)
    except ValueError:
        return False


@pytest.mark.parametrize("kind", ALL_KINDS, ids=lambda k: k.value)
def test_every_field_the_json_export_has_is_in_the_csv_row(store: Store, kind: Kind) -> None:
    records, rows, header = both_ways(store, kind)
    assert len(records) == len(rows) > 0
    for record, row in zip(records, rows, strict=True):
        assert set(record) <= set(header), set(record) - set(header)
        for name, value in record.items():
            text = row[name]
            if value is None:
                assert text == "", (name, text)
            elif name in REFERENCE_FIELDS:  # other collections' records: by name (or title)
                assert text == "; ".join(i.get("name") or i.get("title") or "" for i in value)
            elif isinstance(value, list | dict):  # nested records: the same objects, as JSON
                assert json.loads(text, parse_float=Decimal) == value, name
                assert text.count("\n") == max(0, len(value) - 1)  # one item per line
            elif isinstance(value, bool):
                assert text == str(value).lower()
            elif isinstance(value, str) and name.endswith("Date"):
                assert text.endswith("Z") and same_instant(text, value), (name, text, value)
            else:
                assert text == str(value), (name, text, value)


def test_each_course_location_keeps_its_fee_dates_venue_and_travel_info(
    store: Store, sample: dict[Kind, bytes]
) -> None:
    _, rows, _ = both_ways(store, Kind.COURSES)
    served = json.loads(sample[Kind.COURSES])
    checked = 0
    for course, row in zip(served, rows, strict=True):
        locations = json.loads(row["locations"]) if row["locations"] else []
        assert len(locations) == len(course["locations"] or [])
        for exported, original in zip(locations, course["locations"] or [], strict=True):
            for field in (
                "locationId",
                "venue",
                "address",
                "city",
                "state",
                "zip",
                "detailUrl",
                "fee",
                "travelInfo",
                "travelGroupRate",
            ):
                assert exported[field] == original[field], field
            for field in ("startDate", "endDate"):
                if original[field] is not None:
                    assert datetime.fromisoformat(exported[field]) == datetime.fromisoformat(original[field])
            checked += original["fee"] is not None
        schedule = json.loads(row["schedule"]) if row["schedule"] else []
        assert schedule == (course["schedule"] or [])
    assert checked > 10  # the sample's locations do have fees


def test_extra_fields_holding_lists_or_objects_are_json(tmp_path: Path) -> None:
    payload = json.dumps(
        [
            {"topicId": 1, "title": "Tax", "tags": ["a", "b; c"], "meta": {"x": 1}},
            {"topicId": 2, "title": "Audit"},
        ]
    ).encode()
    path = tmp_path / FILE_NAME
    assert ingest(str(path), "topics", payload, None, None, "2026-01-05T09:30:00Z").status == "updated"
    with Store(path) as opened:
        _, rows, header = both_ways(opened, Kind.TOPICS)
    assert header[-2:] == ["tags", "meta"]
    assert json.loads(rows[0]["tags"]) == ["a", "b; c"] and json.loads(rows[0]["meta"]) == {"x": 1}
    assert rows[1]["tags"] == rows[1]["meta"] == ""
