"""Where a command's ``--output`` goes, written as a careful tool writes it.

* A regular file or a new name: written beside it (``NAME.part``) and renamed over it once whole
  (a failed export leaves the old file as it was; the old file's permissions are kept).
* ``-``, a FIFO, a character or block device: written in place, streamed (a FIFO's reader gets
  the data; ``/dev/full`` says it is full), never replaced by a regular file.
* A symbolic link: followed; its target is written as above (the link stays a link).
* A directory, a socket: refused with a clear message.

``OutputError`` carries the one line to say; ``stdout_failed`` is the line for a standard output
that cannot be written (a closed pipe, a full disk).
"""

from __future__ import annotations

import io
import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO, TextIO

from catalogue_desktop.core.records.errors import CatalogueError

BinaryWriter = Callable[[BinaryIO], object]


class OutputError(CatalogueError):
    """The output cannot be written (said in one line)."""


def write_output(name: str, write: BinaryWriter) -> Path | None:
    """Hand ``write`` the stream of ``--output name`` (see the module); returns the file written
    (None for standard output). Raises ``OutputError``."""
    if name == "-":
        _write_stream(sys.stdout.buffer, write, "standard output")
        return None
    given = Path(name)
    target = Path(os.path.realpath(given)) if given.is_symlink() else given
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise OutputError(f"cannot write {given}: {exc.strerror}") from None
    if mode is None or stat.S_ISREG(mode):
        _replace(target, write, mode, given)
    elif stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        try:
            with open(target, "wb", buffering=0) as raw, io.BufferedWriter(raw) as out:
                _write_stream(out, write, str(given))
        except OSError as exc:
            raise OutputError(f"cannot write {given}: {exc.strerror}") from None
    elif stat.S_ISDIR(mode):
        raise OutputError(f"cannot write {given}: it is a folder; name a file")
    else:
        raise OutputError(f"cannot write {given}: not a file, pipe or device")
    return target


def _write_stream(out: BinaryIO, write: BinaryWriter, what: str) -> None:
    try:
        write(out)
        out.flush()
    except OSError as exc:
        raise OutputError(f"cannot write {what}: {exc.strerror or exc}") from None


def _replace(target: Path, write: BinaryWriter, mode: int | None, given: Path) -> None:
    tmp = target.with_name(target.name + ".part")
    try:
        with tmp.open("wb") as out:
            write(out)
        if mode is not None:
            os.chmod(tmp, stat.S_IMODE(mode))
        tmp.replace(target)
    except OSError as exc:
        raise OutputError(f"cannot write {given}: {exc.strerror or exc}") from None
    finally:
        tmp.unlink(missing_ok=True)


def text_writer(write_text: Callable[[TextIO], object]) -> BinaryWriter:
    """A ``BinaryWriter`` of a function that writes text (UTF-8, line ends as written)."""

    def write(out: BinaryIO) -> None:
        text = io.TextIOWrapper(out, encoding="utf-8", newline="", write_through=False)
        try:
            write_text(text)
            text.flush()
        finally:
            text.detach()

    return write


def stdout_failed(exc: OSError) -> str:
    """The line for a standard output that cannot be written."""
    return f"catalogue-desktop: cannot write to standard output: {exc.strerror or exc}"
