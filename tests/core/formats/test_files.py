"""``core.formats.files``: files written the careful way (a temporary file made exclusively,
renamed over the target; planted names never followed) and the names the app proposes."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from catalogue_desktop.core.formats.drawn_text import BIDI_CONTROLS
from catalogue_desktop.core.formats.files import NAME_BYTES, proposed_name, write_file
from catalogue_desktop.core.offers.customer_text import file_name
from tests.fresh_python import run_json

RESERVED = {"CON", "PRN", "AUX", "NUL", *(f"COM{n}" for n in range(10)), *(f"LPT{n}" for n in range(10))}


def test_a_planted_part_name_is_neither_followed_nor_used(tmp_path: Path) -> None:
    own = tmp_path / "own.txt"
    own.write_text("mine")
    shared = tmp_path / "shared"
    shared.mkdir()
    target = shared / "offer.pdf"
    (shared / "offer.pdf.part").symlink_to(own)
    (shared / "offer.pdf.part2").write_text("someone else's")
    assert write_file(target, lambda out: out.write(b"%PDF new")) == target
    assert own.read_text() == "mine" and (shared / "offer.pdf.part2").read_text() == "someone else's"
    assert not target.is_symlink() and target.read_bytes() == b"%PDF new"
    assert sorted(p.name for p in shared.iterdir()) == ["offer.pdf", "offer.pdf.part", "offer.pdf.part2"]


def test_an_old_file_keeps_its_mode_and_survives_a_failed_write(tmp_path: Path) -> None:
    target = tmp_path / "report.csv"
    target.write_text("old")
    target.chmod(0o640)

    def fail(out: object) -> None:
        raise OSError(28, "No space left on device")

    with pytest.raises(OSError, match="No space"):
        write_file(target, fail)
    assert target.read_text() == "old" and [p.name for p in tmp_path.iterdir()] == ["report.csv"]
    write_file(target, lambda out: out.write(b"new"))
    assert target.read_text() == "new" and stat.S_IMODE(target.stat().st_mode) == 0o640


@pytest.mark.skipif(sys.platform == "win32", reason="umask")
def test_a_new_file_gets_the_usual_mode(tmp_path: Path) -> None:
    mask = os.umask(0o027)
    try:
        write_file(tmp_path / "new.csv", lambda out: out.write(b"x"))
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "new.csv").stat().st_mode) == 0o640


def test_a_link_writes_its_target_a_folder_is_refused(tmp_path: Path) -> None:
    real = tmp_path / "real.ics"
    real.write_text("old")
    link = tmp_path / "link.ics"
    link.symlink_to(real)
    assert write_file(link, lambda out: out.write(b"new")) == real
    assert link.is_symlink() and real.read_text() == "new"
    with pytest.raises(OSError, match="it is a folder"):
        write_file(tmp_path, lambda out: out.write(b"x"))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_a_fifo_is_written_in_place(tmp_path: Path) -> None:
    import threading

    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    write_file(fifo, lambda out: out.write(b"streamed"))
    reader.join(10)
    assert got == [b"streamed"] and stat.S_ISFIFO(fifo.stat().st_mode)


def _shown(name: str, suffix: str = ".pdf") -> None:
    assert 0 < len(name.encode("utf-8")) <= NAME_BYTES, name
    assert not any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in name), name
    assert not set(name) & (BIDI_CONTROLS | set('<>:"/\\|?*\u2028\u2029')), name
    assert name.endswith(suffix), name
    stem = name[: len(name) - len(suffix)]
    assert stem == stem.strip(". ") and stem, name
    assert name.split(".")[0].rstrip(" ").upper() not in RESERVED, name


@given(st.text(max_size=600), st.sampled_from([".pdf", ".ics", ".csv", ""]))
def test_any_proposed_name_is_one_any_file_system_takes(stem: str, suffix: str) -> None:
    _shown(proposed_name(stem, suffix), suffix)


@given(st.sampled_from(sorted(RESERVED)), st.sampled_from(["", ".txt", " .report", ".tar"]), st.booleans())
def test_windows_device_names_are_never_proposed(device: str, rest: str, lower: bool) -> None:
    _shown(proposed_name((device.lower() if lower else device) + rest, ".pdf"))


@given(st.text(alphabet=st.characters(min_codepoint=0x80), min_size=100, max_size=400))
def test_a_long_name_is_cut_on_a_character_boundary(stem: str) -> None:
    name = proposed_name(stem, ".pdf")
    _shown(name)
    assert name.encode("utf-8").decode("utf-8") == name  # (no half character: it would not decode)


def test_an_offer_name_keeps_its_months_and_drops_bidi_and_controls() -> None:
    assert file_name("Offer for \u202eAcme\x1b[2J", [], ".pdf") == "Offer for Acme [2J.pdf"
    assert file_name("CON", [], ".ics") == "CON_.ics"
    long = file_name("Offer for " + "Ü" * 300, [], ".pdf")
    assert len(long.encode()) <= NAME_BYTES and long.endswith("Ü.pdf")


def test_the_table_of_what_a_name_leaves_out_is_not_made_at_start() -> None:
    """The window imports this module before its first paint: the 2,000-odd-entry table is made
    at the first name proposed, not then."""
    code = (
        "import json, catalogue_desktop.ui.shell.app\n"
        "from catalogue_desktop.core.formats import files\n"
        "made = files._left_out.cache_info().currsize\n"
        "files.proposed_name('a/b')\n"
        "print(json.dumps([made, files._left_out.cache_info().currsize]))\n"
    )
    seen, _ = run_json(code)
    assert seen == [0, 1]
