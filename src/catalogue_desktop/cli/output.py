"""Where a command's ``--output`` goes, written as a careful tool writes it
(``core.formats.files.write_file``, which the window's saves use too):

* A regular file or a new name: written to a new temporary file beside it (made exclusively:
  never a name someone planted) and renamed over it once whole (a failed export leaves the old
  file as it was; the old file's permissions are kept).
* ``-``, a FIFO, a character or block device: written in place, streamed (a FIFO's reader gets
  the data; ``/dev/full`` says it is full), never replaced by a regular file.
* A symbolic link: followed; its target is written as above (the link stays a link).
* A directory, a socket: refused with a clear message.

``OutputError`` carries the one line to say; ``stdout_failed`` is the line for a standard output
that cannot be written (a closed pipe, a full disk).

Every human-readable line a command prints goes through ``say`` (or ``terminal_text``, the rule
itself, in ``core.formats.drawn_text``; the window's ``--self-test`` lines use it too): the
service's text is data, never a terminal's command. Control characters (C0 but line feed and tab,
DEL, C1) and bidi controls are written as escapes (``\\x1b``, ``\\u202e``), so a title holding
ESC, OSC or BEL sequences cannot set the terminal's title, clear the screen, change its colours or
write its clipboard, and U+202E cannot reverse a line. JSON output needs none of this (JSON
escapes control characters; bidi controls are data there).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from catalogue_desktop.core.formats.drawn_text import terminal_text
from catalogue_desktop.core.formats.files import BinaryWriter, write_file
from catalogue_desktop.core.records.errors import CatalogueError


def say(text: str, file: TextIO | None = None) -> None:
    """Print one human-readable line (or block) to ``file`` (standard output by default), made
    safe for a terminal (``terminal_text``)."""
    (sys.stdout if file is None else file).write(terminal_text(text) + "\n")


class OutputError(CatalogueError):
    """The output cannot be written (said in one line)."""


def write_output(name: str, write: BinaryWriter) -> Path | None:
    """Hand ``write`` the stream of ``--output name`` (``core.formats.files.write_file``; ``-``:
    standard output); returns the file written (None for standard output). Raises
    ``OutputError``."""
    if name == "-":
        out = sys.stdout.buffer
        try:
            write(out)
            out.flush()
        except OSError as exc:
            raise OutputError(f"cannot write standard output: {exc.strerror or exc}") from None
        return None
    try:
        return write_file(name, write)
    except OSError as exc:
        raise OutputError(f"cannot write {name}: {exc.strerror or exc}") from None


def stdout_failed(exc: OSError) -> str:
    """The line for a standard output that cannot be written."""
    return f"catalogue-desktop: cannot write to standard output: {exc.strerror or exc}"
