"""Issue 25: the command line writes as a careful tool does (subprocesses, a real cache): --output
over a FIFO, a device or a symlink; a full or closed standard output; a read-only cache."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from catalogue_desktop.core.cache.store import FILE_NAME
from catalogue_desktop.core.sync.ingest import ingest
from catalogue_desktop.demo.server import load_sample

AT = "2026-11-20T09:30:00Z"


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("cache")
    for kind, payload in load_sample().items():
        ingest(str(folder / FILE_NAME), kind.value, payload, None, None, AT)
    return folder


def run(
    *args: str, stdout: Any = subprocess.PIPE, user: int | None = None
) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    result = subprocess.run(
        [sys.executable, "-m", "catalogue_desktop", *args],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        timeout=120,
        check=False,
        user=user,
    )
    assert "Traceback" not in result.stderr, result.stderr
    return result


def test_output_to_a_fifo_streams_to_its_reader_and_leaves_it_a_fifo(cache: Path, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = run("export", "courses", "--cache-dir", str(cache), "--output", str(fifo))
    reader.join(30)
    assert result.returncode == 0, result.stderr
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert got and got[0].startswith(b"courseId,") and got[0].count(b"\n") > 20
    got.clear()
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    result = run("export", "offerings", "--format", "ics", "--cache-dir", str(cache), "-o", str(fifo))
    reader.join(30)
    assert result.returncode == 0 and got[0].startswith(b"BEGIN:VCALENDAR")
    assert stat.S_ISFIFO(fifo.stat().st_mode)


def _full_device(tmp_path: Path) -> Path:
    """A private /dev/full (a character device whose writes fail with ENOSPC): code that wrongly
    replaces what --output names then replaces this one, never the system's."""
    node = tmp_path / "full"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 7))
    except (OSError, AttributeError):
        pytest.skip("cannot make a device node here")
    return node


def test_output_to_a_full_device_fails_with_one_line_not_success(cache: Path, tmp_path: Path) -> None:
    full = _full_device(tmp_path)
    for args in (("courses",), ("offerings", "--format", "csv")):
        result = run("export", *args, "--cache-dir", str(cache), "--output", str(full))
        assert result.returncode == 1
        assert result.stderr.strip().splitlines() == [
            f"catalogue-desktop: cannot write {full}: No space left on device"
        ]
    assert stat.S_ISCHR(full.stat().st_mode)


