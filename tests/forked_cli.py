"""The warm process ``tests/cli_process.py`` forks the commands from: ``python tests/forked_cli.py FD``.

It imports the package's command-line, core and demo modules once (no Qt, no thread), then for
each request on the Unix socket FD (the command's arguments, environment and working directory,
and its standard input, output and error as file descriptors) forks a child that becomes what
``python -m catalogue_desktop ARGS`` would be after the interpreter's start: those three streams,
that environment (the zone read again), that folder first on ``sys.path``, a random seed of its
own, and the package's ``__main__`` run by ``runpy`` as the interpreter runs it; it ends as the
interpreter ends (exit handlers, flushed streams, the exit status; a traceback and 1 for an
uncaught exception). The warm process answers ``pid N`` at once, then ``exit N STATUS`` once the
child has ended (negative: the signal that ended it), and leaves when the socket closes.

What the warm process made before its first fork is kept out of the cyclic garbage collector's
passes (``gc.freeze``, after one collection): a command's full passes then walk only its own
objects, not also the imported modules' (some 58,000, which live as long as the process in
a fresh interpreter too: what changes is the command's CPU time, not what it does). Issue 37: the
commands of tests/cli/test_find.py and test_offers.py 16% less CPU (an export importing Qt, most).

What only a fresh interpreter decides (the ``PYTHON*`` variables, the locale's encoding) is the
warm process's own: ``cli_process`` starts one per such setting.
"""

from __future__ import annotations

import atexit
import gc
import importlib
import io
import json
import os
import pkgutil
import random
import runpy
import socket
import struct
import sys
import tempfile
import threading
import time
import traceback
from typing import Any, NoReturn

HEADER = struct.Struct("!I")  # the request's length, sent with its three descriptors
PACKAGES = ("catalogue_desktop.cli", "catalogue_desktop.core", "catalogue_desktop.demo")


def warm_up() -> None:
    for package in PACKAGES:
        module = importlib.import_module(package)
        for info in pkgutil.walk_packages(module.__path__, package + "."):
            importlib.import_module(info.name)


def receive(sock: socket.socket) -> tuple[dict[str, Any], list[int]] | None:
    head, fds, _, _ = socket.recv_fds(sock, HEADER.size, 3)
    if not head:
        return None
    while len(head) < HEADER.size:
        head += sock.recv(HEADER.size - len(head))
    (size,) = HEADER.unpack(head)
    body = b""
    while len(body) < size:
        chunk = sock.recv(size - len(body))
        if not chunk:
            return None
        body += chunk
    return json.loads(body), fds


def standard_streams() -> None:
    """``sys.stdin``, ``stdout`` and ``stderr`` made again over descriptors 0-2, as the interpreter
    makes them at its start (pylifecycle.c ``create_stdio``: encoding and errors as this process's,
    which started with the same settings; buffered unless ``-u`` or PYTHONUNBUFFERED; stderr
    line-buffered)."""
    assert isinstance(sys.__stdout__, io.TextIOWrapper)
    buffered = not sys.__stdout__.write_through  # (False: this process started with -u)
    for fd, name in enumerate(("stdin", "stdout", "stderr")):
        old = getattr(sys, f"__{name}__")
        raw = io.FileIO(fd, "rb" if fd == 0 else "wb", closefd=False)
        buffer: io.FileIO | io.BufferedReader | io.BufferedWriter = raw
        if fd == 0:
            buffer = io.BufferedReader(raw)
        elif buffered:
            buffer = io.BufferedWriter(raw)
        stream = io.TextIOWrapper(
            buffer,
            encoding=old.encoding,
            errors=old.errors,
            newline="\n",
            line_buffering=buffered and (fd == 2 or raw.isatty()),
            write_through=not buffered and fd != 0,
        )
        stream.mode = "r" if fd == 0 else "w"  # type: ignore[misc]
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def become(request: dict[str, Any], fds: list[int], sock: socket.socket) -> NoReturn:
    """In the forked child: the command's process, from its streams to its exit status."""
    sock.close()
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    for fd in fds:
        if fd > 2:
            os.close(fd)
    standard_streams()
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    time.tzset()
    random.seed()
    tempfile.tempdir = None  # (found again from this environment when first asked)
    sys.path[0] = os.getcwd()  # as ``python -m`` puts it
    sys.argv = ["-m", *request["args"]]
    code = 0
    try:
        runpy.run_module("catalogue_desktop", run_name="__main__", alter_sys=True)
    except SystemExit as exc:
        if exc.code is None or isinstance(exc.code, int):
            code = exc.code or 0
        else:
            print(exc.code, file=sys.stderr)
            code = 1
    except BaseException:
        traceback.print_exc()
        code = 1
    try:  # the interpreter's end: other threads awaited, exit handlers, streams flushed
        for thread in threading.enumerate():
            if thread is not threading.main_thread() and not thread.daemon:
                thread.join()
        atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
    finally:
        os._exit(code)


def serve(sock: socket.socket) -> None:
    while (request := receive(sock)) is not None:
        message, fds = request
        pid = os.fork()
        if pid == 0:
            become(message, fds, sock)
        for fd in fds:
            os.close(fd)
        sock.sendall(f"pid {pid}\n".encode())
        _, status = os.waitpid(pid, 0)
        sock.sendall(f"exit {pid} {os.waitstatus_to_exitcode(status)}\n".encode())


if __name__ == "__main__":
    sys.path[0] = os.getcwd()  # not this folder: its modules are not the package's
    warm_up()
    gc.collect()
    gc.freeze()
    serve(socket.socket(fileno=int(sys.argv[1])))
