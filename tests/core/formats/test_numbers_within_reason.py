"""Numbers within reason, decided once at decode (issue 35, points 1 and 2): a number beyond what a
fee, count or id can be (``core.formats.numbers``) refuses its record alone, named with collection,
record, field and the number shortened; the rest of the collection is kept. Served by a real
server on loopback and stored by a real sync."""

from __future__ import annotations

import asyncio
import csv
import io
import json
import sqlite3
import subprocess
import sys
from decimal import Decimal
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from catalogue_desktop.core.cache.store import FILE_NAME, Store
from catalogue_desktop.core.formats.numbers import RULE, within_reason
from catalogue_desktop.core.records.decode import decode_collection
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.service.client import CatalogueClient
from catalogue_desktop.core.sync.ingest import ingest
from catalogue_desktop.core.sync.runner import SyncReport, sync_catalogue
from tests.faultserver import FaultServer


def _sync(base_url: str, store_file: Path, kinds: list[Kind]) -> SyncReport:
    async def main() -> SyncReport:
        async with CatalogueClient(base_url, retries=0, read_timeout=20) as client:
            return await sync_catalogue(client, store_file, kinds=kinds)

    return asyncio.run(main())


def _with(payload: bytes, raw: dict[tuple[int, str], str]) -> bytes:
    """The sample's JSON with fields (record index, dotted name) set to raw JSON number text (a
    number ``json.dumps`` could not write: 5,001 digits, ``1E+5000``)."""
    records: list[Any] = json.loads(payload)
    marks = {}
    for n, ((index, name), text) in enumerate(raw.items()):
        mark = f"@@{n}@@"
        target = records[index]
        *parents, last = name.split(".")
        for part in parents:
            target = target[part][0]
        target[last] = mark
        marks[f'"{mark}"'] = text
    out = json.dumps(records)
    for mark, text in marks.items():
        out = out.replace(mark, text)
    return out.encode()


def test_huge_numbers_refuse_their_record_alone_in_a_real_sync(
    fault_server: FaultServer, sample: dict[Kind, bytes], tmp_path: Path
) -> None:
    """A webinar fee of 5,001 digits, a course location's fee of 4,400 (pydantic's parser refuses
    the whole payload: "number out of range") and certificate fees of ``1E+5000`` and
    ``1E+999999999`` (finite Decimals): each refuses its record; every other record is stored."""
    fault_server.set(Kind.WEBINARS.path, "json", body=_with(sample[Kind.WEBINARS], {(3, "fee"): "9" * 5001}))
    fault_server.set(
        Kind.COURSES.path, "json", body=_with(sample[Kind.COURSES], {(1, "locations.fee"): "7" * 4400})
    )
    certificates = _with(sample[Kind.CERTIFICATES], {(0, "fee"): "1E+5000", (2, "fee"): "1E+999999999"})
    fault_server.set(Kind.CERTIFICATES.path, "json", body=certificates)
    store_file = tmp_path / "catalogue.sqlite3"
    kinds = [Kind.WEBINARS, Kind.COURSES, Kind.CERTIFICATES]
    report = _sync(fault_server.base_url, store_file, kinds)
    wanted = {Kind.WEBINARS: 60, Kind.COURSES: 20, Kind.CERTIFICATES: 6}
    for kind in kinds:
        outcome = report.collections[kind]
        rejected = 2 if kind is Kind.CERTIFICATES else 1
        counts = (outcome.status, outcome.records, outcome.rejected)
        assert counts == ("partial", wanted[kind] - rejected, rejected)
    with Store(store_file) as store:
        assert store.state(Kind.WEBINARS).records == 59 and store.state(Kind.CERTIFICATES).records == 4
        fees = [json.loads(e.data).get("fee") for e in store.entries(Kind.CERTIFICATES)]
        assert all(fee is None or float(fee) < 1e6 for fee in fees)
    found = report.to_json()["problems"]
    problems = {(p["collection"], p["record"], p["field"]): p["message"] for p in found}
    assert set(problems) == {
        ("webinars", 3, "fee"),
        ("courses", 1, "locations[0].fee"),
        ("certificates", 0, "fee"),
        ("certificates", 2, "fee"),
    }
    assert all(message.startswith(RULE) for message in problems.values()), problems
    assert problems["webinars", 3, "fee"].endswith("got 9999999999…999999 (5,001 digits)")
    assert problems["certificates", 0, "fee"].endswith("got 1E+5000")
    assert problems["certificates", 2, "fee"].endswith("got 1E+999999999")


