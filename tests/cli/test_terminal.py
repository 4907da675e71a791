"""The command line's text output never hands the service's text to the terminal as commands:
a catalogue whose titles, cities and values hold ESC, OSC, BEL, C1 and bidi controls is synced
over loopback and read by every command in a fresh process; no raw control character reaches
stdout or stderr (they are written as escapes, ``\\x1b``), while ``--json`` stays JSON."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

from catalogue_desktop.cli.output import terminal_text
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.demo.server import DemoServer, load_sample
from tests.cli_process import run_cli

# set the title (OSC 0, BEL-terminated), clear the screen, C1 CSI colours, write the clipboard
# (OSC 52), a carriage return over the line, then reverse the rest (U+202E)
HOSTILE = "\x1b]0;pwned\x07\x1b[2J\x9b31m\x1b]52;c;ZXZpbA==\x07\r\x7f\u202egpj.exe\u2066"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c\u2028\u2029]")


def _catalogue() -> tuple[dict[Kind, bytes], list[dict[str, Any]]]:
    sample = load_sample()
    courses = json.loads(sample[Kind.COURSES])
    courses[0]["title"] = f"Lease {HOSTILE} workshop"
    courses[0]["locations"][0]["city"] = f"Chicago{HOSTILE}"
    webinars = json.loads(sample[Kind.WEBINARS])
    webinars[0]["title"] = f"Ethics {HOSTILE}"
    webinars[1]["fee"] = HOSTILE  # a refused record: its problem quotes the value
    sample[Kind.COURSES] = json.dumps(courses).encode()
    sample[Kind.WEBINARS] = json.dumps(webinars).encode()
    return sample, courses


def _clean(result: subprocess.CompletedProcess[str]) -> subprocess.CompletedProcess[str]:
    for name, text in (("stdout", result.stdout), ("stderr", result.stderr)):
        found = RAW.search(text)
        assert found is None, f"{result.args[3:]}: raw {found.group()!r} on {name}: {text[:2000]!r}"
    return result


def test_terminal_text_shows_every_control_as_an_escape() -> None:
    assert terminal_text("a\x1b[2Jb\x07\x9b\u202e\x7f\tc\nd") == "a\\x1b[2Jb\\x07\\x9b\\u202e\\x7f\tc\nd"
    assert terminal_text("Zürich — 1,095 €") == "Zürich — 1,095 €"


def test_every_command_writes_hostile_service_text_as_escapes(env: dict[str, str], tmp_path: Path) -> None:
    sample, courses = _catalogue()
    cache = str(tmp_path / "cache")

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return _clean(run_cli(*args, env=env, cwd=tmp_path))

    course = str(courses[0]["courseId"])
    with DemoServer(sample) as server:
        synced = run("sync", "--base-url", server.base_url, "--cache-dir", cache)
        assert synced.returncode == 1 and "1 rejected" in synced.stdout
        assert run("watch", "add", f"w{HOSTILE}", "lease", "--cache-dir", cache).returncode == 0
        courses[0]["locations"][0]["city"] = f"Dallas{HOSTILE}"
        server.set_payload(Kind.COURSES, json.dumps(courses).encode())
        run("sync", "--base-url", server.base_url, "--cache-dir", cache)
        checked = run("check", "--base-url", server.base_url)
        assert checked.returncode == 1 and "\\x9b31m" in checked.stdout
        run("doctor", "--base-url", server.base_url + f"/{HOSTILE}")
        run("check", "--base-url", f"http://127.0.0.1:1/{HOSTILE}", "--timeout", "5")

    found = run("find", "lease", "--cache-dir", cache)
    assert found.returncode == 0 and "Lease \\x1b]0;pwned\\x07\\x1b[2J\\x9b31m" in found.stdout
    assert "\\u202egpj.exe\\u2066" in found.stdout
    history = run("history", "courses", course, "--cache-dir", cache)
    assert "\\x1b]52;c;ZXZpbA==\\x07" in history.stdout and "Dallas\\x1b" in history.stdout
    listed = run("watch", "--cache-dir", cache)
    assert "w\\x1b]0;pwned\\x07" in listed.stdout and "changed courses: 6101" in listed.stdout
    run("watch", "list", "--cache-dir", cache)
    run("watch", "remove", HOSTILE, "--cache-dir", cache)
    run("find", f"city:{HOSTILE}", "--cache-dir", cache)
    run("find", f"({HOSTILE}", "--cache-dir", cache)
    run("history", "courses", HOSTILE, "--cache-dir", cache)
    assert "unknown kind 'x\\x1b]0;pwned" in run("history", f"x{HOSTILE}", "1").stderr  # argparse's
    run("export", "courses", "--query", f"({HOSTILE}", "--cache-dir", cache)
    run("profile", f"p{HOSTILE}")
    run("profile", f"p{HOSTILE}", "--base-url", f"http://127.0.0.1:1/{HOSTILE}")
    run("profile")

    as_json = run_cli("find", "lease", "--json", "--cache-dir", cache, env=env, cwd=tmp_path)
    assert "\x1b" not in as_json.stdout and json.loads(as_json.stdout)["counts"]["courses"] == 1
