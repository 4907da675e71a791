"""Files written the careful way, by the command line (``--output``) and the window (offers,
table exports) alike, and the names the app proposes for them.

``write_file(path, write)``:

* A regular file or a new name: ``write`` fills a temporary file made in the same folder by
  ``tempfile.mkstemp`` (``O_CREAT|O_EXCL``: a new file, never a name someone else made, so a
  ``NAME.part`` symbolic link planted in a shared folder is never followed), which is flushed to
  disk and renamed over the target once whole. A failed write leaves the old file as it was; the
  old file's permissions are kept (a new file gets the usual ``0666`` less the umask).
* A FIFO, a character or block device: written in place, streamed (a FIFO's reader gets the
  data; ``/dev/full`` says it is full), never replaced by a regular file.
* A symbolic link: followed; its target is written as above (the link stays a link).
* A folder, a socket: refused (``OSError`` with the reason in words).

``proposed_name(stem, suffix)``: a name any file system takes: no control or bidi characters,
none of ``<>:"/\\|?*``, no dots or spaces at either end (nor a hidden ``.name``), not one of
Windows' reserved device names (``CON``, ``PRN``, ``AUX``, ``NUL``, ``COM1``..., ``LPT1``...,
whatever the extension), at most ``NAME_BYTES`` bytes of UTF-8 (cut on a character boundary;
file systems allow 255).
"""

from __future__ import annotations

import errno
import functools
import io
import os
import stat
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, TextIO

from catalogue_desktop.core.formats.drawn_text import BIDI_CONTROLS

BinaryWriter = Callable[[BinaryIO], object]

NAME_BYTES = 200  # the longest name proposed, in bytes of UTF-8 (room for " (2)" and the like)


def write_file(path: str | Path, write: BinaryWriter, *, private: bool = False) -> Path:
    """Hand ``write`` the stream of the file at ``path`` (see the module); returns the file
    written (a symbolic link's target). ``private``: a regular file readable by its owner only
    (0600), whatever it was. Raises ``OSError``."""
    given = Path(path)
    target = Path(os.path.realpath(given)) if given.is_symlink() else given
    try:
        mode: int | None = target.stat().st_mode
    except FileNotFoundError:
        mode = None
    if mode is None or stat.S_ISREG(mode):
        _replace(target, write, 0o600 if private else mode)
    elif stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        with open(target, "wb", buffering=0) as raw, io.BufferedWriter(raw) as out:
            write(out)
            out.flush()
    elif stat.S_ISDIR(mode):
        raise OSError(errno.EISDIR, "it is a folder; name a file")
    else:
        raise OSError(errno.EINVAL, "not a file, pipe or device")
    return target


def _replace(target: Path, write: BinaryWriter, mode: int | None) -> None:
    import tempfile  # (with shutil and random: when a file is written, not at the window's start)

    name = target.name if len(target.name.encode("utf-8", "surrogateescape")) <= NAME_BYTES else "output"
    fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as out:
            write(out)
            out.flush()
            os.fsync(out.fileno())
            os.chmod(tmp, stat.S_IMODE(mode) if mode is not None else 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _umask() -> int:
    """The process's umask, read without changing it where the system tells (Linux), since
    setting it, even back, races with other threads making files."""
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def text_writer(write_text: Callable[[TextIO], object], encoding: str = "utf-8") -> BinaryWriter:
    """A ``BinaryWriter`` of a function that writes text (line ends as written)."""

    def write(out: BinaryIO) -> None:
        text = io.TextIOWrapper(out, encoding=encoding, newline="", write_through=False)
        try:
            write_text(text)
            text.flush()
        finally:
            text.detach()

    return write


_RESERVED = frozenset(
    {"CON", "PRN", "AUX", "NUL"}
    | {f"{port}{n}" for port in ("COM", "LPT") for n in (*"0123456789", "¹", "²", "³")}
)


@functools.cache
def _left_out() -> dict[int, str | None]:
    """What a proposed name leaves out (``str.translate``): made at the first name proposed, not
    at every start (2,000-odd entries; the window imports this module before its first paint)."""
    table: dict[int, str | None] = dict.fromkeys(map(ord, '<>:"/\\|?*'), " ")
    table.update(dict.fromkeys((*range(0x20), *range(0x7F, 0xA0)), " "))
    table.update(dict.fromkeys((*map(ord, BIDI_CONTROLS), 0x2028, 0x2029), None))
    table.update(dict.fromkeys(range(0xD800, 0xE000), None))  # lone surrogates: not text
    return table


def proposed_name(stem: str, suffix: str = "", fallback: str = "Untitled") -> str:
    """``stem`` + ``suffix`` (e.g. ".pdf") as a name any file system takes (see the module);
    ``fallback`` when nothing of ``stem`` is left."""
    suffix = " ".join(suffix.translate(_left_out()).split())
    room = NAME_BYTES - 1 - len(suffix.encode("utf-8"))  # (1: the "_" a reserved name may get)
    clean = _trimmed(" ".join(stem.translate(_left_out()).split()))
    cut = _trimmed(clean.encode("utf-8")[:room].decode("utf-8", "ignore")) or fallback
    device, dot, rest = cut.partition(".")
    if device.rstrip(" ").upper() in _RESERVED:  # "con", "CON.report", "Com1 .x": a device on Windows
        cut = f"{device.rstrip(' ')}_{dot}{rest}"
    return cut + suffix


def _trimmed(text: str) -> str:
    """Without the dots and spaces Windows drops from a name's end, nor those at its start (a
    leading dot hides a file on Unix)."""
    return text.strip(". ")
