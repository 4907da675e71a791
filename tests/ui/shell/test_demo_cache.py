"""The window and the command line agree on the demo catalogue's cache: after trying the window,
``export --demo`` reads what it showed, so does a plain ``export`` that sees the window's settings,
and one that does not says where both caches are."""

from __future__ import annotations

import csv
import io
import os
import subprocess
from pathlib import Path
from typing import Any

from catalogue_desktop.core.cache.store import ENV_CACHE_DIR, FILE_NAME
from catalogue_desktop.core.records.kinds import Kind
from tests.cli_process import run_cli


def cli(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, env={**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})}, stdout_too=False)


def test_export_after_trying_the_window_names_the_demo_cache_and_reads_it_with_demo(
    make_session: Any, sample: dict[Kind, bytes]
) -> None:
    session = make_session(cache_dir=None)  # the window as a newcomer starts it: no options
    assert session.demo
    default = Path(os.environ[ENV_CACHE_DIR])
    assert session.store_file == default / "demo" / FILE_NAME
    assert session.window.tab(Kind.COURSES).model.rowCount() == 20

    plain = cli("export", "courses")  # (with a profiles.json of its own, none the window wrote)
    assert plain.returncode == 1 and plain.stdout == ""
    said, message = plain.stderr.strip().splitlines()
    assert said.startswith(f"catalogue-desktop: reading the cache in {default} (no catalogue chosen yet;")
    assert f"never synced into {default / FILE_NAME}, the service's cache" in message
    assert f"The window's demo catalogue is cached in {default / 'demo' / FILE_NAME}" in message
    assert "add --demo" in message and "--cache-dir DIR" in message

    demo = cli("export", "courses", "--demo")
    assert demo.returncode == 0, demo.stderr
    rows = list(csv.DictReader(io.StringIO(demo.stdout)))
    assert len(rows) == 20 and rows[0]["courseId"] == "6101"

    assert cli("export", "courses", "--demo", "--cache-dir", str(default)).stdout == demo.stdout
    window_config = {"CATALOGUE_DESKTOP_CONFIG_DIR": str(Path(session.settings.profiles_path).parent)}
    same = cli("export", "courses", env=window_config)  # the window's settings: the demo it showed
    assert same.returncode == 0 and same.stdout == demo.stdout, same.stderr
    assert "reading the demo catalogue, the one the window showed last" in same.stderr


def test_a_demo_export_before_the_window_ran_says_how_to_fill_it(tmp_path: Path) -> None:
    result = cli("export", "webinars", "--demo", "--cache-dir", str(tmp_path / "c"))
    assert result.returncode == 1
    demo_file, service_file = tmp_path / "c" / "demo" / FILE_NAME, tmp_path / "c" / FILE_NAME
    assert result.stderr.strip() == (
        f"catalogue-desktop: webinars are not in the demo catalogue's cache {demo_file} yet: open the "
        f"window on the demo catalogue once ('catalogue-desktop --demo') to fill it. --profile NAME "
        f"reads another catalogue's cache, --cache-dir DIR another one (the service's: {service_file})"
    )


def test_help_says_which_cache_each_command_reads() -> None:
    text = " ".join(cli("export", "--help").stdout.split())
    assert "--demo read the demo catalogue's cache, the one the window fills" in text
    assert "the demo/ folder of the cache directory" in text
    assert "~/.cache/catalogue-desktop" in text and "CATALOGUE_DESKTOP_CACHE_DIR" in text
    assert "demo/ folder" in " ".join(cli("--help").stdout.split())
