"""The ``catalogue-desktop`` command: the window by default, and the commands (sync, check,
doctor, profile, export, find, history, watch, offers, serve-demo), one module each (``parser`` declares
them all).

Heavy imports (Qt, httpx, pydantic) happen inside the command that needs them, so ``--version``
and ``export`` start fast. Expected failures print one clear line to stderr, never a traceback.
Exit status: 0 success, 1 a collection partial/failed or an operation failed, 2 usage errors."""

from __future__ import annotations

import contextlib
import errno
import sys
from collections.abc import Sequence
from typing import NoReturn

from catalogue_desktop.cli.output import say
from catalogue_desktop.cli.parser import build_parser, parse_command_line
from catalogue_desktop.core.records.errors import CatalogueError
from catalogue_desktop.qt_compat.fast_exit import leave  # imports no Qt

__all__ = ["build_parser", "entry", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    if getattr(sys, "frozen", False):  # a PyInstaller bundle: worker processes start here too
        import multiprocessing

        multiprocessing.freeze_support()
    args = parse_command_line(argv)
    if getattr(args, "command_parser", None) is not None:
        from catalogue_desktop.cli.connection import usage_error

        usage_error(args.command_parser, args)
    try:
        module = _MODULES.get(args.command)
        if module is not None:
            import importlib

            return _flushed(importlib.import_module(f"catalogue_desktop.cli.{module}").run(args))
        import gc

        from catalogue_desktop.qt_compat import platform_check

        try:  # no display, missing libraries: one paragraph and exit 2, not Qt's abort
            platform_check.check_window_platform()
            gc.disable()  # while the window starts: ``ui.shell.app.run`` turns it on again once ready
            from catalogue_desktop.ui.shell.app import run
        except (platform_check.PlatformMissing, ImportError) as exc:
            text = platform_check.explain(exc)
            if text is None:
                raise
            say(text, sys.stderr)
            return platform_check.EXIT_CODE
        return run(args)
    except CatalogueError as exc:
        say(f"catalogue-desktop: {exc}", sys.stderr)
        return 1
    except KeyboardInterrupt:
        return 130
    except OSError as exc:  # a closed pipe (`| head`), a full disk (`> /dev/full`): one line, exit 1
        if exc.errno not in _STDOUT_ERRORS:
            raise
        return _stdout_failed(exc)


# Each command's module (imported when it runs: heavy imports stay inside the command).
_MODULES = {
    "sync": "sync",
    "check": "check",
    "export": "export",
    "doctor": "doctor",
    "profile": "profile",
    "find": "find",
    "history": "history",
    "watch": "watch",
    "offers": "offers",
    "serve-demo": "serve_demo",
}

_STDOUT_ERRORS = frozenset({errno.EPIPE, errno.ENOSPC, errno.EIO, errno.EFBIG, errno.EDQUOT, errno.EBADF})


def _flushed(code: int) -> int:
    """A command's exit status, once its standard output is flushed (so that a full or closed
    one is said here, not lost at exit)."""
    sys.stdout.flush()
    return code


def _stdout_failed(exc: OSError) -> int:
    """Say that standard output failed, once, and make later flushes harmless; exit status 1."""
    import os

    from catalogue_desktop.cli.output import stdout_failed

    with contextlib.suppress(OSError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    say(stdout_failed(exc), sys.stderr)
    return 1


def entry() -> NoReturn:
    """The ``catalogue-desktop`` command, ``python -m catalogue_desktop`` and the bundle's
    launcher: :func:`main`, then ``qt_compat.fast_exit.leave`` (no interpreter teardown)."""
    leave(main())
