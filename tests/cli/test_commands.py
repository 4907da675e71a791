"""The command line as a user runs it: real subprocesses against loopback services in this process.

Every run goes through :func:`cli`, which asserts that nothing printed a traceback. The default
cache directory is pointed (``CATALOGUE_DESKTOP_CACHE_DIR``) at a per-test directory, so nothing
here touches the real user cache.
"""

from __future__ import annotations

import asyncio
import csv
import io
import json
import os
import re
import select
import signal
import subprocess
import sys
import urllib.request
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop import __version__
from catalogue_desktop.core.cache.store import ENV_CACHE_DIR, FILE_NAME
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.core.service.client import CatalogueClient
from catalogue_desktop.core.sync.runner import sync_catalogue
from catalogue_desktop.demo.server import DemoServer, load_sample
from tests.cli_process import run_cli
from tests.faultserver import FaultServer

SAMPLE = load_sample()
KINDS = [k.value for k in Kind]
OUTCOME_KEYS = {"status", "records", "rejected", "error", "fetched_at", "checked_at"}
PROBLEM_KEYS = {"collection", "record", "record_id", "field", "message"}
ISO_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


def ids(kind: Kind, payload: bytes | None = None) -> list[int]:
    return [r[kind.id_field] for r in json.loads(payload if payload is not None else SAMPLE[kind])]


