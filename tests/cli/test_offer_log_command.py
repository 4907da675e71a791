"""``catalogue-desktop offers`` as a user runs it: real subprocesses, real syncs over loopback
through two versions of the catalogue; an offer made by ``export offerings --title``, then a fee
changed and an occasion withdrawn by the service."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import icalendar
import pytest

from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.demo.server import DemoServer, load_sample
from tests.cli_process import run_cli


@pytest.fixture
def run(env: dict[str, str], tmp_path: Path) -> Any:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return run_cli(*args, env=env, cwd=tmp_path)

    return run


def test_an_exported_offer_is_logged_and_checked_after_the_sync_that_changed_it(
    run: Any, tmp_path: Path, demo_cache: Path
) -> None:
    sample = load_sample()
    cache = str(demo_cache)  # the sample synced
    courses = json.loads(sample[Kind.COURSES])
    ics = tmp_path / "acme.ics"
    with DemoServer(sample) as server:
        # Trial Advocacy Intensive in New York (Mar 2027) and Chicago (13 Sep 2027), 1,995 each;
        # Forensic Accounting Investigations in Dallas (Mar 2027) and Denver (Aug 2027), 1,795 each
        made = run(
            "export", "offerings", "--cache-dir", cache, "--words", "--query", "id:6103 OR id:6106",
            "--include-past", "--format", "ics", "-o", str(ics), "--title", "Offer for Acme",
            "--currency", "USD",
        )  # fmt: skip
        assert made.returncode == 0, made.stderr
        assert "logged as offer #1 (catalogue-desktop offers show 1)" in made.stderr
        assert len(icalendar.Calendar.from_ical(ics.read_bytes()).walk("VEVENT")) > 0
        untitled = run("export", "offerings", "--cache-dir", cache, "--format", "json")
        assert untitled.returncode == 0 and "logged" not in untitled.stderr  # no --title: no offer

        listed = run("offers", "--json", "--cache-dir", cache)
        assert listed.returncode == 0, listed.stderr
        (offer,) = json.loads(listed.stdout)
        assert (offer["id"], offer["title"], offer["status"]) == (1, "Offer for Acme", "current")
        assert offer["made"].endswith("Z") and offer["currency"] == "USD"
        assert offer["total"] == "USD 3,790"  # two dates of each course are alternatives: never 7,580
        assert offer["written"] == [{"format": "ics", "where": str(ics)}]
        occasions = [item["occasion"] for item in offer["items"]]
        assert set(occasions) == {
            "course:6103@7106",
            "course:6103@7107",
            "course:6106@7112",
            "course:6106@7113",
        }
        ids = run(
            "find", "--kind", "offerings", "--json", "--words", "id:6103 OR id:6106", "--cache-dir", cache
        )
        assert set(json.loads(ids.stdout)["ids"]["offerings"]) == set(occasions)  # the find form
        assert run("offers", "check", "--cache-dir", cache).returncode == 0

        for course in courses:
            for loc in course["locations"]:
                if loc["locationId"] == 7107:
                    loc["fee"] = 2095
            course["locations"] = [loc for loc in course["locations"] if loc["locationId"] != 7112]
        server.set_payload(Kind.COURSES, json.dumps(courses).encode())
        synced = run("sync", "--base-url", server.base_url, "--cache-dir", cache)
        assert synced.returncode == 0, synced.stderr
        assert "Offers: 1 open offer no longer matches the catalogue" in synced.stdout

    check = run("offers", "check", "--cache-dir", cache)
    assert check.returncode == 1, check.stderr
    assert "Trial Advocacy Intensive, Chicago 13 Sep: fee 1,995 → 2,095" in check.stdout
    assert (
        "Forensic Accounting Investigations, Dallas 1 Mar: withdrawn, no longer listed by the service"
        in check.stdout
    )

    text = run("offers", "--cache-dir", cache)
    first = text.stdout.splitlines()[0].split("\t")
    assert first[0] == "#1" and first[1] == "Offer for Acme" and first[-1] == "withdrawn"
    assert (
        first[3] == "4 dates" and first[4] == "USD 3,790"
    )  # a date of each course: 1,995 + 1,795 (as the sheet prices it)

    shown = run("offers", "show", "1", "--json", "--cache-dir", cache)
    assert shown.returncode == 0, shown.stderr
    items = {item["occasion"]: item for item in json.loads(shown.stdout)["items"]}
    chicago = items["course:6103@7107"]
    assert (chicago["fee"], chicago["now"]["fee"]) == (1995, 2095)
    assert chicago["changes"] == ["Trial Advocacy Intensive, Chicago 13 Sep: fee 1,995 → 2,095"]
    dallas = items["course:6106@7112"]
    assert dallas["withdrawn"] and dallas["now"] is None and dallas["fee"] == 1795
    assert items["course:6103@7106"]["changes"] == [] and items["course:6103@7106"]["now"]["fee"] == 1995

    words = run("offers", "show", "1", "--cache-dir", cache).stdout
    assert "course:6103@7107  Trial Advocacy Intensive" in words and "changed: fee 1,995 → 2,095" in words
    assert "now:    withdrawn, no longer listed by the service" in words
    assert f"Written: ics to {ics}" in words

    unknown = run("offers", "show", "42", "--cache-dir", cache)
    assert unknown.returncode == 1 and "no offer 42 in the offer log" in unknown.stderr
    assert run("offers", "show", "--cache-dir", cache).returncode == 2


def test_service_text_in_an_offer_prints_as_escapes(run: Any, tmp_path: Path) -> None:
    sample = load_sample()
    cache = str(tmp_path / "cache")
    courses = json.loads(sample[Kind.COURSES])
    courses[0]["title"] = "Evil\x1b]0;owned\x07 course"
    sample[Kind.COURSES] = json.dumps(courses).encode()
    with DemoServer(sample) as server:
        assert run("sync", "--base-url", server.base_url, "--cache-dir", cache).returncode == 0
    made = run(
        "export", "offerings", "--cache-dir", cache, "--words", "--query", f"id:{courses[0]['courseId']}",
        "--format", "json", "--title", "Offer\x1b[2J for Evil",
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    listed = run("offers", "show", "1", "--cache-dir", cache)
    assert "\x1b" not in listed.stdout and "\\x1b]0;owned\\x07" in listed.stdout
    assert "Offer\\x1b[2J for Evil" in listed.stdout


def test_one_offer_written_in_four_formats_is_one_offer_with_four_formats(
    run: Any, tmp_path: Path, demo_cache: Path
) -> None:
    cache = str(demo_cache)  # the sample synced
    written = []
    for fmt in ("pdf", "ics", "xlsx", "email"):
        out = tmp_path / f"acme.{'txt' if fmt == 'email' else fmt}"
        made = run(
            "export", "offerings", "--cache-dir", cache, "--words", "--query", "id:6103 OR id:6106",
            "--include-past", "--format", fmt, "-o", str(out), "--title", "Offer for Acme",
            "--note", "Two seats", "--currency", "USD",
        )  # fmt: skip
        assert made.returncode == 0, made.stderr
        assert "logged as offer #1 (catalogue-desktop offers show 1)" in made.stderr
        written.append({"format": fmt, "where": str(out)})
    other = run(
        "export", "offerings", "--cache-dir", cache, "--words", "--query", "id:6103 OR id:6106",
        "--include-past", "--format", "pdf", "-o", str(tmp_path / "globex.pdf"), "--title", "Offer for Acme",
        "--note", "Ten seats", "--currency", "USD",
    )  # fmt: skip
    assert "logged as offer #2" in other.stderr  # another note: another offer
    listed = run("offers", "--json", "--cache-dir", cache)
    assert listed.returncode == 0, listed.stderr
    second, first = json.loads(listed.stdout)
    assert (first["id"], first["title"], first["note"]) == (1, "Offer for Acme", "Two seats")
    assert first["written"] == written
    assert len(first["items"]) == 4 and second["id"] == 2