@pytest.mark.parametrize(
    ("kind", "text", "kept"),
    [
        (Kind.CERTIFICATES, "1E+14", True),  # the bounds: 17 digits, below 10^15, to 10^-17
        (Kind.CERTIFICATES, "99999999999999.999", True),
        (Kind.CERTIFICATES, "0.30000000000000004", True),  # a double's noise: 17 digits
        (Kind.CERTIFICATES, "0.00000000000000001", True),
        (Kind.CERTIFICATES, "-0", True),
        (Kind.CERTIFICATES, "1E+15", False),
        (Kind.CERTIFICATES, "1.00000000000000000", False),  # 18 significant digits as written
        (Kind.CERTIFICATES, "1E-18", False),
        (Kind.CERTIFICATES, "1E-5000", False),
        (Kind.CERTIFICATES, "1e308", False),
        (Kind.CERTIFICATES, "9" * 5000, False),  # Python's int() refuses past 4,300 digits
        (Kind.WEBINARS, str(2**63 - 1), True),
        (Kind.WEBINARS, str(-(2**63)), True),
        (Kind.WEBINARS, str(2**63), False),
        (Kind.WEBINARS, "9" * 4400, False),
    ],
)
def test_the_rule_at_its_bounds(kind: Kind, text: str, kept: bool) -> None:
    id_field = kind.id_field
    payload = f'[{{"{id_field}": 1, "fee": {text}}}, {{"{id_field}": 2, "fee": 5}}]'.encode()
    decoded = decode_collection(kind, payload)
    assert [i for i, _ in decoded.records] == ([0, 1] if kept else [1])
    if not kept:
        (problem,) = decoded.problems
        where = (problem.collection, problem.record, problem.record_id, problem.field)
        assert where == (kind.value, 0, 1, "fee")
        assert problem.message.startswith(RULE)
        assert len(problem.message) < len(RULE) + 60  # the number shortened


def test_a_huge_whole_number_in_a_certificate_level_refuses_that_certificate() -> None:
    payload = b'[{"certificateId": 1, "levels": [{"id": ' + b"1" * 5000 + b'}]}, {"certificateId": 2}]'
    decoded = decode_collection(Kind.CERTIFICATES, payload)
    assert [i for i, _ in decoded.records] == [1]
    assert [p.field for p in decoded.problems] == ["levels[0].id"]


def test_within_reason() -> None:
    assert within_reason(Decimal("2495.00")) and within_reason(2**63 - 1) and within_reason(Decimal("-0"))
    assert not within_reason(Decimal("NaN")) and not within_reason(Decimal("Infinity"))
    assert not within_reason(Decimal("1E+999999999")) and not within_reason(-(2**63) - 1)


def test_a_cache_of_an_older_version_holding_a_huge_fee_still_exports(
    env: dict[str, str], tmp_path: Path
) -> None:
    """A record stored before the rule (fee ``1E+5000``) no longer decodes: ``export`` leaves it
    out (CSV and spreadsheet alike) instead of ending in a traceback or a gigabyte of digits."""
    cache = tmp_path / "cache"
    payload = (
        b'[{"certificateId": 1, "title": "Old", "fee": 1}, {"certificateId": 2, "title": "Fine", "fee": 5}]'
    )
    ingest(str(cache / FILE_NAME), "certificates", payload, None, None, "2026-11-20T09:30:00Z")
    with sqlite3.connect(cache / FILE_NAME) as db:  # as an older version wrote it
        db.execute(
            "UPDATE records SET data = ? WHERE record_id = 1", (b'{"certificateId": 1, "fee": 1E+5000}',)
        )
    for fmt in ("csv", "xlsx"):
        out = tmp_path / f"certificates.{fmt}"
        args = ["export", "certificates", "--cache-dir", str(cache), "--format", fmt, "-o", str(out)]
        done = subprocess.run(
            [sys.executable, "-m", "catalogue_desktop", *args], env=env, capture_output=True, timeout=120
        )
        assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr
        assert out.stat().st_size < 100_000
    assert [
        row["certificateId"]
        for row in csv.DictReader(io.StringIO((tmp_path / "certificates.csv").read_text()))
    ] == ["2"]
    sheet = openpyxl.load_workbook(tmp_path / "certificates.xlsx")["Certificates"]
    assert [row[0] for row in sheet.iter_rows(min_row=2, values_only=True)] == [2]
