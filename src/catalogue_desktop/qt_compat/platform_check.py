"""Why the window cannot open, said in one paragraph (exit status 2) instead of Qt's abort.

When no platform plugin loads (on Linux: xcb libraries missing, such as libxcb-cursor0; no
display), Qt prints its own lines and aborts the process (SIGABRT, a core dump, status 134).
Two layers say instead what is missing, the Debian/Ubuntu and Fedora command that installs it, and
the ways to run without a display (``QT_QPA_PLATFORM=offscreen``, ``xvfb-run -a``):

1. ``check_window_platform()``, run by ``cli.main`` before Qt is imported. On Linux, for each
   platform Qt will try (``QT_QPA_PLATFORM``; else xcb, after wayland in a Wayland session): is
   there a display (the X server's socket answers, the Wayland socket exists) and does the plugin
   find its libraries (``shared_libs``: its ELF ``DT_NEEDED`` looked up as the loader would)? No
   child process (a probe would cost far more a start): stat calls and small reads (see
   docs/decisions.md, "Start-up and Qt"), and nothing at all for ``offscreen`` or another platform
   it cannot judge. It speaks only when every platform Qt will try surely fails; in doubt it stays
   silent, and layer 2 is there. ``CATALOGUE_DESKTOP_PLATFORM_CHECK=0`` turns it off.
2. ``explain_fatal_start()``, around the QApplication's construction (``ui.shell.app.run``): a Qt
   message handler. A fatal message (Qt's "no Qt platform plugin could be initialized") prints the
   paragraph, with what Qt said, and ends the process with status 2 before Qt can abort: for what
   layer 1 cannot foresee (a platform name that does not exist, an X server that refuses the
   connection, macOS and Windows). Qt's other messages meanwhile are printed once it is built.

``explain_import_error`` does the same for a library PySide's own modules need (libEGL, libGL,
fontconfig...): importing them fails before any plugin is looked at.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from pathlib import Path

# (socket, textwrap and .shared_libs are imported where needed: offscreen, this module is all a
# start-up imports of the check)

EXIT_CODE = 2
_KEEP = "\x00"  # a space the line wrapping keeps (inside a command)
SWITCH = "CATALOGUE_DESKTOP_PLATFORM_CHECK"  # "0": no check before Qt starts
_PLUGIN_FILES = {"xcb": ("libqxcb.so",), "wayland": ("libqwayland.so", "libqwayland-generic.so")}
_NAMES = {"xcb": "X11 platform plugin (xcb)", "wayland": "Wayland platform plugin"}


class PlatformMissing(Exception):
    """The window cannot open on this machine; ``str()`` is the paragraph to print."""


def requested_platforms(env: Mapping[str, str]) -> list[str]:
    """The platforms Qt will try, in order (Qt 6.11 on Linux, measured: ``QT_QPA_PLATFORM``'s
    list, else wayland then xcb when ``WAYLAND_DISPLAY`` is set or the session is Wayland's,
    else xcb)."""
    value = env.get("QT_QPA_PLATFORM", "").strip()
    if value:
        return [name.split(":")[0].strip() for name in value.split(";") if name.strip()]
    if env.get("WAYLAND_DISPLAY") or env.get("XDG_SESSION_TYPE") == "wayland":
        return ["wayland", "xcb"]
    return ["xcb"]


def plugin_dirs(env: Mapping[str, str]) -> list[Path]:
    """Where Qt looks for platform plugins, in Qt's order (the first plugin file of a platform is
    the one Qt loads; with ``QT_DEBUG_PLUGINS=1``, Qt 6.11): ``QT_PLUGIN_PATH``'s ``platforms``
    folders, PySide6's own (found without importing it), then ``QT_QPA_PLATFORM_PLUGIN_PATH``
    (searched last: a plugin there is used only for a platform the others lack)."""
    dirs = [Path(p) / "platforms" for p in env.get("QT_PLUGIN_PATH", "").split(os.pathsep) if p]
    import importlib.util

    spec = importlib.util.find_spec("PySide6")
    for location in (spec.submodule_search_locations or []) if spec else []:
        dirs.append(Path(location) / "Qt" / "plugins" / "platforms")
    dirs += [Path(p) for p in env.get("QT_QPA_PLATFORM_PLUGIN_PATH", "").split(os.pathsep) if p]
    return dirs


class Verdict:
    """Why each platform Qt will try cannot start: ``reasons`` in words, ``missing`` libraries."""

    def __init__(self) -> None:
        self.reasons: list[str] = []
        self.missing: list[str] = []


def check(env: Mapping[str, str] | None = None) -> Verdict | None:
    """A verdict when every platform Qt will try surely fails to start; None if one may start
    (or this cannot be told: not Linux, a platform it does not know)."""
    env = os.environ if env is None else env
    if not sys.platform.startswith("linux"):
        return None
    verdict = Verdict()
    for name in requested_platforms(env):
        if name not in _PLUGIN_FILES or not _fails(name, env, verdict):
            return None
    return verdict


def _fails(name: str, env: Mapping[str, str], verdict: Verdict) -> bool:
    """Add why platform ``name`` cannot start to ``verdict``; False if it may start."""
    from catalogue_desktop.qt_compat.shared_libs import missing_libraries

    plugin = next((d / f for d in plugin_dirs(env) for f in _PLUGIN_FILES[name] if (d / f).is_file()), None)
    missing = missing_libraries(plugin) if plugin is not None else None
    if missing is None:  # no plugin file, or not one it can read: Qt will say
        return False
    display = _no_display(name, env)
    if not missing and display is None:
        return False
    if missing:
        names = " and ".join((", ".join(missing[:-1]), missing[-1])) if len(missing) > 1 else missing[0]
        verdict.reasons.append(f"Qt's {_NAMES[name]} needs {names}, which this machine lacks")
        verdict.missing += [m for m in missing if m not in verdict.missing]
    if display:
        verdict.reasons.append(display)
    return True


def _no_display(name: str, env: Mapping[str, str]) -> str | None:
    """Why platform ``name`` has no display to show on; None if it has one (or may have)."""
    if name == "wayland":
        runtime = env.get("XDG_RUNTIME_DIR", "")
        socket_name = env.get("WAYLAND_DISPLAY") or "wayland-0"
        path = socket_name if os.path.isabs(socket_name) else os.path.join(runtime, socket_name)
        if (runtime or os.path.isabs(socket_name)) and os.path.exists(path):
            return None
        return f"no Wayland compositor runs here (no socket {path or socket_name})"
    display = env.get("DISPLAY", "")
    if not display:
        return "there is no display (DISPLAY is not set)"
    host, _, rest = display.rpartition(":")
    number = rest.split(".")[0]
    if not number.isdigit():
        return None
    local = host in ("", "unix")
    if local and os.path.exists(f"/tmp/.X11-unix/X{number}"):
        return None  # the X server's socket (a stale one: Qt says so, layer 2)
    import socket

    if local:  # Linux X servers also listen on an abstract socket, with no file
        addresses: list[tuple[int, object]] = [(socket.AF_UNIX, f"\0/tmp/.X11-unix/X{number}")]
    elif host in ("localhost", "127.0.0.1"):
        addresses = [(socket.AF_INET, ("127.0.0.1", 6000 + int(number)))]
    else:
        return None  # a remote display: not tried here
    for family, address in addresses:
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.settimeout(0.5)
            try:
                probe.connect(address)  # type: ignore[arg-type]
                return None
            except OSError:
                continue
    return f"nothing answers on display {display} (no X server runs there)"


def paragraph(reasons: Sequence[str], missing: Sequence[str], qt_said: str = "") -> str:
    """The one paragraph: what is missing, how to install it, how to run without a display."""
    import textwrap

    from catalogue_desktop.qt_compat.shared_libs import packages

    parts = [f"catalogue-desktop: the window cannot open: {'; '.join(reasons)}."]
    if qt_said:
        parts.append(f"(Qt said: {qt_said}.)")
    if missing:
        debian, fedora, unknown = packages(missing)
        if debian:
            parts.append(
                f"Install {'it' if len(debian) + len(unknown) == 1 else 'them'} with "
                f"{_command('sudo apt-get install ' + ' '.join(debian))} (Debian, Ubuntu) or "
                f"{_command('sudo dnf install ' + ' '.join(fedora))} (Fedora)."
            )
        if unknown:
            parts.append(
                f"For {', '.join(unknown)}: {_command('apt-file search NAME')} (Debian, "
                f"Ubuntu) or {_command('dnf provides */NAME')} (Fedora) names the package."
            )
    parts.append(
        f"Without a display, run the window offscreen "
        f"({_command('QT_QPA_PLATFORM=offscreen catalogue-desktop ...', quote=False)}: "
        f"nothing is shown; for --self-test and scripts) or on a virtual display "
        f"({_command('xvfb-run -a catalogue-desktop ...', quote=False)}; xvfb-run comes with "
        f"{_command('sudo apt-get install xvfb xauth')} or "
        f"{_command('sudo dnf install xorg-x11-server-Xvfb xauth')}). The commands sync, "
        f"check and export need no display."
    )
    wrapped = textwrap.fill(" ".join(parts), width=100, break_on_hyphens=False, break_long_words=False)
    return wrapped.replace(_KEEP, " ")


def _command(text: str, *, quote: bool = True) -> str:
    """``text`` as one word for the line wrapping (a command is never split across lines)."""
    text = text.replace(" ", _KEEP)
    return f"'{text}'" if quote else text


def check_window_platform(env: Mapping[str, str] | None = None) -> None:
    """Raise :class:`PlatformMissing` if the window surely cannot open (layer 1, above)."""
    env = os.environ if env is None else env
    if env.get(SWITCH, "1") == "0":
        return
    verdict = check(env)
    if verdict is not None:
        raise PlatformMissing(paragraph(verdict.reasons, verdict.missing))


def explain(exc: BaseException) -> str | None:
    """The paragraph for :class:`PlatformMissing`, or for an ImportError of a missing shared
    library (``explain_import_error``); None for anything else."""
    if isinstance(exc, PlatformMissing):
        return str(exc)
    return explain_import_error(exc) if isinstance(exc, ImportError) else None


def explain_import_error(exc: ImportError) -> str | None:
    """The paragraph when importing PySide failed for a missing shared library; else None."""
    match = re.search(r"(lib[\w.+-]+\.so[\w.]*): cannot open shared object file", str(exc))
    if match is None:
        return None
    name = match.group(1)
    return paragraph([f"Qt needs {name}, which this machine lacks"], [name])


@contextlib.contextmanager
def explain_fatal_start() -> Iterator[None]:
    """Around the QApplication's construction: a fatal Qt message becomes the paragraph and exit
    status 2 (layer 2, above); Qt's other messages are printed once it is built."""
    from PySide6.QtCore import QtMsgType, qInstallMessageHandler

    said: list[str] = []

    def handler(kind: QtMsgType, context: object, message: str) -> None:
        if kind == QtMsgType.QtFatalMsg:
            sys.stderr.write(fatal_paragraph(said, message) + "\n")
            sys.stderr.flush()
            os._exit(EXIT_CODE)
        category = getattr(context, "category", None)
        said.append(f"{category}: {message}" if category and category != "default" else message)

    previous = qInstallMessageHandler(handler)
    try:
        yield
    finally:
        qInstallMessageHandler(previous)
        for line in said:
            sys.stderr.write(line + "\n")


def fatal_paragraph(said: Sequence[str], fatal: str) -> str:
    """The paragraph for Qt's fatal ``fatal`` message, after Qt ``said`` these lines."""
    verdict = check()  # what can be told now (display, libraries), beside what Qt said
    reasons = list(verdict.reasons) if verdict else []
    missing = list(verdict.missing) if verdict else []
    # Qt's own lines, without its generic advice ("Reinstalling the application may fix this")
    lines = [
        s.split(": ", 1)[-1].strip().rstrip(".")
        for s in said
        if s.startswith("qt.qpa") and "From 6.5.0" not in s
    ]
    qt_said = "; ".join(
        dict.fromkeys(line for line in lines if line) or [fatal.split("\n")[0].split(". ")[0]]
    )
    available = re.search(r"Available platform plugins are: ([^.\n]*)", fatal)
    if not reasons:
        platforms = ", ".join(f'"{p}"' for p in requested_platforms(os.environ))
        reasons.append(
            f"Qt could not start its platform plugin {platforms}"
            + (f" (the plugins there are: {available.group(1).strip()})" if available else "")
        )
    return paragraph(reasons, missing, qt_said)