def test_output_through_a_symlink_writes_its_target_and_keeps_the_link(cache: Path, tmp_path: Path) -> None:
    target = tmp_path / "real.csv"
    target.write_text("old")
    target.chmod(0o640)
    link = tmp_path / "link.csv"
    link.symlink_to(target)
    result = run("export", "topics", "--cache-dir", str(cache), "--output", str(link))
    assert result.returncode == 0, result.stderr
    assert link.is_symlink() and link.resolve() == target
    assert target.read_text().startswith("topicId,") and stat.S_IMODE(target.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.csv", "real.csv"]  # no .part left
    result = run("export", "topics", "--cache-dir", str(cache), "--output", str(tmp_path))
    assert result.returncode == 1 and "it is a folder" in result.stderr


def test_a_planted_part_symlink_is_never_followed(cache: Path, tmp_path: Path) -> None:
    """Someone plants ``report.csv.part`` -> the user's own file in a shared folder: the export
    writes a temporary file of its own (made exclusively), the planted target stays as it was,
    and the report is a regular file, not a link to it."""
    shared = tmp_path / "shared"
    shared.mkdir()
    own = tmp_path / "own-file.txt"
    own.write_text("the user's own data")
    report = shared / "report.csv"
    (shared / "report.csv.part").symlink_to(own)
    for args in (("topics",), ("offerings", "--format", "ics")):
        result = run("export", *args, "--cache-dir", str(cache), "--output", str(report))
        assert result.returncode == 0, result.stderr
        assert own.read_text() == "the user's own data"
        assert not report.is_symlink() and stat.S_ISREG(report.lstat().st_mode)
        assert report.read_text().startswith(("topicId,", "BEGIN:VCALENDAR"))
    assert sorted(p.name for p in shared.iterdir()) == ["report.csv", "report.csv.part"]


def test_a_full_standard_output_gives_one_line_and_exit_1(cache: Path, tmp_path: Path) -> None:
    full = _full_device(tmp_path)
    for args in (("find", "fee:>0"), ("export", "courses"), ("export", "offerings", "--format", "ics")):
        with open(full, "w") as out:
            result = run(*args, "--cache-dir", str(cache), stdout=out)
        assert result.returncode == 1, args
        assert result.stderr.strip().splitlines()[-1] == (
            "catalogue-desktop: cannot write to standard output: No space left on device"
        ), result.stderr


def test_a_closed_pipe_gives_one_line_and_exit_1(cache: Path) -> None:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "catalogue_desktop",
            "export",
            "webinars",
            "--format",
            "json",
            "--cache-dir",
            str(cache),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert proc.stdout is not None and proc.stderr is not None
    with proc.stdout, proc.stderr:
        proc.stdout.read(10)
        proc.stdout.close()
        err = proc.stderr.read().decode()
    assert proc.wait(60) == 1
    assert "Traceback" not in err and err.strip().splitlines() == [
        "catalogue-desktop: cannot write to standard output: Broken pipe"
    ]


def _nobody_can_run_python() -> bool:
    try:
        subprocess.run([sys.executable, "-c", ""], user=65534, check=True, timeout=30, capture_output=True)
    except (OSError, subprocess.CalledProcessError):
        return False
    return True


def _read_only_copy(cache: Path, tmp_path: Path) -> Path:
    folder = tmp_path / "ro"
    shutil.copytree(cache, folder)
    (folder / FILE_NAME).chmod(0o444)
    folder.chmod(0o555)
    return folder


def test_a_read_only_cache_is_read_read_only_by_find_and_export(cache: Path, tmp_path: Path) -> None:
    if os.geteuid() == 0 and not _nobody_can_run_python():
        pytest.skip("root writes anywhere and nobody cannot run this Python: see the in-process test below")
    user = 65534 if os.geteuid() == 0 else None  # root writes anywhere: read it as nobody, who may not
    folder = _read_only_copy(cache, tmp_path)
    if user is not None:
        parent = tmp_path
        while parent != parent.parent:
            parent.chmod(parent.stat().st_mode | 0o005)
            parent = parent.parent
    try:
        before = sorted(p.name for p in folder.iterdir())
        for args in (("find", "fee:>0"), ("export", "courses"), ("export", "offerings", "--format", "csv")):
            result = run(*args, "--cache-dir", str(folder), user=user)
            assert result.returncode == 0, result.stderr
            assert "unusable" not in result.stderr and "read-only" in result.stderr
            assert len(result.stdout.splitlines()) > 5
        assert sorted(p.name for p in folder.iterdir()) == before
    finally:
        folder.chmod(0o755)


def test_a_cache_this_process_may_not_write_is_opened_with_mode_ro(
    cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """In process (root writes anywhere): a cache ``os.access`` says cannot be written is read
    with SQLite's mode=ro; find and export work, the file is not changed."""
    from catalogue_desktop import cli

    folder = _read_only_copy(cache, tmp_path)
    data = (folder / FILE_NAME).read_bytes()
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, mode: False if mode == os.W_OK else real_access(p, mode))
    try:
        assert cli.main(["find", "fee:>0", "--cache-dir", str(folder)]) == 0
        assert cli.main(["export", "courses", "--cache-dir", str(folder)]) == 0
        captured = capsys.readouterr()
        assert captured.err.count("read-only") == 2 and "unusable" not in captured.err
        assert captured.out.count("\n") > 20
        assert (folder / FILE_NAME).read_bytes() == data  # (root may add the WAL's index beside it)
    finally:
        folder.chmod(0o755)
