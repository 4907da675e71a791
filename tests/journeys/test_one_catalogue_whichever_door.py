"""One catalogue, whichever door (issue 39, point 18): the catalogue the window showed last (the
demo included, opened with ``--demo`` or the Catalogue menu) is the one ``find``, ``export``,
``history``, ``watch`` and ``--offline`` read (and ``sync`` without ``--base-url`` syncs), each
command saying so on stderr; ``--profile`` and ``--cache-dir`` still read another. The window
runs here; the commands run as real processes on the settings folder and cache it wrote."""

from __future__ import annotations

import csv
import io
import subprocess
from pathlib import Path
from typing import Any

from PySide6.QtWidgets import QApplication

from catalogue_desktop.core.cache.store import ENV_CACHE_DIR
from catalogue_desktop.core.connection.profiles import DEFAULT, ENV_CONFIG_DIR, FILE_NAME, Profiles
from catalogue_desktop.core.records.kinds import Kind
from tests.cli_process import run_cli

UNREACHABLE = "http://127.0.0.1:9"  # a service configured once, never synced: its cache is empty
SAID = "catalogue-desktop: reading the demo catalogue, the one the window showed last"


def _a_service_remembered(settings_dir: Path) -> Path:
    """The state a window left that was once given a service (``--base-url``): ``default`` current."""
    folder = settings_dir / "catalogue-desktop"
    profiles = Profiles.load(folder / FILE_NAME)
    profiles.current = profiles.with_base_url(DEFAULT, UNREACHABLE).name
    profiles.save(folder / FILE_NAME)
    return folder


def _cli(folder: Path, cache_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The command as a person runs it, on the window's settings folder and default cache."""
    env = {**_environment(), ENV_CONFIG_DIR: str(folder), ENV_CACHE_DIR: str(cache_dir)}
    return run_cli(*args, env=env, timeout=60)


def _environment() -> dict[str, str]:
    import os

    proxies = ("http_proxy", "https_proxy", "all_proxy")
    return {k: v for k, v in os.environ.items() if k.lower() not in proxies}


def _commands_read_the_demo(folder: Path, cache_dir: Path) -> None:
    found = _cli(folder, cache_dir, "find", "--kind", "webinars", "cpe")
    assert found.returncode == 0, found.stderr
    assert SAID in found.stderr
    assert "webinars" in found.stdout and "nothing was ever synced" not in found.stderr
    exported = _cli(folder, cache_dir, "export", "webinars")
    assert exported.returncode == 0, exported.stderr
    assert SAID in exported.stderr
    assert len(list(csv.DictReader(io.StringIO(exported.stdout)))) == 60  # the demo's webinars
    history = _cli(folder, cache_dir, "history", "webinar", "50210")
    assert history.returncode == 0, history.stderr
    assert SAID in history.stderr and history.stdout.startswith("Webinar #50210 ")
    added = _cli(folder, cache_dir, "watch", "add", "cle", "cle:yes")
    assert added.returncode == 0, added.stderr
    assert SAID in added.stderr and "Watching “cle”: cle:yes (" in added.stdout
    assert " (0 matching now" not in added.stdout
    listed = _cli(folder, cache_dir, "watch", "list")
    assert listed.returncode == 0 and listed.stdout.startswith("cle\tcle:yes\t"), listed.stderr


def test_the_demo_opened_with_demo_is_what_the_commands_and_offline_read(
    make_session: Any, cache_dir: Path, _private_settings_and_cache: Path
) -> None:
    folder = _a_service_remembered(_private_settings_and_cache)
    shown = make_session(demo=True, wait="synced")  # `catalogue-desktop --demo`: the demo synced
    assert shown.demo and shown.window.tab(Kind.WEBINARS).model.rowCount() == 60
    _commands_read_the_demo(folder, cache_dir)

    offline = make_session(offline=True, wait="ready")  # `catalogue-desktop --offline`
    assert offline.demo
    assert offline.window.tab(Kind.WEBINARS).model.rowCount() == 60

    synced = _cli(folder, cache_dir, "sync")  # no --base-url: the demo's, served in-process
    assert synced.returncode == 0, synced.stderr
    assert "catalogue-desktop: using the demo catalogue, the one the window showed last" in synced.stderr
    assert f"Cache: {cache_dir / 'demo' / 'catalogue.sqlite3'}" in synced.stdout

    # --profile and --cache-dir read another catalogue, and say nothing about the window's
    other = _cli(folder, cache_dir, "find", "--profile", DEFAULT, "cpe")
    assert other.returncode == 1 and "nothing was ever synced" in other.stderr
    assert "the window showed last" not in other.stderr
    empty = cache_dir.parent / "empty-cache"
    elsewhere = _cli(folder, cache_dir, "export", "webinars", "--cache-dir", str(empty))
    assert elsewhere.returncode == 1 and str(empty) in elsewhere.stderr
    assert "the window showed last" not in elsewhere.stderr


def test_the_demo_chosen_in_file_catalogue_is_what_the_commands_read(
    qtbot: Any, make_session: Any, cache_dir: Path, _private_settings_and_cache: Path
) -> None:
    folder = _a_service_remembered(_private_settings_and_cache)
    demo = make_session(demo=True, wait="synced")  # the demo's cache filled once
    demo.window.close()
    session = make_session(base_url=UNREACHABLE, wait=None)  # the service's catalogue, empty
    assert not session.demo
    menu = session.window.menu_actions.catalogue_menu
    menu.fill()  # the Catalogue menu, as it opens
    (choice,) = [a for a in menu.actions() if a.text().startswith("demo — ")]
    choice.trigger()
    qtbot.waitUntil(lambda: session.demo and session.window.tab(Kind.WEBINARS).model.rowCount() == 60)
    QApplication.processEvents()
    _commands_read_the_demo(folder, cache_dir)


def test_each_offline_commands_help_says_which_catalogue_it_reads() -> None:
    def bare(text: str) -> str:  # (argparse wraps at hyphens too: "--cache-" / "dir")
        return "".join(text.split())

    for command in ("find", "export", "history", "watch", "offers"):
        text = bare(run_cli(command, "--help", env=_environment()).stdout)
        assert bare("Reads the cache of the catalogue the window showed last") in text, command
        assert bare("--profile NAME, --demo or --cache-dir DIR reads another") in text, command
    window = bare(run_cli("--help", env=_environment()).stdout)
    assert bare("--offline never contact the service: the catalogue shown last") in window
