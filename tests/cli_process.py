"""The command line run as a person runs it: ``python -m catalogue_desktop ARGS`` in a process of
its own, its output as text, and never a traceback.

The process is forked from a warm one (``tests/forked_cli.py``) that has imported the package's
command-line, core and demo modules once: the command's own code in its own process, with its own
pipes, environment, working folder and exit status, without paying the interpreter's start and the
imports each time (issue 37: about 0.4 CPU-seconds a command, some 200 commands a run). A warm
process is started per worker and per interpreter setting (the ``PYTHON*`` variables and the locale
a fresh interpreter reads at its start); ``fresh=True`` starts the interpreter itself, for a test
about the start (what it imports, what it costs), and so does a platform without ``fork``, and
every command when ``CATALOGUE_TEST_FRESH_CLI=1`` (to compare).
"""

from __future__ import annotations

import atexit
import json
import os
import selectors
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from pathlib import Path

from tests.forked_cli import HEADER

ROOT = Path(__file__).resolve().parents[1]
# What a fresh interpreter reads once, at its start (the locale: its streams' encoding); what it
# reads when it is used (the keyring's backend, the zone: read again in the child) is left out.
_AT_START = ("LANG", "LC_ALL", "LC_CTYPE")
_READ_LATER = ("PYTHON_KEYRING_BACKEND",)
FRESH = os.environ.get("CATALOGUE_TEST_FRESH_CLI") == "1"


def run_cli(
    *args: str,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = 120,
    stdin: str | None = None,
    stdout_too: bool = True,
    fresh: bool = False,
) -> subprocess.CompletedProcess[str]:
    """Run the command; no traceback on stderr (nor on stdout, unless ``stdout_too`` is False).
    Its output read as ``subprocess.run(text=True, encoding="utf-8")`` reads it."""
    done = run_command(
        *args, env=env, cwd=cwd, timeout=timeout, stdin=None if stdin is None else stdin.encode(), fresh=fresh
    )
    result = subprocess.CompletedProcess(done.args, done.returncode, _text(done.stdout), _text(done.stderr))
    assert "Traceback" not in result.stderr, result.stderr
    if stdout_too:
        assert "Traceback" not in result.stdout, result.stdout
    return result


def run_command(
    *args: str,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    timeout: float = 120,
    stdin: bytes | None = None,
    fresh: bool = False,
) -> subprocess.CompletedProcess[bytes]:
    """``subprocess.run([python, "-m", "catalogue_desktop", *args], capture_output=True, ...)``:
    the command's exit status and its output as bytes."""
    command = [sys.executable, "-m", "catalogue_desktop", *args]
    environment = dict(os.environ if env is None else env)
    if fresh or FRESH or not hasattr(os, "fork") or sys.platform != "linux":
        return subprocess.run(
            command, capture_output=True, env=environment, timeout=timeout, cwd=cwd, input=stdin, check=False
        )
    return _warm(environment).run(command, environment, cwd or Path.cwd(), timeout, stdin)


def _settings(env: Mapping[str, str]) -> tuple[tuple[str, str], ...]:
    return tuple(
        sorted(
            (k, v)
            for k, v in env.items()
            if (k.startswith("PYTHON") and k not in _READ_LATER) or k in _AT_START
        )
    )


class _Warm:
    """A warm process (``tests/forked_cli.py``) and the commands it forks, one at a time."""

    def __init__(self, env: dict[str, str]) -> None:
        self.sock, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        self.proc = subprocess.Popen(
            [sys.executable, str(ROOT / "tests" / "forked_cli.py"), str(theirs.fileno())],
            cwd=ROOT,
            env=env,
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
        )
        theirs.close()
        self.lines = self.sock.makefile("rb")
        self.lock = threading.Lock()

    def run(
        self, command: list[str], env: dict[str, str], cwd: Path, timeout: float, stdin: bytes | None
    ) -> subprocess.CompletedProcess[bytes]:
        with self.lock:
            return self._run(command, env, cwd, timeout, stdin)

    def _run(
        self, command: list[str], env: dict[str, str], cwd: Path, timeout: float, stdin: bytes | None
    ) -> subprocess.CompletedProcess[bytes]:
        deadline = time.monotonic() + timeout
        if stdin is None:
            their_in, our_in = os.open(os.devnull, os.O_RDONLY), None
        else:
            their_in, our_in = os.pipe()
        out, their_out = os.pipe()
        err, their_err = os.pipe()
        body = json.dumps({"args": command[3:], "env": env, "cwd": str(cwd)}).encode()
        try:
            socket.send_fds(self.sock, [HEADER.pack(len(body))], [their_in, their_out, their_err])
            self.sock.sendall(body)
        finally:
            for fd in (their_in, their_out, their_err):
                os.close(fd)
        word, pid = self.lines.readline().split()
        assert word == b"pid", word
        if our_in is not None:
            writer = threading.Thread(target=_write, args=(our_in, stdin), daemon=True)
            writer.start()
        received = {out: bytearray(), err: bytearray()}
        with selectors.DefaultSelector() as selector:
            for fd in received:
                selector.register(fd, selectors.EVENT_READ)
            while selector.get_map():
                ready = selector.select(max(0.0, deadline - time.monotonic()))
                if not ready:
                    os.kill(int(pid), signal.SIGKILL)
                    self.lines.readline()
                    for fd in received:
                        os.close(fd)
                    said = bytes(received[out]), bytes(received[err])
                    raise subprocess.TimeoutExpired(command, timeout, *said)
                for key, _ in ready:
                    chunk = os.read(key.fd, 65536)
                    if chunk:
                        received[key.fd] += chunk
                    else:
                        selector.unregister(key.fd)
                        os.close(key.fd)
        word, which, code = self.lines.readline().split()
        assert (word, which) == (b"exit", pid), (word, which)
        return subprocess.CompletedProcess(command, int(code), bytes(received[out]), bytes(received[err]))

    def close(self) -> None:
        self.sock.close()
        self.lines.close()
        self.proc.wait(timeout=30)


def _write(fd: int, data: bytes) -> None:
    try:
        with open(fd, "wb") as pipe:
            pipe.write(data)
    except BrokenPipeError:  # the command did not read it all (as subprocess.run allows)
        pass


def _text(data: bytes) -> str:
    """As ``subprocess.run(text=True, encoding="utf-8")`` reads a stream (universal newlines)."""
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


_WARM: dict[tuple[tuple[str, str], ...], _Warm] = {}


def _warm(env: dict[str, str]) -> _Warm:
    settings = _settings(env)
    if settings not in _WARM:
        _WARM[settings] = _Warm(env)
    return _WARM[settings]


@atexit.register
def close_warm() -> None:
    while _WARM:
        _WARM.popitem()[1].close()