@pytest.fixture
def cli(env: dict[str, str], tmp_path: Path) -> Any:
    def run(*args: str, timeout: float = 120, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
        return run_cli(*args, env=env, cwd=cwd or tmp_path, timeout=timeout)

    return run


@pytest.fixture
def cache(tmp_path: Path) -> Path:
    return tmp_path / "cache"


def sync_json(cli: Any, url: str, cache: Path, code: int) -> dict[str, Any]:
    result = cli("sync", "--base-url", url, "--cache-dir", str(cache), "--json")
    assert result.returncode == code, result.stderr
    data = json.loads(result.stdout)  # exactly one JSON document, nothing else on stdout
    assert set(data) == {"collections", "changes", "problems"}
    assert set(data["collections"]) == set(KINDS)
    for name, outcome in data["collections"].items():
        assert set(outcome) == OUTCOME_KEYS, name
        assert outcome["status"] in ("updated", "unchanged", "partial", "failed")
        assert isinstance(outcome["records"], int) and isinstance(outcome["rejected"], int)
        assert (outcome["error"] is None) == (outcome["status"] != "failed"), outcome
        for stamp in (outcome["fetched_at"], outcome["checked_at"]):
            assert stamp is None or ISO_UTC.match(stamp), stamp
    for name, changes in data["changes"].items():
        assert name in KINDS and set(changes) == {"added", "removed", "changed"}
        for entry in changes["changed"]:
            assert set(entry) == {"id", "fields"}
            assert all(isinstance(v, list) and len(v) == 2 for v in entry["fields"].values())
    for problem in data["problems"]:
        assert set(problem) == PROBLEM_KEYS and problem["collection"] in KINDS
        assert isinstance(problem["message"], str) and problem["message"]
    return data


def export(cli: Any, kind: str, cache: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    return cli("export", kind, "--cache-dir", str(cache), *extra)


# -- basics -----------------------------------------------------------------------------------------


def test_version(cli: Any) -> None:
    result = cli("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"catalogue-desktop {__version__}"


def test_sync_prints_a_readable_table_then_unchanged(cli: Any, demo_server: DemoServer, cache: Path) -> None:
    result = cli("sync", "--base-url", demo_server.base_url, "--cache-dir", str(cache))
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for kind in Kind:
        (line,) = [ln for ln in lines if ln.split()[:1] == [kind.value]]
        assert re.match(rf"^{kind.value}\s+updated\s+{len(ids(kind))} records$", line), line
    assert f"Cache: {cache / FILE_NAME}" in result.stdout
    assert (cache / FILE_NAME).is_file()

    again = cli("sync", "--base-url", demo_server.base_url + "/v1/", "--cache-dir", str(cache))
    assert again.returncode == 0, again.stderr
    for kind in Kind:
        assert re.search(rf"^{kind.value}\s+unchanged\s+{len(ids(kind))} records$", again.stdout, re.M)


def test_sync_json_shape_unchanged_and_a_changed_fee(cli: Any, demo_server: DemoServer, cache: Path) -> None:
    first = sync_json(cli, demo_server.base_url, cache, 0)
    assert {o["status"] for o in first["collections"].values()} == {"updated"}
    assert first["collections"]["webinars"]["records"] == len(ids(Kind.WEBINARS))
    assert first["changes"] == {} and first["problems"] == []

    second = sync_json(cli, demo_server.base_url, cache, 0)
    assert {o["status"] for o in second["collections"].values()} == {"unchanged"}
    assert second["collections"]["webinars"]["fetched_at"] == first["collections"]["webinars"]["fetched_at"]

    webinars = json.loads(SAMPLE[Kind.WEBINARS])
    target = webinars[3]
    old_fee, target["fee"] = target["fee"], target["fee"] + 50
    removed = webinars.pop()
    demo_server.set_payload(Kind.WEBINARS, json.dumps(webinars).encode())
    third = sync_json(cli, demo_server.base_url, cache, 0)
    assert third["collections"]["webinars"]["status"] == "updated"
    assert third["collections"]["topics"]["status"] == "unchanged"
    changes = third["changes"]["webinars"]
    assert changes["added"] == [] and changes["removed"] == [removed["webinarId"]]
    assert changes["changed"] == [{"id": target["webinarId"], "fields": {"fee": [old_fee, old_fee + 50]}}]

    # the text form says the same in words: old -> new
    target["fee"] += 1
    demo_server.set_payload(Kind.WEBINARS, json.dumps(webinars).encode())
    text = cli("sync", "--base-url", demo_server.base_url, "--cache-dir", str(cache))
    assert text.returncode == 0
    assert "Changes in webinars: 0 added, 0 removed, 1 changed" in text.stdout
    assert f"{target['webinarId']}: fee {old_fee + 50} -> {old_fee + 51}" in text.stdout


# -- failures ---------------------------------------------------------------------------------------


def test_a_failing_endpoint_fails_its_collection_only_and_keeps_its_data(
    cli: Any, fault_server: FaultServer, cache: Path
) -> None:
    sync_json(cli, fault_server.base_url, cache, 0)
    fault_server.set(
        Kind.COURSES.path, "status", status=404, body='{"error": "gone"}', content_type="application/json"
    )
    fault_server.set(Kind.EXPERTS.path, "html200")
    data = sync_json(cli, fault_server.base_url, cache, 1)
    courses, experts = data["collections"]["courses"], data["collections"]["experts"]
    assert courses["status"] == "failed" and "HTTP 404" in courses["error"]
    assert experts["status"] == "failed" and "HTML" in experts["error"]
    assert courses["records"] == len(ids(Kind.COURSES)) and courses["fetched_at"]
    others = {n: o["status"] for n, o in data["collections"].items() if n not in ("courses", "experts")}
    assert set(others.values()) == {"unchanged"}

    text = cli("sync", "--base-url", fault_server.base_url, "--cache-dir", str(cache))
    assert text.returncode == 1
    (line,) = [ln for ln in text.stdout.splitlines() if ln.startswith("courses ")]
    assert "failed" in line and "HTTP 404 Not Found" in line and "kept the copy of" in line

    # the cached copy is still whole: export it
    exported = export(cli, "courses", cache, "--format", "json")
    assert exported.returncode == 0, exported.stderr
    assert [r["courseId"] for r in json.loads(exported.stdout)] == ids(Kind.COURSES)


def test_unreachable_service_exits_1_with_the_reason(cli: Any, cache: Path) -> None:
    from tests.faultserver import refused_port

    result = cli("sync", "--base-url", f"http://127.0.0.1:{refused_port()}", "--cache-dir", str(cache))
    assert result.returncode == 1
    assert result.stdout.count("cannot connect") == 1  # said once; the others refer to it
    first = result.stdout.split()[0]
    for kind in Kind:
        pattern = (
            rf"^{kind.value}\s+failed .*(cannot connect .*connection refused|the same failure as {first})"
        )
        assert re.search(pattern, result.stdout, re.M)


def test_partial_collection_exits_1_and_names_the_record(
    cli: Any, fault_server: FaultServer, cache: Path
) -> None:
    fault_server.set(
        Kind.TOPICS.path,
        "json",
        body=[{"topicId": 1, "title": "Fine"}, {"topicId": 2, "title": 5}, {"topicId": 3}],
    )
    data = sync_json(cli, fault_server.base_url, cache, 1)
    topics = data["collections"]["topics"]
    assert (topics["status"], topics["records"], topics["rejected"]) == ("partial", 2, 1)
    assert [(p["collection"], p["record"], p["record_id"], p["field"]) for p in data["problems"]] == [
        ("topics", 1, 2, "title")
    ]
    exported = export(cli, "topics", cache, "--format", "json")
    assert [r["topicId"] for r in json.loads(exported.stdout)] == [1, 3]

    text = cli("sync", "--base-url", fault_server.base_url, "--cache-dir", str(cache))
    assert text.returncode == 1
    assert "topics[1] (id 2) title:" in text.stdout


def test_a_corrupt_cache_file_is_moved_aside_and_sync_works(
    cli: Any, demo_server: DemoServer, cache: Path
) -> None:
    cache.mkdir()
    junk = os.urandom(16384)
    (cache / FILE_NAME).write_bytes(junk)
    result = cli("sync", "--base-url", demo_server.base_url, "--cache-dir", str(cache))
    assert result.returncode == 0, result.stderr
    asides = [p for p in cache.iterdir() if p.name.startswith(f"{FILE_NAME}.unusable-")]
    assert len(asides) == 1 and asides[0].read_bytes() == junk
    assert "could not be used" in result.stderr and f"moved to {asides[0]}" in result.stderr
    assert "updated" in result.stdout
    again = cli("sync", "--base-url", demo_server.base_url, "--cache-dir", str(cache))
    assert again.returncode == 0 and again.stderr == ""


# -- check ------------------------------------------------------------------------------------------


def test_check_on_the_demo_is_conformant_and_writes_nothing(
    cli: Any, demo_server: DemoServer, env: dict[str, str], tmp_path: Path
) -> None:
    workdir = tmp_path / "cwd"
    workdir.mkdir()
    text = cli("check", "--base-url", demo_server.base_url, cwd=workdir)
    assert text.returncode == 0, text.stderr
    assert text.stdout.startswith("Conformant: yes")
    assert re.search(r"^webinars\s+60 records, 0 rejected", text.stdout, re.M)
    assert "type codes seen" in text.stdout and "Dangling references (3)" in text.stdout

    as_json = cli("check", "--base-url", demo_server.base_url, "--json", cwd=workdir)
    assert as_json.returncode == 0
    report = json.loads(as_json.stdout)
    assert report["conformant"] is True and report["problems"] == []
    assert set(report["collections"]) == set(KINDS)
    assert {d["missing_id"] for d in report["dangling"]} == {6090, 6085, 6077}
    assert not Path(env[ENV_CACHE_DIR]).exists() or not list(Path(env[ENV_CACHE_DIR]).iterdir())
    assert list(workdir.iterdir()) == []


def test_check_with_bad_records_exits_1(cli: Any, fault_server: FaultServer, env: dict[str, str]) -> None:
    fault_server.set(
        Kind.WEBINARS.path,
        "json",
        body=[
            {"webinarId": 1, "fee": "free"},
            {"webinarId": 1},
            {"webinarId": 2, "type": 99, "colour": "red"},
        ],
    )
    fault_server.set(Kind.ROLES.path, "status", status=404)
    text = cli("check", "--base-url", fault_server.base_url)
    assert text.returncode == 1
    assert text.stdout.startswith("Conformant: no")
    assert re.search(r"^roles\s+FAILED: .*HTTP 404", text.stdout, re.M)
    assert "webinars[0] (id 1) fee:" in text.stdout
    report = json.loads(cli("check", "--base-url", fault_server.base_url, "--json").stdout)
    assert report["conformant"] is False
    webinars = report["collections"]["webinars"]
    assert (webinars["records"], webinars["rejected"]) == (3, 1)
    assert webinars["unknown_fields"] == {"colour": 1}
    assert webinars["codes"] == {"type": {"99": 1, "null": 1}}
    assert "HTTP 404" in report["collections"]["roles"]["error"]
    assert not Path(env[ENV_CACHE_DIR]).exists()


# -- export -----------------------------------------------------------------------------------------


def read_csv(text: str) -> tuple[list[str], list[dict[str, str]]]:
    reader = csv.DictReader(io.StringIO(text))
    return list(reader.fieldnames or []), list(reader)


def test_export_csv_and_json(cli: Any, demo_cache: Path, tmp_path: Path) -> None:
    cache = demo_cache  # the sample synced
    sample = json.loads(SAMPLE[Kind.WEBINARS])

    result = export(cli, "webinars", cache)
    assert result.returncode == 0, result.stderr
    header, rows = read_csv(result.stdout)
    assert header[:4] == ["webinarId", "sessionId", "type", "title"]
    assert {"fee", "startDate", "experts", "topics"} <= set(header)
    assert [int(r["webinarId"]) for r in rows] == ids(Kind.WEBINARS)
    for row, record in zip(rows, sample, strict=True):
        assert row["title"] == record["title"]
        assert row["fee"] == ("" if record["fee"] is None else str(record["fee"]))
        assert re.fullmatch(r"\d*", row["fee"])  # plain numbers: no currency, no grouping
        assert row["topics"] == "; ".join(t["title"] for t in record["topics"] or [])
        assert row["experts"] == "; ".join(e["name"] for e in record["experts"] or [])
        assert row["cleAccreditation"] in ("true", "false", "")
        for name in ("startDate", "endDate", "productionDate"):
            if record[name] is None:
                assert row[name] == ""
                continue
            assert ISO_UTC.match(row[name]), row[name]
            instant = datetime.fromisoformat(record[name])
            assert datetime.fromisoformat(row[name]) == instant.replace(microsecond=0)
    dated = [
        (r["startDate"], datetime.fromisoformat(s["startDate"]))
        for r, s in zip(rows, sample, strict=True)
        if s["startDate"]
    ]
    assert sorted(dated, key=lambda d: d[0]) == sorted(dated, key=lambda d: d[1])  # text sorts as time

    certs = export(cli, "certificates", cache)
    _, cert_rows = read_csv(certs.stdout)
    fees = re.findall(rb'"fee":\s*([0-9.]+)', SAMPLE[Kind.CERTIFICATES])
    assert [r["fee"] for r in cert_rows] == [f.decode() for f in fees]
    assert "1899.50" in [r["fee"] for r in cert_rows]  # exact decimal text, not 1899.5

    as_json = export(cli, "webinars", cache, "--format", "json")
    assert as_json.returncode == 0
    assert [r["webinarId"] for r in json.loads(as_json.stdout)] == ids(Kind.WEBINARS)

    target = tmp_path / "out" / "Kurse ü.csv"
    target.parent.mkdir()
    to_file = export(cli, "courses", cache, "--output", str(target))
    assert to_file.returncode == 0 and to_file.stdout == ""
    assert f"Wrote {len(ids(Kind.COURSES))} courses to {target}" in to_file.stderr
    header, rows = read_csv(target.read_bytes().decode("utf-8"))
    assert header[0] == "courseId" and [int(r["courseId"]) for r in rows] == ids(Kind.COURSES)
    assert all(";" in r["locations"] or r["locations"] for r in rows)
    assert [p.name for p in target.parent.iterdir()] == [target.name]  # no .part left


def test_export_problems_are_clear_one_liners(
    cli: Any, demo_server: DemoServer, cache: Path, tmp_path: Path
) -> None:
    never = export(cli, "series", cache)
    assert never.returncode == 1 and never.stdout == ""
    assert "never synced" in never.stderr and "catalogue-desktop sync" in never.stderr
    assert len(never.stderr.strip().splitlines()) == 1

    assert cli("sync", "--base-url", demo_server.base_url, "--cache-dir", str(cache)).returncode == 0
    nowhere = export(cli, "series", cache, "--output", str(tmp_path / "missing-dir" / "x.csv"))
    assert nowhere.returncode == 1 and "cannot write" in nowhere.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["export", "nonsense"],
        ["export"],
        ["export", "webinars", "--format", "xml"],
        ["sync"],
        ["check"],
        ["sync", "--base-url"],
        ["serve-demo", "--port", "eighty"],
        ["frobnicate"],
    ],
)
def test_usage_errors_exit_2(cli: Any, args: list[str]) -> None:
    result = cli(*args)
    assert result.returncode == 2, result
    assert "usage:" in result.stderr and "error:" in result.stderr


def test_an_unusable_base_url_is_a_clear_error(cli: Any, cache: Path) -> None:
    result = cli("sync", "--base-url", "ftp://example.org", "--cache-dir", str(cache))
    assert result.returncode == 1
    assert "only http and https" in result.stderr


# -- serve-demo -------------------------------------------------------------------------------------


def test_serve_demo_prints_its_url_and_serves(env: dict[str, str], tmp_path: Path) -> None:
    with subprocess.Popen(
        [sys.executable, "-m", "catalogue_desktop", "serve-demo", "--port", "0", "--size", "50"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        try:
            ready, _, _ = select.select([proc.stdout], [], [], 30)
            assert ready, "serve-demo printed nothing within 30 s"
            line = proc.stdout.readline()
            match = re.fullmatch(
                r"Serving demo catalogue on (http://127\.0\.0\.1:\d+)/v1 \(Ctrl\+C to stop\)\n", line
            )
            assert match, line
            with urllib.request.urlopen(match.group(1) + "/v1/webinars", timeout=10) as response:
                assert response.status == 200
                webinars = json.loads(response.read())
            assert len(webinars) == 50 and all("webinarId" in w for w in webinars)
        finally:
            proc.send_signal(signal.SIGINT)
            try:  # waits on the exit itself (a loaded machine may take seconds): no polling
                proc.wait(timeout=60)
            except subprocess.TimeoutExpired:
                proc.kill()  # it ignored Ctrl+C: the code below is then -9 and the test fails
        code = proc.wait(timeout=10)
        err = proc.stderr.read()
    assert code == 0
    assert "Traceback" not in err


# The CLI side of the fault table (tests/core/sync/test_faults.py has every case through the sync
# function the CLI calls; these go through `catalogue-desktop sync --json` in a subprocess).
_TOPICS_OK = json.dumps([{"topicId": 1, "title": "Tax"}, {"topicId": 2, "title": "Ethics"}]).encode()
CLI_FAULTS = {
    "http 503": ("status", {"status": 503}, "failed", "HTTP 503"),
    "html with 200": ("html200", {}, "failed", "HTML"),
    "not an array": ("not_array", {}, "failed", "JSON array"),
    "truncated body": ("truncated", {"body": SAMPLE[Kind.TOPICS]}, "failed", "closed"),
    "bad gzip": ("bad_gzip", {}, "failed", "gzip"),
    "invalid utf-8": (
        "raw",
        {"body": b'[{"topicId": 1, "title": "\xff\xfe"}]', "headers": {"Content-Type": "application/json"}},
        "failed",
        "UTF-8",
    ),
    "empty list": ("json", {"body": b"[]"}, "failed", "empty list"),
    "some records bad": (
        "json",
        {"body": json.dumps([{"topicId": 1, "title": "Tax"}, {"topicId": "x"}, {"title": "no id"}]).encode()},
        "partial",
        None,
    ),
    "accepted variant": ("json", {"body": _TOPICS_OK}, "updated", None),
}


def good_first_copy(url: str, cache: Path) -> None:
    """The cache ``sync --cache-dir cache`` fills, filled in-process by the function that command
    calls (issue 37: a CLI process less per case; the faulted sync and the export stay commands)."""

    async def main() -> bool:
        async with CatalogueClient(url, retries=0) as client:
            return (await sync_catalogue(client, cache / FILE_NAME)).ok

    cache.mkdir(parents=True, exist_ok=True)
    assert asyncio.run(main())


@pytest.mark.parametrize("case", list(CLI_FAULTS))
def test_cli_sync_reports_each_fault_and_keeps_the_cache(
    cli: Any, fault_server: FaultServer, cache: Path, case: str
) -> None:
    mode, params, status, words = CLI_FAULTS[case]
    good_first_copy(fault_server.base_url, cache)
    fault_server.set(Kind.TOPICS.path, mode, **params)
    data = sync_json(cli, fault_server.base_url, cache, 1 if status != "updated" else 0)
    topics = data["collections"]["topics"]
    assert topics["status"] == status, topics
    if words:
        assert words.lower() in topics["error"].lower(), topics["error"]
    others = {k: v["status"] for k, v in data["collections"].items() if k != "topics"}
    assert set(others.values()) == {"unchanged"}, others
    exported = cli("export", "topics", "--format", "json", "--cache-dir", str(cache))
    stored = [r["topicId"] for r in json.loads(exported.stdout)]
    if status == "failed":  # the last good copy, untouched
        assert stored == ids(Kind.TOPICS)
        assert topics["records"] == len(stored)
    elif status == "partial":  # the valid records stored, the rejected ones reported
        assert stored == [1]
        assert topics["rejected"] == 2
        assert {p["record"] for p in data["problems"] if p["collection"] == "topics"} >= {1, 2}
    else:
        assert stored == [1, 2]
