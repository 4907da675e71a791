"""``catalogue-desktop history`` as a user runs it: real subprocesses, real syncs over loopback
through two versions of the catalogue."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.demo.server import DemoServer, load_sample


@pytest.fixture
def run(env: dict[str, str], tmp_path: Path) -> Any:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        result = subprocess.run(
            [sys.executable, "-m", "catalogue_desktop", *args],
            capture_output=True,
            text=True,
            encoding="utf-8",
            env=env,
            timeout=120,
            cwd=tmp_path,
            check=False,
        )
        assert "Traceback" not in result.stderr + result.stdout, result.stderr
        return result

    return run


def test_history_of_a_course_whose_fee_changed_and_of_one_withdrawn(run: Any, tmp_path: Path) -> None:
    sample = load_sample()
    cache = str(tmp_path / "cache")
    courses = json.loads(sample[Kind.COURSES])
    with DemoServer(sample) as server:
        assert run("sync", "--base-url", server.base_url, "--cache-dir", cache).returncode == 0
        location = courses[0]["locations"][0]
        fee = location["fee"]
        location["fee"] = fee + 100
        withdrawn = courses.pop(1)
        server.set_payload(Kind.COURSES, json.dumps(courses).encode())
        assert run("sync", "--base-url", server.base_url, "--cache-dir", cache).returncode == 0

    out = run("history", "courses", str(courses[0]["courseId"]), "--json", "--cache-dir", cache)
    assert out.returncode == 0, out.stderr
    (event,) = json.loads(out.stdout)
    assert set(event) == {"at", "change", "fields"} and event["change"] == "changed"
    assert event["at"].endswith("Z") and event["at"][:4].isdigit()
    assert event["fields"] == {f"locations/{location['locationId']}/fee": [fee, fee + 100]}

    text = run("history", "course", str(courses[0]["courseId"]), "--cache-dir", cache)
    assert f"fee {fee:,} → {fee + 100:,} ({location['city']}, " in text.stdout

    gone = run("history", "Courses", str(withdrawn["courseId"]), "--cache-dir", cache)
    assert gone.returncode == 0
    assert "(withdrawn " in gone.stdout.splitlines()[0] and withdrawn["title"] in gone.stdout
    assert "withdrawn: no longer listed by the service" in gone.stdout
    (removed,) = json.loads(
        run("history", "courses", str(withdrawn["courseId"]), "--json", "--cache-dir", cache).stdout
    )
    assert removed["change"] == "removed" and removed["fields"] == {}

    untouched = run("history", "courses", str(courses[2]["courseId"]), "--json", "--cache-dir", cache)
    assert json.loads(untouched.stdout) == []

    unknown = run("history", "courses", "424242", "--cache-dir", cache)
    assert unknown.returncode == 1 and "no course 424242 in the cache" in unknown.stderr

    bad = run("history", "lectures", "1", "--cache-dir", cache)
    assert bad.returncode == 2 and "unknown kind 'lectures'" in bad.stderr
