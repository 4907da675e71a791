"""``catalogue-desktop history`` as a user runs it: real subprocesses, real syncs over loopback
through two versions of the catalogue."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.demo.server import DemoServer, load_sample
from tests.cli_process import run_cli


@pytest.fixture
def run(env: dict[str, str], tmp_path: Path) -> Any:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return run_cli(*args, env=env, cwd=tmp_path)

    return run


def test_history_of_a_course_whose_fee_changed_and_of_one_withdrawn(run: Any, demo_cache: Path) -> None:
    sample = load_sample()
    cache = str(demo_cache)  # the sample synced
    courses = json.loads(sample[Kind.COURSES])
    with DemoServer(sample) as server:
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


def test_watch_reports_new_changed_and_gone_since_last_seen(run: Any, demo_cache: Path) -> None:
    sample = load_sample()
    cache = str(demo_cache)  # the sample synced
    courses = json.loads(sample[Kind.COURSES])
    chicago = [c for c in courses if any(loc.get("city") == "Chicago" for loc in c["locations"])]
    assert len(chicago) >= 3
    with DemoServer(sample) as server:
        added = run(
            "watch", "add", "Chicago courses", "city:chicago", "--kind", "courses", "--cache-dir", cache
        )
        assert added.returncode == 0 and f"({len(chicago)} matching now" in added.stdout
        assert (
            "Chicago courses\tcity:chicago\tCourses\twatched"
            in run("watch", "list", "--cache-dir", cache).stdout
        )

        nothing = json.loads(run("watch", "--json", "--cache-dir", cache).stdout)
        assert nothing == [
            {"name": "Chicago courses", "query": "city:chicago", "new": {}, "changed": {}, "gone": {}}
        ]

        # v2: a new Chicago course; one Chicago course's fee changes; one moves to Dallas; one is withdrawn
        fresh = dict(json.loads(json.dumps(chicago[0])), courseId=99700, title="New in Chicago")
        courses.append(fresh)
        dearer, moved, withdrawn = chicago[0], chicago[1], chicago[2]
        for loc in dearer["locations"]:
            loc["fee"] = (loc.get("fee") or 0) + 50
        for loc in moved["locations"]:
            if loc.get("city") == "Chicago":
                loc["city"] = "Dallas"
        courses.remove(withdrawn)
        server.set_payload(Kind.COURSES, json.dumps(courses).encode())
        assert run("sync", "--base-url", server.base_url, "--cache-dir", cache).returncode == 0

    out = run("watch", "--json", "--mark-seen", "--cache-dir", cache)
    (news,) = json.loads(out.stdout)
    assert news["new"] == {"courses": [99700]}
    assert news["changed"] == {"courses": [dearer["courseId"]]}
    assert sorted(news["gone"]["courses"]) == sorted([moved["courseId"], withdrawn["courseId"]])
    # seen: nothing is news any more
    (again,) = json.loads(run("watch", "--json", "--cache-dir", cache).stdout)
    assert again["new"] == again["changed"] == again["gone"] == {}
    assert "nothing new" in run("watch", "--cache-dir", cache).stdout

    bad = run("watch", "add", "broken", "fee:<<", "--cache-dir", cache)
    assert bad.returncode == 1 and "does not parse" in bad.stderr
    assert run("watch", "remove", "Chicago courses", "--cache-dir", cache).returncode == 0
    assert run("watch", "remove", "Chicago courses", "--cache-dir", cache).returncode == 1
    assert "No watched searches" in run("watch", "--cache-dir", cache).stdout
