"""``--self-test`` with ``--offline`` contacts nothing (a loopback service counting requests sees
none) and shows a copy of the catalogue's cache, left as it was; with ``--profile NAME`` it tests
NAME (its address, and offline its cache), not the demo."""

from __future__ import annotations

import argparse
import gc
import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Any

from catalogue_desktop.core.cache.location import FILE_NAME
from catalogue_desktop.core.records.kinds import Kind
from catalogue_desktop.ui.shell.app import run
from tests.faultserver import FaultServer


def args(**values: Any) -> argparse.Namespace:
    base = dict(
        base_url=None, demo=False, offline=False, cache_dir=None, open=None, self_test=True, currency=None
    )
    base.update(values)
    return argparse.Namespace(**base)


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def serving(server: FaultServer, sample: dict[Kind, bytes]) -> None:
    for kind in Kind:
        server.set(kind.path, "json", body=sample[kind])


def staging(base_url: str) -> None:
    config = Path(os.environ["CATALOGUE_DESKTOP_CONFIG_DIR"])
    config.mkdir(parents=True, exist_ok=True)
    body = {
        "current": "demo",
        "profiles": [{"name": "staging", "cache": "profiles/staging", "base_url": base_url}],
    }
    (config / "profiles.json").write_text(json.dumps(body))


def test_offline_self_test_contacts_nothing_and_shows_the_cache(
    qapp: Any, capsys: Any, filled_cache: Path, sample: dict[Kind, bytes]
) -> None:
    gc.collect()
    before = digest(filled_cache / FILE_NAME)
    with FaultServer() as server:
        serving(server, sample)
        code = run(args(offline=True, base_url=server.base_url, cache_dir=str(filled_cache)))
        seen = len(server.requests)
    out = capsys.readouterr().out
    assert seen == 0
    assert code == 0, out
    assert "PASS  offline: the service is not contacted" in out and "FAIL" not in out
    assert "Webinars: 60 rows in the table" in out
    assert digest(filled_cache / FILE_NAME) == before  # the user's cache only read


def test_offline_self_test_without_a_cache_says_so_and_contacts_nothing(
    qapp: Any, capsys: Any, tmp_path: Path, sample: dict[Kind, bytes]
) -> None:
    with FaultServer() as server:
        serving(server, sample)
        code = run(args(offline=True, base_url=server.base_url, cache_dir=str(tmp_path / "none")))
        seen = len(server.requests)
    assert seen == 0 and code == 1
    assert "FAIL  offline: a cached catalogue to show" in capsys.readouterr().out


def test_self_test_of_a_profile_tests_that_catalogue(
    qapp: Any, capsys: Any, tmp_path: Path, sample: dict[Kind, bytes]
) -> None:
    gc.collect()
    with FaultServer() as server:
        serving(server, sample)
        staging(server.base_url)
        code = run(args(profile="staging", cache_dir=str(tmp_path / "cache")))
        seen = {r.path for r in server.requests}
    out = capsys.readouterr().out
    assert code == 0, out
    assert "PASS  window shown (staging)" in out and "demo" not in out
    assert seen == {kind.path for kind in Kind}
    assert not (tmp_path / "cache").exists()  # a cache of its own, not the user's


def test_offline_self_test_of_a_profile_shows_its_cache(
    qapp: Any, capsys: Any, tmp_path: Path, filled_cache: Path, sample: dict[Kind, bytes]
) -> None:
    gc.collect()
    root = tmp_path / "root"
    (root / "profiles" / "staging").mkdir(parents=True)
    shutil.copy(filled_cache / FILE_NAME, root / "profiles" / "staging" / FILE_NAME)
    with FaultServer() as server:
        serving(server, sample)
        staging(server.base_url)
        code = run(args(profile="staging", offline=True, cache_dir=str(root)))
        seen = len(server.requests)
    out = capsys.readouterr().out
    assert seen == 0 and code == 0, out
    assert "PASS  window shown (staging)" in out and "Webinars: 60 rows in the table" in out
